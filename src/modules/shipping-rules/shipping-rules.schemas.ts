import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MoneySchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { nullable } from '../../platform/http/nullable.js';
import { RateQuerySchema } from '../rates/index.js';

const Timestamp = Type.String({ format: 'date-time' });
/** Text we store: no NUL (PostgreSQL text cannot hold it) nor other control characters. */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const list = <T extends TSchema>(item: T, description: string) => Type.Array(item, { minItems: 1, maxItems: 100, uniqueItems: true, description });
const Code = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL });

export const STRATEGIES = ['cheapest', 'fastest', 'best_value', 'preferred'] as const;
export type Strategy = (typeof STRATEGIES)[number];

const Range = <T extends TSchema>(bound: T, description: string) =>
  Type.Object({ min: Type.Optional(bound), max: Type.Optional(bound) }, { additionalProperties: false, minProperties: 1, description });

export const RuleConditionsSchema = Type.Object(
  {
    destination_countries: Type.Optional(list(Type.String({ minLength: 2, maxLength: 2 }), 'ISO 3166-1 alpha-2 codes of ship_to.country (any of).')),
    destination_states: Type.Optional(list(Code(10), 'ship_to.state codes (any of), e.g. CA, NY; compared case-insensitively.')),
    residential: Type.Optional(Type.Boolean({ description: 'Whether the destination is rated as residential.' })),
    weight_oz: Type.Optional(Range(Type.Number({ minimum: 0, maximum: 1_000_000 }), "The parcel's weight in ounces, bounds included.")),
    order_value: Type.Optional(
      Range(
        MoneySchema,
        "The order's value (the sum of its line items' unit_price × quantity), bounds included, in one currency; an order in another currency does not match.",
      ),
    ),
    skus_any: Type.Optional(list(Code(200), 'The order has a line item with one of these SKUs.')),
  },
  { additionalProperties: false, description: 'Every condition given must hold; none given matches every order.' },
);
export type RuleConditions = Static<typeof RuleConditionsSchema>;

export const RuleActionsSchema = Type.Object(
  {
    exclude_carriers: Type.Optional(list(Code(40), 'Carrier slugs never used (usps, ups, fedex, dhl_express).')),
    exclude_services: Type.Optional(list(Code(100), 'Service codes never used.')),
    only_services: Type.Optional(list(Code(100), 'Only these service codes.')),
    max_business_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365, description: 'Options slower than this many business days are excluded.' })),
    max_price: Type.Optional({ ...MoneySchema, description: 'Options dearer than this (or priced in another currency) are excluded.' }),
    choose: Type.Union(
      STRATEGIES.map((s) => Type.Literal(s)),
      {
        description:
          'cheapest; fastest (fewest business days, then cheapest); best_value (the cheapest option at most one business day slower than the fastest); preferred (the first of preferred_services offered, else the cheapest).',
      },
    ),
    preferred_services: Type.Optional(
      Type.Array(Code(100), { minItems: 1, maxItems: 50, uniqueItems: true, description: 'With choose: preferred, in order of preference.' }),
    ),
  },
  { additionalProperties: false, description: 'Filters, applied to every rate option of every enabled carrier account, then the strategy picks one.' },
);
export type RuleActions = Static<typeof RuleActionsSchema>;

const EXAMPLE_RULE = {
  id: 'rule_01jx0000000000000000000000',
  name: 'Canada: no DHL, within 5 days',
  priority: 10,
  enabled: true,
  when: { destination_countries: ['CA'], weight_oz: { max: 160 } },
  then: { exclude_carriers: ['dhl_express'], max_business_days: 5, choose: 'best_value' },
  created_at: '2026-11-25T12:00:00.000Z',
  updated_at: '2026-11-25T12:00:00.000Z',
};

export const ShippingRuleSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    priority: Type.Integer({ description: 'Lower first; equal priorities apply oldest first.' }),
    enabled: Type.Boolean(),
    when: RuleConditionsSchema,
    then: RuleActionsSchema,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'ShippingRule', title: 'ShippingRule', examples: [EXAMPLE_RULE] },
);
export type ShippingRule = Static<typeof ShippingRuleSchema>;

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: NO_CONTROL });
const Priority = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Lower first; equal priorities apply oldest first.' });

export const CreateShippingRuleBody = Type.Object(
  {
    name: Name,
    priority: Priority,
    enabled: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    when: Type.Optional({ ...RuleConditionsSchema, description: 'Default {} (every order).' }),
    then: RuleActionsSchema,
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Canada: no DHL, within 5 days',
        priority: 10,
        when: { destination_countries: ['CA'] },
        then: { exclude_carriers: ['dhl_express'], max_business_days: 5, choose: 'best_value' },
      },
      { name: 'Heavy goes UPS Ground', priority: 20, when: { weight_oz: { min: 160 } }, then: { choose: 'preferred', preferred_services: ['ups_ground'] } },
    ],
  },
);
export type CreateShippingRuleInput = Static<typeof CreateShippingRuleBody>;

export const UpdateShippingRuleBody = Type.Object(
  {
    name: Type.Optional(Name),
    priority: Type.Optional(Priority),
    enabled: Type.Optional(Type.Boolean()),
    when: Type.Optional({ ...RuleConditionsSchema, description: 'Replaces the conditions whole.' }),
    then: Type.Optional({ ...RuleActionsSchema, description: 'Replaces the actions whole.' }),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: false }, { priority: 5 }] },
);
export type UpdateShippingRuleInput = Static<typeof UpdateShippingRuleBody>;

export const ShippingRuleListQuery = Type.Object(
  {
    limit: Type.Optional(PageLimitSchema),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

// ---- selection ----

export const ConsideredOptionSchema = Type.Object({
  service_code: Type.String(),
  carrier_account_id: nullable(Type.String()),
  price: MoneySchema,
  business_days: Type.Integer(),
  excluded: Type.Boolean(),
  reason: nullable(Type.String({ description: 'Why the option was excluded, or why it was chosen; null for an option that stayed but was not chosen.' })),
});
export type ConsideredOption = Static<typeof ConsideredOptionSchema>;

const EXAMPLE_SELECTION = {
  rule_id: 'rule_01jx0000000000000000000000',
  rule_name: 'Canada: no DHL, within 5 days',
  strategy: 'best_value',
  chosen: 'usps_priority_mail_international',
  carrier_account_id: 'ca_01jx0000000000000000000001',
  considered: [
    {
      service_code: 'usps_priority_mail_international',
      carrier_account_id: 'ca_01jx0000000000000000000001',
      price: { amount: 4150, currency: 'USD' },
      business_days: 5,
      excluded: false,
      reason: 'best value: the cheapest within one business day of the fastest remaining (4)',
    },
    {
      service_code: 'ups_worldwide_saver',
      carrier_account_id: 'ca_01jx0000000000000000000002',
      price: { amount: 7420, currency: 'USD' },
      business_days: 4,
      excluded: false,
      reason: null,
    },
    {
      service_code: 'dhl_express_worldwide',
      carrier_account_id: 'ca_01jx0000000000000000000003',
      price: { amount: 6010, currency: 'USD' },
      business_days: 3,
      excluded: true,
      reason: 'carrier dhl_express is excluded',
    },
    {
      service_code: 'usps_first_class_package_international',
      carrier_account_id: 'ca_01jx0000000000000000000001',
      price: { amount: 2210, currency: 'USD' },
      business_days: 12,
      excluded: true,
      reason: '12 business days is more than max_business_days 5',
    },
  ],
};

const selectionProperties = {
  rule_id: nullable(Type.String({ description: 'The rule that applied; null when none matched (then the cheapest option).' })),
  rule_name: nullable(Type.String()),
  strategy: Type.Unsafe<Strategy>({ type: 'string', enum: [...STRATEGIES] }),
  chosen: Type.String({ description: 'The chosen service_code.' }),
  carrier_account_id: nullable(Type.String({ description: 'The carrier account of the chosen option.' })),
  considered: Type.Array(ConsideredOptionSchema, { description: 'Every option rated, cheapest first, with whether and why it was excluded.' }),
};
const SELECTION_DESCRIPTION = 'Which service the shipping rules chose, and why.';

export const SelectionSchema = Type.Object(selectionProperties, {
  $id: 'ShippingRuleSelection',
  title: 'ShippingRuleSelection',
  description: SELECTION_DESCRIPTION,
  examples: [EXAMPLE_SELECTION],
});
/** The same shape without an $id, to embed in another resource's schema (the Shipment's `selection`). */
export const SelectionObjectSchema = Type.Object(selectionProperties, { title: 'ShippingRuleSelection', description: SELECTION_DESCRIPTION });
export type Selection = Static<typeof SelectionSchema>;

/** The rate-query fields, every one optional here: either an order_id or a rate query. */
const rateQueryFields = Type.Partial(RateQuerySchema).properties;

export const EvaluateBody = Type.Object(
  {
    order_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Rate this order as a purchase would (its addresses, parcel, line items).' }),
    ),
    ...rateQueryFields,
    order_value: Type.Optional({
      ...MoneySchema,
      description: 'With a rate query: the order value the rules see (default none: order_value conditions do not match).',
    }),
    skus: Type.Optional(Type.Array(Code(200), { maxItems: 1000, description: 'With a rate query: the SKUs the rules see.' })),
  },
  {
    additionalProperties: false,
    description:
      'Either `order_id`, or a rate query (ship_from, ship_to, parcel and the optional fields of POST /v1/rates/query) with optional order_value and skus.',
    examples: [
      { order_id: 'ord_01jx0000000000000000000000' },
      {
        ship_from: { postal_code: '94105', country: 'US' },
        ship_to: { postal_code: 'M5V 2T6', country: 'CA', state: 'ON' },
        parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
        order_value: { amount: 8900, currency: 'USD' },
        skus: ['MUG-01'],
      },
    ],
  },
);
export type EvaluateInput = Static<typeof EvaluateBody>;
