import { iso } from '../../platform/http/wire.js';
import type { Tracker } from './trackers.schemas.js';
import type { TrackerRow } from './trackers.tables.js';

export function toTracker(row: TrackerRow): Tracker {
  return {
    id: row.id,
    carrier: row.carrier,
    tracking_number: row.tracking_number,
    carrier_account_id: row.carrier_account_id,
    status: row.status,
    status_detail: row.status_detail,
    events: [...row.events].reverse().map(({ key: _key, milestone: _milestone, ...e }) => e),
    estimated_delivery_at: iso(row.estimated_delivery_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
