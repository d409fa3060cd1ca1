import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getCarrierRegistry } from '../../carriers/registry.js';
import type { RuleActions, RuleConditions, Strategy } from './shipping-rules.schemas.js';
import { exclusionReason, matchesRule, selectService, type Candidate, type OrderFacts, type RuleForSelection } from './shipping-rules.select.js';

const CARRIERS = (await getCarrierRegistry()).carriers.map((c) => c.slug);
const SERVICES = CARRIERS.flatMap((c) => [`${c}_ground`, `${c}_express`, `${c}_priority`]);
const carrierOf = (code: string) => CARRIERS.find((c) => code.startsWith(`${c}_`))!;
const COUNTRIES = ['US', 'CA', 'GB', 'DE'];
const SKUS = ['MUG', 'TEE', 'CAP', 'BAG'];
const usd = (amount: number) => ({ amount, currency: 'USD' });

const facts: fc.Arbitrary<OrderFacts> = fc.record({
  country: fc.constantFrom(...COUNTRIES),
  state: fc.option(fc.constantFrom('CA', 'NY', 'ON'), { nil: null }),
  residential: fc.boolean(),
  weight_oz: fc.integer({ min: 1, max: 400 }),
  value: fc.option(fc.integer({ min: 0, max: 50_000 }).map(usd), { nil: null }),
  skus: fc.uniqueArray(fc.constantFrom(...SKUS), { maxLength: 3 }),
});

const candidate: fc.Arbitrary<Candidate> = fc
  .record({
    service_code: fc.constantFrom(...SERVICES),
    carrier_account_id: fc.constantFrom('ca_a', 'ca_b', null),
    price: fc.integer({ min: 100, max: 20_000 }).map(usd),
    business_days: fc.integer({ min: 1, max: 10 }),
  })
  .map((c) => ({ ...c, carrier: carrierOf(c.service_code) }));
// One option per (service, account), as a rate quote gives.
const candidates = fc.uniqueArray(candidate, { maxLength: 12, selector: (c) => `${c.service_code}|${c.carrier_account_id}` });

// Each condition and filter is absent three times in four: otherwise rules would almost never
// match and would exclude almost everything, and the strategies would go untested.
const rare = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
const some = <T>(values: readonly T[]) => rare(fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 }));
const range = rare(
  fc
    .tuple(fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }), fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }))
    .map(([a, b]) => (a !== undefined && b !== undefined && a > b ? { min: b, max: a } : { min: a, max: b })),
);
const conditions: fc.Arbitrary<RuleConditions> = fc.record(
  {
    destination_countries: some(COUNTRIES),
    destination_states: some(['CA', 'NY', 'ON']),
    residential: rare(fc.boolean()),
    weight_oz: range,
    order_value: range.map((r) =>
      r ? { min: r.min === undefined ? undefined : usd(r.min * 100), max: r.max === undefined ? undefined : usd(r.max * 100) } : undefined,
    ),
    skus_any: some(SKUS),
  },
  { requiredKeys: [] },
);
const actions: fc.Arbitrary<RuleActions> = fc
  .record(
    {
      exclude_carriers: some(CARRIERS),
      exclude_services: some(SERVICES),
      only_services: rare(fc.uniqueArray(fc.constantFrom(...SERVICES), { minLength: 1, maxLength: 8 })),
      max_business_days: rare(fc.integer({ min: 0, max: 10 })),
      max_price: rare(fc.integer({ min: 100, max: 20_000 }).map(usd)),
      choose: fc.constantFrom<Strategy>('cheapest', 'fastest', 'best_value', 'preferred'),
      preferred_services: some(SERVICES),
    },
    { requiredKeys: ['choose'] },
  )
  .map((a) => (a.choose === 'preferred' ? { ...a, preferred_services: a.preferred_services ?? [SERVICES[0]] } : { ...a, preferred_services: undefined }));
const rules = fc
  .array(fc.record({ name: fc.string({ maxLength: 8 }), enabled: fc.boolean(), when: conditions, then: actions }), { maxLength: 6 })
  .map((list) => list.map((r, i): RuleForSelection => ({ ...r, id: `rule_${i}` })));

const cheaper = (a: Candidate, b: Candidate) => a.price.amount <= b.price.amount;

describe('selectService (properties)', () => {
  it('applies the first enabled matching rule; the chosen option passes every filter, is optimal for its strategy, and is never an excluded one', () => {
    fc.assert(
      fc.property(facts, candidates, rules, (order, options, ruleSet) => {
        const outcome = selectService(order, options, ruleSet);
        const rule = ruleSet.find((r) => r.enabled && matchesRule(r.when, order));
        const remaining = options.filter((o) => !rule || exclusionReason(rule.then, o) === null);
        // No other enabled rule before it matches (first by priority wins).
        for (const r of ruleSet.slice(0, rule ? ruleSet.indexOf(rule) : ruleSet.length)) expect(r.enabled && matchesRule(r.when, order)).toBe(false);
        if (!outcome.ok) {
          expect(remaining).toEqual([]);
          expect(outcome.rule?.id ?? null).toBe(rule?.id ?? null);
          expect(outcome.considered.every((c) => c.excluded)).toBe(true);
          return;
        }
        const { selection, chosen } = outcome;
        expect(selection.rule_id).toBe(rule?.id ?? null);
        expect(selection.strategy).toBe(rule?.then.choose ?? 'cheapest');
        expect(options).toContain(chosen);
        expect(selection.chosen).toBe(chosen.service_code);
        expect(selection.considered).toHaveLength(options.length);
        // Never an excluded option; every filter of the rule holds for the chosen one.
        const entry = selection.considered.find((c) => c.service_code === chosen.service_code && c.carrier_account_id === chosen.carrier_account_id)!;
        expect(entry.excluded).toBe(false);
        if (rule) {
          const t = rule.then;
          expect(t.exclude_carriers ?? []).not.toContain(chosen.carrier);
          expect(t.exclude_services ?? []).not.toContain(chosen.service_code);
          if (t.only_services) expect(t.only_services).toContain(chosen.service_code);
          if (t.max_business_days !== undefined) expect(chosen.business_days).toBeLessThanOrEqual(t.max_business_days);
          if (t.max_price) expect(chosen.price.amount).toBeLessThanOrEqual(t.max_price.amount);
        }
        // Every option the selection marks excluded really fails a filter, and the others pass.
        for (const c of selection.considered) {
          const option = options.find((o) => o.service_code === c.service_code && o.carrier_account_id === c.carrier_account_id)!;
          expect(c.excluded).toBe(rule ? exclusionReason(rule.then, option) !== null : false);
        }
        // Optimal for the strategy among what remains.
        const strategy = selection.strategy;
        if (strategy === 'cheapest') for (const o of remaining) expect(cheaper(chosen, o)).toBe(true);
        if (strategy === 'fastest') {
          for (const o of remaining) expect(chosen.business_days).toBeLessThanOrEqual(o.business_days);
          for (const o of remaining.filter((r) => r.business_days === chosen.business_days)) expect(cheaper(chosen, o)).toBe(true);
        }
        if (strategy === 'best_value') {
          const fastest = Math.min(...remaining.map((o) => o.business_days));
          expect(chosen.business_days).toBeLessThanOrEqual(fastest + 1);
          for (const o of remaining.filter((r) => r.business_days <= fastest + 1)) expect(cheaper(chosen, o)).toBe(true);
        }
        if (strategy === 'preferred') {
          const firstOffered = rule!.then.preferred_services!.find((code) => remaining.some((o) => o.service_code === code));
          if (firstOffered) {
            expect(chosen.service_code).toBe(firstOffered);
            for (const o of remaining.filter((r) => r.service_code === firstOffered)) expect(cheaper(chosen, o)).toBe(true);
          } else for (const o of remaining) expect(cheaper(chosen, o)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

// ---- each condition and action, by example ----

const order: OrderFacts = { country: 'CA', state: 'ON', residential: true, weight_oz: 32, value: usd(5000), skus: ['MUG'] };
const opt = (service_code: string, amount: number, business_days: number, carrier_account_id: string | null = 'ca_1'): Candidate => ({
  service_code,
  carrier: carrierOf(service_code),
  carrier_account_id,
  price: usd(amount),
  business_days,
});
const OPTIONS = [opt('usps_ground', 900, 6), opt('ups_ground', 1200, 4), opt('fedex_express', 2500, 2), opt('dhl_express_express', 3000, 1)];
const rule = (when: RuleConditions, then: RuleActions, extra: Partial<RuleForSelection> = {}): RuleForSelection => ({
  id: 'rule_x',
  name: 'x',
  enabled: true,
  when,
  then,
  ...extra,
});

describe('matchesRule', () => {
  it.each<[string, RuleConditions, boolean]>([
    ['nothing (every order)', {}, true],
    ['country in list', { destination_countries: ['US', 'CA'] }, true],
    ['country not in list', { destination_countries: ['US'] }, false],
    ['state, any case', { destination_states: ['on'] }, true],
    ['other state', { destination_states: ['QC'] }, false],
    ['residential', { residential: true }, true],
    ['commercial', { residential: false }, false],
    ['weight inside (bounds included)', { weight_oz: { min: 32, max: 32 } }, true],
    ['weight under min', { weight_oz: { min: 33 } }, false],
    ['weight over max', { weight_oz: { max: 31 } }, false],
    ['value inside', { order_value: { min: usd(5000), max: usd(5000) } }, true],
    ['value under min', { order_value: { min: usd(5001) } }, false],
    ['value in another currency', { order_value: { min: { amount: 1, currency: 'EUR' } } }, false],
    ['a sku', { skus_any: ['TEE', 'MUG'] }, true],
    ['no sku', { skus_any: ['TEE'] }, false],
    ['every condition must hold', { destination_countries: ['CA'], residential: false }, false],
  ])('%s', (_name, when, expected) => {
    expect(matchesRule(when, order)).toBe(expected);
  });

  it('an order without a value or state does not match a condition on them', () => {
    expect(matchesRule({ order_value: { max: usd(10) } }, { ...order, value: null })).toBe(false);
    expect(matchesRule({ destination_states: ['ON'] }, { ...order, state: null })).toBe(false);
  });
});

describe('selectService', () => {
  const chosenBy = (then: RuleActions) => {
    const outcome = selectService(order, OPTIONS, [rule({}, then)]);
    if (!outcome.ok) throw new Error('no option');
    return outcome.selection;
  };

  it('no rule matches: the cheapest, rule_id null, nothing excluded', () => {
    const outcome = selectService(order, OPTIONS, [rule({ destination_countries: ['US'] }, { choose: 'fastest' })]);
    expect(outcome.ok && outcome.selection).toMatchObject({ rule_id: null, rule_name: null, strategy: 'cheapest', chosen: 'usps_ground' });
    expect(outcome.ok && outcome.selection.considered.every((c) => !c.excluded)).toBe(true);
    expect(outcome.ok && outcome.selection.considered[0].reason).toBe('no rule matched: cheapest');
  });

  it('strategies', () => {
    expect(chosenBy({ choose: 'cheapest' }).chosen).toBe('usps_ground');
    expect(chosenBy({ choose: 'fastest' }).chosen).toBe('dhl_express_express');
    // Fastest is 1 day: within one day are fedex (2 d, 2500) and dhl (1 d, 3000) → fedex.
    expect(chosenBy({ choose: 'best_value' }).chosen).toBe('fedex_express');
    expect(chosenBy({ choose: 'preferred', preferred_services: ['usps_express', 'ups_ground'] }).chosen).toBe('ups_ground');
    const fallback = chosenBy({ choose: 'preferred', preferred_services: ['usps_express'] });
    expect(fallback.chosen).toBe('usps_ground');
    expect(fallback.considered[0].reason).toBe('none of preferred_services was available: cheapest');
  });

  it('each filter excludes with its reason', () => {
    const reasons = (then: Omit<RuleActions, 'choose'>) =>
      Object.fromEntries(
        chosenBy({ ...then, choose: 'cheapest' })
          .considered.filter((c) => c.excluded)
          .map((c) => [c.service_code, c.reason]),
      );
    expect(reasons({ exclude_carriers: ['usps'] })).toEqual({ usps_ground: 'carrier usps is excluded' });
    expect(reasons({ exclude_services: ['ups_ground'] })).toEqual({ ups_ground: 'service ups_ground is excluded' });
    expect(Object.keys(reasons({ only_services: ['fedex_express'] })).sort()).toEqual(['dhl_express_express', 'ups_ground', 'usps_ground']);
    expect(reasons({ max_business_days: 4 })).toEqual({ usps_ground: '6 business days is more than max_business_days 4' });
    expect(reasons({ max_price: usd(2500) })).toEqual({ dhl_express_express: '3000 USD is more than max_price 2500 USD' });
    const eur = selectService(order, OPTIONS, [rule({}, { max_price: { amount: 99_999, currency: 'EUR' }, choose: 'cheapest' })]);
    expect(!eur.ok && eur.considered[0].reason).toBe('priced in USD, max_price is in EUR');
  });

  it('a disabled rule is skipped; the first matching one wins', () => {
    const outcome = selectService(order, OPTIONS, [
      rule({}, { choose: 'fastest' }, { id: 'rule_off', enabled: false }),
      rule({ destination_countries: ['CA'] }, { choose: 'best_value' }, { id: 'rule_ca' }),
      rule({}, { choose: 'cheapest' }, { id: 'rule_all' }),
    ]);
    expect(outcome.ok && outcome.selection.rule_id).toBe('rule_ca');
  });

  it('a rule that excludes everything: no selection, naming the rule', () => {
    const outcome = selectService(order, OPTIONS, [rule({}, { max_business_days: 0, choose: 'cheapest' }, { id: 'rule_strict' })]);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.rule?.id).toBe('rule_strict');
    expect(!outcome.ok && outcome.considered.map((c) => c.excluded)).toEqual([true, true, true, true]);
  });
});
