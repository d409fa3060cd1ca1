import { ChannelError, type ChannelOrder, type WebhookContent } from '../../channels/types.js';
import type { Environment, Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { ChannelApply } from './channels.apply.js';
import type { ChannelCredentials } from './channels.credentials.js';
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

/** Bad signatures within the health window that degrade a connection (a misconfigured secret, or someone probing). */
export const BAD_SIGNATURES_DEGRADE = 5;

const scopeOf = (row: IntegrationRow): Scope => ({ workspaceId: row.workspace_id, environment: row.environment });

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
    private readonly credentials: ChannelCredentials,
  ) {}

  /** Verify and store a delivery; throws 401 invalid_signature (nothing stored) when it is not the store's. */
  async receive(integrationId: string, headers: Record<string, string | string[] | undefined>, rawBody: Buffer): Promise<{ duplicate: boolean }> {
    const refused = new AppError('invalid_signature', 'The webhook signature is missing or does not match this integration.');
    const row = await integrationsRepo.findIntegrationById(this.deps.db, integrationId);
    if (!row || !row.store_ref || row.connection_state === null) throw refused;
    const credentials = this.integrations.openCredentials(row);
    const secret = credentials ? this.hub.platform(row.platform).webhookSecret(credentials) : null;
    if (!secret) throw refused;
    const channel = this.hub.channel(row.platform);
    const verified = channel.verifyWebhook({ headers, rawBody, secret, storeRef: row.store_ref });
    if (!verified.ok) {
      this.deps.log.warn({ integration_id: row.id, reason: verified.reason }, 'store webhook refused');
      await this.integrations.recordTrouble(row, {
        code: 'invalid_signature',
        after: BAD_SIGNATURES_DEGRADE,
        reason: (n) => `${n} webhook deliveries with a missing or bad signature within 10 minutes`,
      });
      throw refused;
    }
    // A platform's test delivery (WooCommerce's ping on a new webhook) only checks that we answer.
    if (verified.ping) return { duplicate: false };
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
        const externalId = channel.webhookOrderId(body);
        if (externalId)
          await this.applier.record(trx, row, {
            externalId,
            source: 'webhook',
            version: null,
            decision: 'duplicate',
            message: `delivery ${verified.deliveryId} was received before`,
          });
        return { duplicate: true };
      }
      await this.deps.jobs.send<ApplyDeliveryJob>(
        APPLY_DELIVERY_JOB,
        { workspace_id: row.workspace_id, environment: row.environment, delivery_id: stored.id },
        { executor: trx },
      );
      return { duplicate: false };
    });
  }

  /**
   * The job: the delivery's order through the one apply step, or the app's uninstall. Idempotent.
   * A thin delivery (BigCommerce) or a deletion (WooCommerce) names an order to read first: read
   * outside the transaction (no row lock held across a call to the platform), applied inside it.
   */
  async apply(job: ApplyDeliveryJob): Promise<void> {
    const scope = { workspaceId: job.workspace_id, environment: job.environment };
    const pending = await repo.findDelivery(this.deps.db, scope, job.delivery_id);
    if (!pending || pending.status !== 'pending') return;
    const integration = await integrationsRepo.findIntegration(this.deps.db, scope, pending.integration_id);
    if (!integration) return;
    const channel = this.hub.channel(integration.platform);
    let content: WebhookContent | { kind: 'gone'; external_id: string };
    let failure: string | null = null;
    try {
      content = channel.parseWebhookOrder(pending.topic, pending.body);
      if ('kind' in content && content.kind === 'fetch') content = await this.fetch(integration, content.external_id);
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      // A platform that cannot answer now: the job's retries (and reconciliation) try again.
      if (err.retryable || err.kind === 'unauthorized') throw err;
      failure = this.credentials.scrubberFor(integration).scrub(err.message);
      content = { kind: 'gone', external_id: '' };
    }
    await this.deps.db.transaction().execute(async (trx) => {
      const delivery = await repo.findDelivery(trx, scope, job.delivery_id, { forUpdate: true });
      if (!delivery || delivery.status !== 'pending') return;
      const row = await integrationsRepo.findIntegration(trx, scope, delivery.integration_id, { forUpdate: true });
      if (!row) return;
      const now = this.deps.now();
      if (failure !== null) {
        const externalId = channel.webhookOrderId(delivery.body);
        if (externalId) await this.applier.record(trx, row, { externalId, source: 'webhook', version: null, decision: 'error', message: failure });
        await repo.markDelivery(trx, delivery.id, { status: 'failed', error: failure, applied_at: now });
        return;
      }
      if (!('kind' in content)) await this.applier.apply(trx, row, content, 'webhook');
      else if (content.kind === 'uninstalled') {
        await this.integrations.changeHealth(trx, row, { health: 'token_expired', reason: 'app_uninstalled' }, { connection_state: 'disconnected' });
      } else if (content.kind === 'gone') {
        // Deleted in the store: our order (if any) is left as it is for the operator to decide.
        await this.applier.record(trx, row, {
          externalId: content.external_id,
          source: 'webhook',
          version: null,
          decision: 'skipped_status',
          message: 'the store no longer has this order',
        });
      }
      await repo.markDelivery(trx, delivery.id, { status: 'applied', applied_at: now });
    });
  }

  private async fetch(integration: IntegrationRow, externalId: string): Promise<ChannelOrder | { kind: 'gone'; external_id: string }> {
    const { channel, conn } = await this.credentials.open(integration);
    return (await channel.fetchOrder(conn, externalId)) ?? { kind: 'gone', external_id: externalId };
  }
}
