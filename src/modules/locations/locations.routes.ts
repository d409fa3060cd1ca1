import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CreateLocationBody, LocationIdParams, LocationListQuery, LocationSchema, UpdateLocationBody } from './locations.schemas.js';
import type { LocationsService } from './locations.service.js';

/** Locations, under /v1 (API key) and /api/admin (the dashboard's Locations page). */
export async function locationsRoutes(app: App, opts: { surface: 'v1' | 'admin'; service: LocationsService }) {
  const locations = opts.service;
  const v1 = opts.surface === 'v1';
  app.addSchema(LocationSchema);
  const security = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  const tags = [v1 ? 'locations' : 'admin'];
  const op = (name: string) => (v1 ? name : `admin${name[0].toUpperCase()}${name.slice(1)}`);
  const auth = v1 ? [401, 403, 429] : [401, 404];
  const Location = Type.Ref(LocationSchema);

  app.post('/locations', {
    schema: { operationId: op('createLocation'), summary: 'Create a location (where parcels ship from)', description: 'The first location of a workspace and environment is its default. Rate queries take `location_id` in place of `ship_from`: its address, its time zone for the ship date and its `pickup_cutoff` for the delivery promise.', tags, security, body: CreateLocationBody, response: { 201: Location, ...errorResponses(...auth) } },
    handler: async (request, reply) => reply.code(201).send(await locations.create(serviceContext(request), request.body)),
  });
  app.get('/locations', {
    schema: { operationId: op('listLocations'), summary: 'List locations, newest first', tags, security, querystring: LocationListQuery, response: { 200: listResponse(Location), ...errorResponses(...auth) } },
    handler: async (request) => locations.list(serviceContext(request), request.query),
  });
  app.get('/locations/:id', {
    schema: { operationId: op('getLocation'), summary: 'Read a location', tags, security, params: LocationIdParams, response: { 200: Location, ...errorResponses(...auth, 404) } },
    handler: async (request) => locations.get(serviceContext(request), request.params.id),
  });
  app.patch('/locations/:id', {
    schema: { operationId: op('updateLocation'), summary: 'Change a location (is_default: true makes it the default)', tags, security, params: LocationIdParams, body: UpdateLocationBody, response: { 200: Location, ...errorResponses(...auth, 404) } },
    handler: async (request) => locations.update(serviceContext(request), request.params.id, request.body),
  });
  app.delete('/locations/:id', {
    schema: { operationId: op('deleteLocation'), summary: 'Delete a location (204; the default only when it is the last)', tags, security, params: LocationIdParams, response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(...auth, 404, 409) } },
    handler: async (request, reply) => {
      await locations.remove(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
