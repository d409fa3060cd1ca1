import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { CreateShippingRuleBody } from '../../src/modules/shipping-rules/shipping-rules.schemas.js';
import { bodyOf, draftOf, errorsFor, inputOf, type ShippingRule } from '../../web/src/pages/rules-draft.js';

// The Rules page's form apart from its drawing: a saved rule read into the form and sent back
// is the same rule, valid against the service's body schema; empty inputs mean "any"; each
// server detail finds the input it belongs to.

const RULE: ShippingRule = {
  id: 'rule_1',
  name: 'Everything',
  priority: 7,
  enabled: false,
  when: {
    destination_countries: ['US', 'CA'],
    destination_states: ['NY'],
    residential: false,
    weight_oz: { min: 1.5, max: 160 },
    order_value: { min: { amount: 2550, currency: 'EUR' }, max: { amount: 10000, currency: 'EUR' } },
    skus_any: ['MUG-1', 'TEE-2'],
  },
  then: {
    exclude_carriers: ['dhl_express'],
    exclude_services: ['ups_ground'],
    only_services: ['usps_priority_mail', 'fedex_2day'],
    max_business_days: 0,
    max_price: { amount: 1999, currency: 'USD' },
    choose: 'preferred',
    preferred_services: ['fedex_2day'],
  },
  created_at: '2026-11-25T12:00:00.000Z',
  updated_at: '2026-11-25T12:00:00.000Z',
};

const validBody = addFormats(new Ajv({ strict: false })).compile(CreateShippingRuleBody);

describe('rules draft', () => {
  it('a rule read into the form and sent back is the same rule, and a valid body', () => {
    const body = bodyOf(draftOf(RULE, 99));
    expect(body).toEqual({ name: RULE.name, priority: RULE.priority, enabled: RULE.enabled, when: RULE.when, then: RULE.then });
    expect(validBody(body), JSON.stringify(validBody.errors)).toBe(true);
  });

  it('a new rule: the offered priority, every condition "any", cheapest; preferred services only with preferred', () => {
    const draft = draftOf(null, 30);
    expect(bodyOf({ ...draft, name: ' New ' })).toEqual({ name: 'New', priority: 30, enabled: true, when: {}, then: { choose: 'cheapest' } });
    const typed = {
      ...draft,
      name: 'x',
      countries: ' ca,, mx  us ',
      residential: 'yes' as const,
      weightMax: '16',
      preferred: 'ups_ground',
      valueMin: '12.345',
    };
    expect(bodyOf(typed)).toMatchObject({
      when: { destination_countries: ['ca', 'mx', 'us'], residential: true, weight_oz: { max: 16 }, order_value: { min: { amount: 1235, currency: 'USD' } } },
      then: { choose: 'cheapest' },
    });
    expect(bodyOf(typed).then.preferred_services).toBeUndefined();
    // What is not a number goes as typed, for the service's schema to name.
    expect(validBody(bodyOf({ ...typed, maxDays: 'soon' }))).toBe(false);
  });

  it('each server detail belongs to its input, a list item named from 1', () => {
    expect(inputOf('when.destination_countries[1]')).toBe('countries');
    expect(inputOf('when.order_value.max.currency')).toBe('valueCurrency');
    expect(inputOf('when.order_value.min.amount')).toBe('valueMin');
    expect(inputOf('then.max_price.currency')).toBe('maxPriceCurrency');
    expect(inputOf('then.preferred_services')).toBe('preferred');
    expect(inputOf('then.choose')).toBe('choose');
    expect(inputOf('cursor')).toBeUndefined();
    const details = [
      { field: 'when.destination_countries[1]', message: '"ZZ" is not a country' },
      { field: 'when.destination_countries', message: 'lists a country twice' },
      { field: 'name', message: 'is required' },
    ];
    expect(errorsFor(details, 'countries')).toBe('item 2: "ZZ" is not a country; lists a country twice');
    expect(errorsFor(details, 'states')).toBeUndefined();
  });
});
