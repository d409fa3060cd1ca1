import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CreatedInvitationSchema, InvitationSchema, InviteBody, ListPageQuery, MemberIdParams, MemberSchema, UpdateMemberBody } from './members.schemas.js';
import type { MemberContext } from './members.service.js';

/**
 * /api/admin/members and /api/admin/invitations: the workspace's team. Who may call them is the
 * role table's (src/route-roles.ts: reads any member, changes admin); ownership changes are
 * the owner's, checked by the service.
 */
export async function membersRoutes(app: App) {
  const { members } = app.identity;
  app.addSchema(InvitationSchema);
  const security = [{ session: [] }];
  const tags = ['members'];
  const ctxOf = (request: Parameters<typeof serviceContext>[0]): MemberContext => ({ ...serviceContext(request), role: request.auth?.role });

  app.get('/members', {
    schema: {
      operationId: 'adminListMembers',
      summary: 'List the members of the workspace and their roles',
      tags,
      security,
      querystring: ListPageQuery,
      response: { 200: listResponse(Type.Ref(MemberSchema)), ...errorResponses(401, 404) },
    },
    handler: async (request) => members.listMembers(serviceContext(request).workspaceId, request.query),
  });

  app.post('/members', {
    schema: {
      operationId: 'adminInviteMember',
      summary: 'Invite someone by email with a role: an invitation whose token and link are shown once',
      description:
        'The link is valid for the setting `members.invitation_ttl_hours` (168 by default) and works once; the event `member.invited` is recorded (without the token). ' +
        'Inviting an owner needs the owner role (403 forbidden naming it). Someone already a member is 409 conflict.',
      tags,
      security,
      body: InviteBody,
      response: { 201: CreatedInvitationSchema, ...errorResponses(401, 403, 404, 409) },
    },
    handler: async (request, reply) => reply.code(201).send(await members.invite(ctxOf(request), request.body)),
  });

  app.patch('/members/:id', {
    schema: {
      operationId: 'adminUpdateMember',
      summary: "Change a member's role",
      description: "Making an owner, or changing an owner's role, needs the owner role (403 forbidden naming it). Demoting the last owner is 409 conflict.",
      tags,
      security,
      params: MemberIdParams,
      body: UpdateMemberBody,
      response: { 200: Type.Ref(MemberSchema), ...errorResponses(401, 403, 404, 409) },
    },
    handler: async (request) => members.changeRole(ctxOf(request), request.params.id, request.body.role),
  });

  app.delete('/members/:id', {
    schema: {
      operationId: 'adminRemoveMember',
      summary: "Remove a member from the workspace; that member's sessions end at once",
      description: 'Removing an owner needs the owner role (403 forbidden naming it); removing the last owner is 409 conflict.',
      tags,
      security,
      params: MemberIdParams,
      response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404, 409) },
    },
    handler: async (request, reply) => {
      await members.remove(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.get('/invitations', {
    schema: {
      operationId: 'adminListInvitations',
      summary: 'List pending invitations (never their tokens)',
      tags,
      security,
      querystring: ListPageQuery,
      response: { 200: listResponse(Type.Ref(InvitationSchema)), ...errorResponses(401, 404) },
    },
    handler: async (request) => members.listInvitations(serviceContext(request).workspaceId, request.query),
  });

  app.delete('/invitations/:id', {
    schema: {
      operationId: 'adminRevokeInvitation',
      summary: 'Withdraw a pending invitation: its link stops working at once',
      tags,
      security,
      params: MemberIdParams,
      response: { 204: Type.Null({ description: 'Withdrawn' }), ...errorResponses(401, 403, 404) },
    },
    handler: async (request, reply) => {
      await members.revokeInvitation(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
