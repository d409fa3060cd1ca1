import { nullable } from '../../platform/http/nullable.js';
import { Type, type Static } from '@sinclair/typebox';
import { DateSchema, MoneySchema } from '../../platform/http/schemas.js';
import { AddressSchema } from '../addresses/index.js';
import { PackagedParcelSchema } from '../packages/index.js';
import { MULTI_PIECE_RATE_QUERY_EXAMPLE, RATE_QUERY_EXAMPLE, RATE_QUERY_RESPONSE_EXAMPLE } from './rates.examples.js';
import { ShipmentOptionsInputSchema } from '../shipment-options/index.js';

/** An address for rating: only country and postal code are required. */
const RateAddressSchema = Type.Object(
  {
    ...AddressSchema.properties,
    postal_code: Type.String({ maxLength: 40, description: 'Postal code (US: 12345 or 12345-6789). May be empty where the country has none.' }),
    country: Type.String({ maxLength: 200, description: 'ISO 3166-1 alpha-2 country code.' }),
  },
  { title: 'RateAddress' },
);

const dimension = (description: string) => Type.Number({ exclusiveMinimum: 0, description });

export const ParcelSchema = Type.Object(
  {
    weight_oz: dimension('Actual weight in ounces, > 0.'),
    length_in: dimension('Length in inches, > 0.'),
    width_in: dimension('Width in inches, > 0.'),
    height_in: dimension('Height in inches, > 0.'),
  },
  { title: 'Parcel' },
);

/** The most pieces a body may list (the services' own `max_parcels` are checked after). */
export const MAX_PARCELS_IN_BODY = 100;

export const RateQuerySchema = Type.Object(
  {
    ship_from: RateAddressSchema,
    ship_to: RateAddressSchema,
    parcel: ParcelSchema,
    services: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        minItems: 1,
        maxItems: 50,
        description: 'Only these service codes (`ups_ground`); a carrier slug (`ups`) selects all its services.',
      }),
    ),
    ship_date: Type.Optional(Type.String({ ...DateSchema, description: "YYYY-MM-DD; default today in the origin's time zone." })),
    residential: Type.Optional(Type.Boolean({ description: 'Residential destination. Default: true unless ship_to has a company name.' })),
    carrier_accounts: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
        description: 'Only these carrier accounts (`ca_…`, enabled ones of this workspace and environment); default: every enabled account.',
      }),
    ),
    options: Type.Optional({
      ...ShipmentOptionsInputSchema,
      description:
        "Shipment options: only services that offer them are quoted, each option's cost a `surcharges` entry; a service dropped for lacking one is a `messages` entry (code option_unavailable).",
    }),
    parcels: Type.Optional(Type.Array(ParcelSchema, { minItems: 1, maxItems: MAX_PARCELS_IN_BODY })),
  },
  { title: 'RateQuery', examples: [RATE_QUERY_EXAMPLE] },
);
/** The query as quoted: `parcel` is the first piece when `parcels` was given. */
export type RateQuery = Static<typeof RateQuerySchema>;

const QueryParcelSchema = Type.Object(
  {
    ...ParcelSchema.properties,
    length_in: Type.Optional(ParcelSchema.properties.length_in),
    width_in: Type.Optional(ParcelSchema.properties.width_in),
    height_in: Type.Optional(ParcelSchema.properties.height_in),
    package_id: Type.Optional(PackagedParcelSchema.properties.package_id),
  },
  {
    title: 'Parcel',
    description:
      "Weight and dimensions, or weight and `package_id` (a `pkg_…` preset, whose tare is added, or a carrier's packaging from GET /v1/carrier-packages) in place of the dimensions.",
  },
);

/**
 * The body of POST /rates/query: a rate query whose parcel may instead name a package
 * (`{package_id, weight_oz}`), resolved to dimensions before carriers see it. One object rather
 * than a union, so a bad field is named as such (the route checks the either-or).
 */
export const RateQueryBodySchema = Type.Object(
  {
    ...RateQuerySchema.properties,
    ship_from: Type.Optional(RateQuerySchema.properties.ship_from),
    location_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'In place of ship_from: a location (`loc_…`) ships from its address, on its time zone and cut-off. With neither, the default location (else ship_from is required).',
      }),
    ),
    parcel: Type.Optional(QueryParcelSchema),
    parcels: Type.Optional(
      Type.Array(QueryParcelSchema, {
        minItems: 1,
        maxItems: MAX_PARCELS_IN_BODY,
        description:
          "A multi-piece shipment, in place of `parcel`: every piece (1 to the service's `max_parcels`, GET /v1/carrier-types). Priced as one shipment; a service that takes fewer pieces is dropped with a `messages` entry (option_unavailable, option `parcels`).",
      }),
    ),
  },
  { title: 'RateQuery', examples: [RATE_QUERY_EXAMPLE, MULTI_PIECE_RATE_QUERY_EXAMPLE] },
);
export type RateQueryBody = Static<typeof RateQueryBodySchema>;

export const SurchargeSchema = Type.Object({
  code: Type.String({
    description:
      'fuel, residential, additional_handling, oversize, remote_area, nonstandard_length, nonstandard_volume; shipment options: signature, adult_signature, saturday_delivery, insurance, dangerous_goods.',
  }),
  amount: MoneySchema,
});

export const RateTagSchema = Type.Union([Type.Literal('cheapest'), Type.Literal('fastest'), Type.Literal('best_value')]);
export type RateTag = Static<typeof RateTagSchema>;

export const RateOptionSchema = Type.Object(
  {
    id: Type.String({ description: 'rate_… id of this quote.' }),
    service_code: Type.String(),
    carrier: Type.String(),
    carrier_account_id: nullable(
      Type.String({ description: 'The carrier account (`ca_…`) that quoted this option; buy with it by passing it to POST /v1/shipments.' }),
    ),
    service_name: Type.String(),
    price: { ...MoneySchema, description: 'base_price + the sum of surcharges.' },
    base_price: MoneySchema,
    zone: Type.Integer({
      description:
        'Domestic: USPS 1–9 or UPS/FedEx 2–8 by distance. International: 1 Canada/Mexico, 2 Europe, 3 Asia-Pacific, 4 rest of world; USPS Priority Mail (Express) International: the USPS country price group (1 Canada, 2 Mexico, 3 United Kingdom, 4 Western Europe, 5 rest of Europe, 6 Australia/New Zealand, 7 East Asia, 8 rest of Asia-Pacific, 9 rest of world).',
    }),
    billable_weight_oz: Type.Integer({ description: 'max(actual, DIM) rounded up to the carrier increment.' }),
    // Nullable as a type array, not anyOf: the response serializer then writes these without
    // trying each branch (a measurable share of a rate query's time).
    dim_weight_oz: nullable(Type.Integer({ description: 'Dimensional weight (rounded up to a whole ounce); null when DIM does not apply.' })),
    dim_divisor: nullable(Type.Number({ description: 'The divisor used (in³/lb or cm³/kg); null when DIM does not apply.' })),
    dim_divisor_unit: Type.Unsafe<'in3_per_lb' | 'cm3_per_kg' | null>({ type: ['string', 'null'], enum: ['in3_per_lb', 'cm3_per_kg', null] }),
    surcharges: Type.Array(SurchargeSchema),
    delivery: Type.Object({
      business_days: Type.Integer(),
      estimated_delivery_date: Type.String({ description: 'YYYY-MM-DD' }),
      guaranteed: Type.Boolean(),
    }),
    tags: Type.Array(Type.Unsafe<RateTag>({ type: 'string', enum: ['cheapest', 'fastest', 'best_value'] })),
    rate_table_version: Type.String(),
    requires_customs: Type.Boolean({
      description:
        'True when a label on this lane needs a customs declaration (it crosses a border, or goes to a US military address: AA, AE, AP), so a checkout can ask for one before purchase.',
    }),
  },
  { title: 'RateOption' },
);
export type RateOption = Static<typeof RateOptionSchema>;

export const UnavailableServiceSchema = Type.Object({
  carrier: Type.String(),
  service_code: Type.String(),
  reason: Type.String(),
});
export type UnavailableService = Static<typeof UnavailableServiceSchema>;

export const RateMessageSchema = Type.Object(
  {
    carrier_account_id: nullable(Type.String()),
    carrier: Type.String(),
    code: Type.Unsafe<'carrier_unavailable' | 'carrier_account_invalid' | 'carrier_rejected' | 'option_unavailable'>({
      type: 'string',
      enum: ['carrier_unavailable', 'carrier_account_invalid', 'carrier_rejected', 'option_unavailable'],
      description:
        'carrier_unavailable: no answer within the deadline, 5xx, or its circuit is open; carrier_account_invalid: the carrier refused the credentials; carrier_rejected: the carrier refused the request; option_unavailable: the service (`service_code`) does not offer a shipment option asked for (`option`).',
    }),
    service_code: Type.Optional(Type.String({ description: 'option_unavailable: the service dropped.' })),
    option: Type.Optional(
      Type.String({ description: 'option_unavailable: signature, adult_signature, saturday_delivery, insurance, dangerous_goods or parcels.' }),
    ),
    message: Type.String(),
  },
  {
    title: 'RateMessage',
    description: 'An account that gave no options, or a service dropped for lacking a shipment option, and why. It never fails the query.',
  },
);

export const RateQueryResponseSchema = Type.Object(
  {
    ship_date: Type.String({ description: 'The ship date the quotes assume.' }),
    residential: Type.Boolean({ description: 'Whether the destination was rated as residential.' }),
    requires_customs: Type.Boolean({ description: 'True when a label on this lane needs a customs declaration (as on each option).' }),
    rate_table_versions: Type.Record(Type.String(), Type.String(), { description: 'Rate table version per carrier quoted.' }),
    data: Type.Array(RateOptionSchema, { description: 'Sorted by price, cheapest first.' }),
    unavailable: Type.Array(UnavailableServiceSchema),
    messages: Type.Array(RateMessageSchema, {
      description:
        'One per carrier account that failed (its services are also listed under `unavailable`), and one per service dropped for lacking a shipment option asked for (option_unavailable).',
    }),
  },
  { title: 'RateQueryResponse', description: 'Rate options for the parcel, cheapest first.', examples: [RATE_QUERY_RESPONSE_EXAMPLE] },
);
export type RateQueryResponse = Static<typeof RateQueryResponseSchema>;
