import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { TrackingEventListItemSchema, TrackingEventListQuery, TrackingIdParams, TrackingSchema } from './shipments.schemas.js';
import type { ShipmentsService } from './shipments.service.js';

/** /v1/tracking: the events of the workspace, a shipment's or tracker's tracking, and a refresh from the carrier. */
export function trackingRoutes(app: App, shipments: ShipmentsService, opts: { security: Array<Record<string, string[]>> }) {
  const { security } = opts;
  app.addSchema(TrackingSchema);

  app.get('/tracking/events', {
    schema: {
      operationId: 'listTrackingEvents',
      summary: 'List tracking events across the workspace, newest first',
      description: '`since` keeps events that occurred at or after it; the cursor pages by (occurred_at, id).',
      tags: ['tracking'],
      security,
      querystring: TrackingEventListQuery,
      response: { 200: listResponse(TrackingEventListItemSchema), ...errorResponses(401, 403, 429) },
    },
    handler: async (request) => shipments.listTrackingEvents(serviceContext(request), request.query),
  });

  app.get('/tracking/:id', {
    schema: {
      operationId: 'getTracking',
      summary: 'Read tracking by tracking number or shipment id',
      description:
        "Finds, in this order: a shipment id or a shipment's number (a multi-piece shipment's roll-up); a later package's number of a multi-piece shipment (that package's journey, with `master_tracking_number` and `package`); a tracker's number (`tracker_id`, `shipment_id` null). URL-encode the number (`encodeURIComponent`).",
      tags: ['tracking'],
      security,
      params: TrackingIdParams,
      response: { 200: Type.Ref(TrackingSchema), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request) => shipments.getTracking(serviceContext(request), request.params.id),
  });

  app.post('/tracking/:id/refresh', {
    schema: {
      operationId: 'refreshTracking',
      summary: 'Ask the carrier for tracking now',
      description:
        'Asks the carrier now (for a shipment of an `api` carrier account, its tracking API; for a simulated one, the simulation brought up to date) and answers the updated tracking, as GET /v1/tracking/{id}. At most once a minute per shipment, else 429 `rate_limited` with Retry-After. A carrier that cannot be reached is 503 `carrier_unavailable` with Retry-After; refused credentials 422 `carrier_account_invalid`.',
      tags: ['tracking'],
      security,
      params: TrackingIdParams,
      response: { 200: Type.Ref(TrackingSchema), ...errorResponses(401, 403, 404, 422, 429) },
    },
    handler: async (request) => shipments.refreshTracking(serviceContext(request), request.params.id),
  });
}
