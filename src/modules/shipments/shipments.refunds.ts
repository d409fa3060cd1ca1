import type { Updateable } from 'kysely';
import type { CarrierDefinition } from '../../carriers/types.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import { newId } from '../../platform/ids.js';
import { iso, parseList } from '../../platform/http/wire.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { recordEvent } from '../events/index.js';
import type { SettingsService } from '../settings/index.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import { scopeOf, trackRequest } from './shipments.track-request.js';
import { shipmentStateError } from './shipments.states.js';
import type { RefundStatus, ShipmentRow, ShipmentsTable } from './shipments.tables.js';

/**
 * Refunds. A void asks the carrier to refund the label; the refund lives on
 * the voided shipment (one per label), so `GET /v1/refunds` is a read of voided shipments.
 *
 * - Simulated carriers decide `sandbox.refund_delay_seconds` after the void (the refunds job):
 *   `rejected` when the carrier scanned the label meanwhile (the simulation's tracking read as of
 *   the decision time: a voided label handed over anyway), else `refunded`.
 * - `api` accounts: the carrier's answer to the void is its decision, so a successful void is
 *   `refunded` at once (UPS, FedEx and USPS refund an accepted void; DHL Express's void is
 *   local, and so is its refund decision).
 * - A return label charged on scan and never scanned cost nothing: its void asks for no refund
 *   (`refund` stays null, `billing_status` becomes `not_charged`).
 * - Each change records `shipment.refund_updated` (an api refund is created decided: one event).
 */

export const REFUND_DELAY_SETTING = 'sandbox.refund_delay_seconds' as const;
export const REFUND_STATUSES = ['submitted', 'refunded', 'rejected'] as const;
export const DECIDE_REFUND_JOB = 'shipments.decide_refund';
export const DECIDE_DUE_REFUNDS_JOB = 'shipments.decide_due_refunds';
const DAY_MS = 86_400_000;

/** 409 when the carrier's void window (days after purchase, from its definition) has closed. */
export function assertVoidWindowOpen(carrier: CarrierDefinition | undefined, row: ShipmentRow, now: Date): void {
  const days = carrier?.void_window_days;
  if (days === undefined) return;
  const closes = new Date(new Date(row.purchased_at).getTime() + days * DAY_MS);
  if (now.getTime() <= closes.getTime()) return;
  const error = shipmentStateError(
    row.status,
    'be voided',
    `${carrier!.name} accepts voids for ${days} days after purchase; the void window of this label closed at ${closes.toISOString()}.`,
  );
  // Replace the generic detail with one that says why (the current state and moves stay).
  const detail = (error.details as { message: string }[])[0];
  detail.message = `void window closed: ${carrier!.name} accepts voids within ${days} days of purchase (closed ${closes.toISOString()})`;
  throw error;
}

/**
 * What a void adds to the shipment: a refund (submitted when the carrier reviews it, else
 * decided at once), or for an unbilled return nothing to refund.
 */
export function refundOnVoid(row: ShipmentRow, now: Date, opts: { review: boolean; delaySeconds: number }): Updateable<ShipmentsTable> {
  if (row.billing_status === 'pending') return { billing_status: 'not_charged' };
  const base = { refund_id: newId('refund'), refund_amount: row.price_amount, refund_currency: row.price_currency, refund_requested_at: now };
  if (!opts.review) {
    return {
      ...base,
      refund_status: 'refunded',
      refund_decided_at: now,
      refund_reason: `The carrier accepted the void; ${refundedWhat(row)}.`,
      refund_decide_after: null,
    };
  }
  return {
    ...base,
    refund_status: 'submitted',
    refund_decided_at: null,
    refund_reason: null,
    refund_decide_after: new Date(now.getTime() + opts.delaySeconds * 1000),
  };
}

/**
 * What a refund gives back, named: the insurance premium (the rate's `insurance` surcharge) is
 * refunded with the label, so it is listed on its own; `label` is the rest.
 */
function refundBreakdown(
  row: ShipmentRow,
  amount: { amount: number; currency: string },
): { code: 'label' | 'insurance'; amount: { amount: number; currency: string } }[] {
  const premium = (row.rate?.surcharges ?? []).filter((s) => s.code === 'insurance').reduce((sum, s) => sum + s.amount.amount, 0);
  if (premium <= 0 || premium > amount.amount) return [{ code: 'label', amount }];
  return [
    { code: 'label', amount: { amount: amount.amount - premium, currency: amount.currency } },
    { code: 'insurance', amount: { amount: premium, currency: amount.currency } },
  ];
}

/** "the label is refunded", naming the insurance premium when the label was insured. */
function refundedWhat(row: ShipmentRow): string {
  const insured = (row.rate?.surcharges ?? []).some((s) => s.code === 'insurance' && s.amount.amount > 0);
  return insured ? 'the label and its insurance premium are refunded' : 'the label is refunded';
}

export function toRefund(row: ShipmentRow) {
  if (!row.refund_status) return null;
  const amount = { amount: row.refund_amount ?? 0, currency: row.refund_currency ?? row.price_currency };
  return {
    id: row.refund_id!,
    status: row.refund_status,
    amount,
    breakdown: refundBreakdown(row, amount),
    requested_at: iso(row.refund_requested_at)!,
    decided_at: iso(row.refund_decided_at),
    reason: row.refund_reason,
  };
}

export function toRefundListItem(row: ShipmentRow) {
  const r = toRefund(row)!;
  return {
    id: r.id,
    shipment_id: row.id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
    status: r.status,
    amount: r.amount,
    breakdown: r.breakdown,
    requested_at: r.requested_at,
    decided_at: r.decided_at,
    reason: r.reason,
  };
}
export type RefundListItem = ReturnType<typeof toRefundListItem>;

/** `shipment.refund_updated`: the refund as it now is, with its shipment. */
export async function recordRefundUpdated(trx: Executor, row: ShipmentRow): Promise<void> {
  const refund = toRefund(row);
  if (!refund) return;
  await recordEvent(trx, { workspaceId: row.workspace_id, environment: row.environment }, 'shipment.refund_updated', {
    refund: toRefundListItem(row),
    shipment_id: row.id,
    order_id: row.order_id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
  });
}

/** Decides submitted refunds of simulated labels; lists refunds. */
export class Refunds {
  constructor(
    private readonly deps: Deps,
    private readonly gateway: CarrierGateway,
    private readonly settings: SettingsService,
  ) {}

  async delaySeconds(): Promise<number> {
    return Number(await this.settings.get(REFUND_DELAY_SETTING));
  }

  /** GET /v1/refunds: newest request first, cursor on (requested_at, id); `status` filters (comma-separated). */
  async list(scope: Scope, filter: { status?: string; limit?: number; cursor?: string }): Promise<Page<RefundListItem>> {
    let q = this.deps.db.selectFrom('shipments').selectAll().where(inScope(scope)).where('refund_status', 'is not', null);
    if (filter.status !== undefined) {
      q = q.where('refund_status', 'in', parseList<RefundStatus>(filter.status, REFUND_STATUSES, 'status'));
    }
    const page = await paginate(q, { limit: filter.limit, cursor: filter.cursor, createdAtColumn: 'refund_requested_at' });
    return { ...page, data: page.data.map(toRefundListItem) };
  }

  /** Every submitted refund whose decision time has come (the minute job), across tenants. Returns how many were decided. */
  async decideDue(limit = 500): Promise<number> {
    const due = await this.deps.db
      .selectFrom('shipments')
      .select('id')
      .where('refund_status', '=', 'submitted')
      .where('refund_decide_after', '<=', this.deps.now())
      .orderBy('refund_decide_after')
      .limit(limit)
      .execute();
    let decided = 0;
    for (const { id } of due) if (await this.decide(id)) decided++;
    return decided;
  }

  /**
   * Decides one refund if it is submitted and due (idempotent: a second run, or a run before its
   * time, changes nothing). Returns whether it decided.
   */
  async decide(shipmentId: string): Promise<boolean> {
    const now = this.deps.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('shipments').selectAll().where('id', '=', shipmentId).forUpdate().executeTakeFirst();
      if (!row || row.refund_status !== 'submitted' || !row.refund_decide_after || new Date(row.refund_decide_after).getTime() > now.getTime()) return false;
      const outcome = await this.reviewDecision(row, now);
      const decided = await trx
        .updateTable('shipments')
        .set({ refund_status: outcome.status, refund_reason: outcome.reason, refund_decided_at: now, refund_decide_after: null, updated_at: now })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordRefundUpdated(trx, decided);
      return true;
    });
  }

  /**
   * The carrier's review (a simulated carrier's, asked in process through the gateway while the
   * row is locked): the label's tracking as of now; any carrier scan means it was used.
   */
  private async reviewDecision(row: ShipmentRow, now: Date): Promise<{ status: RefundStatus; reason: string }> {
    const refunded = { status: 'refunded' as const, reason: `The label was not used; ${refundedWhat(row)}.` };
    const target = this.gateway.inProcessTarget(row);
    if (!target || !this.deps.carriers.get(row.carrier)?.capabilities.track) return refunded;
    const scans = await this.gateway.call(scopeOf(row), target, undefined, (driver, ctx) => driver.track(ctx, trackRequest(row, row.tracking_number, now)));
    const scan = scans.events.find((e) => e.status !== 'pre_transit');
    if (scan)
      return {
        status: 'rejected',
        reason: `The carrier scanned the label after the void (${scan.description}, ${scan.occurred_at}); a used label is not refunded.`,
      };
    return refunded;
  }
}
