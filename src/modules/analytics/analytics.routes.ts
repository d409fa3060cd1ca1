import { errorResponses, type App } from '../../platform/http/schemas.js';
import { AnalyticsQuery, AnalyticsResponse } from './analytics.schemas.js';
import type { AnalyticsService } from './analytics.service.js';

/** /api/super-admin/analytics: platform-wide aggregates over a time range. */
export async function superAdminAnalyticsRoutes(app: App, opts: { analytics: AnalyticsService }) {
  const { analytics } = opts;
  app.addHook('onRequest', app.identity.guards.superAdmin);

  app.get('/analytics', {
    schema: {
      operationId: 'superAdminAnalytics',
      summary: 'Accounts, workspaces, orders, labels, webhooks, batches and API requests over a time range',
      tags: ['super-admin'],
      security: [{ session: [] }],
      querystring: AnalyticsQuery,
      response: { 200: AnalyticsResponse, ...errorResponses(401, 403) },
    },
    handler: async (request) => analytics.report(request.query),
  });
}
