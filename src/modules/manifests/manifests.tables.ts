import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp, Json, NullableJson } from '../../platform/db/columns.js';

export const MANIFEST_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ManifestStatus = (typeof MANIFEST_STATUSES)[number];
export const REJECTION_CODES = [
  'already_manifested',
  'voided',
  'carrier_mismatch',
  'ship_date_mismatch',
  'not_found',
  'carrier_rejected',
  'location_mismatch',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export interface Rejection {
  shipment_id: string;
  code: RejectionCode;
  message: string;
}

export interface ManifestError {
  code: string;
  message: string;
  details: object[];
}

export interface ManifestsTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  carrier: string;
  carrier_account_id: string;
  ship_date: string;
  status: ManifestStatus;
  shipment_ids: Json<string[]>;
  rejected: Json<Rejection[]>;
  batch_id: string | null;
  /** The location (`loc_…`) it ships from; null: none (an address of its own, or from before locations). */
  location_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** scan_form | close_report (or the carrier's own document type), once ready. */
  document_type: string | null;
  document_content_type: string | null;
  document: ColumnType<Uint8Array | null, Buffer | Uint8Array | null | undefined, Buffer | Uint8Array | null>;
  /** The SCAN form number or close confirmation (the carrier's, or the one printed here). */
  carrier_manifest_id: string | null;
  error: NullableJson<ManifestError>;
  ready_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ManifestRow = Selectable<ManifestsTable>;
export type NewManifestRow = Insertable<ManifestsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    manifests: ManifestsTable;
  }
}
