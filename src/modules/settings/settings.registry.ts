import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The known settings: each key has a JSON schema, a default that
 * applies while it has never been set, and a description. Anything else is 404 on the API.
 */
export interface SettingDefinition {
  schema: TSchema;
  default: unknown;
  description: string;
}

// Typed by its schema (not widened to SettingDefinition) so readers get a number back.
const burst = (tier: string, fallback: number) =>
  ({
    schema: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
    default: fallback,
    description: `Default burst (requests per minute) of ${tier} workspaces on /v1.`,
  }) satisfies SettingDefinition;

export const settingDefinitions = {
  'registration.auto_approve': {
    schema: Type.Boolean(),
    default: false,
    description: 'New registrations are active at once instead of waiting for a super-admin.',
  },
  'plans.starter.burst_per_minute': burst('starter', 60),
  'plans.professional.burst_per_minute': burst('professional', 300),
  'carriers.request_timeout_ms': {
    schema: Type.Integer({ minimum: 500, maximum: 60_000 }),
    default: 8000,
    description: "Deadline of one call to a carrier's API (retries of idempotent calls included).",
  },
  'carriers.tracking_poll_interval_seconds': {
    schema: Type.Union([Type.Null(), Type.Integer({ minimum: 60, maximum: 7 * 86_400 })]),
    default: null,
    description:
      'When set, every open shipment of an api carrier account is tracked at this interval; when null, by status (hourly in transit, daily before the first scan, never after delivery or 90 days).',
  },
  'webhooks.max_attempts': {
    schema: Type.Integer({ minimum: 1, maximum: 50 }),
    default: 8,
    description: 'Delivery attempts before a webhook delivery is dead-lettered.',
  },
  'webhooks.retry_schedule_seconds': {
    schema: Type.Array(Type.Integer({ minimum: 1, maximum: 7 * 86_400 }), { minItems: 1, maxItems: 50 }),
    // Before retry n (the last entry repeats): 8 attempts span ~24 h.
    default: [60, 300, 1800, 3600, 7200, 21_600, 50_400],
    description: 'Seconds before each retry of a failed webhook delivery (the last entry repeats); jitter is added.',
  },
  'webhooks.secret_overlap_hours': {
    schema: Type.Number({ minimum: 0, maximum: 24 * 30 }),
    default: 24,
    description: 'How long the previous secret stays valid (and signs deliveries) after a rotation.',
  },
  'shipments.address_validation': {
    schema: Type.Union([Type.Literal('none'), Type.Literal('validate'), Type.Literal('validate_and_clean')]),
    default: 'validate',
    description:
      'How a destination is checked before a label is bought when the request does not say: none; validate (an invalid address is refused); validate_and_clean (also ships to the normalised address).',
  },
  'sandbox.tracking_time_scale': {
    schema: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
    default: 1,
    description: 'Speed of the simulated carriers\u2019 scans: 1 = real time, 3600 = an hour per second.',
  },
  'sandbox.refund_delay_seconds': {
    schema: Type.Integer({ minimum: 0, maximum: 30 * 86_400 }),
    default: 60,
    description:
      'Seconds after a void before a simulated carrier decides its refund: rejected if the label was scanned meanwhile, else refunded. Api carrier accounts refund on the carrier\u2019s answer to the void.',
  },
  'orders.default_box': {
    schema: Type.Object(
      {
        length_in: Type.Number({ exclusiveMinimum: 0, maximum: 200 }),
        width_in: Type.Number({ exclusiveMinimum: 0, maximum: 200 }),
        height_in: Type.Number({ exclusiveMinimum: 0, maximum: 200 }),
      },
      { additionalProperties: false },
    ),
    default: { length_in: 10, width_in: 8, height_in: 4 },
    description: 'Box dimensions used when an order has no parcel dimensions.',
  },
  'members.invitation_ttl_hours': {
    schema: Type.Integer({ minimum: 1, maximum: 24 * 90 }),
    default: 168,
    description: 'Hours an invitation to a workspace stays valid (single-use).',
  },
  'office_redeem.sku_map': {
    schema: Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.Union([Type.Literal('office_2024'), Type.Literal('office_365')]), {
      maxProperties: 1000,
    }),
    default: {},
    description: 'Line-item SKUs that issue office-redeem PINs: {"<SKU>": "office_2024" | "office_365"}.',
  },
  'office_redeem.lookup_limit_per_minute': {
    schema: Type.Integer({ minimum: 1, maximum: 100_000 }),
    default: 30,
    description: 'PIN lookups allowed per client IP per minute.',
  },
  'office_redeem.failed_lookup_budget_per_minute': {
    schema: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    default: 600,
    description: 'Failed PIN lookups allowed per minute across all clients (guessing defence).',
  },
} as const satisfies Record<string, SettingDefinition>;

export type SettingKey = keyof typeof settingDefinitions;

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settingDefinitions, key);
}
