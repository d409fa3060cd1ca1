import { errorResponses, type App } from '../../platform/http/schemas.js';
import { PublicTrackingParams, PublicTrackingSchema } from './shipments.schemas.js';
import type { ShipmentsService } from './shipments.service.js';

/** /api/public/track/:trackingNumber: open to anyone with the number, limited per client IP. */
export async function publicTrackingRoutes(app: App, opts: { perIpPerMinute: number; shipments: ShipmentsService }) {
  const { shipments } = opts;
  app.addHook('onRequest', app.identity.guards.perIp('public', opts.perIpPerMinute));

  app.get('/track/:trackingNumber', {
    schema: {
      operationId: 'publicTrack',
      summary: 'Track a parcel by its tracking number (no customer details)',
      tags: ['public'],
      params: PublicTrackingParams,
      response: { 200: PublicTrackingSchema, ...errorResponses(404, 429) },
    },
    handler: async (request) => shipments.publicTracking(request.params.trackingNumber),
  });
}
