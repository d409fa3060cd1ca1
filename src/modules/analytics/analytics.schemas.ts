import { Type, type Static } from '@sinclair/typebox';
import { DateOrDateTimeParam, MoneySchema } from '../../platform/http/schemas.js';
import { ANALYTICS_EXAMPLE } from './analytics.examples.js';

export const AnalyticsQuery = Type.Object({
  from: Type.Optional(DateOrDateTimeParam('ISO date or date-time (inclusive); default 30 days before `to`.')),
  to: Type.Optional(DateOrDateTimeParam('ISO date or date-time (exclusive); default now.')),
  interval: Type.Optional(
    Type.Union([Type.Literal('day'), Type.Literal('week')], { description: 'Bucket of the time series (default day; weeks start on Monday, UTC).' }),
  ),
});
export type AnalyticsFilter = Static<typeof AnalyticsQuery>;

const Count = Type.Integer({ minimum: 0 });
const counts = (keys: string[]) => Type.Object(Object.fromEntries(keys.map((k) => [k, Count])));

export const ORDER_STATUS_KEYS = ['awaiting_fulfillment', 'processing', 'shipped', 'delivered', 'cancelled'];

export const AnalyticsResponse = Type.Object(
  {
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    interval: Type.Union([Type.Literal('day'), Type.Literal('week')]),
    accounts_by_status: counts(['pending', 'active', 'suspended']),
    workspaces_by_plan: counts(['starter', 'professional', 'enterprise']),
    orders: Type.Object({
      created: Count,
      by_status: Type.Record(Type.String(), Count, { description: 'Orders created in the range by their current status.' }),
      per_period: Type.Array(Type.Object({ period: Type.String({ description: 'YYYY-MM-DD (UTC) that starts the bucket' }), created: Count })),
    }),
    labels: Type.Object({
      purchased: Count,
      voided: Count,
      spend: MoneySchema,
      per_period: Type.Array(Type.Object({ period: Type.String(), purchased: Count, spend: MoneySchema, by_carrier: Type.Record(Type.String(), Count) })),
      by_carrier: Type.Array(Type.Object({ carrier: Type.String(), purchased: Count, voided: Count, spend: MoneySchema })),
    }),
    webhooks: Type.Object({
      delivered: Count,
      failed: Count,
      dead: Count,
      pending: Count,
      success_rate: Type.Union([Type.Number(), Type.Null()], {
        description: 'delivered / (delivered + dead) over finished deliveries; null when none finished.',
      }),
    }),
    batches: Type.Object({ created: Count, by_status: Type.Record(Type.String(), Count) }),
    api_requests: Type.Object({
      total: Count,
      per_period: Type.Array(Type.Object({ period: Type.String(), requests: Count })),
      by_workspace: Type.Array(Type.Object({ workspace_id: Type.String(), name: Type.Union([Type.String(), Type.Null()]), requests: Count })),
    }),
  },
  { examples: [ANALYTICS_EXAMPLE] },
);
export type AnalyticsWire = Static<typeof AnalyticsResponse>;
