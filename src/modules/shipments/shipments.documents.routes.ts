import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CUSTOMS_DOCUMENT_TYPES, type CustomsDocumentType } from '../labels/index.js';
import type { ShipmentsService } from './shipments.service.js';

const text = (maxLength: number, options: { description?: string } = {}) => Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });

export const DOCUMENT_LIST_EXAMPLE = {
  data: [
    {
      type: 'cn22',
      format: 'pdf',
      source: 'platform',
      url: 'http://localhost:3000/v1/shipments/shp_01m855vxgqem0szrmwkjs6ghzy/documents/cn22',
    },
  ],
};

export const ShipmentDocumentSchema = Type.Object(
  {
    type: Type.String({
      description:
        "`cn22`, `cn23` or `commercial_invoice` (printed by the platform from the shipment's customs declaration), or a type of document the carrier issued with the label (`waybill`, `receipt`, …).",
      examples: ['cn22'],
    }),
    format: Type.String({
      description: "File format: `pdf` for every document the platform prints; a carrier's may be `png`, `gif` or `zpl`.",
      examples: ['pdf'],
    }),
    source: Type.Union([Type.Literal('platform'), Type.Literal('carrier')], {
      description: 'Who issued it: printed here, or issued by the carrier with the label.',
    }),
    url: Type.String({ format: 'uri', description: 'GET it (same credentials) to download the file.' }),
  },
  { additionalProperties: false, title: 'ShipmentDocument' },
);

export const ShipmentDocumentListSchema = Type.Object(
  { data: Type.Array(ShipmentDocumentSchema) },
  { additionalProperties: false, title: 'ShipmentDocumentList', examples: [DOCUMENT_LIST_EXAMPLE] },
);

// The types the platform prints are an enum clients can offer; a carrier may issue others
// (`waybill`, `receipt`, its own in snake_case), so any other type is still accepted.
const DocumentParams = Type.Object({
  id: text(64),
  type: Type.Union(
    [
      Type.Unsafe<CustomsDocumentType>({
        type: 'string',
        enum: [...CUSTOMS_DOCUMENT_TYPES],
        description: "A document the platform prints from the shipment's customs declaration.",
      }),
      text(64, { description: "A type of document the carrier issued with the label, as the shipment's document list names it." }),
    ],
    // type beside maxLength: Ajv's strict mode asks for it on the union, where the bound stands.
    { type: 'string', maxLength: 64, description: "A `type` from the shipment's document list (`cn22`, `cn23`, `commercial_invoice`, or a carrier's)." },
  ),
});
const ShipmentParams = Type.Object({ id: text(64) });

const documentResponse = {
  description: 'The document file (Content-Type by format, application/pdf for every document the platform prints; Content-Disposition names the file).',
  content: Object.fromEntries(
    ['application/pdf', 'image/png', 'image/gif', 'application/x-zpl'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
  ),
};

/**
 * GET …/shipments/:id/documents and …/documents/:type, under /v1 (API key) and /api/admin
 * (session, for the dashboard): the same handlers on each.
 */
export function documentRoutes(app: App, shipments: ShipmentsService, opts: { surface: Surface }) {
  const { security, tags, operationId: op, errors } = surfaceDocs(opts.surface, 'shipments');
  app.get('/shipments/:id/documents', {
    schema: {
      operationId: op('listShipmentDocuments'),
      summary: 'List the customs documents of a shipment',
      description:
        'The documents an international shipment travels with: USPS a CN 22 (declared value at most 400 USD and weight at most 4 lb) or else a CN 23; ' +
        'UPS, FedEx and DHL Express a commercial invoice (none when the contents are `documents`); and any document the carrier issued with the label. ' +
        "A domestic shipment has none (an empty list). The platform's documents are rendered on their first download, then kept.",
      tags,
      security,
      params: ShipmentParams,
      response: { 200: ShipmentDocumentListSchema, ...errors(404) },
    },
    handler: async (request) => shipments.listDocuments(serviceContext(request), request.params.id),
  });

  app.get('/shipments/:id/documents/:type', {
    schema: {
      operationId: op('getShipmentDocument'),
      summary: 'Download a customs document of a shipment',
      description:
        'Streams the document: a CN 22, CN 23 or commercial invoice as a PDF (sender, recipient, every item with its HS code, origin, values and weight, totals, ' +
        'contents type, incoterm, EEL/PFC or ITN, signer, date and the tracking number as a Code 128 barcode), or a document the carrier issued, as received. ' +
        'A type the shipment does not have is 404 `not_found`.',
      tags,
      security,
      params: DocumentParams,
      response: { 200: documentResponse, ...errors(404) },
    },
    handler: async (request, reply) => {
      const file = await shipments.document(serviceContext(request), request.params.id, request.params.type);
      reply.header('content-disposition', `inline; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, '_')}"`);
      reply.header('cache-control', 'private, max-age=3600');
      reply.type(file.content_type);
      return reply.send(file.body);
    },
  });
}
