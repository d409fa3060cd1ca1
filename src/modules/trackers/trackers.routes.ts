import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CreateTrackerBody, TrackerIdParams, TrackerListQuery, TrackerSchema } from './trackers.schemas.js';
import type { TrackersService } from './trackers.service.js';

const CREATE_DESCRIPTION =
  'Follows a label bought elsewhere (201; the same carrier and number again answers the existing tracker, 200). ' +
  'The number must be valid for its carrier, check digit included (UPS `1Z…`, USPS IMpb 22 digits, FedEx 12 digits, DHL Express 10 digits), else 400 `validation_failed` on `tracking_number`. ' +
  "With `carrier_account_id` (an api account of the carrier) the carrier's tracking API answers; without it the carrier's simulation plays a journey from now. " +
  'Each change of status sends `tracking.updated` with `tracker_id` and the tracker. Send an Idempotency-Key to make retries safe.';

/** Trackers, mounted under /v1 (API key) and /api/admin (the dashboard's Trackers page). */
export async function trackersRoutes(app: App, opts: { surface: 'v1' | 'admin'; service: TrackersService }) {
  const trackers = opts.service;
  const v1 = opts.surface === 'v1';
  app.addSchema(TrackerSchema);
  const security = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  const tags = [v1 ? 'trackers' : 'admin'];
  const op = (name: string) => (v1 ? name : `admin${name[0].toUpperCase()}${name.slice(1)}`);
  const auth = v1 ? [401, 403, 429] : [401, 404];
  const Tracker = Type.Ref(TrackerSchema);

  app.post('/trackers', {
    schema: {
      operationId: op('createTracker'),
      summary: 'Track a label bought elsewhere',
      description: CREATE_DESCRIPTION,
      tags,
      security,
      body: CreateTrackerBody,
      response: { 200: Tracker, 201: Tracker, ...errorResponses(...auth, 422, 503) },
    },
    handler: async (request, reply) => {
      const { tracker, created } = await trackers.create(serviceContext(request), request.body);
      return reply.code(created ? 201 : 200).send(tracker);
    },
  });
  app.get('/trackers', {
    schema: {
      operationId: op('listTrackers'),
      summary: 'List trackers, newest first (?status=&carrier=&tracking_number=)',
      tags,
      security,
      querystring: TrackerListQuery,
      response: { 200: listResponse(Tracker), ...errorResponses(...auth) },
    },
    handler: async (request) => trackers.list(serviceContext(request), request.query),
  });
  app.get('/trackers/:id', {
    schema: {
      operationId: op('getTracker'),
      summary: 'Read a tracker and its events',
      tags,
      security,
      params: TrackerIdParams,
      response: { 200: Tracker, ...errorResponses(...auth, 404) },
    },
    handler: async (request) => trackers.get(serviceContext(request), request.params.id),
  });
  app.delete('/trackers/:id', {
    schema: {
      operationId: op('deleteTracker'),
      summary: 'Stop tracking (204)',
      tags,
      security,
      params: TrackerIdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(...auth, 404) },
    },
    handler: async (request, reply) => {
      await trackers.remove(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
