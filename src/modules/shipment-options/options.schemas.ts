import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MoneySchema } from '../../platform/http/schemas.js';
import { DANGEROUS_GOODS_CATEGORIES } from '../../carriers/types.js';

// Unions (not `nullable`'s type arrays): the rate query's strict validator (TypeBox) compiles
// these too, and both validators name the inner field that is wrong.
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const oneOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

export const SIGNATURE_OPTIONS = ['none', 'standard', 'adult'] as const;

const InsuranceSchema = Type.Object(
  { amount: { ...MoneySchema, description: "The declared value to insure (> 0), in the currency of the service's insurance_max." } },
  { additionalProperties: false, title: 'Insurance' },
);

const DangerousGoodsSchema = Type.Object(
  {
    category: oneOf(DANGEROUS_GOODS_CATEGORIES, DANGEROUS_GOODS_CATEGORIES.join(', ') + '.'),
    dry_ice_weight_oz: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 3200, description: 'Weight of the dry ice in ounces: required with category dry_ice, refused otherwise.' }),
    ),
  },
  { additionalProperties: false, title: 'DangerousGoods' },
);

/**
 * What a parcel needs on its way (docs/carriers.md, "Shipment options"). Every key is
 * optional; an unknown key is a 400. On rate queries, orders (their default), shipments,
 * `generate` and batch items.
 */
export const ShipmentOptionsInputSchema = Type.Object(
  {
    signature: Type.Optional(oneOf(SIGNATURE_OPTIONS, 'none (default), standard or adult.')),
    saturday_delivery: Type.Optional(Type.Boolean({ description: 'Deliver on a Saturday (default false).' })),
    insurance: Type.Optional(orNull(InsuranceSchema)),
    dangerous_goods: Type.Optional(orNull(DangerousGoodsSchema)),
    references: Type.Optional(
      Type.Array(Type.String({ maxLength: 35, pattern: '^[^\\u0000-\\u001f]*$', description: 'At most 35 characters, no control characters.' }), {
        maxItems: 2,
        description: 'Up to two references printed on the label (a PO number, an invoice).',
      }),
    ),
    delivery_instructions: Type.Optional(
      orNull(Type.String({ maxLength: 120, pattern: '^[^\\u0000-\\u001f]*$', description: 'At most 120 characters, no control characters.' })),
    ),
  },
  {
    additionalProperties: false,
    title: 'ShipmentOptionsInput',
    description:
      'Shipment options. A service that does not offer one is dropped from a rate query (a `messages` entry, code option_unavailable) and refused at purchase (422 option_unavailable).',
    examples: [{ signature: 'adult', insurance: { amount: { amount: 25000, currency: 'USD' } }, references: ['PO-1042'] }],
  },
);
export type ShipmentOptionsInput = Static<typeof ShipmentOptionsInputSchema>;

/** The options as orders and shipments echo them: every key, defaults applied. */
export const ShipmentOptionsSchema = Type.Object(
  {
    signature: oneOf(SIGNATURE_OPTIONS, 'none, standard or adult.'),
    saturday_delivery: Type.Boolean(),
    insurance: orNull(Type.Object({ amount: MoneySchema })),
    dangerous_goods: orNull(Type.Object({ category: Type.String(), dry_ice_weight_oz: Type.Optional(Type.Number()) })),
    references: Type.Array(Type.String()),
    delivery_instructions: orNull(Type.String()),
  },
  {
    title: 'ShipmentOptions',
    description:
      'The options in force, every key present (defaults: signature none, saturday_delivery false, insurance null, dangerous_goods null, references [], delivery_instructions null).',
  },
);

const Money = Type.Object({ amount: Type.Integer(), currency: Type.String() });

/** What one service offers (GET /v1/carrier-types). */
export const ServiceOptionsSchema = Type.Object(
  {
    signature: Type.Boolean(),
    adult_signature: Type.Boolean(),
    saturday_delivery: Type.Boolean(),
    insurance_max: orNull({ ...Money, description: 'The largest declared value the service insures; null: no insurance.' }),
    dangerous_goods: Type.Array(Type.String(), { description: 'Dangerous-goods categories the service carries.' }),
    max_parcels: Type.Integer({ minimum: 1, description: 'Parcels in one shipment (1: no multi-piece).' }),
  },
  { title: 'ServiceOptions' },
);
