import type { CarrierRegistry } from '../../carriers/registry.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { ServiceContext } from '../../platform/context.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import { writeAudit } from '../audit/index.js';
import { moveOrder } from '../orders/index.js';
import * as repo from './shipments.repo.js';
import { packagesOf } from './shipments.packages.js';
import { issuedByCarrier } from './shipments.labels.js';
import { shipmentStateError } from './shipments.states.js';
import type { ShipmentAddress, ShipmentRow } from './shipments.tables.js';
import { deliverOrder, type TrackingSync } from './shipments.tracking.js';
import { returnBillingOnSync } from './shipments.returns.js';
import { assertVoidWindowOpen, DECIDE_REFUND_JOB, recordRefundUpdated, refundOnVoid, type Refunds } from './shipments.refunds.js';
import { assertNotManifested } from './shipments.end-of-day.js';

/** What voiding a label and marking one delivered need of the module. */
export interface ChangeDeps {
  deps: Deps;
  carriers: Promise<CarrierRegistry>;
  gateway: CarrierGateway;
  tracking: TrackingSync;
  refunds: Refunds;
}

/**
 * Void a label (POST /v1/shipments/:id/void; admin cancel): only from label_purchased, and
 * only while the carrier allows it (before its first scan), else 409. The order returns to
 * processing when it has no other live label.
 */
export async function voidLabel(
  v: ChangeDeps,
  ctx: ServiceContext,
  before: ShipmentRow,
  action: 'shipment.voided' | 'shipment.cancelled',
): Promise<ShipmentRow> {
  const id = before.id;
  assertNotManifested(before);
  const carriers = await v.carriers;
  // The carrier's void window (its definition says how many days): 409 once closed.
  if (before.status === 'label_purchased') assertVoidWindowOpen(carriers.get(before.carrier), before, v.deps.now());
  const refundDelaySeconds = await v.refunds.delaySeconds();
  if (before.status !== 'label_purchased')
    throw shipmentStateError(before.status, 'be voided', `The shipment is ${before.status}; only a label_purchased shipment can be voided.`);
  // The carrier is asked before the transaction (a real one's deadline must not hold a lock); its
  // refusal is 422 carrier_rejected (409 once it has scanned the parcel), no answer 503
  // carrier_unavailable, and nothing changes here.
  const target = await v.gateway.targetOf(ctx, before);
  if (!target) throw new AppError('unprocessable', 'The carrier account that sold this label no longer exists.');
  const now = v.deps.now();
  // How the carrier refunds the label: at once, or after its review (the refunds job decides).
  let refundReview = true;
  if (carriers.get(before.carrier)?.capabilities.void) {
    // Every package: a carrier that voids package by package (UPS) is told them all, and one it has scanned refuses them all.
    const voided = await v.gateway.call(
      ctx,
      target,
      ctx.requestId,
      (d, c) =>
        d.void(c, {
          carrier_shipment_id: before.carrier_shipment_id ?? before.tracking_number,
          tracking_numbers: packagesOf(before).map((p) => p.tracking_number),
          service_code: before.service_code,
          purchased_at: new Date(before.purchased_at).toISOString(),
          now: now.toISOString(),
          sandbox: before.sandbox ?? undefined,
        }),
      { tooLate: (reason) => shipmentStateError(before.status, 'be voided', reason) },
    );
    refundReview = voided.refund_review === true;
  }
  const row = await v.deps.db.transaction().execute(async (trx) => {
    const current = await repo.findShipment(trx, ctx, id, { forUpdate: true });
    if (!current) throw new AppError('not_found', 'No such shipment.');
    assertNotManifested(current);
    if (current.status !== 'label_purchased')
      throw shipmentStateError(current.status, 'be voided', `The shipment is ${current.status}; only a label_purchased shipment can be voided.`);
    const voided = await repo.updateShipment(trx, id, {
      status: 'voided',
      tracking_status: 'cancelled',
      tracking_status_detail: 'label_voided',
      ...(current.packages ? { packages: JSON.stringify(current.packages.map((p) => ({ ...p, tracking_status: 'cancelled' }))) } : {}),
      voided_at: now,
      next_check_at: null,
      updated_at: now,
      // The refund the void asks for (shipments.refunds.ts), decided by the refunds job.
      ...refundOnVoid(current, now, { review: refundReview, delaySeconds: refundDelaySeconds }),
    });
    // Our own labels render again, marked VOID (a carrier's own is stamped on read).
    if (!issuedByCarrier(current)) await repo.deleteLabels(trx, id);
    if (voided.refund_status === 'submitted')
      await v.deps.jobs.send(DECIDE_REFUND_JOB, { shipment_id: id }, { executor: trx, startAfterSeconds: refundDelaySeconds });
    await recordRefundUpdated(trx, voided);
    await repo.insertTrackingEvents(trx, [
      manualEvent(voided, now, {
        status: 'cancelled',
        status_detail: 'label_voided',
        code: 'VOID',
        description: 'Label voided; the shipment was cancelled',
        seq: 10_000,
      }),
    ]);
    if (!current.is_return && (await repo.countLiveShipmentsOfOrder(trx, ctx, current.order_id, id)) === 0) {
      try {
        await moveOrder(trx, ctx, current.order_id, 'void_label', now);
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'invalid_state') throw err;
      }
    }
    await v.tracking.recordTrackingUpdated(trx, voided, current.status);
    if (ctx.actor.type === 'account') {
      await writeAudit(trx, ctx.actor, ctx, {
        action,
        targetType: 'shipment',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes: { status: { from: current.status, to: 'voided' } },
      });
    }
    return voided;
  });
  return row;
}

/**
 * Admin force-delivery: any shipment but a voided one → delivered, with a manual tracking
 * event, the order → delivered, `tracking.updated` and an audit entry. Already delivered:
 * returned as it is.
 */
export async function markDelivered(v: ChangeDeps, ctx: ServiceContext, id: string): Promise<ShipmentRow> {
  const now = v.deps.now();
  const row = await v.deps.db.transaction().execute(async (trx) => {
    const current = await repo.findShipment(trx, ctx, id, { forUpdate: true });
    if (!current) throw new AppError('not_found', 'No such shipment.');
    if (current.status === 'voided' || current.status === 'expired')
      throw shipmentStateError(current.status, 'be delivered', `The shipment is ${current.status}; its label cannot be delivered.`);
    if (current.status === 'delivered') return current;
    const delivered = await repo.updateShipment(trx, id, {
      status: 'delivered',
      tracking_status: 'delivered',
      tracking_status_detail: 'delivered_manually',
      delivered_at: now,
      next_check_at: null,
      updated_at: now,
      ...returnBillingOnSync(current, 'delivered', now).patch,
    });
    await repo.insertTrackingEvents(trx, [
      manualEvent(delivered, now, {
        status: 'delivered',
        status_detail: 'delivered_manually',
        code: 'MANUAL',
        description: `Marked delivered by ${ctx.actor.email ?? 'an administrator'}`,
        seq: 10_001,
        milestone: 'delivered',
        location: current.ship_to,
      }),
    ]);
    if (!current.is_return) await deliverOrder(trx, ctx, current.order_id, now);
    await v.tracking.recordTrackingUpdated(trx, delivered, current.status);
    await writeAudit(trx, ctx.actor, ctx, {
      action: 'shipment.force_delivered',
      targetType: 'shipment',
      targetId: id,
      workspaceId: ctx.workspaceId,
      environment: ctx.environment,
      changes: { status: { from: current.status, to: 'delivered' } },
    });
    return delivered;
  });
  return row;
}

function manualEvent(
  row: ShipmentRow,
  now: Date,
  e: {
    status: 'cancelled' | 'delivered';
    status_detail: string;
    code: string;
    description: string;
    seq: number;
    milestone?: 'delivered';
    location?: ShipmentAddress;
  },
) {
  return {
    id: newId('trackingEvent'),
    workspace_id: row.workspace_id,
    environment: row.environment,
    shipment_id: row.id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
    event_key: `${e.code}|${now.toISOString()}`,
    seq: e.seq,
    occurred_at: now,
    status: e.status,
    status_detail: e.status_detail,
    milestone: e.milestone ?? null,
    description: e.description,
    location: JSON.stringify({
      city: e.location?.city ?? null,
      state: e.location?.state ?? null,
      postal_code: e.location?.postal_code ?? null,
      country: e.location?.country ?? null,
    }),
    carrier_status_code: e.code,
    created_at: now,
  };
}
