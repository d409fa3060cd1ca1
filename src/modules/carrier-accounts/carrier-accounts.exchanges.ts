import { sql } from 'kysely';
import type { CarrierExchange } from '../../carriers/http/client.js';
import type { Deps } from '../../platform/deps.js';
import { newId } from '../../platform/ids.js';
import { EXCHANGE_RETENTION_MS } from './carrier-accounts.service.js';

/** Exchanges written at once (the log is written off the request path, in batches). */
const FLUSH_BATCH = 200;
/**
 * How long an exchange waits for others before the batch is written. Writing at once put an
 * insert in the middle of every rate-shop (its other carriers still answering): ~10 ms of a
 * four-account fan-out on the embedded database, whose work runs on the request thread.
 */
const FLUSH_DELAY_MS = 250;

/**
 * The carrier HTTP client's exchange hook: each exchange (already redacted by the client) is
 * queued and written with the account's workspace and environment, so `GET …/logs` can show it.
 * Writing never delays or fails the carrier call: a failed write is logged and dropped.
 */
export function exchangeLogSink(deps: Pick<Deps, 'db' | 'log'>) {
  const pending: CarrierExchange[] = [];
  let flushing: Promise<void> | null = null;
  const flush = async (): Promise<void> => {
    while (pending.length > 0) {
      const batch = pending.splice(0, FLUSH_BATCH);
      try {
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
      } catch (err) {
        deps.log.warn({ err, dropped: batch.length }, 'carrier exchange log could not be written');
      }
    }
  };
  return {
    record(exchange: CarrierExchange): void {
      pending.push(exchange);
      flushing ??= new Promise<void>((resolve) => setTimeout(resolve, FLUSH_DELAY_MS).unref())
        .then(flush)
        .finally(() => {
          flushing = null;
        });
    },
    /** Resolves once everything recorded so far is written (tests, shutdown). */
    async drain(): Promise<void> {
      while (flushing) await flushing;
    },
  };
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
  const result = await deps.db.deleteFrom('carrier_exchanges').where('created_at', '<', new Date(deps.now().getTime() - EXCHANGE_RETENTION_MS)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
