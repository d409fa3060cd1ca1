import type { Insertable, Selectable } from 'kysely';
import type { Json, NullableJson, Timestamp } from '../../platform/db/columns.js';

export interface LocationAddress {
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

export interface LocationsTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  name: string;
  address: Json<LocationAddress>;
  return_address: NullableJson<LocationAddress>;
  /** IANA zone: the location's clock for ship dates and its cut-off. */
  timezone: string;
  /** HH:MM local: parcels handed over after it leave the next business day. */
  pickup_cutoff: string;
  is_default: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type LocationRow = Selectable<LocationsTable>;
export type NewLocationRow = Insertable<LocationsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    locations: LocationsTable;
  }
}
