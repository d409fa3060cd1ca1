import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { OrderCountsQuery, OrderCountsSchema, OrderExportQuery } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';
import type { OrderSurface } from './orders.surface.js';
import { EXPORT_MAX_ROWS, ordersCsv, TRUNCATED_HEADER } from './orders.csv.js';

/**
 * The order queue's reads beside the list, one set of routes for both surfaces (the dashboard's
 * session under /api/admin, a key under /v1): the tabs' counts and the CSV export. Registered
 * before `/orders/:id`, whose parameter would otherwise read `counts` as an id.
 */
export function orderQueueRoutes(app: App, orders: OrdersService, surface: OrderSurface) {
  const { security, tags, operationId: op } = surface;
  const errors = surface.errors();
  app.addSchema(OrderCountsSchema);

  app.get('/orders/counts', {
    schema: {
      operationId: op('countOrders'),
      summary: "Count orders per status (the queue's tabs), with the list's filters but the status",
      description:
        "Every status is listed in the state machine's order, zero counts included; `total` is their sum. A `status` in the query is ignored, as any parameter not listed here, so the list's query string serves as is: the counts are what each status tab would list.",
      tags,
      security,
      querystring: OrderCountsQuery,
      response: { 200: Type.Ref(OrderCountsSchema), ...errors },
    },
    handler: async (request) => orders.countOrders(serviceContext(request), request.query),
  });

  app.get('/orders/export.csv', {
    schema: {
      operationId: op('exportOrders'),
      summary: `Download the orders the list's filters match as CSV, in its sort (at most ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows)`,
      description:
        `Columns: Order number, Date (UTC), Recipient, Destination, Items, Weight (oz), Requested service, Total, Currency, Status. ` +
        `UTF-8 with a byte order mark, every cell quoted, lines ended by CRLF; a cell starting with = + - @ is prefixed with a single quote ` +
        `so a spreadsheet shows it as text. When more than ${EXPORT_MAX_ROWS.toLocaleString('en-US')} orders match, the file holds the first ` +
        `${EXPORT_MAX_ROWS.toLocaleString('en-US')} and the response carries \`X-Export-Truncated: true\`: narrow the filters (a date range) for the rest.`,
      tags,
      security,
      querystring: OrderExportQuery,
      response: {
        200: {
          description: 'The CSV file (Content-Disposition: attachment).',
          headers: { 'X-Export-Truncated': { type: 'string', enum: ['true'], description: 'true when more orders matched than the file holds.' } },
          content: {
            'text/csv': {
              schema: Type.String({
                examples: [
                  '\uFEFF"Order number","Date","Recipient","Destination","Items","Weight (oz)","Requested service","Total","Currency","Status"\r\n"SHOP-1001","2026-03-01T15:00:00.000Z","Grace Hopper","Beverly Hills, CA 90210, US","2","24","usps_ground_advantage","39.80","USD","awaiting_fulfillment"\r\n',
                ],
              }),
            },
          },
        },
        ...errors,
      },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      const { rows, truncated } = await orders.exportOrders(ctx, request.query, EXPORT_MAX_ROWS);
      if (truncated) reply.header(TRUNCATED_HEADER, 'true');
      reply.header('content-disposition', `attachment; filename="orders-${ctx.environment}-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-cache');
      return reply.type('text/csv; charset=utf-8').send(ordersCsv(rows));
    },
  });
}
