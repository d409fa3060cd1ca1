import type { FieldError, Schemas } from '../api/client';

export type ShippingRule = Schemas['ShippingRule'];
export type Strategy = ShippingRule['then']['choose'];
export const STRATEGIES: Strategy[] = ['cheapest', 'fastest', 'best_value', 'preferred'];

/**
 * A rule as the form holds it: every input a string, so a half-typed value stays as typed. Money
 * is in major units (12.50); lists are comma- or space-separated.
 */
export interface RuleDraft {
  name: string;
  priority: string;
  enabled: boolean;
  countries: string;
  states: string;
  residential: 'any' | 'yes' | 'no';
  weightMin: string;
  weightMax: string;
  valueMin: string;
  valueMax: string;
  valueCurrency: string;
  skus: string;
  excludeCarriers: string;
  excludeServices: string;
  onlyServices: string;
  maxDays: string;
  maxPrice: string;
  maxPriceCurrency: string;
  choose: Strategy;
  preferred: string;
}

const joined = (list: string[] | undefined) => (list ?? []).join(', ');
const major = (amount: number | undefined) => (amount === undefined ? '' : String(amount / 100));
const text = (n: number | undefined) => (n === undefined ? '' : String(n));

export function draftOf(rule: ShippingRule | null, nextPriority: number): RuleDraft {
  const w = rule?.when ?? {};
  const t = rule?.then ?? { choose: 'cheapest' as const };
  return {
    name: rule?.name ?? '',
    priority: String(rule?.priority ?? nextPriority),
    enabled: rule?.enabled ?? true,
    countries: joined(w.destination_countries),
    states: joined(w.destination_states),
    residential: w.residential === undefined ? 'any' : w.residential ? 'yes' : 'no',
    weightMin: text(w.weight_oz?.min),
    weightMax: text(w.weight_oz?.max),
    valueMin: major(w.order_value?.min?.amount),
    valueMax: major(w.order_value?.max?.amount),
    valueCurrency: w.order_value?.min?.currency ?? w.order_value?.max?.currency ?? 'USD',
    skus: joined(w.skus_any),
    excludeCarriers: joined(t.exclude_carriers),
    excludeServices: joined(t.exclude_services),
    onlyServices: joined(t.only_services),
    maxDays: text(t.max_business_days),
    maxPrice: major(t.max_price?.amount),
    maxPriceCurrency: t.max_price?.currency ?? 'USD',
    choose: t.choose,
    preferred: joined(t.preferred_services),
  };
}

const list = (s: string) => {
  const items = s.split(/[\s,]+/).filter(Boolean);
  return items.length ? items : undefined;
};
/**
 * A number as typed; what is not one goes to the service as it is (a string), so the service's
 * schema names the field instead of the form guessing.
 */
const num = (s: string): number | undefined => {
  const v = s.trim();
  if (!v) return undefined;
  const n = Number(v);
  return (Number.isFinite(n) ? n : v) as number;
};
const cents = (s: string, currency: string) => {
  const n = num(s);
  if (n === undefined) return undefined;
  return { amount: typeof n === 'number' ? Math.round(n * 100) : n, currency: currency.trim().toUpperCase() };
};
const range = <T>(min: T | undefined, max: T | undefined) =>
  min === undefined && max === undefined ? undefined : { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
/** Drops the keys left undefined, so "any" is the condition's absence. */
const compact = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function bodyOf(d: RuleDraft): { name: string; priority: number; enabled: boolean; when: ShippingRule['when']; then: ShippingRule['then'] } {
  const when = compact({
    destination_countries: list(d.countries),
    destination_states: list(d.states),
    residential: d.residential === 'any' ? undefined : d.residential === 'yes',
    weight_oz: range(num(d.weightMin), num(d.weightMax)),
    order_value: range(cents(d.valueMin, d.valueCurrency), cents(d.valueMax, d.valueCurrency)),
    skus_any: list(d.skus),
  });
  const then = compact({
    exclude_carriers: list(d.excludeCarriers),
    exclude_services: list(d.excludeServices),
    only_services: list(d.onlyServices),
    max_business_days: num(d.maxDays),
    max_price: cents(d.maxPrice, d.maxPriceCurrency),
    choose: d.choose,
    preferred_services: d.choose === 'preferred' ? list(d.preferred) : undefined,
  });
  return { name: d.name.trim(), priority: num(d.priority) as number, enabled: d.enabled, when, then };
}

/** Where each input's server details come from: the field paths it owns (with their sub-paths). */
export const FIELD_PATHS: Record<string, string[]> = {
  name: ['name'],
  priority: ['priority'],
  enabled: ['enabled'],
  countries: ['when.destination_countries'],
  states: ['when.destination_states'],
  residential: ['when.residential'],
  weightMin: ['when.weight_oz.min', 'when.weight_oz'],
  weightMax: ['when.weight_oz.max'],
  valueMin: ['when.order_value.min.amount', 'when.order_value.min', 'when.order_value'],
  valueMax: ['when.order_value.max.amount', 'when.order_value.max'],
  valueCurrency: ['when.order_value.min.currency', 'when.order_value.max.currency'],
  skus: ['when.skus_any'],
  excludeCarriers: ['then.exclude_carriers'],
  excludeServices: ['then.exclude_services'],
  onlyServices: ['then.only_services'],
  maxDays: ['then.max_business_days'],
  maxPrice: ['then.max_price.amount', 'then.max_price'],
  maxPriceCurrency: ['then.max_price.currency'],
  choose: ['then.choose', 'then'],
  preferred: ['then.preferred_services'],
};

/** The input a detail belongs to: the one owning the longest path that is the detail's field or its prefix. */
export function inputOf(field: string): string | undefined {
  let best: { input: string; length: number } | undefined;
  for (const [input, paths] of Object.entries(FIELD_PATHS)) {
    for (const p of paths) {
      const owns = field === p || field.startsWith(`${p}.`) || field.startsWith(`${p}[`);
      if (owns && (!best || p.length > best.length)) best = { input, length: p.length };
    }
  }
  return best?.input;
}

/** The details that belong to an input, joined; undefined when none. */
export function errorsFor(details: FieldError[] | undefined, input: string): string | undefined {
  const mine = (details ?? [])
    .filter((d) => inputOf(d.field) === input)
    .map((d) => {
      // A list item's detail says which item, counted from 1 as the user typed them.
      const item = /\[(\d+)\]$/.exec(d.field);
      return item ? `item ${Number(item[1]) + 1}: ${d.message}` : d.message;
    });
  return mine.length ? mine.join('; ') : undefined;
}

/** A one-line reading of a rule's conditions and actions, for the list. */
export function describeRule(r: ShippingRule): { when: string; then: string } {
  const w = r.when;
  const money = (m: { amount: number; currency: string }) => `${(m.amount / 100).toFixed(2)} ${m.currency}`;
  const bounds = (min: string | undefined, max: string | undefined, unit = '') =>
    min && max ? `${min}–${max}${unit}` : min ? `≥ ${min}${unit}` : `≤ ${max}${unit}`;
  const conds = [
    w.destination_countries && `to ${w.destination_countries.join(', ')}`,
    w.destination_states && `states ${w.destination_states.join(', ')}`,
    w.residential !== undefined && (w.residential ? 'residential' : 'commercial'),
    w.weight_oz && `weight ${bounds(text(w.weight_oz.min) || undefined, text(w.weight_oz.max) || undefined, ' oz')}`,
    w.order_value && `value ${bounds(w.order_value.min && money(w.order_value.min), w.order_value.max && money(w.order_value.max))}`,
    w.skus_any && `SKU ${w.skus_any.join(', ')}`,
  ].filter(Boolean);
  const t = r.then;
  const acts = [
    t.exclude_carriers && `no ${t.exclude_carriers.join(', ')}`,
    t.exclude_services && `not ${t.exclude_services.join(', ')}`,
    t.only_services && `only ${t.only_services.join(', ')}`,
    t.max_business_days !== undefined && `≤ ${t.max_business_days} days`,
    t.max_price && `≤ ${money(t.max_price)}`,
    t.choose === 'preferred' ? `prefer ${(t.preferred_services ?? []).join(' > ')}` : t.choose.replace('_', ' '),
  ].filter(Boolean);
  return { when: conds.length ? conds.join(' · ') : 'every order', then: acts.join(' · ') };
}
