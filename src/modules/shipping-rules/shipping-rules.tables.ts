import type { ColumnType, Selectable } from 'kysely';
import type { RuleActions, RuleConditions } from './shipping-rules.schemas.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ShippingRulesTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  name: string;
  priority: number;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** The rule's `when` (a SQL keyword, hence the column name). */
  conditions: Json<RuleConditions>;
  /** The rule's `then`. */
  actions: Json<RuleActions>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ShippingRuleRow = Selectable<ShippingRulesTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    shipping_rules: ShippingRulesTable;
  }
}
