import type { Money } from '../../platform/http/schemas.js';
import type { ConsideredOption, RuleActions, RuleConditions, Selection, Strategy } from './shipping-rules.schemas.js';

/**
 * Choosing a service by the shipping rules, pure: no I/O, no clock. The
 * service module rates the order and loads the rules; this decides and explains.
 */

/** What a rule's `when` is matched against. */
export interface OrderFacts {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  state: string | null;
  residential: boolean;
  weight_oz: number;
  /** The sum of the line items' unit_price × quantity; null when no line has a price (or prices disagree on currency). */
  value: Money | null;
  skus: readonly string[];
}

/** One rate option as the rules see it (a service of one carrier account). */
export interface Candidate {
  service_code: string;
  carrier: string;
  carrier_account_id: string | null;
  price: Money;
  business_days: number;
}

export interface RuleForSelection {
  id: string;
  name: string;
  enabled: boolean;
  when: RuleConditions;
  then: RuleActions;
}

export type SelectionOutcome =
  | { ok: true; selection: Selection; chosen: Candidate }
  /** Every option was excluded by `rule` (or there was none to start with, rule null). */
  | { ok: false; rule: RuleForSelection | null; considered: ConsideredOption[] };

/** Whether every condition of `when` holds for the order (an empty `when` matches every order). */
export function matchesRule(when: RuleConditions, facts: OrderFacts): boolean {
  if (when.destination_countries && !when.destination_countries.includes(facts.country)) return false;
  if (when.destination_states) {
    const state = facts.state?.trim().toUpperCase();
    if (!state || !when.destination_states.some((s) => s.toUpperCase() === state)) return false;
  }
  if (when.residential !== undefined && when.residential !== facts.residential) return false;
  if (when.weight_oz) {
    if (when.weight_oz.min !== undefined && facts.weight_oz < when.weight_oz.min) return false;
    if (when.weight_oz.max !== undefined && facts.weight_oz > when.weight_oz.max) return false;
  }
  if (when.order_value) {
    const { min, max } = when.order_value;
    const value = facts.value;
    if (!value) return false;
    if (min && (min.currency !== value.currency || value.amount < min.amount)) return false;
    if (max && (max.currency !== value.currency || value.amount > max.amount)) return false;
  }
  if (when.skus_any && !facts.skus.some((sku) => when.skus_any!.includes(sku))) return false;
  return true;
}

/** Why `then` excludes the option, or null when it stays. The first failing filter is the reason. */
export function exclusionReason(then: RuleActions, option: Candidate): string | null {
  if (then.exclude_carriers?.includes(option.carrier)) return `carrier ${option.carrier} is excluded`;
  if (then.exclude_services?.includes(option.service_code)) return `service ${option.service_code} is excluded`;
  if (then.only_services && !then.only_services.includes(option.service_code)) return `service ${option.service_code} is not in only_services`;
  if (then.max_business_days !== undefined && option.business_days > then.max_business_days) {
    return `${option.business_days} business days is more than max_business_days ${then.max_business_days}`;
  }
  if (then.max_price) {
    if (option.price.currency !== then.max_price.currency) return `priced in ${option.price.currency}, max_price is in ${then.max_price.currency}`;
    if (option.price.amount > then.max_price.amount) return `${formatMoney(option.price)} is more than max_price ${formatMoney(then.max_price)}`;
  }
  return null;
}

/**
 * Applies the first enabled rule (in the given order: priority, then age) whose `when` matches:
 * its filters, then its strategy. No rule matches → the cheapest option, rule_id null.
 * `considered` lists every option, cheapest first.
 */
export function selectService(facts: OrderFacts, options: readonly Candidate[], rules: readonly RuleForSelection[]): SelectionOutcome {
  const ordered = [...options].sort(byPrice);
  const rule = rules.find((r) => r.enabled && matchesRule(r.when, facts)) ?? null;
  const strategy: Strategy = rule?.then.choose ?? 'cheapest';
  const reasons = ordered.map((o) => (rule ? exclusionReason(rule.then, o) : null));
  const remaining = ordered.filter((_, i) => reasons[i] === null);
  const considered = (chosen: Candidate | null, why: string | null): ConsideredOption[] =>
    ordered.map((o, i) => ({
      service_code: o.service_code,
      carrier_account_id: o.carrier_account_id,
      price: o.price,
      business_days: o.business_days,
      excluded: reasons[i] !== null,
      reason: reasons[i] ?? (o === chosen ? why : null),
    }));
  if (remaining.length === 0) return { ok: false, rule, considered: considered(null, null) };
  const { chosen, why } = pick(strategy, remaining, rule?.then.preferred_services ?? []);
  return {
    ok: true,
    chosen,
    selection: {
      rule_id: rule?.id ?? null,
      rule_name: rule?.name ?? null,
      strategy,
      chosen: chosen.service_code,
      carrier_account_id: chosen.carrier_account_id,
      considered: considered(chosen, rule ? why : `no rule matched: ${why}`),
    },
  };
}

/** The strategy's choice among the remaining options (sorted cheapest first) and why. */
function pick(strategy: Strategy, remaining: readonly Candidate[], preferred: readonly string[]): { chosen: Candidate; why: string } {
  switch (strategy) {
    case 'cheapest':
      return { chosen: remaining[0], why: 'cheapest' };
    case 'fastest':
      return {
        chosen: [...remaining].sort((a, b) => a.business_days - b.business_days || byPrice(a, b))[0],
        why: 'fastest (fewest business days, then cheapest)',
      };
    case 'best_value': {
      const fastest = Math.min(...remaining.map((o) => o.business_days));
      // Sorted cheapest first, so the first within a day of the fastest is the cheapest of them.
      const chosen = remaining.find((o) => o.business_days <= fastest + 1)!;
      return { chosen, why: `best value: the cheapest within one business day of the fastest remaining (${fastest})` };
    }
    case 'preferred':
      for (const code of preferred) {
        const hit = remaining.find((o) => o.service_code === code);
        if (hit) return { chosen: hit, why: `preferred service ${code}` };
      }
      return { chosen: remaining[0], why: 'none of preferred_services was available: cheapest' };
  }
}

/** Cheapest first; ties: fewer business days, then service code and account (a stable, total order). */
function byPrice(a: Candidate, b: Candidate): number {
  return (
    a.price.amount - b.price.amount ||
    a.business_days - b.business_days ||
    compare(a.service_code, b.service_code) ||
    compare(a.carrier_account_id ?? '', b.carrier_account_id ?? '')
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Minor units as they are on the wire (no decimals guessed per currency). */
function formatMoney(m: Money): string {
  return `${m.amount} ${m.currency}`;
}
