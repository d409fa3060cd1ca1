import { sql } from 'kysely';
import type { CarrierExchange } from '../../carriers/http/client.js';
import type { Deps } from '../../platform/deps.js';
import { batchedSink } from '../../platform/batched-sink.js';
import { newId } from '../../platform/ids.js';
import { EXCHANGE_RETENTION_MS } from './carrier-accounts.service.js';

/**
 * The carrier HTTP client's exchange hook: each exchange (already redacted by the client) is
 * queued and written with the account's workspace and environment, so `GET …/logs` can show it.
 * Written in batches a moment later: writing at once put an insert in the middle of every
 * rate-shop (its other carriers still answering), ~10 ms of a four-account fan-out on the
 * embedded database, whose work runs on the request thread.
 */
export function exchangeLogSink(deps: Pick<Deps, 'db' | 'log'>) {
  return batchedSink<CarrierExchange>({
    log: deps.log,
    what: 'carrier exchange log',
    write: async (batch) => {
      const rows = batch.map((e) => ({
        id: newId('carrierExchange'),
        account: e.account_id,
        operation: e.operation,
        method: e.method,
        path: e.path,
        status: e.status,
        duration_ms: Math.max(0, Math.round(e.duration_ms)),
        outcome: outcomeOf(e),
        // Bodies as values, not JSON text: the batch is serialised once, not each body twice.
        request_body: e.request_body ?? null,
        response_body: e.response_body ?? null,
        request_id: e.request_id || null,
        created_at: e.at,
      }));
      // The account's scope comes from its row; an exchange of an unknown account is dropped.
      await sql`
        insert into carrier_exchanges (id, carrier_account_id, workspace_id, environment, operation, method, path, status, duration_ms, outcome, request_body, response_body, request_id, created_at)
        select x.id, a.id, a.workspace_id, a.environment, x.operation, x.method, x.path, x.status, x.duration_ms, x.outcome, x.request_body, x.response_body, x.request_id, x.created_at::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, account text, operation text, method text, path text, status int, duration_ms int, outcome text, request_body jsonb, response_body jsonb, request_id text, created_at text)
        join carrier_accounts a on a.id = x.account`.execute(deps.db);
    },
  });
}

function outcomeOf(e: CarrierExchange): string {
  if (e.error) return e.error;
  if (e.status === null) return 'unavailable';
  if (e.status === 401 || e.status === 403) return 'invalid_credentials';
  if (e.status === 429 || e.status >= 500) return 'unavailable';
  if (e.status >= 400) return 'rejected';
  return 'ok';
}

/** Deletes exchanges past the retention window (the maintenance job, hourly). */
export async function purgeOldExchanges(deps: Pick<Deps, 'db' | 'now'>): Promise<number> {
  const result = await deps.db
    .deleteFrom('carrier_exchanges')
    .where('created_at', '<', new Date(deps.now().getTime() - EXCHANGE_RETENTION_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
