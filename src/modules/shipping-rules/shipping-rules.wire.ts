import type { ShippingRule } from './shipping-rules.schemas.js';
import type { ShippingRuleRow } from './shipping-rules.tables.js';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toShippingRule(row: ShippingRuleRow): ShippingRule {
  return {
    id: row.id,
    name: row.name,
    priority: row.priority,
    enabled: row.enabled,
    when: row.conditions,
    then: row.actions,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
