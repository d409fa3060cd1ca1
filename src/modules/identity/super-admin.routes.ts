import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import {
  AccountListQuery,
  AccountSchema,
  IdParams,
  SuspendBody,
  UpdatePlanBody,
  UserIdParams,
  WorkspaceListQuery,
  WorkspaceSchema,
  WorkspaceSummarySchema,
} from './workspaces.schemas.js';
import { requestMeta } from '../../platform/http/request-context.js';
import { IssuedPasswordResetSchema, ListPageQuery, MemberSchema } from './members.schemas.js';

/** /api/super-admin: accounts (list, approve, suspend, reactivate) and workspace plans. */
export async function superAdminIdentityRoutes(app: App) {
  const { accounts, workspaces, members, guards } = app.identity;
  app.addHook('onRequest', guards.superAdmin);
  const security = [{ session: [] }];
  const tags = ['super-admin'];

  app.get('/accounts', {
    schema: {
      operationId: 'superAdminListAccounts',
      summary: 'List accounts (filter by status, search by email)',
      tags,
      security,
      querystring: AccountListQuery,
      response: { 200: listResponse(Type.Ref(AccountSchema)), ...errorResponses(401, 403) },
    },
    handler: async (request) => accounts.listAccounts(request.query),
  });

  app.get('/accounts/:userId', {
    schema: {
      operationId: 'superAdminGetAccount',
      summary: 'Read one account',
      tags,
      security,
      params: UserIdParams,
      response: { 200: Type.Ref(AccountSchema), ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => accounts.getAccount(request.params.userId),
  });

  app.post('/accounts/:userId/password-reset', {
    schema: {
      operationId: 'superAdminIssuePasswordReset',
      summary: 'Issue a password-reset link for an account (shown once; also mailed with SMTP_URL)',
      tags,
      security,
      params: UserIdParams,
      response: { 201: IssuedPasswordResetSchema, ...errorResponses(401, 403, 404) },
    },
    handler: async (request, reply) => {
      const s = request.auth!.session!;
      reply.code(201);
      return app.identity.passwordResets.issueFor(request.params.userId, { type: 'account', id: s.accountId, email: s.email }, requestMeta(request));
    },
  });

  for (const move of ['approve', 'suspend', 'reactivate'] as const) {
    app.post(`/accounts/:userId/${move}`, {
      schema: {
        operationId: `superAdmin${move[0].toUpperCase()}${move.slice(1)}Account`,
        summary: {
          approve: 'Approve a pending account',
          suspend: 'Suspend an account: its sessions end; its workspaces\u2019 API keys, ingest keys and members are refused at once (not yourself: 409)',
          reactivate: 'Reactivate a suspended account (its workspaces\u2019 API keys, ingest keys and members are admitted again)',
        }[move],
        tags,
        security,
        params: UserIdParams,
        ...(move === 'suspend' ? { body: SuspendBody } : {}),
        response: { 200: Type.Ref(AccountSchema), ...errorResponses(401, 403, 404, 409) },
      },
      handler: async (request) => {
        const body = request.body as { reason?: string } | null | undefined;
        return accounts.transition(request.params.userId, move, request.auth!.actor, requestMeta(request), { reason: body?.reason });
      },
    });
  }

  app.get('/workspaces', {
    schema: {
      operationId: 'superAdminListWorkspaces',
      summary: 'List workspaces with plan, burst, member and order counts (search by name or id)',
      tags,
      security,
      querystring: WorkspaceListQuery,
      response: { 200: listResponse(WorkspaceSummarySchema), ...errorResponses(401, 403) },
    },
    handler: async (request) => workspaces.listWorkspaces(request.query),
  });

  app.get('/workspaces/:id', {
    schema: {
      operationId: 'superAdminGetWorkspace',
      summary: 'Read one workspace with its plan, the burst in force, member and order counts',
      description:
        'effective_burst_per_minute is what /v1 enforces now: the enterprise custom burst, else the plan\u2019s setting plans.<tier>.burst_per_minute.',
      tags,
      security,
      params: IdParams,
      response: { 200: WorkspaceSummarySchema, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => workspaces.getWorkspaceSummary(request.params.id),
  });

  app.get('/workspaces/:id/members', {
    schema: {
      operationId: 'superAdminListWorkspaceMembers',
      summary: 'List a workspace\u2019s members and their roles',
      description:
        'The same answer as GET /api/admin/members for that workspace: each member\u2019s account id, email, name, role and when they joined, newest first. 404 for a workspace that does not exist.',
      tags,
      security,
      params: IdParams,
      querystring: ListPageQuery,
      response: { 200: listResponse(Type.Ref(MemberSchema)), ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => {
      // 404 for a workspace that does not exist, rather than an empty list.
      await workspaces.getWorkspaceSummary(request.params.id);
      return members.listMembers(request.params.id, request.query);
    },
  });

  app.patch('/workspaces/:id', {
    schema: {
      operationId: 'superAdminUpdateWorkspace',
      summary: 'Change a workspace plan and (enterprise) custom burst',
      tags,
      security,
      params: IdParams,
      body: UpdatePlanBody,
      response: { 200: Type.Ref(WorkspaceSchema), ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => workspaces.setPlan(request.params.id, request.body, request.auth!.actor, requestMeta(request)),
  });
}
