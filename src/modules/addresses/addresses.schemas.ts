import { Type, type Static } from '@sinclair/typebox';
import {
  ADDRESS_EXAMPLE,
  ADDRESS_VALIDATION_EXAMPLE,
  CARRIER_ADDRESS_VALIDATION_EXAMPLE,
  CARRIER_ADDRESS_VALIDATION_REQUEST_EXAMPLE,
} from './addresses.examples.js';

// Optional fields also accept null: store exports often send `"street2": null` for an empty line.
const text = (description: string, maxLength = 200) => Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

/**
 * An address as clients send it (orders, shipments, validation). Every field is an optional
 * string except `country`; `country` has no pattern so the address checker, not the schema,
 * reports a bad code with a useful message. Unknown extra keys are allowed (clients send them)
 * and ignored.
 */
export const AddressSchema = Type.Object(
  {
    name: text('Recipient or sender name.'),
    company: text('Company name; its presence marks the address commercial.'),
    street1: text('Delivery line: number, street, and possibly a unit.'),
    street2: text('Secondary line: apartment, suite, floor…'),
    city: text('City.'),
    state: text('State, province or region (US: two-letter code or name).'),
    postal_code: text('Postal code (US: 12345 or 12345-6789).', 40),
    country: Type.String({ maxLength: 200, description: 'ISO 3166-1 alpha-2 country code (upper or lower case).' }),
    phone: text('Phone number.', 60),
    email: text('Email address.', 320),
  },
  { title: 'Address', examples: [ADDRESS_EXAMPLE] },
);
export type AddressInput = Static<typeof AddressSchema>;

/**
 * POST /v1/addresses/validate: an address, and optionally the carrier account whose carrier
 * validates it. Same address rules as `AddressSchema`.
 */
export const AddressValidationRequestSchema = Type.Object(
  {
    ...AddressSchema.properties,
    carrier_account_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "An enabled api carrier account (ca_…) of this workspace and environment whose carrier validates addresses (GET /v1/carrier-types capabilities.address_validation): the carrier's own street-level validator answers. Without it the built-in validator answers. A simulated, disabled, deleted or unknown account is 400 validation_failed on carrier_account_id.",
      }),
    ),
  },
  { title: 'AddressValidationRequest', examples: [ADDRESS_EXAMPLE, CARRIER_ADDRESS_VALIDATION_REQUEST_EXAMPLE] },
);
export type AddressValidationRequest = Static<typeof AddressValidationRequestSchema>;

/** The same ten fields on the way out (response schemas must describe every field). */
export const AddressOutputSchema = Type.Object({
  name: Type.Optional(Type.String()),
  company: Type.Optional(Type.String()),
  street1: Type.Optional(Type.String()),
  street2: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  postal_code: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
});
export type AddressOutput = Static<typeof AddressOutputSchema>;

export const AddressMessageSchema = Type.Object({
  code: Type.String({
    description:
      "Built-in validator: missing_field, invalid_country, invalid_postal_code, unknown_postal_code, postal_code_country_mismatch, invalid_state, city_corrected, state_corrected, not_verified. A carrier's validator: address_corrected, address_not_found, address_ambiguous, address_not_deliverable, address_secondary_missing, … and the carrier's own codes.",
  }),
  field: Type.String({
    description:
      'The address field the message is about; a carrier message about the whole address is reported on street1, the line a street-level check is about.',
  }),
  message: Type.String(),
});
export type AddressMessage = Static<typeof AddressMessageSchema>;

export const AddressValidationResultSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('verified'), Type.Literal('corrected'), Type.Literal('unverified'), Type.Literal('invalid')], {
      description:
        'verified: valid US address, only formatting changed; corrected: city/state fixed or filled from the ZIP data; unverified: valid country and postal-code format, no street data to check against; invalid: a required field is missing, or the country, postal code or ZIP is bad.',
    }),
    residential: Type.Union([Type.Literal('yes'), Type.Literal('no'), Type.Literal('unknown')], {
      description: 'no when a company is given; yes for an APT or UNIT secondary; otherwise unknown.',
    }),
    original: AddressOutputSchema,
    normalized: AddressOutputSchema,
    messages: Type.Array(AddressMessageSchema),
    candidates: Type.Optional(
      Type.Array(AddressOutputSchema, {
        description: "A carrier's answers only: every address the carrier suggested, best first (normalized is the first; empty when it found none).",
      }),
    ),
    source: Type.Optional(
      Type.Object(
        {
          type: Type.Union([Type.Literal('built_in'), Type.Literal('carrier')], {
            description: "built_in: this service's validator; carrier: the carrier account's validator.",
          }),
          carrier: Type.Optional(Type.String({ description: 'With type carrier: the carrier slug (ups, usps, fedex, dhl_express).' })),
          carrier_account_id: Type.Optional(Type.String({ description: 'With type carrier: the account that asked.' })),
        },
        { description: 'Which validator answered (on every POST /v1/addresses/validate answer).' },
      ),
    ),
  },
  {
    title: 'AddressValidationResult',
    description:
      "The validation result (bad content is a result with status invalid). With carrier_account_id the carrier's verdict is mapped onto the same fields: status and residential as the carrier said, normalized its best candidate (the address as sent when it had none), messages its notes and corrections.",
    examples: [ADDRESS_VALIDATION_EXAMPLE, CARRIER_ADDRESS_VALIDATION_EXAMPLE],
  },
);
export type AddressValidationResult = Static<typeof AddressValidationResultSchema>;
