import type { CarrierDefinition } from '../../carriers/types.js';
import { AppError, invalidState, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { writeAudit } from '../audit/index.js';
import { findWorkspaceOrigin } from '../identity/index.js';
import { originTimeZone } from '../rates/index.js';
import type { LocationsService } from '../locations/index.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import type { ShipmentsEndOfDay } from '../shipments/index.js';
import * as repo from './pickups.repo.js';
import type { CreatePickupInput, Pickup, PickupListFilter } from './pickups.schemas.js';
import type { PickupAddress, PickupRow } from './pickups.tables.js';
import { localTime, refuseWindow } from './pickups.window.js';
import { toPickup } from './pickups.wire.js';

export const COMPLETE_PICKUPS_JOB = 'pickups.complete_due';

/** 422 capability_unavailable: the carrier does not offer pickups (the same in test and live). */
function capabilityUnavailable(carrier: CarrierDefinition): AppError {
  return new AppError('capability_unavailable', `${carrier.name} does not offer pickups (GET /v1/carrier-types: capabilities.pickups).`, {
    details: [{ field: 'carrier', message: `${carrier.slug} does not offer pickups`, capability: 'pickups' }],
  });
}

/**
 * Carrier pickups. A pickup is booked at once (201): in process for a
 * simulated account, through the carrier's API (`schedulePickup`) for an `api` account, whose
 * refusals come back through the gateway's mapping (422 carrier_rejected, 422
 * carrier_account_invalid, 503 carrier_unavailable). It can be cancelled until `cancel_by` (the
 * window start less the carrier's cutoff, data in its folder), and completes at the window's
 * end (the sweep job): a simulated pickup then gives its labels their acceptance scan.
 */
export class PickupsService {
  constructor(
    private readonly deps: Deps,
    private readonly gateway: CarrierGateway,
    private readonly shipments: ShipmentsEndOfDay,
    private readonly locations: Pick<LocationsService, 'originFor'>,
  ) {}

  async create(ctx: ServiceContext, input: CreatePickupInput): Promise<Pickup> {
    const carrier = this.deps.carriers.get(input.carrier);
    if (!carrier)
      throw validationError([{ field: 'carrier', message: `is not a carrier of this service (${this.deps.carriers.carriers.map((c) => c.slug).join(', ')})` }]);
    const offer = carrier.end_of_day?.pickup;
    if (!offer) throw capabilityUnavailable(carrier);
    if (input.shipment_ids && input.package_count !== undefined)
      throw validationError([{ field: 'package_count', message: 'give shipment_ids or package_count, not both' }]);
    if (!input.shipment_ids && input.package_count === undefined)
      throw validationError([{ field: 'package_count', message: 'give shipment_ids or package_count' }]);
    if (input.location_id !== undefined && input.address !== undefined)
      throw validationError([{ field: 'location_id', message: 'give location_id or address, not both' }]);
    // Per location: the named one (404 when not this scope's), else the default one unless an address is given.
    const location = input.address === undefined ? await this.locations.originFor(ctx, input.location_id) : null;
    const account = await this.gateway.accountForPurchase(ctx, carrier.slug, input.carrier_account_id);
    if (!this.gateway.driverOf(account)) throw capabilityUnavailable(carrier);

    const address =
      (input.address as PickupAddress | undefined) ??
      (location ? ({ ...location.address } as PickupAddress) : null) ??
      ((await findWorkspaceOrigin(this.deps.db, ctx.workspaceId)) as PickupAddress | null);
    if (!address)
      throw new AppError('missing_ship_from', 'No pickup address: send `address` or set the workspace origin.', {
        details: [{ field: 'address', message: 'is required when the workspace has no origin address' }],
      });
    const missing = (['street1', 'city', 'country'] as const).filter((f) => !address[f]);
    if (missing.length) throw validationError(missing.map((f) => ({ field: `address.${f}`, message: 'is required for a pickup' })));
    address.country = address.country.toUpperCase();

    const now = this.deps.now();
    const window = { start: new Date(input.window.start), end: new Date(input.window.end) };
    const timeZone = location?.timezone ?? originTimeZone(address.country === 'US' ? (address.state?.toUpperCase() ?? null) : null);
    const refusal = refuseWindow(window, now, timeZone, carrier.observed_holidays);
    if (refusal) {
      throw new AppError('pickup_unavailable', `${carrier.name} cannot pick up in this window: ${refusal.message}.`, {
        details: [{ field: refusal.field, message: refusal.message, reason: refusal.reason }],
      });
    }

    let shipmentIds: string[] = [];
    let pieces: { service_code: string; quantity: number; destination_country: string }[];
    let totalWeight: number | undefined;
    if (input.shipment_ids) {
      shipmentIds = [...new Set(input.shipment_ids)];
      const found = new Map((await this.shipments.byIds(this.deps.db, ctx, shipmentIds)).map((s) => [s.id, s]));
      const problems = shipmentIds.flatMap((id, i) => {
        const s = found.get(id);
        if (!s) return [{ field: `shipment_ids[${i}]`, message: 'is not a shipment of this workspace and environment' }];
        if (s.status === 'voided') return [{ field: `shipment_ids[${i}]`, message: 'is voided' }];
        if (s.carrier !== carrier.slug) return [{ field: `shipment_ids[${i}]`, message: `is a ${s.carrier} label, not ${carrier.slug}'s` }];
        if (location && s.location_id && s.location_id !== location.id)
          return [{ field: `shipment_ids[${i}]`, message: `ships from location ${s.location_id}, not this pickup's (${location.id})` }];
        return [];
      });
      if (problems.length) throw validationError(problems);
      // Pieces per service and destination country, as carriers' pickup requests count them.
      const groups = new Map<string, { service_code: string; quantity: number; destination_country: string }>();
      for (const id of shipmentIds) {
        const s = found.get(id)!;
        const key = `${s.service_code}|${s.destination_country}`;
        const group = groups.get(key) ?? { service_code: s.service_code, quantity: 0, destination_country: s.destination_country };
        group.quantity++;
        groups.set(key, group);
      }
      pieces = [...groups.values()];
      totalWeight = shipmentIds.reduce((a, id) => a + found.get(id)!.weight_oz, 0);
    } else {
      const service = carrier.services.find((s) => s.domestic) ?? carrier.services[0]!;
      pieces = [{ service_code: service.code, quantity: input.package_count!, destination_country: address.country }];
    }
    const packageCount = input.shipment_ids ? shipmentIds.length : input.package_count!;

    const from = localTime(window.start, timeZone);
    const to = localTime(window.end, timeZone);
    const booked = await this.gateway.call(ctx, account, ctx.requestId, (d, c) =>
      d.schedulePickup(c, {
        pickup_date: from.date,
        ready_time: from.time,
        close_time: to.time === '0000' ? '2359' : to.time,
        address: { ...address, postal_code: address.postal_code ?? '' },
        residential: !address.company,
        pieces,
        ...(totalWeight !== undefined ? { total_weight_oz: totalWeight } : {}),
        ...(input.instructions ? { instructions: input.instructions } : {}),
      }),
    );
    const confirmation = booked.confirmation;
    // The carrier's charge when it says; else its usual fee (the carrier folder's data).
    const price = booked.charge ?? offer.fee;

    const id = newId('pickup');
    const cancelBy = new Date(window.start.getTime() - offer.cancel_cutoff_minutes * 60_000);
    try {
      const row = await this.deps.db.transaction().execute(async (trx) => {
        const inserted = await repo.insertPickup(trx, {
          id,
          workspace_id: ctx.workspaceId,
          environment: ctx.environment,
          carrier: carrier.slug,
          carrier_account_id: account.id,
          carrier_driver: account.driver,
          status: 'scheduled',
          confirmation_number: confirmation,
          address: JSON.stringify(address),
          location_id: location?.id ?? null,
          window_start: window.start,
          window_end: window.end,
          window_text: JSON.stringify({ start: input.window.start, end: input.window.end }),
          price_amount: price.amount,
          price_currency: price.currency,
          cancel_by: cancelBy,
          shipment_ids: JSON.stringify(shipmentIds),
          package_count: packageCount,
          instructions: input.instructions ?? null,
          created_at: now,
          updated_at: now,
        });
        if (ctx.actor.type === 'account') {
          await writeAudit(trx, ctx.actor, ctx, {
            action: 'pickup.scheduled',
            targetType: 'pickup',
            targetId: id,
            workspaceId: ctx.workspaceId,
            environment: ctx.environment,
            changes: { carrier: carrier.slug, location_id: location?.id ?? null, window: input.window, package_count: packageCount },
          });
        }
        return inserted;
      });
      return toPickup(row);
    } catch (err) {
      // Compensation: a pickup the carrier booked but we could not record is cancelled again.
      await this.gateway
        .call(ctx, account, ctx.requestId, (d, c) => d.cancelPickup(c, { confirmation }))
        .catch((cancelErr: unknown) => this.deps.log.error({ err: cancelErr, confirmation }, 'could not cancel an unrecorded carrier pickup'));
      throw err;
    }
  }

  async get(scope: Scope, id: string): Promise<Pickup> {
    const row = await repo.findPickup(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such pickup.');
    return toPickup(row);
  }

  async list(scope: Scope, filter: PickupListFilter): Promise<Page<Pickup>> {
    const page = await paginate(repo.pickupsQuery(this.deps.db, scope, { status: filter.status, locationId: filter.location_id }), {
      limit: filter.limit,
      cursor: filter.cursor,
    });
    return { ...page, data: page.data.map(toPickup) };
  }

  /**
   * POST /v1/pickups/:id/cancel: until `cancel_by`, else 409 invalid_state (as is a pickup
   * completed or failed). Cancelling a cancelled pickup answers it as it is. An api account's
   * carrier is asked first; its refusal changes nothing here.
   */
  async cancel(ctx: ServiceContext, id: string): Promise<Pickup> {
    const before = await repo.findPickup(this.deps.db, ctx, id);
    if (!before) throw new AppError('not_found', 'No such pickup.');
    if (before.status === 'cancelled') return toPickup(before);
    this.assertCancellable(before);
    const target = await this.gateway.targetOf(ctx, before);
    if (!target) throw new AppError('unprocessable', 'The carrier account that booked this pickup no longer exists.');
    await this.gateway.call(ctx, target, ctx.requestId, (d, c) => d.cancelPickup(c, { confirmation: before.confirmation_number }));
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const current = await repo.findPickup(trx, ctx, id, { forUpdate: true });
      if (!current) throw new AppError('not_found', 'No such pickup.');
      if (current.status === 'cancelled') return current;
      this.assertCancellable(current);
      const now = this.deps.now();
      const cancelled = await repo.updatePickup(trx, id, { status: 'cancelled', cancelled_at: now, updated_at: now });
      if (ctx.actor.type === 'account') {
        await writeAudit(trx, ctx.actor, ctx, {
          action: 'pickup.cancelled',
          targetType: 'pickup',
          targetId: id,
          workspaceId: ctx.workspaceId,
          environment: ctx.environment,
          changes: { status: { from: current.status, to: 'cancelled' } },
        });
      }
      return cancelled;
    });
    return toPickup(row);
  }

  private assertCancellable(row: PickupRow): void {
    if (row.status !== 'scheduled') {
      throw invalidState(`The pickup is ${row.status}; only a scheduled pickup can be cancelled.`, { current: row.status, allowedMoves: [] });
    }
    const cancelBy = new Date(row.cancel_by);
    if (this.deps.now().getTime() >= cancelBy.getTime()) {
      throw invalidState(`The pickup could be cancelled until ${cancelBy.toISOString()}; the carrier is on its way.`, {
        current: row.status,
        allowedMoves: [],
        detail: `is scheduled; cancel_by ${cancelBy.toISOString()} has passed`,
      });
    }
  }

  /**
   * The sweep job: every scheduled pickup whose window has ended completes (each in its own
   * transaction, locked and checked again, so a second run or a second worker does nothing). A
   * simulated pickup's labels get their acceptance scan (`picked_up`) at the window's end; an
   * api pickup's labels get theirs from the carrier's own tracking. Returns how many completed.
   */
  async completeDue(limit = 100): Promise<number> {
    const now = this.deps.now();
    let completed = 0;
    for (const due of await repo.duePickups(this.deps.db, now, limit)) {
      const scope: Scope = { workspaceId: due.workspace_id, environment: due.environment };
      try {
        const done = await this.deps.db.transaction().execute(async (trx) => {
          const row = await repo.findPickup(trx, scope, due.id, { forUpdate: true });
          if (!row || row.status !== 'scheduled' || new Date(row.window_end).getTime() > now.getTime()) return false;
          const at = new Date(row.window_end);
          if (this.gateway.inProcessTarget(row) && row.shipment_ids.length > 0) {
            const carrier = this.deps.carriers.get(row.carrier);
            await this.shipments.recordPickupScan(trx, scope, row.shipment_ids, {
              pickupId: row.id,
              at,
              carrierName: carrier?.name ?? row.carrier,
              location: row.address,
            });
          }
          await repo.updatePickup(trx, row.id, { status: 'completed', completed_at: at, updated_at: now });
          return true;
        });
        if (done) completed++;
      } catch (err) {
        this.deps.log.error({ err, pickup_id: due.id }, 'pickup completion failed; the next sweep tries again');
      }
    }
    return completed;
  }
}
