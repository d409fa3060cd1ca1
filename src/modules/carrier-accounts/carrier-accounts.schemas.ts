import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageLimitSchema } from '../../platform/http/schemas.js';
import { ServiceOptionsSchema } from '../shipment-options/index.js';
import { ACCOUNT_DRIVERS, ACCOUNT_MODES, HEALTH_STATUSES } from './carrier-accounts.tables.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Driver = (description?: string) => Type.Union([Type.Literal(ACCOUNT_DRIVERS[0]), Type.Literal(ACCOUNT_DRIVERS[1])], description ? { description } : {});
const Mode = (description?: string) => Type.Union([Type.Literal(ACCOUNT_MODES[0]), Type.Literal(ACCOUNT_MODES[1])], description ? { description } : {});
const Health = (description: string) =>
  Type.Union(
    HEALTH_STATUSES.map((v) => Type.Literal(v)),
    { description },
  );
/** Text we store: no NUL (PostgreSQL text cannot hold it) nor other control characters. */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const CarrierSlug = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^[a-z][a-z0-9_]*$',
  description: 'usps, ups, fedex, dhl_express (GET /v1/carrier-types).',
});
const Credentials = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
  description: "The api driver's credentials, as the carrier type's credentials_schema describes. Secret fields are never returned.",
  maxProperties: 20,
});

const EXAMPLE_ACCOUNT = {
  id: 'ca_01jx0000000000000000000000',
  carrier: 'ups',
  driver: 'api',
  mode: 'sandbox',
  description: 'Our UPS contract',
  account_number: 'A1B2C3',
  credentials: { client_id: 'my-client-id', client_secret: '••••9f3a' },
  base_url: null,
  is_default: true,
  enabled: true,
  health: { status: 'ok', checked_at: '2026-11-25T12:00:00.000Z', latency_ms: 182, message: null },
  created_at: '2026-11-25T12:00:00.000Z',
  updated_at: '2026-11-25T12:00:00.000Z',
};

export const CarrierAccountHealthSchema = Type.Object({
  status: Health('ok: the last test reached the carrier and it accepted the credentials; invalid_credentials; unreachable; unknown: never tested.'),
  checked_at: orNull(Timestamp),
  latency_ms: orNull(Type.Integer({ minimum: 0 })),
  message: orNull(Type.String()),
});

export const CarrierAccountSchema = Type.Object(
  {
    id: Type.String(),
    carrier: Type.String(),
    driver: Driver(),
    mode: Mode(),
    description: orNull(Type.String()),
    account_number: orNull(Type.String()),
    credentials: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Masked: every secret field shows as "••••" plus its last 4 characters (or only "••••" when shorter than 8, where the last 4 would give most of it away).',
    }),
    base_url: orNull(Type.String()),
    is_default: Type.Boolean(),
    enabled: Type.Boolean(),
    health: CarrierAccountHealthSchema,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'CarrierAccount', title: 'CarrierAccount', examples: [EXAMPLE_ACCOUNT] },
);
export type CarrierAccount = Static<typeof CarrierAccountSchema>;

export const CreateCarrierAccountBody = Type.Object(
  {
    carrier: CarrierSlug,
    driver: Driver('simulated (no credentials) or api (the carrier’s real API).'),
    description: Type.Optional(Type.String({ maxLength: 200, pattern: NO_CONTROL })),
    mode: Type.Optional(Mode('Which of the carrier’s hosts the api driver talks to (default sandbox).')),
    account_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL })),
    credentials: Type.Optional(Credentials),
    base_url: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: NO_CONTROL,
        description: 'Overrides the carrier’s host; only with CARRIER_ALLOW_BASE_URL_OVERRIDE=1 outside production.',
      }),
    ),
    is_default: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        carrier: 'ups',
        driver: 'api',
        description: 'Our UPS contract',
        mode: 'sandbox',
        account_number: 'A1B2C3',
        credentials: { client_id: 'my-client-id', client_secret: 'my-client-secret' },
        is_default: true,
      },
    ],
  },
);
export type CreateCarrierAccountInput = Static<typeof CreateCarrierAccountBody>;

export const UpdateCarrierAccountBody = Type.Object(
  {
    description: Type.Optional(orNull(Type.String({ maxLength: 200, pattern: NO_CONTROL }))),
    credentials: Type.Optional(Credentials),
    is_default: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Mode()),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: false }] },
);
export type UpdateCarrierAccountInput = Static<typeof UpdateCarrierAccountBody>;

export const CarrierAccountListQuery = Type.Object(
  {
    limit: Type.Optional(PageLimitSchema),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
    carrier: Type.Optional(CarrierSlug),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const CarrierExchangeSchema = Type.Object(
  {
    id: Type.String(),
    operation: Type.String({ description: 'token, rates, purchase, void, tracking, address_validation, pickup, test…' }),
    method: Type.String(),
    path: Type.String({ description: 'The URL path (no host, no query).' }),
    status: orNull(Type.Integer({ description: 'The carrier’s HTTP status; null when no answer arrived.' })),
    outcome: Type.String({ description: 'ok, rejected, invalid_credentials, unavailable, timeout, malformed.' }),
    duration_ms: Type.Integer({ minimum: 0 }),
    request_body: Type.Unknown({ description: 'Redacted: authorization, tokens, secrets and passwords are replaced.' }),
    response_body: Type.Unknown(),
    request_id: orNull(Type.String({ description: 'Our request that caused the exchange.' })),
    created_at: Timestamp,
  },
  { $id: 'CarrierExchange', title: 'CarrierExchange' },
);

export const CarrierExchangeListSchema = Type.Object(
  { data: Type.Array(Type.Ref(CarrierExchangeSchema)) },
  {
    examples: [
      {
        data: [
          {
            id: 'cx_01jx0000000000000000000000',
            operation: 'rates',
            method: 'POST',
            path: '/api/rating/v2409/Shop',
            status: 200,
            outcome: 'ok',
            duration_ms: 412,
            request_body: { RateRequest: { Shipment: { Shipper: { ShipperNumber: 'A1B2C3' } } } },
            response_body: { RateResponse: { Response: { ResponseStatus: { Code: '1', Description: 'Success' } } } },
            request_id: 'req_4f1c2d',
            created_at: '2026-11-25T12:00:00.000Z',
          },
        ],
      },
    ],
  },
);

export const CarrierTypeSchema = Type.Object(
  {
    carrier: Type.String(),
    name: Type.String(),
    drivers: Type.Array(Driver()),
    services: Type.Array(
      Type.Object({
        service_code: Type.String(),
        name: Type.String(),
        domestic: Type.Boolean(),
        international: Type.Boolean(),
        options: {
          ...ServiceOptionsSchema,
          description: 'The shipment options the service offers (rate queries and purchases are checked against this), for both drivers.',
        },
      }),
    ),
    capabilities: Type.Object(
      {
        rates: Type.Boolean(),
        labels: Type.Boolean(),
        void: Type.Boolean(),
        tracking: Type.Boolean(),
        address_validation: Type.Boolean({
          description:
            "The carrier's api driver validates addresses (street level, except DHL Express, which checks city and postal code against its service areas): POST /v1/addresses/validate with the carrier_account_id of an api account of this carrier asks the carrier. A capability of the api driver: simulated accounts leave validation to the built-in validator.",
        }),
        returns: Type.Boolean({ description: 'Return labels (POST /v1/shipments/{id}/return); how they can be billed is `return_charges`.' }),
        pickups: Type.Boolean({
          description:
            'POST /v1/pickups books and cancels pickups of this carrier (simulated accounts in process, api accounts at the carrier). Without it, a pickup is 422 capability_unavailable.',
        }),
        manifests: Type.Boolean({
          description:
            'POST /v1/manifests closes the day: USPS a SCAN form, the others a close report (from the carrier where its API closes, else printed here). Without it, a manifest is 422 capability_unavailable.',
        }),
        customs_documents: Type.Boolean({
          description:
            'GET /v1/shipments/{id}/documents prints the customs documents of an international label (USPS CN 22 / CN 23, the others a commercial invoice), beside any the carrier issues.',
        }),
      },
      {
        description:
          "rates, labels, void and tracking hold for both drivers; address_validation is what the api driver adds; returns, pickups, manifests and customs documents are the carrier's offer, the same for both drivers.",
      },
    ),
    return_charges: Type.Array(Type.Union([Type.Literal('on_scan'), Type.Literal('on_creation')]), {
      description:
        'How the carrier bills return labels, the default first: on_scan (pay on first scan; usps, ups, fedex) and/or on_creation (DHL Express: only this).',
    }),
    void_window_days: orNull(
      Type.Integer({
        description: 'Days after purchase within which a label can be voided and refunded (USPS 30, UPS 90, FedEx 90, DHL Express 14); null: no limit.',
      }),
    ),
    credentials_schema: orNull(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'JSON Schema (2020-12) of the api driver’s credentials; secret fields carry writeOnly: true. Null when the carrier has no api driver yet.',
      }),
    ),
  },
  { $id: 'CarrierType', title: 'CarrierType' },
);
export const CarrierTypeListSchema = Type.Object(
  { data: Type.Array(Type.Ref(CarrierTypeSchema)) },
  {
    examples: [
      {
        data: [
          {
            carrier: 'ups',
            name: 'UPS',
            drivers: ['simulated', 'api'],
            services: [
              {
                service_code: 'ups_ground',
                name: 'UPS Ground',
                domestic: true,
                international: false,
                options: {
                  signature: true,
                  adult_signature: true,
                  saturday_delivery: false,
                  insurance_max: { amount: 5000000, currency: 'USD' },
                  dangerous_goods: ['lithium_ion_in_equipment', 'limited_quantity_ground', 'dry_ice'],
                  max_parcels: 20,
                },
              },
            ],
            capabilities: {
              rates: true,
              labels: true,
              void: true,
              tracking: true,
              address_validation: true,
              returns: true,
              pickups: true,
              manifests: true,
              customs_documents: true,
            },
            return_charges: ['on_scan', 'on_creation'],
            void_window_days: 90,
            credentials_schema: {
              $schema: 'https://json-schema.org/draft/2020-12/schema',
              type: 'object',
              required: ['client_id', 'client_secret'],
              properties: {
                client_id: { type: 'string', minLength: 1, maxLength: 256, title: 'Client ID' },
                client_secret: { type: 'string', minLength: 1, maxLength: 256, title: 'Client secret', writeOnly: true },
              },
              additionalProperties: false,
            },
          },
        ],
      },
    ],
  },
);
export type CarrierType = Static<typeof CarrierTypeSchema>;
