import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp, Json } from '../../platform/db/columns.js';

export const PICKUP_STATUSES = ['scheduled', 'cancelled', 'completed', 'failed'] as const;
export type PickupStatus = (typeof PICKUP_STATUSES)[number];

export interface PickupAddress {
  name?: string;
  company?: string;
  street1?: string;
  street2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country: string;
  phone?: string;
  email?: string;
}

export interface PickupsTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  carrier: string;
  carrier_account_id: string;
  carrier_driver: 'simulated' | 'api';
  status: PickupStatus;
  confirmation_number: string;
  address: Json<PickupAddress>;
  /** The location (`loc_…`) it ships from; null: none (an address of its own, or from before locations). */
  location_id: ColumnType<string | null, string | null | undefined, string | null>;
  window_start: Timestamp;
  window_end: Timestamp;
  /** The window as the client wrote it (ISO 8601 with its offset), answered back as given. */
  window_text: Json<{ start: string; end: string }>;
  price_amount: number;
  price_currency: string;
  cancel_by: Timestamp;
  shipment_ids: Json<string[]>;
  package_count: number;
  instructions: string | null;
  cancelled_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type PickupRow = Selectable<PickupsTable>;
export type NewPickupRow = Insertable<PickupsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    pickups: PickupsTable;
  }
}
