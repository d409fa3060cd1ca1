import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/schemas.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { AppError } from '../../platform/errors.js';
import { LoginBody, LoginResponse, MeResponse, RegisterBody, RegisterResponse } from './workspaces.schemas.js';
import { bearer, requestMeta } from './guards.js';

/** /api/auth: register, login, logout, me. */
export async function authRoutes(app: App, opts: { perIpPerMinute: number }) {
  const { accounts, guards } = app.identity;
  app.addHook('onRequest', guards.perIp('auth', opts.perIpPerMinute));

  app.post('/register', {
    schema: {
      operationId: 'register',
      summary: 'Register an account and its workspace (pending until approved)',
      tags: ['auth'],
      body: RegisterBody,
      response: { 201: RegisterResponse, ...errorResponses(409, 429) },
    },
    handler: async (request, reply) => reply.code(201).send(await accounts.register(request.body, requestMeta(request))),
  });

  app.post('/login', {
    schema: {
      operationId: 'login',
      summary: 'Exchange email and password for a session token',
      tags: ['auth'],
      body: LoginBody,
      response: { 200: LoginResponse, ...errorResponses(401, 403, 429) },
    },
    handler: async (request) =>
      accounts.login(request.body, { ...requestMeta(request), userAgent: request.headers['user-agent'] }),
  });

  app.post('/logout', {
    schema: {
      operationId: 'logout',
      summary: 'Revoke the current session token',
      tags: ['auth'],
      security: [{ session: [] }],
      response: { 204: Type.Null({ description: 'Logged out' }), ...errorResponses(401) },
    },
    onRequest: guards.session,
    handler: async (request, reply) => {
      const token = bearer(request);
      if (!token) throw new AppError('unauthorized');
      await accounts.logout(token);
      return reply.code(204).send(null);
    },
  });

  app.get('/me', {
    schema: {
      operationId: 'getMe',
      summary: 'The signed-in account and its workspaces',
      tags: ['auth'],
      security: [{ session: [] }],
      response: { 200: MeResponse, ...errorResponses(401) },
    },
    onRequest: guards.session,
    handler: async (request) => accounts.me(request.auth!.session!.accountId),
  });
}
