import type { ChannelExchange } from '../../channels/http/client.js';
import type { Scope } from '../../platform/context.js';
import { batchedSink } from '../../platform/batched-sink.js';
import type { Executor } from '../../platform/db/types.js';
import type { Deps } from '../../platform/deps.js';
import { newId } from '../../platform/ids.js';
import type { SecretScrubber } from '../../platform/secret-scrubber.js';
import type { IntegrationRow } from './integrations.tables.js';

/** The exchange log keeps this many per integration for `GET …/logs`, for this long (as carrier accounts'). */
export const CHANNEL_EXCHANGE_LIMIT = 100;
export const CHANNEL_EXCHANGE_RETENTION_MS = 7 * 86_400_000;

/**
 * The channel HTTP client's exchange hook (docs/channels.md): each exchange, already redacted by
 * key, is scrubbed of its integration's own secret values (a platform or proxy quoting our
 * request back must not leak them) and written with the integration's scope, in batches off
 * the request path. An exchange of a deleted integration is dropped.
 */
export function channelExchangeSink(deps: Pick<Deps, 'db' | 'log'>, scrubberFor: (row: IntegrationRow) => SecretScrubber) {
  return batchedSink<ChannelExchange>({
    log: deps.log,
    what: 'channel exchange log',
    write: async (batch) => {
      const ids = [...new Set(batch.map((e) => e.integration_id))];
      const rows = await deps.db.selectFrom('integrations').selectAll().where('id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [r.id, { row: r, scrub: scrubberFor(r).scrub }]));
      const values = batch.flatMap((e) => {
        const owner = byId.get(e.integration_id);
        if (!owner) return [];
        const clean = (body: unknown) => (body === undefined || body === null ? null : JSON.parse(owner.scrub(JSON.stringify(body))));
        return [
          {
            id: newId('channelExchange'),
            integration_id: owner.row.id,
            workspace_id: owner.row.workspace_id,
            environment: owner.row.environment,
            operation: e.operation,
            method: e.method,
            path: owner.scrub(e.path),
            status: e.status,
            outcome: e.outcome,
            duration_ms: Math.max(0, Math.round(e.duration_ms)),
            attempt: e.attempt,
            request_body: clean(e.request_body),
            response_body: clean(e.response_body),
            request_id: e.request_id || null,
            created_at: new Date(e.at),
          },
        ];
      });
      if (values.length)
        await deps.db
          .insertInto('channel_exchanges')
          .values(values.map((v) => ({ ...v, request_body: jsonb(v.request_body), response_body: jsonb(v.response_body) })))
          .execute();
    },
  });
}

const jsonb = (v: unknown) => (v === null ? null : JSON.stringify(v));

/** The newest exchanges of one integration within the retention window. */
export async function listChannelExchanges(db: Executor, scope: Scope, integrationId: string, now: Date) {
  return db
    .selectFrom('channel_exchanges')
    .selectAll()
    .where('workspace_id', '=', scope.workspaceId)
    .where('environment', '=', scope.environment)
    .where('integration_id', '=', integrationId)
    .where('created_at', '>=', new Date(now.getTime() - CHANNEL_EXCHANGE_RETENTION_MS))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(CHANNEL_EXCHANGE_LIMIT)
    .execute();
}

/** Deletes exchanges past the retention window (the hourly maintenance job). */
export async function purgeOldChannelExchanges(deps: Pick<Deps, 'db' | 'now'>): Promise<number> {
  const result = await deps.db
    .deleteFrom('channel_exchanges')
    .where('created_at', '<', new Date(deps.now().getTime() - CHANNEL_EXCHANGE_RETENTION_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
