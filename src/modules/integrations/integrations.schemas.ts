import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateTimeSchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { nullable } from '../../platform/http/nullable.js';
import { CHANNEL_PLATFORMS } from '../../channels/registry.js';
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

/** Every discovered store platform (src/channels/<slug>/), then `custom` (orders pushed with the ingest key). */
export const PLATFORMS: readonly string[] = [...CHANNEL_PLATFORMS.map((p) => p.slug), 'custom'];
export const PlatformSchema = Type.Union(
  PLATFORMS.map((p) => Type.Literal(p)),
  { description: 'A store platform of GET /api/admin/channel-types, or custom.' },
);
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
  description:
    'Secrets of the connection. Shopify: {access_token, client_secret} (custom app) or {client_id, client_secret} (OAuth); WooCommerce: {consumer_key, consumer_secret}; BigCommerce: {access_token} of a store API account. Write-only: encrypted at rest, returned masked.',
});

export const CONNECTION_STATES = ['pending_authorization', 'active', 'paused', 'disconnected'] as const;

const ConnectionSchema = Type.Object(
  {
    state: Type.Union(CONNECTION_STATES.map((s) => Type.Literal(s))),
    authorize_url: orNull(Type.String({ description: 'While pending_authorization: the link that installs the app on the store (OAuth).' })),
    connected_at: NullableTimestamp,
    scopes: Type.Array(Type.String(), { description: 'What the platform granted.' }),
  },
  { description: 'The connection to a real store platform; null for `custom` (push intake).' },
);

const SETTINGS_PROPERTIES = {
  import_statuses: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: 20,
    description:
      "The platform's order statuses that are imported. Shopify: `<financial status>:<fulfillment status>` pairs, lower case (default: paid and partially_paid with unfulfilled and partial); WooCommerce: order statuses (default `processing`); BigCommerce: status ids as strings (default `11` Awaiting Fulfillment and `9` Awaiting Shipment).",
  }),
  write_back: Type.Boolean({ description: 'Send tracking back to the store when a label is bought (default true).' }),
  notify_customer: Type.Boolean({ description: 'Let the platform tell the buyer about the fulfillment (default false).' }),
  backfill_days: Type.Integer({ minimum: 0, maximum: 365, description: 'On activation, import orders updated in this many past days (default 14).' }),
  reconcile_interval_minutes: Type.Integer({
    minimum: 1,
    maximum: 1440,
    description: 'How often the store is re-read for changes webhooks missed (default 5).',
  }),
};
export const SettingsSchema = Type.Object(SETTINGS_PROPERTIES);
export type ChannelSettingsWire = Static<typeof SettingsSchema>;
const SettingsInput = Type.Partial(Type.Object(SETTINGS_PROPERTIES, { additionalProperties: false }), { additionalProperties: false });

const SyncSchema = Type.Object({
  last_webhook_at: NullableTimestamp,
  last_reconciled_at: NullableTimestamp,
  lag_seconds: orNull(
    Type.Integer({ description: 'Seconds since the store was last known to be in sync (the later of the last webhook and the last reconciliation).' }),
  ),
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
    store_ref: orNull(
      Type.String({ description: 'Shopify: the shop domain (name.myshopify.com); WooCommerce: the site URL; BigCommerce: the store hash. Null for custom.' }),
    ),
    base_url: orNull(Type.String({ description: "Replaces the platform's origin (only with CHANNEL_ALLOW_BASE_URL_OVERRIDE=1 outside production)." })),
    credentials: orNull(
      Type.Record(Type.String(), Type.Any(), { description: 'Masked: every secret as •••• plus its last four characters. Null for custom integrations.' }),
    ),
    connection: orNull(ConnectionSchema),
    settings: orNull(SettingsSchema),
    sync: orNull(SyncSchema),
    health_since: NullableTimestamp,
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
      Type.String({
        description: 'The whole ingest key ik_… for `Authorization: Bearer` on /api/integrations/orders. Only in the create response and after a rotation.',
      }),
    ),
  },
  { title: 'IntegrationWithIngestKey', examples: [INTEGRATION_WITH_KEY_EXAMPLE] },
);

export const CreateIntegrationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    platform: PlatformSchema,
    store_ref: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Required for shopify (the shop domain name.myshopify.com), woocommerce (the site URL, https) and bigcommerce (the store hash).',
      }),
    ),
    base_url: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: "Replaces the platform's origin (a test double or egress proxy); only with CHANNEL_ALLOW_BASE_URL_OVERRIDE=1 outside production.",
      }),
    ),
    settings: Type.Optional(SettingsInput),
    config: Type.Optional(ConfigSchema),
    credentials: Type.Optional(nullable(CredentialsSchema)),
    token_expires_at: Type.Optional(nullable({ ...DateTimeSchema, description: 'When the store token stops working (health turns token_expired).' })),
  },
  {
    additionalProperties: false,
    examples: [
      CREATE_INTEGRATION_BODY_EXAMPLE,
      {
        name: 'Acme WooCommerce',
        platform: 'woocommerce',
        store_ref: 'https://shop.acme.example',
        credentials: { consumer_key: 'ck_example_consumer_key', consumer_secret: 'cs_example_consumer_secret' },
      },
      { name: 'Acme BigCommerce', platform: 'bigcommerce', store_ref: 'abc123def', credentials: { access_token: 'example_store_api_token' } },
    ],
  },
);
export type CreateIntegrationInput = Static<typeof CreateIntegrationBody>;

export const UpdateIntegrationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    platform: Type.Optional(PlatformSchema),
    base_url: Type.Optional(nullable(Type.String({ maxLength: 2048 }))),
    settings: Type.Optional(SettingsInput),
    config: Type.Optional(ConfigSchema),
    credentials: Type.Optional(nullable(CredentialsSchema)),
    token_expires_at: Type.Optional(nullable(DateTimeSchema)),
    rotate_ingest_key: Type.Optional(
      Type.Boolean({ description: 'Issue a new ingest key (returned once in this response); the old one stops working at once.' }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Only the fields given change; settings are merged. A new token_expires_at or credentials counts as a token update. For a store platform, ' +
      'new credentials or base_url are tested at once, and waiting write-backs are drained when the test passes.',
    examples: [UPDATE_INTEGRATION_BODY_EXAMPLE],
  },
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

const SYNC_RUN_EXAMPLE = {
  id: 'syn_01m855w6xses490s9118mbhj7z',
  kind: 'manual',
  status: 'completed',
  since: '2026-11-20T00:00:00.000Z',
  counts: { seen: 12, created: 3, updated: 2, unchanged: 6, skipped: 1, failed: 0 },
  error: null,
  created_at: '2026-11-23T21:44:29.369Z',
  started_at: '2026-11-23T21:44:29.400Z',
  finished_at: '2026-11-23T21:44:31.120Z',
};

export const SyncRunSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union([Type.Literal('backfill'), Type.Literal('reconcile'), Type.Literal('manual')]),
    status: Type.Union(['queued', 'running', 'completed', 'completed_with_errors', 'failed'].map((s) => Type.Literal(s))),
    since: NullableTimestamp,
    counts: Type.Object({
      seen: Type.Integer(),
      created: Type.Integer(),
      updated: Type.Integer({ description: 'Edits applied, and edits flagged needs_review.' }),
      unchanged: Type.Integer({ description: 'Unchanged, stale or our own write-back echoing back.' }),
      skipped: Type.Integer({ description: 'In a status that is not imported.' }),
      failed: Type.Integer(),
    }),
    error: orNull(Type.String({ description: 'Why a failed run stopped.' })),
    created_at: Timestamp,
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
  },
  { $id: 'SyncRun', title: 'SyncRun', examples: [SYNC_RUN_EXAMPLE] },
);

export const ChannelExchangeSchema = Type.Object(
  {
    id: Type.String(),
    operation: Type.String({ description: 'The channel operation: connection_test, webhooks_list, orders_list, order_get, fulfillment_create, …' }),
    method: Type.String(),
    path: Type.String({ description: 'Path and query at the platform (never the origin).' }),
    status: orNull(Type.Integer({ description: 'The platform’s HTTP status; null when no answer arrived.' })),
    outcome: Type.String({ description: 'success, client_error, unauthorized, throttled, server_error, timeout, network_error.' }),
    duration_ms: Type.Integer({ minimum: 0 }),
    attempt: Type.Integer({ minimum: 1, description: 'The attempt within one operation (retries of reads count up).' }),
    request_body: Type.Unknown({ description: 'Redacted: tokens, secrets and the connection’s own secret values are replaced.' }),
    response_body: Type.Unknown(),
    request_id: orNull(Type.String({ description: 'Our request or job that caused the exchange.' })),
    created_at: Timestamp,
  },
  { $id: 'ChannelExchange', title: 'ChannelExchange' },
);

export const ChannelExchangeListSchema = Type.Object(
  { data: Type.Array(Type.Ref(ChannelExchangeSchema)) },
  {
    examples: [
      {
        data: [
          {
            id: 'chx_01jf7f1m1qz9x8d7c6b5a4v3t2',
            operation: 'orders_list',
            method: 'POST',
            path: '/admin/api/2026-07/graphql.json',
            status: 200,
            outcome: 'success',
            duration_ms: 182,
            attempt: 1,
            request_body: { operation: 'OrdersUpdatedSince', variables: { first: 10, after: null } },
            response_body: { data: { orders: { nodes: [] } } },
            request_id: 'req_01jf7f1m1qz9x8d7c6b5a4v3t2',
            created_at: '2026-11-23T21:44:29.436Z',
          },
        ],
      },
    ],
  },
);

export const SyncBody = Type.Object(
  {
    since: Type.Optional(
      Type.String({ format: 'date-time', maxLength: 40, description: 'Read orders updated since then (default: the watermark minus 10 minutes).' }),
    ),
  },
  { additionalProperties: false, examples: [{ since: '2026-11-20T00:00:00Z' }] },
);

export const SyncRunListQuery = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

const DECISIONS = ['created', 'updated', 'unchanged', 'stale', 'duplicate', 'echo', 'skipped_status', 'needs_review', 'error'] as const;

export const SyncHistorySchema = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        at: Timestamp,
        source: Type.Union([Type.Literal('webhook'), Type.Literal('poll'), Type.Literal('manual')]),
        platform_version: orNull(Type.String({ description: "The store's updated_at of the version this entry is about." })),
        decision: Type.Union(DECISIONS.map((d) => Type.Literal(d))),
        changes: Type.Array(Type.String(), { description: 'Order field paths the version changed.' }),
        message: orNull(Type.String()),
      }),
    ),
    write_backs: Type.Array(Type.Record(Type.String(), Type.Any()), { description: 'The tracking sent back to the store for this order, oldest first.' }),
  },
  {
    title: 'OrderSyncHistory',
    examples: [
      {
        data: [
          { at: '2026-11-23T21:44:29.369Z', source: 'webhook', platform_version: '2026-11-23T21:44:20.000Z', decision: 'created', changes: [], message: null },
          { at: '2026-11-23T21:49:29.369Z', source: 'poll', platform_version: '2026-11-23T21:44:20.000Z', decision: 'stale', changes: [], message: null },
        ],
        write_backs: [],
      },
    ],
  },
);

const ChannelTypeExample = {
  platform: 'woocommerce',
  name: 'WooCommerce',
  store_ref: {
    label: 'Site URL (https://shop.example.com)',
    description: 'the site URL, https://example.com (or with the path WordPress lives at), without query or fragment',
  },
  credentials: [
    { field: 'consumer_key', label: 'Consumer key (ck_…)', required: true, secret: true },
    { field: 'consumer_secret', label: 'Consumer secret (cs_…)', required: true, secret: true },
  ],
  oauth: false,
  oauth_scopes: [],
  default_import_statuses: ['processing'],
  import_statuses_hint: 'order statuses, comma separated (processing, on-hold)',
  webhook_topics: ['order.created', 'order.updated', 'order.deleted'],
};

export const ChannelTypeSchema = Type.Object(
  {
    platform: Type.String({ description: 'What `platform` holds on an integration of this type.' }),
    name: Type.String(),
    store_ref: Type.Object({ label: Type.String(), description: Type.String({ description: 'What `store_ref` holds on this platform.' }) }),
    credentials: Type.Array(
      Type.Object({
        field: Type.String({ description: 'The key under `credentials`.' }),
        label: Type.String(),
        required: Type.Boolean({ description: 'False where the platform takes one of several fields (Shopify: access_token, or client_id for OAuth).' }),
        secret: Type.Boolean({ description: 'Masked in answers (•••• and its last four characters) and never returned whole.' }),
      }),
      { description: 'The credentials a connection takes, in the order a form asks for them.' },
    ),
    oauth: Type.Boolean({ description: "True when a connection can be made through the platform's OAuth install (an authorize_url first)." }),
    oauth_scopes: Type.Array(Type.String()),
    default_import_statuses: Type.Array(Type.String(), { description: '`settings.import_statuses` when none is set.' }),
    import_statuses_hint: Type.String({ description: 'What `settings.import_statuses` holds on this platform.' }),
    webhook_topics: Type.Array(Type.String(), { description: 'The topics subscribed to when a connection activates.' }),
  },
  { $id: 'ChannelType', title: 'ChannelType', examples: [ChannelTypeExample] },
);
export type ChannelType = Static<typeof ChannelTypeSchema>;
export const ChannelTypeListSchema = Type.Object({ data: Type.Array(Type.Ref(ChannelTypeSchema)) }, { examples: [{ data: [ChannelTypeExample] }] });
