import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageLimitSchema } from '../../platform/http/schemas.js';
import { nullable } from '../../platform/http/nullable.js';
import {
  CREATE_WEBHOOK_BODY_EXAMPLE,
  ROTATED_WEBHOOK_ENDPOINT_EXAMPLE,
  UPDATE_WEBHOOK_BODY_EXAMPLE,
  WEBHOOK_DELIVERY_EXAMPLE,
  WEBHOOK_ENDPOINT_EXAMPLE,
  WEBHOOK_ENDPOINT_WITH_SECRET_EXAMPLE,
} from './webhooks.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Text we store: no NUL (PostgreSQL text cannot hold it) nor other control characters. */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';

/** Event types an endpoint can subscribe to; `*` = every one, present and future. */
export const WEBHOOK_EVENT_TYPES = [
  'shipment.label_purchased',
  'tracking.updated',
  'integration.health_changed',
  'batch.completed',
  'shipment.refund_updated',
  'manifest.ready',
  'order.imported',
  'order.needs_review',
  'shipment.write_back_failed',
  'member.invited',
] as const;
export const TEST_EVENT_TYPE = 'webhook.test';
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'dead'] as const;

const EventTypeSchema = Type.Union([...WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)), Type.Literal('*')], {
  description:
    "An event type, or `*` for every type. shipment.refund_updated: each change of a voided label's refund, data `{refund: {id, shipment_id, tracking_number, carrier, status, amount, requested_at, decided_at, reason}, shipment_id, order_id, tracking_number, carrier}`.",
});
const EventsSchema = Type.Array(EventTypeSchema, { minItems: 1, maxItems: 20, uniqueItems: true });
const UrlSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: NO_CONTROL,
  description: 'Where deliveries are POSTed. https is required in the live environment; private, loopback and link-local targets are refused.',
});
const DescriptionSchema = Type.String({ maxLength: 500, pattern: NO_CONTROL });

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String({ examples: ['whk_01jx0000000000000000000000'] }),
    url: Type.String(),
    description: orNull(Type.String()),
    events: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    disabled_reason: orNull(
      Type.String({ description: 'Why the service disabled it (a 410 from the receiver, 3 days of failures); PATCH enabled:true re-enables.' }),
    ),
    disabled_at: orNull(Timestamp),
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    secret_rotated_at: orNull(Timestamp),
    previous_secret_expires_at: orNull(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WebhookEndpoint', title: 'WebhookEndpoint', examples: [WEBHOOK_ENDPOINT_EXAMPLE] },
);
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = Type.Object(
  {
    ...WebhookEndpointSchema.properties,
    secret: Type.String({ description: 'The signing secret whsec_…, shown in this response only.' }),
  },
  { title: 'WebhookEndpointWithSecret', examples: [WEBHOOK_ENDPOINT_WITH_SECRET_EXAMPLE, ROTATED_WEBHOOK_ENDPOINT_EXAMPLE] },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecretSchema>;

export const AttemptSchema = Type.Object({
  number: Type.Integer(),
  attempted_at: Timestamp,
  status_code: orNull(Type.Integer()),
  latency_ms: Type.Integer(),
  response_body: orNull(Type.String({ description: 'The first 1 KiB of the response body.' })),
  error: orNull(Type.String({ description: 'Connection error, timeout, refused target… (null when a status came back).' })),
});
export type Attempt = Static<typeof AttemptSchema>;

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ examples: ['dlv_01jx0000000000000000000000'], description: 'Sent as X-Service-Delivery-Id, the same on every retry.' }),
    webhook_id: Type.String(),
    event_id: Type.String(),
    event_type: Type.String(),
    status: Type.Union(
      DELIVERY_STATUSES.map((s) => Type.Literal(s)),
      {
        description: 'pending: not attempted yet (or requeued); failed: the last attempt failed and a retry is scheduled; delivered; dead: no retry left.',
      },
    ),
    attempt_count: Type.Integer(),
    next_attempt_at: orNull(Timestamp),
    last_attempt_at: orNull(Timestamp),
    last_status_code: orNull(Type.Integer()),
    last_error: orNull(Type.String()),
    delivered_at: orNull(Timestamp),
    attempts: Type.Array(AttemptSchema, { description: 'Every attempt, oldest first.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery', examples: [WEBHOOK_DELIVERY_EXAMPLE] },
);
export type Delivery = Static<typeof DeliverySchema>;

export const CreateWebhookBody = Type.Object(
  {
    url: UrlSchema,
    events: EventsSchema,
    description: Type.Optional(nullable(DescriptionSchema)),
  },
  { additionalProperties: false, examples: [CREATE_WEBHOOK_BODY_EXAMPLE] },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(UrlSchema),
    events: Type.Optional(EventsSchema),
    description: Type.Optional(nullable(DescriptionSchema)),
    enabled: Type.Optional(Type.Boolean({ description: 'false pauses deliveries; true re-enables a disabled endpoint (pending deliveries resume).' })),
  },
  { additionalProperties: false, description: 'Only the fields given change.', examples: [UPDATE_WEBHOOK_BODY_EXAMPLE] },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const ListQuery = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type DeliveryListFilter = Static<typeof DeliveryListQuery>;

export const AllDeliveriesQuery = Type.Object({
  status: Type.Optional(Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))),
  webhook_id: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type AllDeliveriesFilter = Static<typeof AllDeliveriesQuery>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
