import type { ShipmentOptionsInput } from '../shipment-options/index.js';
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp, Json, NullableJson } from '../../platform/db/columns.js';
import type { CustomsDeclaration } from '../../carriers/types.js';
import type { OrderStatus } from './orders.states.js';

export interface StoredAddress {
  name?: string;
  company?: string;
  street1?: string;
  street2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
  phone?: string;
  email?: string;
}

export interface StoredLineItem {
  sku: string | null;
  name: string | null;
  quantity: number;
  unit_price: { amount: number; currency: string } | null;
  weight_oz: number | null;
  /** Only when the line was given one (for a derived customs declaration). */
  hs_tariff_number?: string | null;
  /** The store platform's line id, on orders a connector imported (docs/channels.md). */
  external_line_id?: string;
}

/** Set when a store changed an order we can no longer change (docs/channels.md). */
export interface NeedsReview {
  reason: 'edited_after_label' | 'cancelled_on_channel';
  changes: string[];
  at: string;
}

export interface StoredParcel {
  weight_oz: number;
  length_in: number;
  width_in: number;
  height_in: number;
  /** The package it ships in (a `pkg_…` preset, or a carrier's packaging, which that carrier prices). */
  package_id?: string;
}

/** What the client sent for the parcel (each field optional); null = derive all of it. */
export type ParcelInput = Partial<StoredParcel>;

export interface OrdersTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  /** 'api' or the integration id that imported the order. */
  source: string;
  external_id: string | null;
  status: OrderStatus;
  archived: ColumnType<boolean, boolean | undefined, boolean>;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  ship_to: Json<StoredAddress>;
  ship_from: NullableJson<StoredAddress>;
  /** The location (`loc_…`) it ships from; null: none (an address of its own, or from before locations). */
  location_id: ColumnType<string | null, string | null | undefined, string | null>;
  line_items: Json<StoredLineItem[]>;
  parcel: Json<StoredParcel>;
  parcel_input: NullableJson<ParcelInput>;
  /** A multi-piece order's pieces, resolved (`parcel` is the first); null: the one parcel. */
  parcels: NullableJson<StoredParcel[]>;
  requested_service: string | null;
  /** The customs declaration the sender gave; null: derived from line items at purchase. */
  customs: NullableJson<CustomsDeclaration>;
  notes: string | null;
  /** The shipment options given (the default of its labels); null: none. */
  options: ColumnType<ShipmentOptionsInput | null, string | null | undefined, string | null>;
  /** The store's own order number (Shopify's `name`), on imported orders. */
  external_number: string | null;
  /** The platform version (its updated_at) last applied, so older or repeated ones change nothing. */
  channel_version: string | null;
  needs_review: NullableJson<NeedsReview>;
  processed_at: NullableTimestamp;
  shipped_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  archived_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    orders: OrdersTable;
  }
}
