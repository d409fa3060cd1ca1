import type { ColumnType, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from '../../platform/db/columns.js';

export type OfficeProduct = 'office_2024' | 'office_365';

export interface OfficePinsTable {
  id: string;
  pin: string;
  product: OfficeProduct;
  /** Stored state; a PIN past expires_at reads as `expired` (computed, never swept). */
  status: 'active' | 'revoked';
  expires_at: Timestamp;
  order_id: string | null;
  workspace_id: string | null;
  environment: 'test' | 'live' | null;
  line_index: number | null;
  unit_index: number | null;
  test: ColumnType<boolean, boolean | undefined, boolean>;
  lookup_count: ColumnType<number, number | undefined, number>;
  last_lookup_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  renewed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OfficeRedeemConfigTable {
  product: OfficeProduct;
  value: ColumnType<Record<string, unknown>, string, string>;
  updated_at: Timestamp;
  updated_by: string | null;
}

export type OfficePinRow = Selectable<OfficePinsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    office_pins: OfficePinsTable;
    office_redeem_config: OfficeRedeemConfigTable;
  }
}
