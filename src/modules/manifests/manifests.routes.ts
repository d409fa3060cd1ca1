import { Type } from '@sinclair/typebox';
import { listResponse, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CreateManifestBody, ManifestIdParams, ManifestListQuery, ManifestSchema } from './manifests.schemas.js';
import type { ManifestsService } from './manifests.service.js';

const CREATE_DESCRIPTION =
  'Answers 202 with the pending manifest; a job makes the form (pending → ready, `manifest.ready`; or failed, `error` says why and its labels are free again). ' +
  'Without `shipment_ids` or `batch_id`: every live label of the account and ship date on no manifest yet. Listed labels that cannot go on the form are in `rejected` ' +
  '(already_manifested, voided, carrier_mismatch, ship_date_mismatch, not_found; later carrier_rejected when the carrier leaves one off), so one bad label never sinks the form; ' +
  'none eligible is 422 `no_eligible_shipments` with a detail per label. A carrier that offers no manifests is 422 `capability_unavailable`. ' +
  "USPS: a SCAN form (PS Form 5630: one barcode for every parcel); others: a close report. An api account whose driver closes at the carrier (USPS SCAN form, FedEx Ground close) gets the carrier's own form. " +
  'A label on a manifest cannot be voided (409 invalid_state). Send an Idempotency-Key to make retries safe.';

/** Manifests, mounted under /v1 (API key) and /api/admin (the dashboard's End of day page). */
export async function manifestsRoutes(app: App, opts: { surface: Surface; service: ManifestsService }) {
  const manifests = opts.service;
  app.addSchema(ManifestSchema);
  const { security, tags, operationId: op, errors } = surfaceDocs(opts.surface, 'manifests');
  const Manifest = Type.Ref(ManifestSchema);

  app.post('/manifests', {
    schema: {
      operationId: op('createManifest'),
      summary: "Manifest the day's labels (USPS SCAN form, others a close report)",
      description: CREATE_DESCRIPTION,
      tags,
      security,
      body: CreateManifestBody,
      response: { 202: Type.Ref(ManifestSchema, { description: 'Accepted: the form is being made' }), ...errors(409, 422) },
    },
    handler: async (request, reply) => reply.code(202).send(await manifests.create(serviceContext(request), request.body)),
  });
  app.get('/manifests', {
    schema: {
      operationId: op('listManifests'),
      summary: 'List manifests, newest first (?status=, ?carrier=)',
      tags,
      security,
      querystring: ManifestListQuery,
      response: { 200: listResponse(Manifest), ...errors() },
    },
    handler: async (request) => manifests.list(serviceContext(request), request.query),
  });
  app.get('/manifests/:id', {
    schema: {
      operationId: op('getManifest'),
      summary: 'Read a manifest: its labels, rejections, status and documents',
      tags,
      security,
      params: ManifestIdParams,
      response: { 200: Manifest, ...errors(404) },
    },
    handler: async (request) => manifests.get(serviceContext(request), request.params.id),
  });
  app.get('/manifests/:id/document', {
    schema: {
      operationId: op('getManifestDocument'),
      summary: "Download the manifest's form (PDF): the SCAN form or close report to hand to the driver",
      description: '409 invalid_state while the manifest is pending or when it failed.',
      tags,
      security,
      params: ManifestIdParams,
      response: {
        200: {
          description: 'The form (Content-Disposition names the file).',
          content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
        },
        ...errors(404, 409),
      },
    },
    handler: async (request, reply) => {
      const file = await manifests.document(serviceContext(request), request.params.id);
      reply.header('content-disposition', `inline; filename="${file.filename}"`);
      reply.header('cache-control', 'private, max-age=3600');
      reply.type(file.content_type);
      return reply.send(file.body);
    },
  });
}
