import type { Insertable, Selectable } from 'kysely';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../../platform/db/columns.js';
import type { SandboxOptions, TrackingMilestone, TrackingStatus } from '../../carriers/types.js';

/** One carrier scan as kept on a tracker (oldest first); `key` identifies it at its carrier. */
export interface TrackerEventRecord {
  id: string;
  key: string;
  occurred_at: string;
  status: TrackingStatus;
  status_detail: string;
  /** The buyer milestone the scan reaches (the tracking read's timeline); absent on scans kept before it was. */
  milestone?: TrackingMilestone | null;
  description: string;
  location: { city: string | null; state: string | null; postal_code: string | null; country: string | null };
  carrier_status_code: string;
}

export interface TrackersTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  carrier: string;
  tracking_number: string;
  /** The account whose api driver tracks it (null: the carrier's simulation). */
  carrier_account_id: string | null;
  carrier_driver: 'simulated' | 'api';
  /** The service the simulation plays the journey of (derived from the number where it says). */
  service_code: string;
  status: TrackingStatus;
  status_detail: string | null;
  events: Json<TrackerEventRecord[]>;
  estimated_delivery_at: NullableTimestamp;
  /** Test environment only: the simulated carrier's time scale. */
  sandbox: NullableJson<SandboxOptions>;
  /** When to ask the carrier again (null: the journey is over). */
  next_check_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type TrackerRow = Selectable<TrackersTable>;
export type NewTrackerRow = Insertable<TrackersTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    trackers: TrackersTable;
  }
}
