// Examples for the OpenAPI document (audit log): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** A super-admin changed a setting. */
export const AUDIT_ENTRY_EXAMPLE = {
  id: 'aud_01m855w7bbek0a91aqhfyhg6v9',
  at: '2026-11-23T21:44:29.792Z',
  actor: { type: 'account', id: 'acct_01m855vmyve62r5bfkzean5tsr', email: 'root@example.com' },
  action: 'setting.updated',
  target_type: 'setting',
  target_id: 'webhooks.max_attempts',
  workspace_id: null,
  environment: null,
  changes: { value: { to: 10, from: null } },
  ip: '127.0.0.1',
  request_id: 'req_4ba2699223534d6d8624c83ce033d475',
};
