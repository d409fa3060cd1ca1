import type { Insertable, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/columns.js';

export interface PackagesTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  name: string;
  length_in: number;
  width_in: number;
  height_in: number;
  /** What the empty box weighs: added to the contents' weight when it is used. */
  tare_weight_oz: number;
  /** The most the packed box may weigh (null: no limit of its own). */
  max_weight_oz: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type PackageRow = Selectable<PackagesTable>;
export type NewPackageRow = Insertable<PackagesTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    packages: PackagesTable;
  }
}
