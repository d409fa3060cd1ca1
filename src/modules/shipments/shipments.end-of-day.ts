import { sql } from 'kysely';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { inScope } from '../../platform/db/scope.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import * as repo from './shipments.repo.js';
import { allowedShipmentMoves } from './shipments.states.js';
import type { ShipmentAddress, ShipmentRow } from './shipments.tables.js';
import type { TrackingSync } from './shipments.tracking.js';

/**
 * What end of day (manifests and pickups) needs from shipments, and nothing
 * else: the labels a manifest lists, their `manifest_id`, the acceptance scan a completed pickup
 * gives them, and the rule that a manifested label cannot be voided. The end-of-day modules
 * reach shipments only through this (exported at index.ts), never through the tables.
 */
export interface EndOfDayShipment {
  id: string;
  carrier: string;
  carrier_account_id: string | null;
  carrier_driver: 'simulated' | 'api';
  carrier_shipment_id: string | null;
  tracking_number: string;
  service_code: string;
  service_name: string;
  weight_oz: number;
  /** The ship date the label was rated and bought for (YYYY-MM-DD). */
  ship_date: string;
  status: ShipmentRow['status'];
  manifest_id: string | null;
  ship_from: ShipmentAddress;
  /** The location it ships from (null: an address of its own). */
  location_id: string | null;
  destination_country: string;
}

function toEndOfDay(row: ShipmentRow): EndOfDayShipment {
  return {
    id: row.id,
    carrier: row.carrier,
    carrier_account_id: row.carrier_account_id,
    carrier_driver: row.carrier_driver,
    carrier_shipment_id: row.carrier_shipment_id,
    tracking_number: row.tracking_number,
    service_code: row.service_code,
    service_name: row.service_name,
    weight_oz: row.parcel.weight_oz,
    ship_date: row.rate.ship_date,
    status: row.status,
    manifest_id: row.manifest_id,
    ship_from: row.ship_from,
    location_id: row.location_id,
    destination_country: row.ship_to.country,
  };
}

/**
 * A label on a manifest was handed to the carrier on a form: it cannot be voided (409
 * invalid_state, the detail naming the manifest). Kept apart from the void itself so the
 * void path stays the refunds work's.
 */
export function assertNotManifested(row: Pick<ShipmentRow, 'status' | 'manifest_id'>): void {
  if (!row.manifest_id) return;
  throw new AppError('invalid_state', `The shipment is on manifest ${row.manifest_id}, already handed to the carrier; a manifested label cannot be voided.`, {
    details: [
      {
        field: 'status',
        message: `is on manifest ${row.manifest_id}; cannot be voided`,
        current_state: row.status,
        allowed_moves: allowedShipmentMoves(row.status).filter((m) => m !== 'void'),
        manifest_id: row.manifest_id,
      },
    ],
  });
}

export class ShipmentsEndOfDay {
  constructor(
    private readonly deps: Deps,
    private readonly tracking: TrackingSync,
  ) {}

  /**
   * Live labels of an account for a ship date that are on no manifest yet, oldest first; of one
   * location when given (and those of no location too, for the default location's form).
   */
  async unmanifested(
    executor: Executor,
    scope: Scope,
    accountId: string,
    shipDate: string,
    location: { id: string; withUnlocated: boolean } | null = null,
  ): Promise<EndOfDayShipment[]> {
    let q = executor
      .selectFrom('shipments')
      .selectAll()
      .where(inScope(scope))
      .where('carrier_account_id', '=', accountId)
      .where('manifest_id', 'is', null)
      .where('status', '<>', 'voided')
      .where(sql<string>`rate->>'ship_date'`, '=', shipDate);
    if (location)
      q = q.where((eb) =>
        location.withUnlocated ? eb.or([eb('location_id', '=', location.id), eb('location_id', 'is', null)]) : eb('location_id', '=', location.id),
      );
    const rows = await q.orderBy('created_at').orderBy('id').execute();
    return rows.map(toEndOfDay);
  }

  /** Shipments of the scope by id (missing and foreign ids are absent). */
  async byIds(executor: Executor, scope: Scope, ids: readonly string[]): Promise<EndOfDayShipment[]> {
    return (await repo.findShipmentsByIds(executor, scope, ids)).map(toEndOfDay);
  }

  /**
   * Puts these shipments on the manifest, each only if it is still live and on no other
   * (rows locked by the update): returns the ids it took. Two manifests created at once never
   * share a label; the loser reports the rest as already_manifested.
   */
  async claimForManifest(trx: Executor, scope: Scope, ids: readonly string[], manifestId: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable('shipments')
      .set({ manifest_id: manifestId })
      .where(inScope(scope))
      .where('id', 'in', ids)
      .where('manifest_id', 'is', null)
      .where('status', '<>', 'voided')
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Takes these shipments off the manifest again (the carrier left them off, or the manifest failed). */
  async release(trx: Executor, scope: Scope, ids: readonly string[], manifestId: string): Promise<void> {
    if (ids.length === 0) return;
    await trx.updateTable('shipments').set({ manifest_id: null }).where(inScope(scope)).where('id', 'in', ids).where('manifest_id', '=', manifestId).execute();
  }

  /**
   * The acceptance scan of a completed pickup: a `picked_up` event at `at` for each live
   * shipment (the pickup id is the event's key, so a second run adds nothing), the shipment
   * moved to in_transit from label_purchased, and `tracking.updated` where the status changed.
   */
  async recordPickupScan(
    trx: Executor,
    scope: Scope,
    ids: readonly string[],
    scan: { pickupId: string; at: Date; carrierName: string; location: ShipmentAddress },
  ): Promise<number> {
    let scanned = 0;
    const now = this.deps.now();
    for (const id of ids) {
      const row = await repo.findShipment(trx, scope, id, { forUpdate: true });
      if (!row || row.status === 'voided') continue;
      const added = await repo.insertTrackingEvents(trx, [
        {
          id: newId('trackingEvent'),
          workspace_id: row.workspace_id,
          environment: row.environment,
          shipment_id: row.id,
          tracking_number: row.tracking_number,
          carrier: row.carrier,
          event_key: `PICKUP|${scan.pickupId}`,
          seq: 5_000,
          occurred_at: scan.at,
          status: 'in_transit',
          status_detail: 'picked_up',
          milestone: 'picked_up',
          description: `Picked up by ${scan.carrierName} (scheduled pickup ${scan.pickupId})`,
          location: JSON.stringify({
            city: scan.location.city ?? null,
            state: scan.location.state ?? null,
            postal_code: scan.location.postal_code ?? null,
            country: scan.location.country ?? null,
          }),
          carrier_status_code: 'PU',
          created_at: now,
        },
      ]);
      if (added.length === 0) continue;
      scanned++;
      if (row.status !== 'label_purchased') continue;
      const moved = await repo.updateShipment(trx, row.id, {
        status: 'in_transit',
        tracking_status: 'in_transit',
        tracking_status_detail: 'picked_up',
        updated_at: now,
      });
      await this.tracking.recordTrackingUpdated(trx, moved, row.status);
    }
    return scanned;
  }
}
