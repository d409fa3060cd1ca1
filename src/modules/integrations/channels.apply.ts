import type { Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/types.js';
import { recordEvent } from '../events/index.js';
import type { ChannelApplyResult, ChannelOrderVersion, OrdersService } from '../orders/index.js';
import { compareVersions, type ChannelOrder } from '../../channels/types.js';
import * as repo from './channels.repo.js';
import type { SyncDecision, SyncSource } from './channels.tables.js';
import { effectiveSettings } from './integrations.connection.js';
import type { IntegrationRow } from './integrations.tables.js';

export const ORDER_IMPORTED_EVENT = 'order.imported';
export const ORDER_NEEDS_REVIEW_EVENT = 'order.needs_review';

const scopeOf = (row: IntegrationRow): Scope => ({ workspaceId: row.workspace_id, environment: row.environment });

/** What the store's order becomes on our side: its shippable lines, the service its checkout named when it is one of ours. */
export function toOrderVersion(order: ChannelOrder, importStatuses: readonly string[], serviceCodes: ReadonlySet<string>): ChannelOrderVersion {
  const line = order.shipping_line;
  const named = [line?.code, line?.title].find((v): v is string => typeof v === 'string' && serviceCodes.has(v));
  const lines = order.line_items.filter((l) => l.requires_shipping !== false);
  return {
    external_id: order.external_id,
    external_number: order.external_number,
    version: order.version,
    // An order with nothing to ship (no address: digital goods, pickup in store) is not imported.
    importable: !order.cancelled && importStatuses.includes(order.platform_status) && Boolean(order.ship_to?.country && order.ship_to.street1),
    cancelled: order.cancelled,
    order: {
      customer: order.customer,
      ship_to: order.ship_to ?? { country: '' },
      requested_service: named ?? null,
      line_items: (lines.length ? lines : order.line_items).map((l) => ({
        sku: l.sku,
        name: l.name,
        quantity: l.quantity,
        unit_price: l.unit_price,
        weight_oz: l.weight_oz,
        external_line_id: l.external_line_id,
      })),
    },
  };
}

export interface AppliedVersion {
  decision: SyncDecision;
  orderId: string | null;
  changes: string[];
}

/**
 * The one apply step of docs/channels.md, for webhooks, reconciliation and manual syncs alike:
 * the order decision (orders module), then, in the same transaction, the sync history entry,
 * the echo check (a version whose only news is our own write-back's fulfillment) and the events.
 */
export class ChannelApply {
  constructor(
    private readonly deps: Deps,
    private readonly orders: OrdersService,
  ) {}

  async apply(executor: Executor, integration: IntegrationRow, order: ChannelOrder, source: SyncSource): Promise<AppliedVersion> {
    const scope = scopeOf(integration);
    const settings = effectiveSettings(integration.platform, integration.settings);
    const version = toOrderVersion(order, settings.import_statuses, this.deps.carriers.serviceCodes);
    // A version older than one already judged is stale even when no order holds the newer one:
    // a cancellation (not imported) overtaking the order's creation must not let the late
    // creation import it (docs/channels.md, late and out-of-order deliveries). An equal version
    // is judged again (a sync after the import statuses changed may import it now).
    const newer = (await repo.judgedVersions(executor, integration.id, order.external_id)).some((v) => compareVersions(order.version, v) < 0);
    const result: ChannelApplyResult = newer
      ? { decision: 'stale', changes: [], order: null }
      : await this.orders.applyChannelVersion(executor, scope, integration.id, version);
    let decision: SyncDecision = result.decision;
    if (decision === 'unchanged' && result.order && (await this.isEcho(executor, scope, result.order.id, order))) decision = 'echo';
    await repo.insertSyncEntry(executor, {
      workspace_id: integration.workspace_id,
      environment: integration.environment,
      integration_id: integration.id,
      external_id: order.external_id,
      at: this.deps.now(),
      source,
      platform_version: order.version,
      decision,
      changes: JSON.stringify(result.changes),
      message: decision === 'skipped_status' ? `status ${order.platform_status} is not imported` : null,
    });
    if (decision === 'created') {
      await recordEvent(executor, scope, ORDER_IMPORTED_EVENT, { order_id: result.order!.id, integration_id: integration.id, external_id: order.external_id });
    } else if (decision === 'needs_review') {
      await recordEvent(executor, scope, ORDER_NEEDS_REVIEW_EVENT, {
        order_id: result.order!.id,
        integration_id: integration.id,
        reason: result.needsReview!.reason,
        changes: result.changes,
      });
    }
    return { decision, orderId: result.order?.id ?? null, changes: result.changes };
  }

  /** A history entry without an apply: a delivery dropped as a duplicate, or one that failed. */
  async record(
    executor: Executor,
    integration: IntegrationRow,
    entry: { externalId: string; source: SyncSource; version: string | null; decision: SyncDecision; message: string | null },
  ): Promise<void> {
    await repo.insertSyncEntry(executor, {
      workspace_id: integration.workspace_id,
      environment: integration.environment,
      integration_id: integration.id,
      external_id: entry.externalId,
      at: this.deps.now(),
      source: entry.source,
      platform_version: entry.version,
      decision: entry.decision,
      changes: JSON.stringify([]),
      message: entry.message,
    });
  }

  private async isEcho(executor: Executor, scope: Scope, orderId: string, order: ChannelOrder): Promise<boolean> {
    const numbers = new Set(order.fulfillments.flatMap((f) => f.tracking_numbers));
    if (numbers.size === 0) return false;
    const ours = await repo.writeBacksOfOrder(executor, scope, orderId);
    return ours.some((w) => numbers.has(w.tracking_number));
  }
}
