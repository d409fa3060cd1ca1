import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { nullable } from '../../platform/http/nullable.js';
import { MoneySchema } from '../../platform/http/schemas.js';
import { CUSTOMS_EXAMPLE, CUSTOMS_INPUT_EXAMPLE } from './customs.examples.js';

/**
 * The customs declaration on the wire. The schema checks only the shape (a
 * wrong shape is 400 validation_failed); the rules customs officers apply (descriptions that
 * say what the item is, HS numbers, ISO countries, weights, EEI) are checked when a label is
 * bought, as 422 customs_invalid with one detail per problem (customs.validate.ts), so an
 * order imported from a store is never refused for a line the purchase can name.
 */

/** Client text that reaches jsonb: Postgres cannot hold NUL, so it is a 400 here, never a 500 there. */
const text = (maxLength: number, options: { minLength?: number; description?: string; examples?: unknown[] } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const CUSTOMS_CONTENTS_TYPES = ['merchandise', 'gift', 'documents', 'sample', 'return_merchandise', 'humanitarian_donation', 'other'] as const;
export const CUSTOMS_NON_DELIVERY = ['return', 'abandon'] as const;
export const CUSTOMS_INCOTERMS = ['DDU', 'DDP', 'DAP'] as const;

const ContentsTypeSchema = Type.Union(
  CUSTOMS_CONTENTS_TYPES.map((c) => Type.Literal(c)),
  {
    description: 'What the parcel holds, as customs forms classify it. `other` needs contents_explanation.',
  },
);
const NonDeliverySchema = Type.Union(
  CUSTOMS_NON_DELIVERY.map((c) => Type.Literal(c)),
  {
    description: 'What the carrier does when the parcel cannot be delivered: return it to the sender (default) or abandon it.',
  },
);
const IncotermSchema = Type.Union(
  CUSTOMS_INCOTERMS.map((c) => Type.Literal(c)),
  {
    description: 'Who pays duties and taxes: DDU (default, the recipient), DDP (the sender), DAP (delivered at place, the recipient).',
  },
);

export const CustomsImporterInputSchema = Type.Object(
  {
    tax_id: Type.Optional(nullable(text(64, { description: "The importer's tax id (e.g. a CPF in Brazil)." }))),
    eori: Type.Optional(nullable(text(64, { description: 'EORI number (EU, GB).', examples: ['GB123456789000'] }))),
    ioss: Type.Optional(nullable(text(64, { description: 'EU Import One-Stop Shop number (VAT collected at sale, parcels up to 150 EUR).' }))),
    vat: Type.Optional(nullable(text(64, { description: 'VAT registration number.' }))),
  },
  { additionalProperties: false, description: "Numbers the destination's customs may ask for." },
);

export const CustomsItemInputSchema = Type.Object(
  {
    description: text(500, {
      description:
        'What the item is, 3–50 characters and specific ("ceramic coffee mug"); a vague word alone (gift, merchandise, goods, items, stuff, misc, various, parts, sample) is refused at purchase (422 customs_invalid).',
      examples: ['Ceramic coffee mug'],
    }),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    unit_value: { ...MoneySchema, description: 'Value of one unit; every item of a declaration in one currency.' },
    weight_oz: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1_000_000,
      description: 'Weight of one unit, in ounces; the items together weigh no more than the parcel.',
    }),
    hs_tariff_number: Type.Optional(
      nullable(text(32, { description: 'Harmonized System tariff number, 6–10 digits; dots are ignored (kept without them).', examples: ['6912.00.48'] })),
    ),
    origin_country: text(200, { description: 'Country of manufacture, ISO 3166-1 alpha-2.', examples: ['US'] }),
    sku: Type.Optional(nullable(text(200))),
  },
  { additionalProperties: false },
);

export const CustomsInputSchema = Type.Object(
  {
    contents_type: ContentsTypeSchema,
    contents_explanation: Type.Optional(nullable(text(500, { description: 'Required when contents_type is other.' }))),
    non_delivery: Type.Optional(NonDeliverySchema),
    incoterm: Type.Optional(IncotermSchema),
    eel_pfc: Type.Optional(
      nullable(
        text(100, {
          description:
            'Exemption legend or proof of filing of US export information (`NOEEI 30.37(a)`, `NOEEI 30.36`, `AES X20260101234567`). Derived when absent: NOEEI 30.37(a) when every item line is worth at most 2,500 USD, NOEEI 30.36 to Canada, else from aes_itn (which is then required).',
        }),
      ),
    ),
    aes_itn: Type.Optional(nullable(text(64, { description: 'AES Internal Transaction Number: X + 14 digits.', examples: ['X20260101234567'] }))),
    signer: Type.Optional(nullable(text(200, { description: 'The name of the person certifying the declaration.' }))),
    importer: Type.Optional(nullable(CustomsImporterInputSchema)),
    items: Type.Array(CustomsItemInputSchema, { minItems: 1, maxItems: 100 }),
  },
  {
    additionalProperties: false,
    title: 'CustomsInput',
    description:
      'The customs declaration, needed when the parcel crosses a border or goes to a US military address (state AA, AE, AP). ' +
      "When absent, it is derived from the order's line items at purchase (name, unit_price, weight_oz; sku; origin the ship-from country); " +
      'a line without a price or weight makes that 422 customs_required. The rules are checked at purchase: 422 customs_invalid, one detail per problem.',
    examples: [CUSTOMS_INPUT_EXAMPLE],
  },
);
export type CustomsInput = Static<typeof CustomsInputSchema>;

// ---- on the wire (responses) ----

const CustomsItemSchema = Type.Object({
  description: Type.String(),
  quantity: Type.Integer(),
  unit_value: MoneySchema,
  weight_oz: Type.Number(),
  hs_tariff_number: orNull(Type.String()),
  origin_country: Type.String(),
  sku: orNull(Type.String()),
});

const CustomsImporterSchema = Type.Object({
  tax_id: orNull(Type.String()),
  eori: orNull(Type.String()),
  ioss: orNull(Type.String()),
  vat: orNull(Type.String()),
});

const customsFields = {
  contents_type: ContentsTypeSchema,
  contents_explanation: orNull(Type.String()),
  non_delivery: NonDeliverySchema,
  incoterm: IncotermSchema,
  eel_pfc: orNull(Type.String()),
  aes_itn: orNull(Type.String()),
  signer: orNull(Type.String()),
  importer: orNull(CustomsImporterSchema),
  items: Type.Array(CustomsItemSchema),
};

/** An order's declaration as its sender gave it (defaults applied; checked at purchase). */
export const OrderCustomsSchema = Type.Object(customsFields, {
  title: 'OrderCustoms',
  description:
    'The customs declaration given with the order (defaults applied); its rules are checked when a label is bought. Null: derived from the line items at purchase when the parcel needs one.',
});

/** A shipment's declaration: the one its label was bought with. */
export const ShipmentCustomsSchema = Type.Object(
  {
    ...customsFields,
    derived: Type.Boolean({ description: "True when the platform built it from the order's line items." }),
    declared_value: { ...MoneySchema, description: 'The total declared value: the sum of unit_value × quantity.' },
  },
  {
    title: 'ShipmentCustoms',
    description:
      "The customs declaration the label was bought with (given, the order's, or derived), validated: HS numbers without dots, eel_pfc derived. Null for a domestic parcel.",
    examples: [CUSTOMS_EXAMPLE],
  },
);
export type ShipmentCustoms = Static<typeof ShipmentCustomsSchema>;
