import { Type, type Static } from '@sinclair/typebox';
import { PageLimitSchema, SAFE_INTEGER } from '../../platform/http/schemas.js';
import {
  CONFIG_365_BODY_EXAMPLE,
  CONFIG_365_EXAMPLE,
  LOOKUP_2024_EXAMPLE,
  LOOKUP_365_EXAMPLE,
  LOOKUP_BODY_EXAMPLE,
  MASTER_KEY_BODY_EXAMPLE,
  MASTER_KEY_EXAMPLE,
  OFFICE_PIN_EXAMPLE,
  PIN_LIST_EXAMPLE,
  TEST_PIN_BODY_EXAMPLE,
} from './office-redeem.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const ProductSchema = Type.Union([Type.Literal('office_2024'), Type.Literal('office_365')]);
export const PinStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]);

/** The whole PIN record (super-admin and test-PIN answers only). */
export const OfficePinSchema = Type.Object(
  {
    id: Type.String({ examples: ['pin_01jx0000000000000000000000'] }),
    pin: Type.String({ description: '16 digits.' }),
    product: ProductSchema,
    status: PinStatusSchema,
    expires_at: Timestamp,
    order_id: NullableString,
    workspace_id: NullableString,
    environment: NullableString,
    test: Type.Boolean(),
    lookup_count: Type.Integer(),
    last_lookup_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
    renewed_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'OfficePin', title: 'OfficePin', examples: [OFFICE_PIN_EXAMPLE] },
);
export type OfficePin = Static<typeof OfficePinSchema>;

export const PinListQuery = Type.Object({
  filter: Type.Optional(Type.String({ maxLength: 20, description: 'A status (active, expired, revoked), a product (office_2024, office_365) or test.' })),
  status: Type.Optional(PinStatusSchema),
  product: Type.Optional(ProductSchema),
  q: Type.Optional(Type.String({ maxLength: 16, description: 'Digits contained in the PIN.' })),
  search: Type.Optional(Type.String({ maxLength: 16, description: 'Synonym of q.' })),
  limit: Type.Optional(PageLimitSchema),
  offset: Type.Optional(Type.Integer({ ...SAFE_INTEGER, description: 'Rows to skip (default 0).' })),
});

export const PinListResponse = Type.Object(
  {
    data: Type.Array(Type.Ref(OfficePinSchema)),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  },
  { examples: [PIN_LIST_EXAMPLE] },
);

export const PinParams = Type.Object({ pin: Type.String({ maxLength: 64, description: 'The 16-digit PIN or its pin_ id.' }) });

export const LookupBody = Type.Object({ pin: Type.String({ maxLength: 64 }) }, { additionalProperties: false, examples: [LOOKUP_BODY_EXAMPLE] });

export const Lookup2024Response = Type.Object(
  {
    product: Type.Literal('office_2024'),
    status: Type.Literal('active'),
    expires_at: Timestamp,
    product_key: NullableString,
    slip: Type.Object({
      title: NullableString,
      instructions: NullableString,
      support_url: NullableString,
      support_email: NullableString,
      footer: NullableString,
    }),
  },
  { examples: [LOOKUP_2024_EXAMPLE] },
);

export const Lookup365Response = Type.Object(
  {
    product: Type.Literal('office_365'),
    status: Type.Literal('active'),
    expires_at: Timestamp,
    title: NullableString,
    video_url: NullableString,
    portal_url: NullableString,
    installer_url: NullableString,
    redeem_url: NullableString,
  },
  { examples: [LOOKUP_365_EXAMPLE] },
);

export const LookupResponse = Type.Union([Lookup2024Response, Lookup365Response], { examples: [LOOKUP_2024_EXAMPLE, LOOKUP_365_EXAMPLE] });

const slipField = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

export const SlipSchema = Type.Object(
  {
    title: slipField(200),
    instructions: slipField(5000),
    support_url: slipField(2000),
    support_email: slipField(254),
    footer: slipField(1000),
  },
  { additionalProperties: false },
);

export const MasterKeyBody = Type.Object(
  {
    product_key: Type.String({ maxLength: 64, description: 'Five groups of five A–Z/0–9 characters joined by - (lower case is upper-cased).' }),
    slip: Type.Optional(SlipSchema),
  },
  { additionalProperties: false, examples: [MASTER_KEY_BODY_EXAMPLE] },
);

export const MasterKeyResponse = Type.Object(
  {
    product_key: NullableString,
    slip: Type.Object({
      title: NullableString,
      instructions: NullableString,
      support_url: NullableString,
      support_email: NullableString,
      footer: NullableString,
    }),
    updated_at: NullableTimestamp,
    updated_by: NullableString,
  },
  { examples: [MASTER_KEY_EXAMPLE] },
);

const url = Type.String({ maxLength: 2000 });
export const Config365Body = Type.Object(
  {
    title: Type.String({ maxLength: 200 }),
    video_url: url,
    portal_url: url,
    installer_url: url,
    redeem_url: url,
  },
  { additionalProperties: false, examples: [CONFIG_365_BODY_EXAMPLE] },
);

export const Config365Response = Type.Object(
  {
    title: NullableString,
    video_url: NullableString,
    portal_url: NullableString,
    installer_url: NullableString,
    redeem_url: NullableString,
    updated_at: NullableTimestamp,
    updated_by: NullableString,
  },
  { examples: [CONFIG_365_EXAMPLE] },
);

export const TestPinBody = Type.Object({ product: ProductSchema }, { additionalProperties: false, examples: [TEST_PIN_BODY_EXAMPLE] });

export type Slip = Static<typeof SlipSchema>;
export type Config365 = Static<typeof Config365Body>;
