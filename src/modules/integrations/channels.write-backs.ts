import { ChannelError } from '../../channels/types.js';
import type { Environment, Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { retryWhileDatabaseUnavailable } from '../../platform/db/connection-errors.js';
import type { Executor } from '../../platform/db/types.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { paginate } from '../../platform/http/pagination.js';
import { recordEvent, registerEventHook, type RecordedEvent } from '../events/index.js';
import { orderOrigin } from '../orders/index.js';
import type { ChannelCredentials } from './channels.credentials.js';
import type { WriteBackAction, WriteBackError, WriteBackRow, WriteBacksTable, WriteBackStatus } from './channels.tables.js';
import { toWriteBack } from './channels.wire.js';
import { effectiveSettings } from './integrations.connection.js';
import * as integrationsRepo from './integrations.repo.js';
import type { IntegrationsService } from './integrations.service.js';
import type { IntegrationRow } from './integrations.tables.js';
import type { Updateable } from 'kysely';

/** A write-back is delivered by this job (docs/channels.md). */
export const WRITE_BACK_JOB = 'integrations.write_back';
export interface WriteBackJob {
  workspace_id: string;
  environment: Environment;
  write_back_id: string;
}
export const WRITE_BACK_FAILED_EVENT = 'shipment.write_back_failed';

/** The retry ladder of docs/channels.md: 1, 5, 15, 60 minutes, then every 4 hours until 2 days have passed. */
const LADDER_S = [60, 300, 900, 3600];
const LATER_S = 4 * 3600;
const GIVE_UP_AFTER_MS = 2 * 86_400_000;
/** Longer than an attempt can take (the channel calls' deadlines): a crashed attempt frees the write-back after it. */
const CLAIM_MS = 2 * 60_000;
/**
 * How long an attempt keeps trying to record its outcome while the database is away: the
 * platform was called already, and an outcome given up on leaves the write-back claimed until
 * the claim lapses (docs/channels.md, a database outage).
 */
const OUTCOME_RETRY_MS = 30_000;

/** The carriers' public tracking pages (docs/channels.md), by our carrier slug. */
const TRACKING_PAGES: Record<string, (n: string) => string> = {
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(n)}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${encodeURIComponent(n)}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${encodeURIComponent(n)}`,
  dhl_express: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=${encodeURIComponent(n)}`,
};

interface PurchasedShipment {
  id: string;
  order_id: string;
  carrier: string;
  service_code: string;
  tracking_number: string;
  tracking_url?: string;
  is_return?: boolean;
}

const scopeOf = (row: { workspace_id: string; environment: Environment }): Scope => ({ workspaceId: row.workspace_id, environment: row.environment });

/** The delay before attempt `attempts + 1`, or null once the write-back has been failing for 2 days. */
export function nextDelaySeconds(attempts: number, createdAt: Date, now: Date): number | null {
  const delay = LADDER_S[attempts - 1] ?? LATER_S;
  return now.getTime() + delay * 1000 - createdAt.getTime() > GIVE_UP_AFTER_MS ? null : delay;
}

/**
 * Tracking back to the store (docs/channels.md): a write-back is created in the transaction that
 * bought (or voided) the label, through an event hook, and delivered by a job that reads before
 * it writes, retries what the platform may accept later and waits while the token is refused.
 */
export class ChannelWriteBacks {
  constructor(
    private readonly deps: Deps,
    private readonly integrations: IntegrationsService,
    private readonly credentials: ChannelCredentials,
  ) {}

  /**
   * What a shipment's read shows of the tracking sent back (shipments' `write_back`): its latest
   * write-back (a void's cancel after the fulfil), one query for a page of shipments.
   */
  async summariesFor(executor: Executor, scope: Scope, shipmentIds: readonly string[]) {
    const rows = await executor
      .selectFrom('write_backs')
      .selectAll()
      .where('workspace_id', '=', scope.workspaceId)
      .where('environment', '=', scope.environment)
      .where('shipment_id', 'in', shipmentIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const latest = new Map<
      string,
      { id: string; action: WriteBackAction; status: WriteBackRow['status']; external_ref: string | null; attempts: number; last_error: WriteBackError | null }
    >();
    for (const r of rows)
      latest.set(r.shipment_id, {
        id: r.id,
        action: r.action,
        status: r.status,
        external_ref: r.external_ref,
        attempts: r.attempts,
        last_error: r.last_error ?? null,
      });
    return latest;
  }

  /** Listens for label purchases and voids; returns the unregister function. */
  register(): () => void {
    return registerEventHook('integrations.write_backs', (executor, event) => this.onEvent(executor, event));
  }

  private async onEvent(executor: Executor, event: RecordedEvent): Promise<void> {
    if (event.type === 'shipment.label_purchased') {
      const shipment = (event.data as { shipment: PurchasedShipment }).shipment;
      if (!shipment.is_return) await this.create(executor, event, shipment, 'fulfill');
    } else if (event.type === 'tracking.updated') {
      const data = event.data as {
        shipment_id: string;
        order_id: string;
        carrier: string;
        tracking_number: string;
        shipment_status: string;
        previous_shipment_status: string;
      };
      if (data.shipment_status !== 'voided' || data.previous_shipment_status === 'voided') return;
      const scope = { workspaceId: event.workspaceId, environment: event.environment as Environment };
      const earlier = await executor
        .selectFrom('write_backs')
        .selectAll()
        .where('workspace_id', '=', scope.workspaceId)
        .where('shipment_id', '=', data.shipment_id)
        .where('action', '=', 'fulfill')
        .executeTakeFirst();
      if (!earlier) return;
      // A fulfillment never sent needs no cancelling: it is simply not sent.
      if (earlier.status === 'pending' || earlier.status === 'retrying') {
        await executor
          .updateTable('write_backs')
          .set({ status: 'skipped', next_attempt_at: null, updated_at: new Date(), completed_at: new Date() })
          .where('id', '=', earlier.id)
          .execute();
        return;
      }
      if (earlier.status === 'succeeded') {
        await this.create(
          executor,
          event,
          {
            id: data.shipment_id,
            order_id: data.order_id,
            carrier: data.carrier,
            service_code: earlier.service_code ?? '',
            tracking_number: data.tracking_number,
          },
          'cancel_fulfillment',
        );
      }
    }
  }

  private async create(executor: Executor, event: RecordedEvent, shipment: PurchasedShipment, action: WriteBackAction): Promise<void> {
    const scope = { workspaceId: event.workspaceId, environment: event.environment as Environment };
    const origin = await orderOrigin(executor, scope, shipment.order_id);
    if (!origin?.external_id || !origin.source.startsWith('int_')) return;
    const integration = await integrationsRepo.findIntegration(executor, scope, origin.source);
    if (!integration || integration.connection_state === null || !effectiveSettings(integration.platform, integration.settings).write_back) return;
    const now = this.deps.now();
    const id = newId('writeBack');
    await executor
      .insertInto('write_backs')
      .values({
        id,
        workspace_id: scope.workspaceId,
        environment: scope.environment,
        shipment_id: shipment.id,
        order_id: shipment.order_id,
        integration_id: integration.id,
        action,
        tracking_number: shipment.tracking_number,
        carrier: shipment.carrier,
        service_code: shipment.service_code || null,
        status: 'pending',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await this.deps.jobs.send<WriteBackJob>(
      WRITE_BACK_JOB,
      { workspace_id: scope.workspaceId, environment: scope.environment, write_back_id: id },
      { executor },
    );
  }

  /** The job: one attempt of a write-back that is still to be done. Idempotent (reads before it writes). */
  async attempt(job: WriteBackJob): Promise<WriteBackRow | undefined> {
    const scope = { workspaceId: job.workspace_id, environment: job.environment };
    // Claim it first: a drained job and a scheduled one may arrive together, and only one of
    // them may talk to the platform (the read before the write is not atomic with the write).
    const now = this.deps.now();
    const wb = await this.deps.db
      .updateTable('write_backs')
      .set({ claimed_until: new Date(now.getTime() + CLAIM_MS) })
      .where('workspace_id', '=', scope.workspaceId)
      .where('environment', '=', scope.environment)
      .where('id', '=', job.write_back_id)
      .where('status', 'in', ['pending', 'retrying'])
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
    if (!wb) {
      const current = await this.deps.db
        .selectFrom('write_backs')
        .selectAll()
        .where('workspace_id', '=', scope.workspaceId)
        .where('id', '=', job.write_back_id)
        .executeTakeFirst();
      // Claimed by an attempt that may never record its outcome (the database went away under
      // it, and its job's retry is this one): try again once the claim lapses, or nothing would.
      // When the claim's holder does finish, that later job finds the write-back done.
      const claimedUntil = current?.claimed_until ? new Date(current.claimed_until).getTime() : null;
      if (current && (current.status === 'pending' || current.status === 'retrying') && claimedUntil !== null && claimedUntil > now.getTime()) {
        await this.deps.jobs.send<WriteBackJob>(WRITE_BACK_JOB, job, { startAfterSeconds: Math.ceil((claimedUntil - now.getTime()) / 1000) + 1 });
      }
      return current;
    }
    const integration = await integrationsRepo.findIntegration(this.deps.db, scope, wb.integration_id);
    if (!integration)
      return this.finish(wb, 'skipped', {
        last_error: JSON.stringify({ code: 'integration_deleted', message: 'The integration was deleted.', platform_status: null }),
      });
    if (integration.health === 'token_expired' || integration.connection_state !== 'active') return this.wait(wb, integration);
    if (!integration.credentials_sealed) return this.wait(wb, integration);
    const attempts = wb.attempts + 1;
    try {
      const { channel, conn } = await this.credentials.open(integration);
      if (wb.action === 'cancel_fulfillment') {
        const fulfilled = await this.deps.db
          .selectFrom('write_backs')
          .select(['external_ref', 'external_refs'])
          .where('shipment_id', '=', wb.shipment_id)
          .where('action', '=', 'fulfill')
          .where('status', '=', 'succeeded')
          .executeTakeFirst();
        const refs = fulfilled?.external_refs ?? (fulfilled?.external_ref ? [fulfilled.external_ref] : []);
        const origin = await orderOrigin(this.deps.db, scope, wb.order_id);
        for (const ref of refs) await channel.cancelFulfillment(conn, { ref, externalOrderId: origin?.external_id ?? '', trackingNumber: wb.tracking_number });
        return this.finish(wb, 'succeeded', { attempts, external_ref: refs[0] ?? null, external_refs: JSON.stringify(refs) });
      }
      const origin = await orderOrigin(this.deps.db, scope, wb.order_id);
      const result = await channel.fulfill(conn, {
        externalOrderId: origin?.external_id ?? '',
        tracking: {
          company: channel.trackingCompany(wb.carrier) ?? wb.carrier,
          number: wb.tracking_number,
          url: TRACKING_PAGES[wb.carrier]?.(wb.tracking_number) ?? null,
          carrier: wb.carrier,
          service: (wb.service_code && this.deps.carriers.byServiceCode(wb.service_code)?.services.find((s) => s.code === wb.service_code)?.name) ?? null,
        },
        notifyCustomer: effectiveSettings(integration.platform, integration.settings).notify_customer,
      });
      if ('refs' in result) {
        return this.finish(wb, 'succeeded', { attempts, external_ref: result.refs[0] ?? null, external_refs: JSON.stringify(result.refs), last_error: null });
      }
      const message = this.credentials.scrubberFor(integration).scrub(result.message);
      if (result.outcome === 'on_hold') return this.retry(wb, attempts, { code: 'fulfillment_on_hold', message, platform_status: null }, null);
      return this.finish(wb, 'skipped', { attempts, last_error: JSON.stringify({ code: 'fulfillment_closed', message, platform_status: null }) });
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      const { scrub } = this.credentials.scrubberFor(integration);
      const error: WriteBackError = {
        code: err.kind,
        message: scrub(err.messages.join('; ') || err.message),
        platform_status: err.platformStatus && /^\d+$/.test(err.platformStatus) ? Number(err.platformStatus) : null,
      };
      if (err.kind === 'unauthorized') {
        await this.deps.db.transaction().execute((trx) =>
          this.integrations.changeHealth(trx, integration, {
            health: 'token_expired',
            reason: 'the platform refused the credentials while writing tracking back',
          }),
        );
        return this.wait({ ...wb, attempts }, integration, error);
      }
      if (err.retryable) return this.retry(wb, attempts, error, err.retryAfterMs ?? null);
      return this.die(wb, attempts, error, integration);
    }
  }

  /** Run a `retrying`, `dead` or `pending` write-back now (POST …/write-backs/:id/retry): 409 once it succeeded or was skipped. */
  async retryNow(scope: Scope, id: string): Promise<ReturnType<typeof toWriteBack>> {
    const wb = await this.find(scope, id);
    if (wb.status === 'succeeded' || wb.status === 'skipped') {
      throw new AppError('invalid_state', `The write-back is ${wb.status}.`, {
        details: [{ field: 'status', message: 'only a pending, retrying or dead write-back can be retried', current_state: wb.status, allowed_moves: [] }],
      });
    }
    if (wb.status === 'dead') await this.update(wb.id, { status: 'retrying' });
    const after = await this.attempt({ workspace_id: scope.workspaceId, environment: scope.environment as Environment, write_back_id: id });
    return toWriteBack(after ?? wb);
  }

  /** Drain the write-backs that waited for working credentials (after a passing test or new credentials). */
  async drain(integration: IntegrationRow): Promise<number> {
    const waiting = await this.deps.db
      .selectFrom('write_backs')
      .select('id')
      .where('integration_id', '=', integration.id)
      .where('status', 'in', ['pending', 'retrying'])
      .orderBy('created_at')
      .limit(1000)
      .execute();
    for (const { id } of waiting) {
      await this.deps.jobs.send<WriteBackJob>(WRITE_BACK_JOB, {
        workspace_id: integration.workspace_id,
        environment: integration.environment,
        write_back_id: id,
      });
    }
    return waiting.length;
  }

  list(scope: Scope, filter: { status?: WriteBackStatus; integration_id?: string; shipment_id?: string; limit?: number; cursor?: string }) {
    let q = this.deps.db.selectFrom('write_backs').selectAll().where('workspace_id', '=', scope.workspaceId).where('environment', '=', scope.environment);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.integration_id) q = q.where('integration_id', '=', filter.integration_id);
    if (filter.shipment_id) q = q.where('shipment_id', '=', filter.shipment_id);
    return paginate(q, filter);
  }

  private async find(scope: Scope, id: string): Promise<WriteBackRow> {
    const wb = await this.deps.db
      .selectFrom('write_backs')
      .selectAll()
      .where('workspace_id', '=', scope.workspaceId)
      .where('environment', '=', scope.environment)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!wb) throw new AppError('not_found', 'No such write-back.');
    return wb;
  }

  /** Records an attempt's outcome (and releases the claim), waiting out a database outage (OUTCOME_RETRY_MS). */
  private async update(id: string, set: Updateable<WriteBacksTable>): Promise<WriteBackRow | undefined> {
    return retryWhileDatabaseUnavailable(
      () =>
        this.deps.db
          .updateTable('write_backs')
          .set({ ...set, claimed_until: null, updated_at: this.deps.now() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst(),
      OUTCOME_RETRY_MS,
    );
  }

  private finish(wb: WriteBackRow, status: WriteBackStatus, set: Updateable<WriteBacksTable>) {
    return this.update(wb.id, { ...set, status, next_attempt_at: null, completed_at: this.deps.now() });
  }

  /** Token refused or connection not active: wait (not dead) until the credentials work again. */
  private wait(wb: WriteBackRow, integration: IntegrationRow, error?: WriteBackError) {
    const lastError = error ?? {
      code: 'token_expired',
      message: `Waiting for the integration's credentials (${integration.health_reason ?? integration.health}).`,
      platform_status: null,
    };
    return this.update(wb.id, { status: 'retrying', attempts: wb.attempts, last_error: JSON.stringify(lastError), next_attempt_at: null });
  }

  private async retry(wb: WriteBackRow, attempts: number, error: WriteBackError, retryAfterMs: number | null) {
    const now = this.deps.now();
    // A wait the platform asked for is honoured as it is, outside the ladder (docs/channels.md).
    const delay = retryAfterMs !== null ? Math.max(1, Math.ceil(retryAfterMs / 1000)) : nextDelaySeconds(attempts, new Date(wb.created_at), now);
    if (delay === null) return this.die(wb, attempts, error);
    const updated = await this.update(wb.id, {
      status: 'retrying',
      attempts,
      last_error: JSON.stringify(error),
      next_attempt_at: new Date(now.getTime() + delay * 1000),
    });
    await retryWhileDatabaseUnavailable(
      () =>
        this.deps.jobs.send<WriteBackJob>(
          WRITE_BACK_JOB,
          { workspace_id: wb.workspace_id, environment: wb.environment, write_back_id: wb.id },
          { startAfterSeconds: delay },
        ),
      OUTCOME_RETRY_MS,
    );
    return updated;
  }

  private async die(wb: WriteBackRow, attempts: number, error: WriteBackError, integration?: IntegrationRow) {
    return retryWhileDatabaseUnavailable(() => this.dieOnce(wb, attempts, error, integration), OUTCOME_RETRY_MS);
  }

  private async dieOnce(wb: WriteBackRow, attempts: number, error: WriteBackError, integration?: IntegrationRow) {
    return this.deps.db.transaction().execute(async (trx) => {
      const dead = await trx
        .updateTable('write_backs')
        .set({
          status: 'dead',
          attempts,
          last_error: JSON.stringify(error),
          next_attempt_at: null,
          claimed_until: null,
          updated_at: this.deps.now(),
          completed_at: this.deps.now(),
        })
        .where('id', '=', wb.id)
        .returningAll()
        .executeTakeFirst();
      await recordEvent(trx, scopeOf(wb), WRITE_BACK_FAILED_EVENT, {
        write_back_id: wb.id,
        shipment_id: wb.shipment_id,
        order_id: wb.order_id,
        integration_id: wb.integration_id,
        last_error: error,
      });
      const row = integration ?? (await integrationsRepo.findIntegration(trx, scopeOf(wb), wb.integration_id));
      if (row && row.health === 'healthy')
        await this.integrations.changeHealth(trx, row, { health: 'degraded', reason: 'a write-back failed for good in the last day' });
      return dead;
    });
  }
}
