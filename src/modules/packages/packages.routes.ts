import { Type } from '@sinclair/typebox';
import { listResponse, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CarrierPackageSchema, CreatePackageBody, PackageIdParams, PackageListQuery, PackageSchema, UpdatePackageBody } from './packages.schemas.js';
import type { PackagesService } from './packages.service.js';

/** Package presets and the carriers' packaging, under /v1 (API key) and /api/admin (the dashboard's Packages page). */
export async function packagesRoutes(app: App, opts: { surface: Surface; service: PackagesService }) {
  const packages = opts.service;
  app.addSchema(PackageSchema);
  app.addSchema(CarrierPackageSchema);
  const { security, tags, operationId: op, errors } = surfaceDocs(opts.surface, 'packages');
  const Package = Type.Ref(PackageSchema);

  app.post('/packages', {
    schema: {
      operationId: op('createPackage'),
      summary: 'Create a package preset',
      description:
        "A box you ship in: its inside dimensions, what it weighs empty (added to the contents' weight) and the most it may weigh packed. Use it as `parcel: {package_id, weight_oz}` in rate queries.",
      tags,
      security,
      body: CreatePackageBody,
      response: { 201: Package, ...errors() },
    },
    handler: async (request, reply) => reply.code(201).send(await packages.create(serviceContext(request), request.body)),
  });
  app.get('/packages', {
    schema: {
      operationId: op('listPackages'),
      summary: 'List package presets, newest first',
      tags,
      security,
      querystring: PackageListQuery,
      response: { 200: listResponse(Package), ...errors() },
    },
    handler: async (request) => packages.list(serviceContext(request), request.query),
  });
  app.get('/packages/:id', {
    schema: {
      operationId: op('getPackage'),
      summary: 'Read a package preset',
      tags,
      security,
      params: PackageIdParams,
      response: { 200: Package, ...errors(404) },
    },
    handler: async (request) => packages.get(serviceContext(request), request.params.id),
  });
  app.patch('/packages/:id', {
    schema: {
      operationId: op('updatePackage'),
      summary: 'Change a package preset',
      tags,
      security,
      params: PackageIdParams,
      body: UpdatePackageBody,
      response: { 200: Package, ...errors(404) },
    },
    handler: async (request) => packages.update(serviceContext(request), request.params.id, request.body),
  });
  app.delete('/packages/:id', {
    schema: {
      operationId: op('deletePackage'),
      summary: 'Delete a package preset (204)',
      tags,
      security,
      params: PackageIdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errors(404) },
    },
    handler: async (request, reply) => {
      await packages.remove(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.get('/carrier-packages', {
    schema: {
      operationId: op('listCarrierPackages'),
      summary: "The carriers' own packaging (flat-rate boxes and envelopes, letters, paks, flyers)",
      description:
        "Use an `id` as `parcel.package_id`: the carrier's `flat_rate_services` price it flat whatever its weight up to `max_weight_oz`; its other services rate it by weight and size; other carriers do not carry it.",
      tags,
      security,
      response: { 200: Type.Object({ data: Type.Array(Type.Ref(CarrierPackageSchema)) }), ...errors() },
    },
    handler: async () => ({ data: packages.carrierPackages() }),
  });
}
