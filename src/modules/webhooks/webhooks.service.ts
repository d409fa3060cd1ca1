import { sql } from 'kysely';
import { isIP } from 'node:net';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { AppError, invalidState, notFound, validationError, type ErrorDetail } from '../../platform/errors.js';
import type { Page } from '../../platform/http/pagination.js';
import { newId } from '../../platform/ids.js';
import { createSecretBox, type SecretBox } from '../../platform/secret-box.js';
import { writeAudit } from '../audit/index.js';
import { recordEvent } from '../events/index.js';
import { settingsService } from '../settings/index.js';
import { sendKick } from './webhooks.dispatcher.js';
import {
  attemptsByDelivery,
  deleteEndpoint,
  findDeliveryById,
  findEndpointById,
  insertDeliveries,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  requeueDelivery,
  updateEndpoint,
} from './webhooks.repo.js';
import {
  TEST_EVENT_TYPE,
  type AllDeliveriesFilter,
  type CreateWebhookInput,
  type Delivery,
  type DeliveryListFilter,
  type UpdateWebhookInput,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from './webhooks.schemas.js';
import { newWebhookSecret } from './webhooks.signing.js';
import { bareHost, isForbiddenAddress, isLocalName } from '../../platform/ssrf.js';
import type { DeliveryRow, WebhookEndpointsTable } from './webhooks.tables.js';
import type { Updateable } from 'kysely';
import { toDelivery, toEndpoint } from './webhooks.wire.js';

/**
 * Problems with a target URL: http(s) only, https in live, no credentials in it, and (unless
 * private targets are allowed) no private/loopback literal nor `localhost`. Names are checked
 * again on the connected address at every attempt (webhooks.ssrf.ts).
 */
export function checkTargetUrl(url: string, environment: string, allowPrivate: boolean): ErrorDetail[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [{ field: 'url', message: 'must be an absolute http(s) URL' }];
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return [{ field: 'url', message: 'must be an http(s) URL' }];
  if (environment === 'live' && parsed.protocol !== 'https:') return [{ field: 'url', message: 'must use https in the live environment' }];
  if (parsed.username || parsed.password) return [{ field: 'url', message: 'must not contain credentials' }];
  const host = bareHost(parsed);
  if (!allowPrivate && (isLocalName(host) || (isIP(host) !== 0 && isForbiddenAddress(host)))) {
    return [{ field: 'url', message: 'must not point to a private, loopback or link-local address' }];
  }
  return [];
}

export class WebhooksService {
  readonly #deps: Deps;
  readonly #box: SecretBox;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#box = createSecretBox(deps.config);
  }

  #checkUrl(ctx: Scope, url: string): void {
    const problems = checkTargetUrl(url, ctx.environment, this.#deps.config.webhookAllowPrivateTargets);
    if (problems.length > 0) throw validationError(problems);
  }

  async #endpointOr404(executor: Executor, ctx: Scope, id: string) {
    const row = await findEndpointById(executor, ctx, id);
    if (!row) throw notFound('webhook endpoint');
    return row;
  }

  /** Register an endpoint; its signing secret is in this answer only. */
  async createEndpoint(ctx: ServiceContext, input: CreateWebhookInput): Promise<WebhookEndpointWithSecret> {
    this.#checkUrl(ctx, input.url);
    const id = newId('webhook');
    const secret = newWebhookSecret();
    return this.#deps.db.transaction().execute(async (trx) => {
      const row = await insertEndpoint(trx, {
        id,
        workspace_id: ctx.workspaceId,
        environment: ctx.environment,
        url: input.url,
        description: input.description ?? null,
        events: [...new Set(input.events)],
        secret_sealed: this.#box.seal(secret, id),
      });
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'webhook.created',
        targetType: 'webhook',
        targetId: id,
        changes: { url: row.url, events: row.events },
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
      });
      return { ...toEndpoint(row), secret };
    });
  }

  async listEndpoints(ctx: Scope, page: { limit?: number; cursor?: string }): Promise<Page<WebhookEndpoint>> {
    const result = await listEndpoints(this.#deps.db, ctx, page);
    return { ...result, data: result.data.map(toEndpoint) };
  }

  async getEndpoint(ctx: Scope, id: string): Promise<WebhookEndpoint> {
    return toEndpoint(await this.#endpointOr404(this.#deps.db, ctx, id));
  }

  /** Change url, events, description or enabled; enabling clears the disable reason and resumes deliveries. */
  async updateEndpoint(ctx: ServiceContext, id: string, input: UpdateWebhookInput): Promise<WebhookEndpoint> {
    if (input.url !== undefined) this.#checkUrl(ctx, input.url);
    return this.#deps.db.transaction().execute(async (trx) => {
      const before = await this.#endpointOr404(trx, ctx, id);
      const changes: Updateable<WebhookEndpointsTable> = {};
      if (input.url !== undefined) changes.url = input.url;
      if (input.events !== undefined) changes.events = [...new Set(input.events)];
      if (input.description !== undefined) changes.description = input.description;
      if (input.enabled === true && !before.enabled) Object.assign(changes, { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
      if (input.enabled === false && before.enabled)
        Object.assign(changes, { enabled: false, disabled_reason: 'Disabled by the user.', disabled_at: sql`now()` });
      const row = (await updateEndpoint(trx, ctx, id, changes))!;
      // Deliveries that waited while it was disabled are due again: wake the dispatcher.
      if (changes.enabled === true) await sendKick(this.#deps, trx, {});
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'webhook.updated',
        targetType: 'webhook',
        targetId: id,
        changes: input,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
      });
      return toEndpoint(row);
    });
  }

  /** Delete an endpoint with its deliveries and their attempts. */
  async deleteEndpoint(ctx: ServiceContext, id: string): Promise<void> {
    await this.#deps.db.transaction().execute(async (trx) => {
      if (!(await deleteEndpoint(trx, ctx, id))) throw notFound('webhook endpoint');
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'webhook.deleted',
        targetType: 'webhook',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
      });
    });
  }

  /**
   * A new secret, returned once. The previous one keeps signing (a second `v1=`) for the
   * overlap of the setting webhooks.secret_overlap_hours, so receivers can switch without loss.
   */
  async rotateSecret(ctx: ServiceContext, id: string): Promise<WebhookEndpointWithSecret> {
    const overlapHours = await settingsService(this.#deps).get('webhooks.secret_overlap_hours');
    const secret = newWebhookSecret();
    return this.#deps.db.transaction().execute(async (trx) => {
      const before = await this.#endpointOr404(trx, ctx, id);
      const overlapSeconds = Math.round(overlapHours * 3600);
      const row = (await updateEndpoint(trx, ctx, id, {
        secret_sealed: this.#box.seal(secret, id),
        previous_secret_sealed: overlapSeconds > 0 ? before.secret_sealed : null,
        previous_secret_expires_at: overlapSeconds > 0 ? (sql`now() + make_interval(secs => ${overlapSeconds})` as never) : null,
        secret_rotated_at: sql`now()` as never,
      }))!;
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'webhook.secret_rotated',
        targetType: 'webhook',
        targetId: id,
        changes: { previous_secret_expires_at: row.previous_secret_expires_at },
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
      });
      return { ...toEndpoint(row), secret };
    });
  }

  /** Record a `webhook.test` event and queue its delivery to this endpoint only. */
  async sendTestEvent(ctx: ServiceContext, id: string): Promise<Delivery> {
    return this.#deps.db.transaction().execute(async (trx) => {
      const endpoint = await this.#endpointOr404(trx, ctx, id);
      if (!endpoint.enabled) throw endpointDisabled('The endpoint is disabled: enable it (PATCH enabled:true) before sending a test event.');
      const event = await recordEvent(trx, ctx, TEST_EVENT_TYPE, {
        webhook_id: endpoint.id,
        message: 'A test event sent from the API. It changes nothing.',
      });
      const [deliveryId] = await insertDeliveries(trx, ctx, event, [endpoint.id]);
      await sendKick(this.#deps, trx, { workspace_id: ctx.workspaceId, environment: ctx.environment, event_id: event.id });
      return toDelivery((await findDeliveryById(trx, ctx, deliveryId))!, []);
    });
  }

  async listEndpointDeliveries(ctx: Scope, endpointId: string, filter: DeliveryListFilter): Promise<Page<Delivery>> {
    await this.#endpointOr404(this.#deps.db, ctx, endpointId);
    return this.#withAttempts(await listDeliveries(this.#deps.db, ctx, { ...filter, endpointId }));
  }

  async listDeliveries(ctx: Scope, filter: AllDeliveriesFilter): Promise<Page<Delivery>> {
    return this.#withAttempts(await listDeliveries(this.#deps.db, ctx, { ...filter, endpointId: filter.webhook_id }));
  }

  async getDelivery(ctx: Scope, id: string): Promise<Delivery> {
    const row = await findDeliveryById(this.#deps.db, ctx, id);
    if (!row) throw notFound('webhook delivery');
    const attempts = await attemptsByDelivery(this.#deps.db, [row.id]);
    return toDelivery(row, attempts.get(row.id) ?? []);
  }

  /**
   * Send a dead (or failed) delivery again now: one more attempt, the same delivery id. A
   * delivered one is never sent again; a pending one is already queued.
   */
  async retryDelivery(ctx: ServiceContext, id: string): Promise<Delivery> {
    return this.#deps.db.transaction().execute(async (trx) => {
      const before = await findDeliveryById(trx, ctx, id);
      if (!before) throw notFound('webhook delivery');
      if (before.status !== 'dead' && before.status !== 'failed') {
        throw invalidState(`The delivery is ${before.status}: only a dead or failed delivery can be retried.`, { current: before.status, allowedMoves: [] });
      }
      const endpoint = await findEndpointById(trx, ctx, before.endpoint_id);
      if (!endpoint?.enabled) throw endpointDisabled('The endpoint is disabled: enable it (PATCH enabled:true) first.');
      const row = (await requeueDelivery(trx, ctx, id))!;
      await sendKick(this.#deps, trx, { workspace_id: ctx.workspaceId, environment: ctx.environment, event_id: row.event_id });
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'webhook_delivery.retried',
        targetType: 'webhook_delivery',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
      });
      const attempts = await attemptsByDelivery(trx, [id]);
      return toDelivery(row, attempts.get(id) ?? []);
    });
  }

  async #withAttempts(page: Page<DeliveryRow>): Promise<Page<Delivery>> {
    const attempts = await attemptsByDelivery(
      this.#deps.db,
      page.data.map((d) => d.id),
    );
    return { ...page, data: page.data.map((d) => toDelivery(d, attempts.get(d.id) ?? [])) };
  }
}

/** 409 invalid_state of a disabled endpoint: its state is `enabled: false`, and enabling it is the way on. */
function endpointDisabled(message: string): AppError {
  return new AppError('invalid_state', message, { details: [{ field: 'enabled', message: 'is false', current_state: 'disabled', allowed_moves: ['enable'] }] });
}
