import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ErrorResponseSchema, errorResponses, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { LABEL_FORMAT_CODES } from './shipments.schemas.js';
import { MAX_PRINT_LABELS, type LabelPrints } from './shipments.print.js';

const PRINT_BODY_EXAMPLE = { shipment_ids: ['shp_01JNV7Z3K5QW8R2T4Y6U8I0OPA', 'shp_01JNV7Z4M2XC9V1B3N5M7K9JHG'], format: 'pdf_4x6', packing_slips: false };

export const PrintLabelsBody = Type.Object(
  {
    shipment_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000]*$' }), {
      minItems: 1,
      maxItems: MAX_PRINT_LABELS,
      description: `The shipments whose labels to print (1 to ${MAX_PRINT_LABELS}), in the order the file holds them. An id given twice is 400 naming the repeat.`,
    }),
    format: Type.Optional(
      Type.Union(
        LABEL_FORMAT_CODES.map((f) => Type.Literal(f)),
        {
          description:
            'pdf_4x6 (default: one 4x6 page per label), pdf_letter (one letter page per label) or zpl_4x6 (one ^XA…^XZ per label, for thermal printers). png_4x6 is 400: an image holds one label.',
        },
      ),
    ),
    packing_slips: Type.Optional(
      Type.Boolean({
        description: "PDF only: each order's packing slip (a letter page) after its first label, so each box's paper comes out together. Default false.",
      }),
    ),
  },
  { additionalProperties: false, title: 'PrintLabelsInput', examples: [PRINT_BODY_EXAMPLE] },
);
export type PrintLabelsBodyInput = Static<typeof PrintLabelsBody>;

const errorExamples = (description: string, examples: object[]): TSchema =>
  // The Error body inline (a $ref would lose these examples to the generic one of the status).
  Type.Object(ErrorResponseSchema.properties, { title: 'Error', description, examples });

const requestId = 'req_5c88008bf29c4ce9a0c316592da9d7a6';
const responses = {
  400: errorExamples(
    'Invalid: no ids or more than 100 (field shipment_ids), an id repeated (shipment_ids[i]), png_4x6 (format), packing slips in ZPL (packing_slips).',
    [
      {
        code: 'validation_failed',
        message: 'The request is invalid.',
        details: [{ field: 'shipment_ids[2]', message: 'repeats shipment_ids[0] (shp_01JNV7Z3K5QW8R2T4Y6U8I0OPA); each label prints once' }],
        request_id: requestId,
      },
    ],
  ),
  404: errorExamples('An id of no shipment, or of another workspace or environment: each named (shipment_ids[i]).', [
    {
      code: 'not_found',
      message: 'No such shipment: shp_01JNV7Z4M2XC9V1B3N5M7K9JHG.',
      details: [{ field: 'shipment_ids[1]', message: 'no shipment shp_01JNV7Z4M2XC9V1B3N5M7K9JHG in this workspace and environment' }],
      request_id: requestId,
    },
  ]),
  409: errorExamples('invalid_state: a selected label is voided or expired (named in the message and the detail); nothing is printed.', [
    {
      code: 'invalid_state',
      message: 'Shipment shp_01JNV7Z4M2XC9V1B3N5M7K9JHG is voided; a label no carrier takes is not printed. Leave it out of the selection.',
      details: [{ field: 'status', message: 'shipment_ids[1] (shp_01JNV7Z4M2XC9V1B3N5M7K9JHG) is voided', current_state: 'voided', allowed_moves: [] }],
      request_id: requestId,
    },
  ]),
  422: errorExamples('label_format_unavailable: a real carrier issued a label that cannot be made into the format without loss (the shipment named).', [
    {
      code: 'label_format_unavailable',
      message: "Shipment shp_01JNV7Z4M2XC9V1B3N5M7K9JHG's carrier label cannot be made into zpl_4x6 without loss; download the labels one by one.",
      details: [{ field: 'format', message: 'not available for shipment shp_01JNV7Z4M2XC9V1B3N5M7K9JHG' }],
      request_id: requestId,
    },
  ]),
};

/** The merged file in OpenAPI: one binary body per media type a merge can have. */
const fileResponse = {
  description: 'The labels as one file (Content-Type by format; Content-Disposition: attachment names the file).',
  content: Object.fromEntries(['application/pdf', 'application/x-zpl'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
};

const DESCRIPTION =
  "One file for the printer, labels in the order given, every package's page of a multi-piece shipment: PDF pages (Content-Type application/pdf) " +
  'or ZPL documents one after the other (application/x-zpl); Content-Disposition: attachment. The selection is checked whole before anything is ' +
  'rendered: an id repeated is 400, an id of no shipment (or of another workspace or environment) 404 naming it, a voided or expired label 409 ' +
  "invalid_state naming it, a real carrier's label that cannot be made into the format without loss 422 label_format_unavailable naming it. " +
  'Nothing changes: printing again prints the same labels.';

/** POST …/labels/merge, under /v1 (a key) or /api/admin (a session): the same route and service. */
export async function labelPrintRoutes(app: App, opts: { surface: Surface; prints: LabelPrints }) {
  const { prints } = opts;
  const { v1, security, tags, operationId } = surfaceDocs(opts.surface, 'shipments');
  app.post('/labels/merge', {
    schema: {
      operationId: operationId('mergeLabels'),
      summary: "Print selected shipments' labels as one file (PDF pages or concatenated ZPL)",
      description: DESCRIPTION,
      tags,
      security,
      body: PrintLabelsBody,
      response: { 200: fileResponse, ...errorResponses(401, ...(v1 ? [403, 429] : [])), ...responses },
    },
    handler: async (request, reply) => {
      const file = await prints.print(serviceContext(request), request.body);
      reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      reply.header('cache-control', 'private, no-store');
      return reply.type(file.content_type).send(file.body);
    },
  });
}
