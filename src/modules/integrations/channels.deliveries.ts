import { ChannelError } from '../../channels/types.js';
import type { Environment, Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { ChannelApply } from './channels.apply.js';
import type { ChannelHub } from './channels.hub.js';
import * as repo from './channels.repo.js';
import * as integrationsRepo from './integrations.repo.js';
import type { IntegrationsService } from './integrations.service.js';
import type { IntegrationRow } from './integrations.tables.js';

/** A stored delivery is applied by this job (docs/channels.md: answered at once, the work runs later). */
export const APPLY_DELIVERY_JOB = 'integrations.apply_delivery';
export interface ApplyDeliveryJob {
  workspace_id: string;
  environment: Environment;
  delivery_id: string;
}

const scopeOf = (row: IntegrationRow): Scope => ({ workspaceId: row.workspace_id, environment: row.environment });

/** The order id a delivery body names, for the history of a duplicate (before any parsing). */
function bodyOrderId(body: unknown): string | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The webhook receiver's service: a delivery is verified (the signature is the credential),
 * stored once per platform delivery id and applied by a job; a delivery seen before is
 * recorded in the order's history as `duplicate` and changes nothing.
 */
export class ChannelDeliveries {
  constructor(
    private readonly deps: Deps,
    private readonly hub: ChannelHub,
    private readonly integrations: IntegrationsService,
    private readonly applier: ChannelApply,
  ) {}

  /** Verify and store a delivery; throws 401 invalid_signature (nothing stored) when it is not the store's. */
  async receive(integrationId: string, headers: Record<string, string | string[] | undefined>, rawBody: Buffer): Promise<{ duplicate: boolean }> {
    const refused = new AppError('invalid_signature', 'The webhook signature is missing or does not match this integration.');
    const row = await integrationsRepo.findIntegrationById(this.deps.db, integrationId);
    if (!row || !row.store_ref || row.connection_state === null) throw refused;
    const secret = this.integrations.openCredentials(row)?.client_secret;
    if (typeof secret !== 'string') throw refused;
    const verified = this.hub.channel(row.platform).verifyWebhook({ headers, rawBody, secret, storeRef: row.store_ref });
    if (!verified.ok) {
      this.deps.log.warn({ integration_id: row.id, reason: verified.reason }, 'store webhook refused');
      throw refused;
    }
    const body = parseJson(rawBody);
    if (body === undefined) throw new AppError('invalid_json', 'The delivery body is not JSON.');
    const now = this.deps.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const stored = await repo.insertDeliveryOnce(trx, {
        id: newId('channelDelivery'),
        integration_id: row.id,
        workspace_id: row.workspace_id,
        environment: row.environment,
        delivery_id: verified.deliveryId,
        topic: verified.topic,
        body: JSON.stringify(body),
        received_at: now,
      });
      await integrationsRepo.updateIntegration(trx, scopeOf(row), row.id, { last_webhook_at: now });
      if (!stored) {
        const externalId = bodyOrderId(body);
        if (externalId) await this.applier.record(trx, row, { externalId, source: 'webhook', version: null, decision: 'duplicate', message: `delivery ${verified.deliveryId} was received before` });
        return { duplicate: true };
      }
      await this.deps.jobs.send<ApplyDeliveryJob>(APPLY_DELIVERY_JOB, { workspace_id: row.workspace_id, environment: row.environment, delivery_id: stored.id }, { executor: trx });
      return { duplicate: false };
    });
  }

  /** The job: the delivery's order through the one apply step, or the app's uninstall. Idempotent. */
  async apply(job: ApplyDeliveryJob): Promise<void> {
    const scope = { workspaceId: job.workspace_id, environment: job.environment };
    await this.deps.db.transaction().execute(async (trx) => {
      const delivery = await repo.findDelivery(trx, scope, job.delivery_id, { forUpdate: true });
      if (!delivery || delivery.status !== 'pending') return;
      const row = await integrationsRepo.findIntegration(trx, scope, delivery.integration_id, { forUpdate: true });
      if (!row) return;
      const now = this.deps.now();
      let parsed;
      try {
        parsed = this.hub.channel(row.platform).parseWebhookOrder(delivery.topic, delivery.body);
      } catch (err) {
        if (!(err instanceof ChannelError)) throw err;
        const externalId = bodyOrderId(delivery.body);
        if (externalId) await this.applier.record(trx, row, { externalId, source: 'webhook', version: null, decision: 'error', message: err.message });
        await repo.markDelivery(trx, delivery.id, { status: 'failed', error: err.message, applied_at: now });
        return;
      }
      if ('kind' in parsed) {
        await this.integrations.changeHealth(trx, row, { health: 'token_expired', reason: 'app_uninstalled' }, { connection_state: 'disconnected' });
      } else {
        await this.applier.apply(trx, row, parsed, 'webhook');
      }
      await repo.markDelivery(trx, delivery.id, { status: 'applied', applied_at: now });
    });
  }
}
