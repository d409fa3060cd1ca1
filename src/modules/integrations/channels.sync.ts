import { ChannelError, type Channel, type ChannelConnection } from '../../channels/types.js';
import type { Environment, Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { paginate } from '../../platform/http/pagination.js';
import type { ChannelApply } from './channels.apply.js';
import type { ChannelHub } from './channels.hub.js';
import type { ChannelWriteBacks } from './channels.write-backs.js';
import type { ChannelCredentials } from './channels.credentials.js';
import * as repo from './channels.repo.js';
import type { SyncCounts, SyncRunKind, SyncRunRow } from './channels.tables.js';
import { effectiveSettings } from './integrations.connection.js';
import { HEALTH_WINDOW_MS } from './integrations.health.js';
import * as integrationsRepo from './integrations.repo.js';
import type { ActivateJob, IntegrationsService } from './integrations.service.js';
import type { IntegrationRow } from './integrations.tables.js';

/** A sync run (backfill, reconciliation, manual) is worked by this job, page by page; a restarted job resumes at its cursor. */
export const SYNC_JOB = 'integrations.sync';
export interface SyncJob {
  workspace_id: string;
  environment: Environment;
  run_id: string;
}

/** Reconciliation re-reads this much before its watermark (docs/channels.md): a change committed late is not missed. */
export const RECONCILE_OVERLAP_MS = 10 * 60 * 1000;
const PAGE_SIZE = 250;
const UNREACHABLE = 'unreachable';
const DOWN_AFTER_UNREACHABLE = 3;
/**
 * A run still queued or running this long after it was queued is abandoned: its job gave up (a
 * database outage outlasting the job's retries leaves it `running`). It is marked failed and no
 * longer holds the connection's reconciliation back (docs/channels.md, a database outage).
 */
export const ABANDONED_RUN_MS = 60 * 60_000;
/** Calls given up for throttling within the health window that degrade a connection. */
const THROTTLED_DEGRADE = 3;

const scopeOf = (row: IntegrationRow): Scope => ({ workspaceId: row.workspace_id, environment: row.environment });
const emptyCounts = (): SyncCounts => ({ seen: 0, created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 });

/** Where a store's webhooks are delivered. */
export function deliveryUrl(publicBaseUrl: string, integrationId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/api/integrations/${integrationId}/webhooks`;
}

/**
 * Reading a store (docs/channels.md–§10.2): activation (test, webhooks, backfill), reconciliation
 * on its interval and manual syncs, each a sync run whose pages go through the one apply step;
 * the watermark moves only after a page is applied.
 */
export class ChannelSync {
  constructor(
    private readonly deps: Deps,
    private readonly hub: ChannelHub,
    private readonly integrations: IntegrationsService,
    private readonly applier: ChannelApply,
    private readonly writeBacks: ChannelWriteBacks,
    private readonly credentials: ChannelCredentials,
  ) {}

  private open(row: IntegrationRow): Promise<{ channel: Channel; conn: ChannelConnection }> {
    return this.credentials.open(row);
  }

  /** A queued run and its job, in the caller's transaction or its own. */
  async queueRun(row: IntegrationRow, kind: SyncRunKind, since: Date | null): Promise<SyncRunRow> {
    return this.deps.db.transaction().execute(async (trx) => {
      const run = await repo.insertSyncRun(trx, {
        id: newId('syncRun'),
        integration_id: row.id,
        workspace_id: row.workspace_id,
        environment: row.environment,
        kind,
        status: 'queued',
        since,
        counts: JSON.stringify(emptyCounts()),
        created_at: this.deps.now(),
      });
      await this.deps.jobs.send<SyncJob>(
        SYNC_JOB,
        { workspace_id: row.workspace_id, environment: row.environment, run_id: run.id },
        { executor: trx, retryLimit: 3 },
      );
      return run;
    });
  }

  /**
   * The connection's cheapest authenticated read: scopes recorded, health from the answer
   * (401 → token_expired, unreachable → down, else healthy). Returns the refreshed row.
   */
  async test(row: IntegrationRow): Promise<IntegrationRow> {
    try {
      const { channel, conn } = await this.open(row);
      const { scopes } = await channel.testConnection(conn);
      const healthy = await this.deps.db.transaction().execute(async (trx) => {
        const updated = await integrationsRepo.updateIntegration(trx, scopeOf(row), row.id, { scopes: JSON.stringify(scopes) });
        return (await this.integrations.changeHealth(trx, updated ?? row, { health: 'healthy', reason: 'the connection test passed' })) ?? updated ?? row;
      });
      // Write-backs that waited for working credentials go now (docs/channels.md).
      await this.writeBacks.drain(healthy);
      return healthy;
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      return this.recordFailure(row, err);
    }
  }

  /** A failed call's effect on health (docs/channels.md). */
  private async recordFailure(row: IntegrationRow, err: ChannelError): Promise<IntegrationRow> {
    if (err.kind === 'unauthorized') {
      const change = { health: 'token_expired' as const, reason: `the platform refused the credentials (${err.platformStatus ?? 'unauthorized'})` };
      return this.deps.db.transaction().execute(async (trx) => (await this.integrations.changeHealth(trx, row, change)) ?? row);
    }
    if (err.kind === 'throttled') {
      // A call given up for the platform's limits (a test, a sync run): sustained throttling degrades.
      await this.integrations.recordTrouble(row, {
        code: 'throttled',
        after: THROTTLED_DEGRADE,
        reason: (n) => `the platform throttled ${n} calls within 10 minutes`,
      });
      return (await integrationsRepo.findIntegration(this.deps.db, scopeOf(row), row.id)) ?? row;
    }
    if (err.kind !== 'network' && err.kind !== 'timeout' && err.kind !== 'server_error') return row;
    // Down once the store was unreachable three times within ten minutes (docs/channels.md): one
    // blip is not an outage. The failures are kept beside the intake failures, under their own code.
    const now = this.deps.now();
    return this.deps.db.transaction().execute(async (trx) => {
      await integrationsRepo.insertIntakeFailure(trx, {
        integration_id: row.id,
        workspace_id: row.workspace_id,
        environment: row.environment,
        at: now,
        code: UNREACHABLE,
        details: { kind: err.kind },
      });
      const recent = await integrationsRepo.countIntakeFailures(trx, row.id, new Date(now.getTime() - HEALTH_WINDOW_MS), now, UNREACHABLE);
      if (recent < DOWN_AFTER_UNREACHABLE) return row;
      return (
        (await this.integrations.changeHealth(trx, row, {
          health: 'down',
          reason: `the store could not be reached ${recent} times within 10 minutes (${err.kind})`,
        })) ?? row
      );
    });
  }

  /** The activation job: test, register the webhooks, queue the backfill. */
  async activate(job: ActivateJob): Promise<void> {
    const scope = { workspaceId: job.workspace_id, environment: job.environment };
    const row = await integrationsRepo.findIntegration(this.deps.db, scope, job.integration_id);
    if (!row || row.connection_state !== 'active') return;
    const tested = await this.test(row);
    if (tested.health !== 'healthy') return;
    await this.ensureWebhooks(tested);
    const days = effectiveSettings(row.platform, row.settings).backfill_days;
    await this.queueRun(tested, 'backfill', new Date(this.deps.now().getTime() - days * 86_400_000));
  }

  /**
   * Every topic subscribed at our delivery URL and delivering: missing ones created, ones the
   * platform turned off after failed deliveries turned back on. Returns how many were repaired.
   */
  async ensureWebhooks(row: IntegrationRow): Promise<number> {
    const { channel, conn } = await this.open(row);
    const url = deliveryUrl(this.deps.config.publicBaseUrl, row.id);
    const ours = (await channel.listWebhookSubscriptions(conn)).filter((s) => s.callbackUrl === url);
    let repaired = 0;
    for (const topic of this.hub.platform(row.platform).webhookTopics) {
      const subs = ours.filter((s) => s.topic === topic);
      if (subs.some((s) => s.active)) continue;
      if (subs.length) await channel.reactivateWebhookSubscription(conn, subs[0].id);
      else await channel.createWebhookSubscription(conn, topic, url);
      repaired++;
    }
    return repaired;
  }

  /** Unregister our webhooks (on delete); a store that cannot be reached is left as it is. */
  async removeWebhooks(row: IntegrationRow): Promise<void> {
    const { channel, conn } = await this.open(row);
    const url = deliveryUrl(this.deps.config.publicBaseUrl, row.id);
    const existing = await channel.listWebhookSubscriptions(conn);
    for (const sub of existing.filter((s) => s.callbackUrl === url)) await channel.deleteWebhookSubscription(conn, sub.id);
  }

  /** Before a delete: the webhooks of an active connection unregistered at the store. */
  async unregister(scope: Scope, id: string): Promise<void> {
    const row = await integrationsRepo.findIntegration(this.deps.db, scope, id);
    if (row?.connection_state === 'active' && row.health !== 'token_expired') await this.removeWebhooks(row);
  }

  /** The sync job: pages from the run's cursor, each applied order by order, then the watermark. */
  async run(job: SyncJob): Promise<void> {
    const scope = { workspaceId: job.workspace_id, environment: job.environment };
    const run = await this.deps.db
      .selectFrom('channel_sync_runs')
      .selectAll()
      .where('id', '=', job.run_id)
      .where('workspace_id', '=', scope.workspaceId)
      .executeTakeFirst();
    if (!run || run.status === 'completed' || run.status === 'completed_with_errors' || run.status === 'failed') return;
    let row = await integrationsRepo.findIntegration(this.deps.db, scope, run.integration_id);
    if (!row) return;
    const counts: SyncCounts = { ...emptyCounts(), ...run.counts };
    const now = () => this.deps.now();
    await repo.updateSyncRun(this.deps.db, run.id, { status: 'running', started_at: run.started_at ?? now() });
    const source = run.kind === 'manual' ? 'manual' : 'poll';
    const since = (run.since ?? (row.sync_watermark ? new Date(new Date(row.sync_watermark).getTime() - RECONCILE_OVERLAP_MS) : new Date(0))).toISOString();
    let cursor = run.cursor;
    try {
      const { channel, conn } = await this.open(row);
      if (run.kind === 'reconcile') {
        const repaired = await this.ensureWebhooks(row);
        if (repaired > 0) {
          row = await this.deps.db.transaction().execute(
            async (trx) =>
              (await this.integrations.changeHealth(trx, row!, {
                health: 'degraded',
                reason: `${repaired} webhook subscription(s) were missing or turned off and were repaired`,
              })) ?? row!,
          );
        }
      }
      for (;;) {
        const page = await channel.listOrdersUpdatedSince(conn, since, cursor, PAGE_SIZE);
        let newest: string | null = null;
        for (const order of page.orders) {
          counts.seen++;
          try {
            const applied = await this.deps.db.transaction().execute((trx) => this.applier.apply(trx, row!, order, source));
            if (applied.decision === 'created') counts.created++;
            else if (applied.decision === 'updated' || applied.decision === 'needs_review') counts.updated++;
            else if (applied.decision === 'skipped_status') counts.skipped++;
            else counts.unchanged++;
          } catch (err) {
            counts.failed++;
            this.deps.log.warn({ err, integration_id: row.id, external_id: order.external_id }, 'store order could not be applied');
            await this.applier.record(this.deps.db, row, {
              externalId: order.external_id,
              source,
              version: order.version,
              decision: 'error',
              message: 'the order could not be applied',
            });
          }
          if (!newest || Date.parse(order.version) > Date.parse(newest)) newest = order.version;
        }
        cursor = page.nextCursor;
        await this.deps.db.transaction().execute(async (trx) => {
          await repo.updateSyncRun(trx, run.id, { cursor, counts: JSON.stringify(counts) });
          if (newest && (!row!.sync_watermark || Date.parse(newest) > new Date(row!.sync_watermark).getTime())) {
            await integrationsRepo.updateIntegration(trx, scope, row!.id, { sync_watermark: newest });
            row = { ...row!, sync_watermark: new Date(newest) };
          }
        });
        if (!cursor) break;
      }
      await this.deps.db.transaction().execute(async (trx) => {
        await repo.updateSyncRun(trx, run.id, {
          status: counts.failed ? 'completed_with_errors' : 'completed',
          finished_at: now(),
          counts: JSON.stringify(counts),
        });
        await integrationsRepo.updateIntegration(trx, scope, row!.id, { last_reconciled_at: now() });
      });
    } catch (err) {
      if (!(err instanceof ChannelError) && !(err instanceof AppError)) throw err;
      const error = this.credentials.scrubberFor(row).scrub(err.message);
      await repo.updateSyncRun(this.deps.db, run.id, { status: 'failed', finished_at: now(), counts: JSON.stringify(counts), error });
      if (err instanceof ChannelError) await this.recordFailure(row, err);
    }
  }

  /** A connector integration of the scope, or 404 / 409 (push intake has no store to read). */
  async connected(scope: Scope, id: string, opts: { active?: boolean } = {}): Promise<IntegrationRow> {
    const row = await integrationsRepo.findIntegration(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such integration.');
    if (row.connection_state === null) {
      throw new AppError('invalid_state', 'This integration receives pushed orders: it has no store connection.', {
        details: [{ field: 'platform', message: `${row.platform} integrations have no store connection`, current_state: 'push_intake', allowed_moves: [] }],
      });
    }
    if (opts.active && row.connection_state !== 'active') {
      throw new AppError('invalid_state', `The connection is ${row.connection_state}.`, {
        details: [{ field: 'connection.state', message: 'must be active', current_state: row.connection_state, allowed_moves: [] }],
      });
    }
    return row;
  }

  listRuns(scope: Scope, integrationId: string, page: { limit?: number; cursor?: string }) {
    return paginate(repo.syncRunsQuery(this.deps.db, scope, integrationId), page);
  }

  /** One order's sync history and its write-backs, oldest first (empty for an order no store sent). */
  async history(scope: Scope, order: { id: string; source: string; external_id: string | null }) {
    if (!order.external_id || order.source === 'api') return { data: [], write_backs: [] };
    const [entries, writeBacks] = await Promise.all([
      repo.listSyncEntries(this.deps.db, scope, order.source, order.external_id),
      repo.writeBacksOfOrder(this.deps.db, scope, order.id),
    ]);
    return { data: entries, write_backs: writeBacks };
  }

  /** The periodic check: a reconciliation for every active connection whose interval has passed and that has no run under way. */
  async reconcileDue(): Promise<number> {
    const now = this.deps.now();
    const abandonedBefore = new Date(now.getTime() - ABANDONED_RUN_MS);
    const rows = await this.deps.db
      .selectFrom('integrations as i')
      .selectAll('i')
      .where('i.connection_state', '=', 'active')
      .where('i.health', '<>', 'token_expired')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('channel_sync_runs as r')
              .select('r.id')
              .whereRef('r.integration_id', '=', 'i.id')
              .where('r.status', 'in', ['queued', 'running'])
              .where('r.created_at', '>', abandonedBefore),
          ),
        ),
      )
      .limit(500)
      .execute();
    let queued = 0;
    for (const row of rows) {
      const interval = effectiveSettings(row.platform, row.settings).reconcile_interval_minutes * 60_000;
      // A new connection's first interval starts when it connected: its activation registers the
      // webhooks and backfills, and a reconciliation racing it would find the webhooks not yet there.
      const since = row.last_reconciled_at ?? row.connected_at;
      if (since && now.getTime() - new Date(since).getTime() < interval) continue;
      await this.deps.db
        .updateTable('channel_sync_runs')
        .set({ status: 'failed', finished_at: now, error: 'abandoned: the run did not finish within an hour (its job gave up)' })
        .where('integration_id', '=', row.id)
        .where('status', 'in', ['queued', 'running'])
        .where('created_at', '<=', abandonedBefore)
        .execute();
      await this.queueRun(row, 'reconcile', null);
      queued++;
    }
    return queued;
  }
}
