import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { AuditEntrySchema, AuditListQuery } from './audit.schemas.js';
import { listAuditLog } from './audit.service.js';

/** /api/super-admin/audit-log: read-only; no route changes an entry and the database refuses to. */
export async function superAdminAuditRoutes(app: App) {
  app.addHook('onRequest', app.identity.guards.superAdmin);
  app.addSchema(AuditEntrySchema);

  app.get('/audit-log', {
    schema: {
      operationId: 'superAdminListAuditLog',
      summary: 'Every admin and super-admin change, newest first (filter by action, actor, target, time)',
      tags: ['super-admin'],
      security: [{ session: [] }],
      querystring: AuditListQuery,
      response: { 200: listResponse(Type.Ref(AuditEntrySchema)), ...errorResponses(401, 403) },
    },
    handler: async (request) => listAuditLog(app.deps.db, request.query),
  });
}
