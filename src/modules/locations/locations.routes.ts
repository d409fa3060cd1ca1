import { Type } from '@sinclair/typebox';
import { listResponse, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CreateLocationBody, LocationIdParams, LocationListQuery, LocationSchema, UpdateLocationBody } from './locations.schemas.js';
import type { LocationsService } from './locations.service.js';

/** Locations, under /v1 (API key) and /api/admin (the dashboard's Locations page). */
export async function locationsRoutes(app: App, opts: { surface: Surface; service: LocationsService }) {
  const locations = opts.service;
  app.addSchema(LocationSchema);
  const { security, tags, operationId: op, errors } = surfaceDocs(opts.surface, 'locations');
  const Location = Type.Ref(LocationSchema);

  app.post('/locations', {
    schema: {
      operationId: op('createLocation'),
      summary: 'Create a location (where parcels ship from)',
      description:
        'The first location of a workspace and environment is its default. Rate queries take `location_id` in place of `ship_from`: its address, its time zone for the ship date and its `pickup_cutoff` for the delivery promise.',
      tags,
      security,
      body: CreateLocationBody,
      response: { 201: Location, ...errors() },
    },
    handler: async (request, reply) => reply.code(201).send(await locations.create(serviceContext(request), request.body)),
  });
  app.get('/locations', {
    schema: {
      operationId: op('listLocations'),
      summary: 'List locations, newest first',
      tags,
      security,
      querystring: LocationListQuery,
      response: { 200: listResponse(Location), ...errors() },
    },
    handler: async (request) => locations.list(serviceContext(request), request.query),
  });
  app.get('/locations/:id', {
    schema: {
      operationId: op('getLocation'),
      summary: 'Read a location',
      tags,
      security,
      params: LocationIdParams,
      response: { 200: Location, ...errors(404) },
    },
    handler: async (request) => locations.get(serviceContext(request), request.params.id),
  });
  app.patch('/locations/:id', {
    schema: {
      operationId: op('updateLocation'),
      summary: 'Change a location (is_default: true makes it the default)',
      tags,
      security,
      params: LocationIdParams,
      body: UpdateLocationBody,
      response: { 200: Location, ...errors(404) },
    },
    handler: async (request) => locations.update(serviceContext(request), request.params.id, request.body),
  });
  app.delete('/locations/:id', {
    schema: {
      operationId: op('deleteLocation'),
      summary: 'Delete a location (204; the default only when it is the last)',
      tags,
      security,
      params: LocationIdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errors(404, 409) },
    },
    handler: async (request, reply) => {
      await locations.remove(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
