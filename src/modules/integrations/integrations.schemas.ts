import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateTimeSchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { nullable } from '../../platform/http/nullable.js';
import { INTEGRATION_HEALTH } from './integrations.health.js';
import {
  CREATE_INTEGRATION_BODY_EXAMPLE,
  INTEGRATION_EXAMPLE,
  INTEGRATION_WITH_KEY_EXAMPLE,
  UPDATE_INTEGRATION_BODY_EXAMPLE,
} from './integrations.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
/** Response fields that may be null (serialisation only: requests use `nullable`). */
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const PLATFORMS = ['shopify', 'woocommerce', 'bigcommerce', 'custom'] as const;
export const PlatformSchema = Type.Union(PLATFORMS.map((p) => Type.Literal(p)));
export const HealthSchema = Type.Union(
  INTEGRATION_HEALTH.map((h) => Type.Literal(h)),
  {
    description:
      'token_expired once token_expires_at has passed (until the token is updated); degraded after 5 intake validation ' +
      'failures within 10 minutes, down after 20; healthy again after a successful intake or a token update.',
  },
);

const ConfigSchema = Type.Record(Type.String(), Type.Any(), { description: 'Non-secret settings of the connection (shop domain, options…).' });
const CredentialsSchema = Type.Record(Type.String(), Type.Any(), {
  description: 'Secrets of the connection (tokens, API keys). Write-only: encrypted at rest, never returned.',
});

export const IntegrationSchema = Type.Object(
  {
    id: Type.String({ examples: ['int_01jx0000000000000000000000'] }),
    name: Type.String(),
    platform: PlatformSchema,
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: 'Orders it sends land in this environment.' }),
    config: ConfigSchema,
    has_credentials: Type.Boolean(),
    token_expires_at: NullableTimestamp,
    health: HealthSchema,
    health_reason: orNull(Type.String()),
    health_checked_at: NullableTimestamp,
    last_intake_at: NullableTimestamp,
    ingest_key_last4: Type.String({ description: 'The last four characters of the current ingest key.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Integration', title: 'Integration', examples: [INTEGRATION_EXAMPLE] },
);
export type Integration = Static<typeof IntegrationSchema>;

/** Create (always) and update (after a rotation) add the whole ingest key, shown this once. */
export const IntegrationWithKeySchema = Type.Object(
  {
    ...IntegrationSchema.properties,
    ingest_key: Type.Optional(
      Type.String({ description: 'The whole ingest key ik_… for `Authorization: Bearer` on /api/integrations/orders. Only in the create response and after a rotation.' }),
    ),
  },
  { title: 'IntegrationWithIngestKey', examples: [INTEGRATION_WITH_KEY_EXAMPLE] },
);

export const CreateIntegrationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    platform: PlatformSchema,
    config: Type.Optional(ConfigSchema),
    credentials: Type.Optional(nullable(CredentialsSchema)),
    token_expires_at: Type.Optional(nullable({ ...DateTimeSchema, description: 'When the store token stops working (health turns token_expired).' })),
  },
  { additionalProperties: false, examples: [CREATE_INTEGRATION_BODY_EXAMPLE] },
);
export type CreateIntegrationInput = Static<typeof CreateIntegrationBody>;

export const UpdateIntegrationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    platform: Type.Optional(PlatformSchema),
    config: Type.Optional(ConfigSchema),
    credentials: Type.Optional(nullable(CredentialsSchema)),
    token_expires_at: Type.Optional(nullable(DateTimeSchema)),
    rotate_ingest_key: Type.Optional(Type.Boolean({ description: 'Issue a new ingest key (returned once in this response); the old one stops working at once.' })),
  },
  { additionalProperties: false, description: 'Only the fields given change. A new token_expires_at or credentials counts as a token update.', examples: [UPDATE_INTEGRATION_BODY_EXAMPLE] },
);
export type UpdateIntegrationInput = Static<typeof UpdateIntegrationBody>;

export const IntegrationListQuery = Type.Object({
  health: Type.Optional(HealthSchema),
  platform: Type.Optional(PlatformSchema),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type IntegrationListFilter = Static<typeof IntegrationListQuery>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
