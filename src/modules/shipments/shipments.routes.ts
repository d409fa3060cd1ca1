import { Type } from '@sinclair/typebox';
import { checkOptionsOfBody } from '../shipment-options/index.js';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { shipmentChangeRoutes } from './shipments.changes.routes.js';
import {
  CreateReturnBody,
  CreateShipmentBody,
  LabelQuery,
  RefundListItemSchema,
  RefundListQuery,
  ShipmentIdParams,
  ShipmentListQuery,
  ShipmentSchema,
} from './shipments.schemas.js';
import type { ShipmentsService } from './shipments.service.js';
import type { LabelFile } from './shipments.label-files.js';
import { documentRoutes } from './shipments.documents.routes.js';
import { trackingRoutes } from './shipments.tracking.routes.js';
import { purchaseUnprocessableResponse } from '../customs/index.js';

/** The label file in OpenAPI: one binary body per format's media type. */
export const labelResponse = {
  description: 'The label file (Content-Type by format; Content-Disposition names the file).',
  content: Object.fromEntries(['application/pdf', 'image/png', 'application/x-zpl'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
};

export function sendLabel(reply: { header(k: string, v: string): unknown; type(t: string): unknown; send(b: Buffer): unknown }, file: LabelFile) {
  reply.header('content-disposition', `inline; filename="${file.filename}"`);
  reply.header('cache-control', 'private, max-age=3600');
  reply.type(file.content_type);
  return reply.send(file.body);
}

/**
 * /v1/shipments (an integration's key) and /api/admin/shipments (the dashboard's session), one set
 * of routes: buy, list, read, the label, returns, refunds, customs documents, cancel and an
 * order's generate. /v1 adds void and tracking; the dashboard marks a shipment delivered.
 */
export async function shipmentsRoutes(app: App, opts: { surface: Surface; shipments: ShipmentsService }) {
  const { shipments } = opts;
  const { v1, security, tags, operationId: op, errors } = surfaceDocs(opts.surface, 'shipments');
  // Idempotency-Key is honoured under /v1 only (docs/api-conventions.md, "Idempotency").
  const idempotent = (sentence: string) => (v1 ? ` ${sentence}` : '');
  // The service is the app's: closed once, with the /v1 scope.
  if (v1) app.addHook('onClose', async () => shipments.close());
  app.addSchema(ShipmentSchema);

  app.post('/shipments', {
    schema: {
      operationId: op('createShipment'),
      summary: 'Buy a label for an order',
      description:
        "Re-rates the service for the order's parcel, buys the label (tracking number with its carrier's check digit), stores the rendered label, " +
        'moves the order to shipped and emits shipment.label_purchased, in one transaction. The order must be awaiting_fulfillment or processing ' +
        '(else 409 invalid_state); an unknown service_code is 400; a service that cannot carry the parcel 422 no_rates; no ship-from on the order ' +
        'or the workspace 422 missing_ship_from. A parcel that crosses a border (or goes to a US military address) ships with a customs declaration: ' +
        "`customs` given here, else the order's, else one derived from its line items (422 customs_required when a line lacks a price or weight); " +
        'it is checked before anything is bought (422 customs_invalid, one detail per problem), and a carrier that refuses it answers 422 carrier_rejected. ' +
        '`service_code: "auto"` lets the shipping rules choose the service and account (the shipment\'s `selection` ' +
        "explains the choice; a rule that excludes every option is 422 no_rates naming it). `options` (signature, insurance, Saturday delivery, dangerous goods, references) override the order's key by key; " +
        'a service that does not offer one is 422 option_unavailable, one detail per option, nothing bought.' +
        idempotent('Send an Idempotency-Key: one label per key, even for concurrent retries.'),
      tags,
      security,
      body: CreateShipmentBody,
      response: {
        201: Type.Ref(ShipmentSchema, { description: 'Created' }),
        ...errors(404, 409, 422),
        422: purchaseUnprocessableResponse('no_rates, missing_ship_from, address_undeliverable, carrier_rejected, option_unavailable'),
      },
    },
    config: { bodyChecks: checkOptionsOfBody },
    handler: async (request, reply) => reply.code(201).send(await shipments.purchase(serviceContext(request), request.body)),
  });

  app.get('/shipments', {
    schema: {
      operationId: op('listShipments'),
      summary: 'List shipments, newest first',
      tags,
      security,
      querystring: ShipmentListQuery,
      response: { 200: listResponse(Type.Ref(ShipmentSchema)), ...errors() },
    },
    handler: async (request) => shipments.listShipments(serviceContext(request), request.query),
  });

  app.get('/shipments/:id', {
    schema: {
      operationId: op('getShipment'),
      summary: 'Read a shipment (tracking brought up to date)',
      tags,
      security,
      params: ShipmentIdParams,
      response: { 200: Type.Ref(ShipmentSchema), ...errors(404) },
    },
    handler: async (request) => shipments.getShipment(serviceContext(request), request.params.id),
  });

  if (v1) {
    app.post('/shipments/:id/void', {
      schema: {
        operationId: 'voidShipment',
        summary: 'Void a label (only label_purchased, before the first carrier scan)',
        description:
          "Any other state is 409 invalid_state, and so is a label past its carrier's void window (USPS 30 days after purchase, UPS and FedEx 90, DHL Express 14; the detail says the window closed). " +
          'The order returns to processing when it has no other live label (a return label never moves it). The void adds `refund` (status submitted, then refunded or rejected; see GET /v1/refunds); ' +
          'an on_scan return label never charged gets no refund and becomes `not_charged`.',
        tags,
        security,
        params: ShipmentIdParams,
        response: { 200: Type.Ref(ShipmentSchema), ...errorResponses(401, 403, 404, 409, 429) },
      },
      handler: async (request) => shipments.voidShipment(serviceContext(request), request.params.id),
    });
  }

  app.post('/shipments/:id/return', {
    schema: {
      operationId: op('createReturnShipment'),
      summary: 'Make a return label for a shipment',
      description:
        'A return label: a shipment with `is_return: true`, `return_of` this shipment, its addresses swapped, its parcel and (unless `service_code` names another) its service. ' +
        "`charge`: `on_scan` (default where the carrier offers pay-on-scan: usps, ups, fedex) costs nothing until the carrier's first scan (`billing_status` pending → charged); unused at `expires_at` " +
        '(`expires_in_days`, 1–90, default 30) the label becomes `expired` and `not_charged`. `on_creation` is charged at once (DHL Express offers only this: on_scan there is 422 `return_charge_unavailable`). ' +
        "International returns copy the outbound customs as `return_merchandise`. A return never moves the order's status. A voided shipment is 409 `invalid_state`; a return label itself 422 `unprocessable`." +
        idempotent('Send an Idempotency-Key: one return label per key.'),
      tags,
      security,
      params: ShipmentIdParams,
      body: CreateReturnBody,
      response: { 201: Type.Ref(ShipmentSchema, { description: 'Created' }), ...errors(400, 404, 409, 422) },
    },
    handler: async (request, reply) => reply.code(201).send(await shipments.createReturn(serviceContext(request), request.params.id, request.body)),
  });

  app.get('/refunds', {
    schema: {
      operationId: op('listRefunds'),
      summary: 'List refunds of voided labels, newest first',
      description:
        "Each void asks the carrier to refund the label: `submitted`, then `refunded` or `rejected` (a simulated carrier decides after the setting `sandbox.refund_delay_seconds`, rejecting a label it scanned meanwhile; an api account's accepted void is refunded at once). " +
        'Each change emits `shipment.refund_updated`. `status` filters (comma-separated); the cursor pages by (requested_at, id).',
      tags: surfaceDocs(opts.surface, 'refunds').tags,
      security,
      querystring: RefundListQuery,
      response: { 200: listResponse(RefundListItemSchema), ...errors(400) },
    },
    handler: async (request) => shipments.refunds.list(serviceContext(request), request.query),
  });

  app.get('/shipments/:id/label', {
    schema: {
      operationId: op('getShipmentLabel'),
      summary: 'Download the label (stored artifact; ?format= renders another format)',
      tags,
      security,
      params: ShipmentIdParams,
      querystring: LabelQuery,
      response: { 200: labelResponse, ...errors(404) },
    },
    handler: async (request, reply) => sendLabel(reply, await shipments.label(serviceContext(request), request.params.id, request.query.format)),
  });

  documentRoutes(app, shipments, { surface: opts.surface });

  if (v1) {
    trackingRoutes(app, shipments, { security });
  } else {
    app.post('/shipments/:id/force-delivery', {
      schema: {
        operationId: 'adminForceDeliverShipment',
        summary: 'Mark a shipment delivered (any state but voided), with a manual tracking event',
        tags,
        security,
        params: ShipmentIdParams,
        response: { 200: Type.Ref(ShipmentSchema), ...errorResponses(401, 404, 409) },
      },
      handler: async (request) => shipments.forceDelivery(serviceContext(request), request.params.id),
    });
  }
  shipmentChangeRoutes(app, shipments, { surface: opts.surface });
}
