import { Type } from '@sinclair/typebox';
import { errorResponses, type App } from '../../platform/http/schemas.js';
import { UpdateWorkspaceBody, WorkspaceSchema } from './workspaces.schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';

/** /api/admin/workspace: the current workspace, its name and origin address. */
export async function adminWorkspaceRoutes(app: App) {
  const { workspaces } = app.identity;
  const security = [{ session: [] }];

  app.get('/workspace', {
    schema: {
      operationId: 'adminGetWorkspace',
      summary: 'The current workspace',
      tags: ['admin'],
      security,
      response: { 200: Type.Ref(WorkspaceSchema), ...errorResponses(401, 404) },
    },
    handler: async (request) => workspaces.getWorkspace(serviceContext(request).workspaceId),
  });

  app.patch('/workspace', {
    schema: {
      operationId: 'adminUpdateWorkspace',
      summary: 'Update the workspace name or origin (ship-from) address',
      tags: ['admin'],
      security,
      body: UpdateWorkspaceBody,
      response: { 200: Type.Ref(WorkspaceSchema), ...errorResponses(401, 404) },
    },
    handler: async (request) => {
      const ctx = serviceContext(request);
      return workspaces.updateWorkspace(ctx.workspaceId, request.body, ctx.actor, ctx);
    },
  });
}
