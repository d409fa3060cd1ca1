import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { renderPackingSlip, type PackingSlipData } from '../labels/index.js';
import { IdParams, type Order } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';
import type { OrderSurface } from './orders.surface.js';

/** What the order's packing slip prints (labels.packing-slip.ts draws it). */
export function packingSlipOf(order: Order): PackingSlipData {
  const address = (a: NonNullable<Order['ship_from']>) => ({ ...a, company: a.company ?? null, street2: a.street2 ?? null, country: a.country ?? '' });
  return {
    order_id: order.id,
    order_number: order.external_number ?? order.external_id ?? order.id,
    order_date: order.created_at.slice(0, 10),
    ship_from: order.ship_from ? address(order.ship_from) : null,
    ship_to: address(order.ship_to),
    lines: order.line_items.map((l) => ({ sku: l.sku, name: l.name, quantity: l.quantity, weight_oz: l.weight_oz })),
    notes: order.notes,
  };
}

/**
 * GET …/orders/:id/packing-slip (under /v1 with a key, under /api/admin with a session): a PDF
 * the packer puts in the box, printed beside the label (docs/api-conventions.md, "Files").
 */
export function packingSlipRoute(app: App, orders: OrdersService, surface: OrderSurface) {
  app.get('/orders/:id/packing-slip', {
    schema: {
      operationId: surface.operationId('getOrderPackingSlip'),
      summary: "Download the order's packing slip (PDF: order number, date, ship-to, every line with its quantity)",
      tags: surface.tags,
      security: surface.security,
      params: IdParams,
      response: {
        200: {
          description: 'The packing slip (US Letter PDF; Content-Disposition names the file).',
          content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
        },
        ...surface.errors(404),
      },
    },
    handler: async (request, reply) => {
      const order = await orders.getOrder(serviceContext(request), request.params.id, { attachments: false });
      const body = await renderPackingSlip(packingSlipOf(order));
      reply.header('content-disposition', `inline; filename="packing-slip-${order.id}.pdf"`);
      reply.header('cache-control', 'private, no-cache');
      return reply.type('application/pdf').send(body as never); // binary: no schema serialisation
    },
  });
}
