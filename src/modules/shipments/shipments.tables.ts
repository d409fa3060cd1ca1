import type { StoredPackage } from './shipments.packages.js';
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp, Json, NullableJson } from '../../platform/db/columns.js';
import type { CustomsDeclaration, SandboxOptions, ShipmentOptions, TrackingMilestone, TrackingStatus } from '../../carriers/types.js';
import type { ShipmentStatus } from './shipments.states.js';
import type { AddressValidationResult } from '../addresses/index.js';
import type { Selection } from '../shipping-rules/index.js';

export interface ShipmentAddress {
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

export type AddressValidationMode = 'none' | 'validate' | 'validate_and_clean';

/** What a purchase recorded about its destination check. */
export interface AddressCheckRecord {
  mode: AddressValidationMode;
  status: AddressValidationResult['status'] | null;
  messages: AddressValidationResult['messages'];
  source: { type: 'built_in' | 'carrier'; carrier?: string; carrier_account_id?: string } | null;
}

/** What the rate said at purchase (the rate option without its id and tags). */
export interface StoredRate {
  zone: number;
  base_price: { amount: number; currency: string };
  surcharges: { code: string; amount: { amount: number; currency: string } }[];
  billable_weight_oz: number;
  dim_weight_oz: number | null;
  dim_divisor: number | null;
  dim_divisor_unit: 'in3_per_lb' | 'cm3_per_kg' | null;
  delivery: { business_days: number; estimated_delivery_date: string; guaranteed: boolean };
  rate_table_version: string;
  ship_date: string;
  residential: boolean;
}

export interface ShipmentsTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  order_id: string;
  carrier: string;
  service_code: string;
  service_name: string;
  tracking_number: string;
  status: ShipmentStatus;
  price_amount: number;
  price_currency: string;
  rate: Json<StoredRate>;
  ship_from: Json<ShipmentAddress>;
  /** The location (`loc_…`) it ships from; null: none (an address of its own, or from before locations). */
  location_id: ColumnType<string | null, string | null | undefined, string | null>;
  ship_to: Json<ShipmentAddress>;
  parcel: Json<{ weight_oz: number; length_in: number; width_in: number; height_in: number }>;
  label_format: string;
  label_created_at: Timestamp;
  tracking_status: TrackingStatus;
  tracking_status_detail: string | null;
  estimated_delivery_date: string | null;
  expected_milestones: Json<Partial<Record<TrackingMilestone, string>>>;
  /** Test environment only: time scale and scenario the simulated carrier plays. */
  sandbox: NullableJson<SandboxOptions>;
  /** When tracking should be asked again (null: nothing more to come). */
  next_check_at: NullableTimestamp;
  purchased_at: Timestamp;
  /** The carrier account that sold the label (null: bought before accounts existed). */
  carrier_account_id: string | null;
  carrier_driver: ColumnType<'simulated' | 'api', 'simulated' | 'api' | undefined, 'simulated' | 'api'>;
  /** How the shipping rules chose the service; null when it was given. */
  selection: NullableJson<Selection>;
  /** The carrier's own shipment id (what a void sends); api shipments only. */
  carrier_shipment_id: string | null;
  /** The image the carrier issued (GIF, PNG, ZPL, PDF); api shipments only. */
  carrier_label_format: string | null;
  /** The destination check before purchase; null for shipments bought before it existed. */
  address_validation: NullableJson<AddressCheckRecord>;
  /** The address as the order gave it, when validate_and_clean shipped to the normalised one. */
  ship_to_original: NullableJson<ShipmentAddress>;
  /** The customs declaration the label was bought with; null for a domestic parcel. */
  customs: NullableJson<CustomsDeclaration>;
  /** The shipment options in force when the label was bought (the order's, overridden key by key); null: defaults. */
  options: NullableJson<ShipmentOptions>;
  /** A multi-piece shipment's packages (shipments.packages.ts), the first the master; null: one parcel. */
  packages: NullableJson<StoredPackage[]>;
  // ---- returns and refunds (see shipments.returns.ts, shipments.refunds.ts) ----
  is_return: ColumnType<boolean, boolean | undefined, boolean>;
  /** The outbound shipment this return label sends back (null: an outbound label, or a standalone return). */
  return_of: string | null;
  return_charge: 'on_creation' | 'on_scan' | null;
  return_expires_at: NullableTimestamp;
  rma_number: string | null;
  return_reason: string | null;
  /** pending: an on_scan return not scanned yet; charged; not_charged (expired, or voided before any charge). */
  billing_status: ColumnType<BillingStatus, BillingStatus | undefined, BillingStatus>;
  refund_id: string | null;
  refund_status: RefundStatus | null;
  refund_amount: number | null;
  refund_currency: string | null;
  refund_requested_at: NullableTimestamp;
  refund_decided_at: NullableTimestamp;
  refund_reason: string | null;
  /** When the simulated carrier decides a submitted refund (the refunds job). */
  refund_decide_after: NullableTimestamp;
  /** The end-of-day manifest the label is on; null until manifested. */
  manifest_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last POST /v1/tracking/:id/refresh (once a minute). */
  tracking_refreshed_at: NullableTimestamp;
  voided_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type BillingStatus = 'pending' | 'charged' | 'not_charged';
export type RefundStatus = 'submitted' | 'refunded' | 'rejected';

export interface ShipmentLabelsTable {
  shipment_id: string;
  format: string;
  workspace_id: string;
  environment: string;
  content_type: string;
  /** Uint8Array from PGlite, Buffer from node-pg. */
  body: ColumnType<Uint8Array, Buffer | Uint8Array, Buffer | Uint8Array>;
  created_at: Timestamp;
}

/** A customs document of a shipment: rendered here on first download, or issued by its carrier (see the migration). */
export interface ShipmentDocumentsTable {
  shipment_id: string;
  /** `cn22`, `cn23`, `commercial_invoice`, or a carrier's own type (`waybill`, …). */
  type: string;
  workspace_id: string;
  environment: string;
  source: 'platform' | 'carrier';
  content_type: string;
  body: ColumnType<Uint8Array, Buffer | Uint8Array, Buffer | Uint8Array>;
  created_at: Timestamp;
}

/** A label a real carrier issued, as received, kept from the moment it answered (see the migration). */
export interface CarrierLabelsTable {
  id: string;
  workspace_id: string;
  environment: string;
  carrier_account_id: string;
  shipment_id: string;
  carrier: string;
  tracking_number: string;
  carrier_shipment_id: string;
  format: 'GIF' | 'PNG' | 'ZPL' | 'PDF';
  content_type: string;
  body: ColumnType<Uint8Array, Buffer | Uint8Array, Buffer | Uint8Array>;
  status: 'issued' | 'kept' | 'compensated' | 'void_failed';
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TrackingLocationRow {
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface TrackingEventsTable {
  id: string;
  workspace_id: string;
  environment: string;
  shipment_id: string;
  tracking_number: string;
  carrier: string;
  /** Identifies the carrier's event, so a re-ingested scan is dropped. */
  event_key: string;
  /** Position in the carrier's journey: orders events that share a timestamp. */
  seq: number;
  occurred_at: Timestamp;
  status: TrackingStatus;
  status_detail: string;
  milestone: TrackingMilestone | null;
  description: string;
  location: Json<TrackingLocationRow>;
  carrier_status_code: string;
  created_at: Timestamp;
}

export type ShipmentRow = Selectable<ShipmentsTable>;
export type NewShipmentRow = Insertable<ShipmentsTable>;
export type TrackingEventRow = Selectable<TrackingEventsTable>;
export type NewTrackingEventRow = Insertable<TrackingEventsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    shipments: ShipmentsTable;
    shipment_labels: ShipmentLabelsTable;
    shipment_documents: ShipmentDocumentsTable;
    carrier_labels: CarrierLabelsTable;
    tracking_events: TrackingEventsTable;
  }
}
