import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, PageLimitSchema, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import type { ChannelWriteBacks } from './channels.write-backs.js';
import { toWriteBack } from './channels.wire.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);
const STATUSES = ['pending', 'succeeded', 'retrying', 'dead', 'skipped'] as const;

const WRITE_BACK_EXAMPLE = {
  id: 'wbk_01m855w6xses490s9118mbhj80',
  shipment_id: 'shp_01m855w6xses490s9118mbhj81',
  order_id: 'ord_01m855w6xses490s9118mbhj82',
  integration_id: 'int_01m855w6xses490s9118mbhj7y',
  action: 'fulfill',
  status: 'succeeded',
  attempts: 1,
  external_ref: 'gid://shopify/Fulfillment/5000000000101',
  external_refs: ['gid://shopify/Fulfillment/5000000000101'],
  last_error: null,
  next_attempt_at: null,
  created_at: '2026-11-23T21:44:29.369Z',
  completed_at: '2026-11-23T21:44:30.012Z',
};

export const WriteBackSchema = Type.Object(
  {
    id: Type.String(),
    shipment_id: Type.String(),
    order_id: Type.String(),
    integration_id: Type.String(),
    action: Type.Union([Type.Literal('fulfill'), Type.Literal('update_tracking'), Type.Literal('cancel_fulfillment')]),
    status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
    attempts: Type.Integer(),
    external_ref: orNull(Type.String({ description: "The platform's reference (Shopify: the first fulfillment's gid)." })),
    external_refs: Type.Array(Type.String(), { description: 'Every fulfillment made (one per location).' }),
    last_error: orNull(Type.Object({ code: Type.String(), message: Type.String(), platform_status: orNull(Type.Integer()) })),
    next_attempt_at: orNull(Timestamp),
    created_at: Timestamp,
    completed_at: orNull(Timestamp),
  },
  { $id: 'WriteBack', title: 'WriteBack', examples: [WRITE_BACK_EXAMPLE] },
);

const ListQuery = Type.Object({
  status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))),
  integration_id: Type.Optional(Type.String({ maxLength: 64 })),
  shipment_id: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

/** /api/admin/write-backs (session): tracking sent back to the stores, and a retry for the ones that failed. */
export async function writeBacksRoutes(app: App, opts: { writeBacks: ChannelWriteBacks }) {
  const { writeBacks } = opts;
  app.addSchema(WriteBackSchema);
  const tags = ['admin'];
  const security = [{ session: [] }];

  app.get('/write-backs', {
    schema: {
      operationId: 'adminListWriteBacks',
      summary: 'Write-backs (tracking sent back to stores), newest first',
      tags,
      security,
      querystring: ListQuery,
      response: { 200: listResponse(Type.Ref(WriteBackSchema)), ...errorResponses(400, 401) },
    },
    handler: async (request) => {
      const page = await writeBacks.list(serviceContext(request), request.query);
      return { ...page, data: page.data.map(toWriteBack) };
    },
  });

  app.post('/write-backs/:id/retry', {
    schema: {
      operationId: 'adminRetryWriteBack',
      summary: 'Run a retrying, dead or pending write-back now',
      description: 'Answers the write-back after the attempt. 409 invalid_state for a succeeded or skipped one.',
      tags,
      security,
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      response: { 200: Type.Ref(WriteBackSchema), ...errorResponses(401, 404, 409) },
    },
    handler: async (request) => writeBacks.retryNow(serviceContext(request), request.params.id),
  });
}
