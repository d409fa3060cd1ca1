// Examples for the OpenAPI document (accounts, sessions, workspaces, API keys): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** An active account. */
export const ACCOUNT_EXAMPLE = {
  id: 'acct_01m855vpzqehzrxmg4vq7v01h7',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  role: 'user',
  status: 'active',
  created_at: '2026-11-23T21:44:13.046Z',
  updated_at: '2026-11-23T21:44:13.100Z',
};

/** A workspace with its origin address set. */
export const WORKSPACE_EXAMPLE = {
  id: 'ws_01m855vq01edv9y9wya31zz08a',
  name: 'Analytical Engines Ltd',
  plan: 'enterprise',
  burst_per_minute: 6000,
  mtls_required: false,
  origin_address: {
    city: 'Palo Alto',
    name: 'Acme Fulfilment',
    phone: '+1 650 555 0100',
    state: 'CA',
    company: 'Acme Inc.',
    country: 'US',
    street1: '1 Main St',
    postal_code: '94301',
  },
  suspended_at: null,
  created_at: '2026-11-23T21:44:13.046Z',
  updated_at: '2026-11-23T21:44:16.712Z',
};

/** A workspace in the super-admin list (with counts). */
export const WORKSPACE_SUMMARY_EXAMPLE = {
  id: 'ws_01m855vq01edv9y9wya31zz08a',
  name: 'Analytical Engines Ltd',
  plan: 'enterprise',
  burst_per_minute: 6000,
  effective_burst_per_minute: 6000,
  origin_address: {
    city: 'Palo Alto',
    name: 'Acme Fulfilment',
    phone: '+1 650 555 0100',
    state: 'CA',
    company: 'Acme Inc.',
    country: 'US',
    street1: '1 Main St',
    postal_code: '94301',
  },
  suspended_at: null,
  member_count: 1,
  order_count: 3,
  created_at: '2026-11-23T21:44:13.046Z',
  updated_at: '2026-11-23T21:44:16.712Z',
};

/** An API key as listed (never the secret). */
export const API_KEY_EXAMPLE = {
  id: 'key_01m855vr8rexe8pmhf6m9wwatm',
  name: 'Warehouse integration',
  environment: 'test',
  prefix: 'sk_test_Aut9',
  last4: 'hE2Y',
  role: 'admin',
  created_at: '2026-11-23T21:44:14.359Z',
  expires_at: null,
  revoked_at: null,
};

/** POST /api/admin/api-keys. */
export const CREATE_API_KEY_BODY_EXAMPLE = { name: 'Warehouse integration', environment: 'test' };

/** A created key: the secret appears in this response only. */
export const CREATED_API_KEY_EXAMPLE = {
  id: 'key_01m855vr8rexe8pmhf6m9wwatm',
  name: 'Warehouse integration',
  environment: 'test',
  prefix: 'sk_test_Aut9',
  last4: 'hE2Y',
  role: 'admin',
  created_at: '2026-11-23T21:44:14.359Z',
  expires_at: null,
  revoked_at: null,
  secret: 'sk_test_Aut9ExampleKeyShownOnceOnly0000000000hE2Y',
};

/** POST /v1/api-keys with an expiry (rotation). */
export const CREATE_EXPIRING_API_KEY_BODY_EXAMPLE = { name: 'Rotation 2026-12', expires_at: '2027-01-31T00:00:00.000Z', role: 'operator' };

/** The created key of a rotation. */
export const CREATED_EXPIRING_API_KEY_EXAMPLE = {
  id: 'key_01m855vrdteq4axpr0q548ye8a',
  name: 'Rotation 2026-12',
  environment: 'test',
  prefix: 'sk_test_oEbQ',
  last4: 'yD3P',
  role: 'operator',
  created_at: '2026-11-23T21:44:14.522Z',
  expires_at: '2027-01-31T00:00:00.000Z',
  revoked_at: null,
  secret: 'sk_test_oEbQExampleKeyShownOnceOnly0000000000yD3P',
};

/** POST /api/auth/register. */
export const REGISTER_BODY_EXAMPLE = {
  email: 'ada@example.com',
  password: 'correct horse battery',
  name: 'Ada Lovelace',
  workspace_name: 'Analytical Engines Ltd',
};

/** A registration: the account waits for approval. */
export const REGISTER_RESPONSE_EXAMPLE = {
  account: {
    id: 'acct_01m855vpzqehzrxmg4vq7v01h7',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    role: 'user',
    status: 'pending',
    created_at: '2026-11-23T21:44:13.046Z',
    updated_at: '2026-11-23T21:44:13.046Z',
  },
  workspace: { id: 'ws_01m855vq01edv9y9wya31zz08a', name: 'Analytical Engines Ltd', plan: 'starter' },
};

/** POST /api/auth/login and POST /api/auth/session. */
export const LOGIN_BODY_EXAMPLE = { email: 'ada@example.com', password: 'correct horse battery' };

/** A session token (only its hash is stored). */
export const LOGIN_RESPONSE_EXAMPLE = {
  token: 'sst_ExampleSessionTokenShownOnceOnly00000000000',
  token_type: 'Bearer',
  expires_at: '2026-11-30T21:44:13.997Z',
  account: {
    id: 'acct_01m855vpzqehzrxmg4vq7v01h7',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    role: 'user',
    status: 'active',
    created_at: '2026-11-23T21:44:13.046Z',
    updated_at: '2026-11-23T21:44:13.100Z',
  },
};

/** POST /api/auth/session (the token goes in an httpOnly cookie). */
export const SESSION_RESPONSE_EXAMPLE = {
  expires_at: '2026-11-30T21:44:13.997Z',
  account: {
    id: 'acct_01m855vpzqehzrxmg4vq7v01h7',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    role: 'user',
    status: 'active',
    created_at: '2026-11-23T21:44:13.046Z',
    updated_at: '2026-11-23T21:44:13.100Z',
  },
};

/** The signed-in account and its workspaces. */
export const ME_RESPONSE_EXAMPLE = {
  account: {
    id: 'acct_01m855vpzqehzrxmg4vq7v01h7',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    role: 'user',
    status: 'active',
    created_at: '2026-11-23T21:44:13.046Z',
    updated_at: '2026-11-23T21:44:13.100Z',
  },
  workspaces: [
    {
      id: 'ws_01m855vq01edv9y9wya31zz08a',
      name: 'Analytical Engines Ltd',
      plan: 'starter',
      role: 'owner',
    },
  ],
};

/** PATCH /api/admin/workspace. */
export const UPDATE_WORKSPACE_BODY_EXAMPLE = {
  origin_address: {
    name: 'Acme Fulfilment',
    company: 'Acme Inc.',
    street1: '1 Main St',
    city: 'Palo Alto',
    state: 'CA',
    postal_code: '94301',
    country: 'US',
    phone: '+1 650 555 0100',
  },
};

/** POST /api/super-admin/accounts/{userId}/suspend. */
export const SUSPEND_BODY_EXAMPLE = { reason: 'Chargebacks under review' };

/** PATCH /api/super-admin/workspaces/{id}. */
export const UPDATE_PLAN_BODY_EXAMPLE = { plan: 'enterprise', burst_per_minute: 6000 };

/** POST /v1/api-keys with a test key asking for a live key (see api-key-policy.ts). */
export const API_KEY_FORBIDDEN_EXAMPLE = {
  code: 'forbidden',
  message: 'This API key may not create that key.',
  details: [
    {
      field: 'environment',
      message: 'a test key creates test keys only; create a live key from the dashboard (/api/admin/api-keys) or with a live key',
    },
  ],
  request_id: 'req_0cebcef5141540549db804e2bb73cd2d',
};

/** A refusal for a role: 403 forbidden naming the role the action needs. */
export const ROLE_FORBIDDEN_EXAMPLE = {
  code: 'forbidden',
  message: 'This action needs the operator role or above; this viewer may not.',
  details: [{ field: 'role', message: 'must be operator or above', required_role: 'operator' }],
  request_id: 'req_0cebcef5141540549db804e2bb73cd2d',
};
