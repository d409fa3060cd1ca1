import type { CarrierRegistry } from '../../carriers/registry.js';
import type { ErrorDetail } from '../../platform/errors.js';
import { normalizeCountry } from '../addresses/index.js';
import type { RuleActions, RuleConditions } from './shipping-rules.schemas.js';

/**
 * What the schema cannot check of a rule: known countries, carriers and service codes, ranges
 * whose min exceeds max, Money bounds in two currencies, and `preferred` without its list. One
 * detail per faulty field. Returns the conditions normalised (country and state codes upper case).
 */
export function ruleProblems(carriers: CarrierRegistry, when: RuleConditions, then: RuleActions): { problems: ErrorDetail[]; when: RuleConditions } {
  const problems: ErrorDetail[] = [];
  const normalized: RuleConditions = { ...when };

  if (when.destination_countries) {
    normalized.destination_countries = when.destination_countries.map((c, i) => {
      const code = normalizeCountry(c);
      if (!code) problems.push({ field: `when.destination_countries[${i}]`, message: `"${c}" is not an ISO 3166-1 alpha-2 country code` });
      return code ?? c;
    });
    if (new Set(normalized.destination_countries).size !== normalized.destination_countries.length) {
      problems.push({ field: 'when.destination_countries', message: 'lists a country twice' });
    }
  }
  if (when.destination_states) normalized.destination_states = when.destination_states.map((s) => s.trim().toUpperCase());
  if (when.weight_oz?.min !== undefined && when.weight_oz.max !== undefined && when.weight_oz.min > when.weight_oz.max) {
    problems.push({ field: 'when.weight_oz.min', message: `must be ≤ max (${when.weight_oz.max})` });
  }
  const value = when.order_value;
  if (value?.min && value.max) {
    if (value.min.currency !== value.max.currency)
      problems.push({ field: 'when.order_value.max.currency', message: `must be the currency of min (${value.min.currency})` });
    else if (value.min.amount > value.max.amount) problems.push({ field: 'when.order_value.min.amount', message: `must be ≤ max (${value.max.amount})` });
  }

  then.exclude_carriers?.forEach((slug, i) => {
    if (!carriers.get(slug))
      problems.push({ field: `then.exclude_carriers[${i}]`, message: `"${slug}" is not a known carrier (${carriers.carriers.map((c) => c.slug).join(', ')})` });
  });
  for (const field of ['exclude_services', 'only_services', 'preferred_services'] as const) {
    then[field]?.forEach((code, i) => {
      if (!carriers.byServiceCode(code))
        problems.push({ field: `then.${field}[${i}]`, message: `unknown service code "${code}" (GET /v1/carrier-types lists them)` });
    });
  }
  if (then.choose === 'preferred' && !then.preferred_services)
    problems.push({ field: 'then.preferred_services', message: 'is required when choose is preferred' });
  if (then.choose !== 'preferred' && then.preferred_services)
    problems.push({ field: 'then.preferred_services', message: 'applies only when choose is preferred' });
  return { problems, when: normalized };
}
