import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { labelResponse, sendLabel } from '../shipments/index.js';
import {
  AdminBatchGenerateBody,
  AdminBatchProcessBody,
  BatchIdParams,
  BatchItemSchema,
  BatchItemsQuery,
  BatchListQuery,
  BatchSchema,
  CreateBatchBody,
} from './batches.schemas.js';
import type { BatchesService } from './batches.service.js';

/** 10 MiB: a 10,000-item batch of order bodies fits; every other route keeps the default. */
export const BATCH_BODY_LIMIT = 10 * 1024 * 1024;

const CREATE_DESCRIPTION =
  'Answers 202 with the queued batch; workers process its items in chunks (each item in its own transaction, exactly once even ' +
  'across crashes). Up to 10,000 items: more is 413 payload_too_large (the body itself is limited to 10 MiB). An item that does ' +
  'not validate becomes a failed item with validation_failed details; only a malformed envelope is a 400. Send an Idempotency-Key ' +
  'to make retries safe.';

/** Read routes shared by /v1 and /api/admin (the dashboard shows the same batches). */
function readRoutes(app: App, surface: Surface, batches: BatchesService) {
  const { security, tags, operationId: op, errors } = surfaceDocs(surface, 'batches');

  app.get('/batches', {
    schema: {
      operationId: op('listBatches'),
      summary: 'List batches, newest first',
      tags,
      security,
      querystring: BatchListQuery,
      response: { 200: listResponse(Type.Ref(BatchSchema)), ...errors(400) },
    },
    handler: async (request) => batches.list(serviceContext(request), request.query),
  });
  app.get('/batches/:id', {
    schema: {
      operationId: op('getBatch'),
      summary: 'Read a batch: status, counts, progress, ETA',
      tags,
      security,
      params: BatchIdParams,
      response: { 200: Type.Ref(BatchSchema), ...errors(404) },
    },
    handler: async (request) => batches.get(serviceContext(request), request.params.id),
  });
  app.get('/batches/:id/items', {
    schema: {
      operationId: op('listBatchItems'),
      summary: "List a batch's items in input order (?status= filters)",
      tags,
      security,
      params: BatchIdParams,
      querystring: BatchItemsQuery,
      response: { 200: listResponse(Type.Ref(BatchItemSchema)), ...errors(400, 404) },
    },
    handler: async (request) => batches.items(serviceContext(request), request.params.id, request.query),
  });
  app.post('/batches/:id/cancel', {
    schema: {
      operationId: op('cancelBatch'),
      summary: 'Cancel a batch: items not started are cancelled, finished ones stay',
      description: 'A completed or failed batch is 409 invalid_state; cancelling a cancelled batch answers it as it is.',
      tags,
      security,
      params: BatchIdParams,
      response: { 200: Type.Ref(BatchSchema), ...errors(404, 409) },
    },
    handler: async (request) => batches.cancel(serviceContext(request), request.params.id),
  });
  app.get('/batches/:id/label', {
    schema: {
      operationId: op('getBatchLabel'),
      summary: 'Download every label of the batch as one file (PDF pages or concatenated ZPL)',
      description:
        "409 invalid_state until the batch has finished; 404 when it bought no labels. Labels a real carrier issued are its own files, merged in order; one that cannot be made into the batch's format without loss is 422 `label_format_unavailable` naming the shipment.",
      tags,
      security,
      params: BatchIdParams,
      response: { 200: labelResponse, ...errors(404, 409, 422) },
    },
    handler: async (request, reply) => sendLabel(reply, await batches.label(serviceContext(request), request.params.id)),
  });
}

/** /v1/batches. */
export async function batchesRoutes(app: App, opts: { batches: BatchesService }) {
  const { batches } = opts;
  app.addSchema(BatchSchema);
  app.addSchema(BatchItemSchema);
  app.post('/batches', {
    bodyLimit: BATCH_BODY_LIMIT,
    schema: {
      operationId: 'createBatch',
      summary: 'Start a batch job',
      description: CREATE_DESCRIPTION,
      tags: ['batches'],
      security: [{ apiKey: [], workspace: [] }],
      body: CreateBatchBody,
      response: { 202: Type.Ref(BatchSchema, { description: 'Accepted' }), ...errorResponses(400, 401, 403, 409, 413, 429) },
    },
    handler: async (request, reply) => reply.code(202).send(await batches.create(serviceContext(request), request.body)),
  });
  readRoutes(app, 'v1', batches);
}

/** /api/admin: batch-generate, batch-process, and the batches for the dashboard. */
export async function adminBatchesRoutes(app: App, opts: { batches: BatchesService }) {
  const { batches } = opts;
  app.addSchema(BatchSchema);
  app.addSchema(BatchItemSchema);
  const security = [{ session: [] }];
  const tags = ['admin'];
  app.post('/orders/batch-generate', {
    bodyLimit: BATCH_BODY_LIMIT,
    schema: {
      operationId: 'adminBatchGenerate',
      summary: 'Buy labels for many orders (a purchase_labels batch)',
      description:
        "service_code: a code, `auto` (the shipping rules choose) or `cheapest` (the cheapest, rules skipped); default each order's requested service, else the shipping rules (no rule matches: the cheapest). Answers 202 with the batch.",
      tags,
      security,
      body: AdminBatchGenerateBody,
      response: { 202: Type.Ref(BatchSchema, { description: 'Accepted' }), ...errorResponses(400, 401, 404, 413) },
    },
    handler: async (request, reply) =>
      reply.code(202).send(
        await batches.create(serviceContext(request), {
          type: 'purchase_labels',
          order_ids: request.body.order_ids,
          service_code: request.body.service_code,
          label_format: request.body.label_format,
          ...(request.body.location_id !== undefined ? { location_id: request.body.location_id } : {}),
        }),
      ),
  });
  app.post('/orders/batch-process', {
    bodyLimit: BATCH_BODY_LIMIT,
    schema: {
      operationId: 'adminBatchProcess',
      summary: 'Process many orders (a process_orders batch)',
      tags,
      security,
      body: AdminBatchProcessBody,
      response: { 202: Type.Ref(BatchSchema, { description: 'Accepted' }), ...errorResponses(400, 401, 404, 413) },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await batches.create(serviceContext(request), { type: 'process_orders', order_ids: request.body.order_ids })),
  });
  readRoutes(app, 'admin', batches);
}
