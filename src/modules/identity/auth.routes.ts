import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/schemas.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { AppError } from '../../platform/errors.js';
import { CurrentSessionResponse, LoginBody, LoginResponse, MeResponse, RegisterBody, RegisterResponse, SessionResponse } from './workspaces.schemas.js';
import { requestMeta } from '../../platform/http/request-context.js';
import { sessionToken } from './guards.js';
import { AcceptInvitationBody, AcceptInvitationResponse, PasswordResetBody, PasswordResetRequestBody, TokenParams } from './members.schemas.js';
import { sha256Hex } from '../../platform/crypto.js';
import { checkSameOrigin, clearSessionCookie, setSessionCookie } from './session-cookie.js';

/** /api/auth: register, login, logout, me; the dashboard's cookie session. */
export async function authRoutes(app: App, opts: { perIpPerMinute: number }) {
  const { accounts, guards } = app.identity;
  const { publicBaseUrl, isProduction } = app.deps.config;
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
    handler: async (request) => accounts.login(request.body, { ...requestMeta(request), userAgent: request.headers['user-agent'] }),
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
      const found = sessionToken(request);
      if (!found) throw new AppError('unauthorized');
      await accounts.logout(found.token);
      if (found.via === 'cookie') clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  });

  app.post('/session', {
    schema: {
      operationId: 'createSession',
      summary: 'Sign in for the dashboard: the session is set as an httpOnly cookie, never returned',
      description:
        'Same checks as POST /api/auth/login. The token goes only into the `service_session` cookie (httpOnly, ' +
        'SameSite=Strict, Path=/api, Secure over HTTPS); /api/admin and /api/super-admin accept it in place of the ' +
        'Bearer header. Writes made with the cookie must carry an Origin of this service.',
      tags: ['auth'],
      body: LoginBody,
      response: { 200: SessionResponse, ...errorResponses(401, 403, 429) },
    },
    handler: async (request, reply) => {
      // Login CSRF: another site must not sign the browser into an account of its choosing.
      checkSameOrigin(request, publicBaseUrl, { requirePresent: false });
      const session = await accounts.login(request.body, { ...requestMeta(request), userAgent: request.headers['user-agent'] });
      setSessionCookie(request, reply, session.token, new Date(session.expires_at), { publicBaseUrl, isProduction });
      return { expires_at: session.expires_at, account: session.account };
    },
  });

  // The dashboard's first question on load. Signed out is an ordinary answer here (200 with
  // account null), not a 401: the page has nothing to report, and the console stays clean.
  app.get('/session', {
    schema: {
      operationId: 'getSession',
      summary: 'Who the session (cookie or Bearer) belongs to, or account null when signed out',
      tags: ['auth'],
      response: { 200: CurrentSessionResponse, ...errorResponses(429) },
    },
    handler: async (request) => {
      const found = sessionToken(request);
      const session = found ? await accounts.verifySession(found.token) : null;
      if (!session) return { account: null, workspaces: [] };
      return accounts.me(session.accountId);
    },
  });

  app.delete('/session', {
    schema: {
      operationId: 'deleteSession',
      summary: 'Sign out of the dashboard: revokes the cookie session and clears the cookie',
      tags: ['auth'],
      response: { 204: Type.Null({ description: 'Signed out (also when there was no session)' }), ...errorResponses(403) },
    },
    handler: async (request, reply) => {
      const found = sessionToken(request);
      if (found?.via === 'cookie') checkSameOrigin(request, publicBaseUrl, { requirePresent: true });
      if (found) await accounts.logout(found.token);
      clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  });

  // The invited person's side: a new account sends {name, password}; a signed-in account sends
  // {} with its session (a session that is sent must be valid: 401 otherwise, never a new account).
  app.post('/invitations/:code/accept', {
    schema: {
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation to a workspace: registers (name, password) or uses the session, then joins',
      description:
        "Single-use: an unknown token is 404, a used, withdrawn or expired one 410 gone. A new account takes the invitation's email, is active at once and is signed in (`session`, shown once); " +
        'an email that already has an account is 409 conflict (sign in and accept with the session).',
      tags: ['auth'],
      params: TokenParams,
      body: AcceptInvitationBody,
      response: { 200: AcceptInvitationResponse, 201: AcceptInvitationResponse, ...errorResponses(401, 404, 409, 410, 429) },
    },
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const found = sessionToken(request);
      let accountId: string | undefined;
      if (found) {
        if (found.via === 'cookie') checkSameOrigin(request, publicBaseUrl, { requirePresent: true });
        const session = await accounts.verifySession(found.token);
        if (!session) throw new AppError('unauthorized', 'The session is invalid or has expired.');
        accountId = session.accountId;
      }
      const meta = { ...requestMeta(request), userAgent: request.headers['user-agent'] };
      const answer = await app.identity.members.accept(request.params.code, { ...request.body, accountId }, meta);
      return reply.code(accountId ? 200 : 201).send(answer);
    },
  });

  app.post('/password-reset', {
    schema: {
      operationId: 'requestPasswordReset',
      summary: 'Ask for a password-reset link: 202 whatever the email',
      description:
        'With SMTP_URL set, an account with this email is mailed a single-use link valid one hour. The answer is the same for every email (no account enumeration), and repeated asks for one address are dropped beyond three an hour. Without SMTP_URL nothing is sent: a super-admin issues the link (POST /api/super-admin/accounts/{userId}/password-reset).',
      tags: ['auth'],
      body: PasswordResetRequestBody,
      response: { 202: Type.Null({ description: 'Accepted (whatever the email)' }), ...errorResponses(429) },
    },
    handler: async (request, reply) => {
      await app.identity.passwordResets.request(request.body.email, requestMeta(request));
      return reply.code(202).send(null);
    },
  });

  app.post('/password-reset/:code', {
    schema: {
      operationId: 'resetPassword',
      summary: 'Set a new password with a reset link; every other session of the account ends',
      description: 'Single-use: an unknown token is 404, a used or expired one 410 gone. A password under 10 characters is 400.',
      tags: ['auth'],
      params: TokenParams,
      body: PasswordResetBody,
      response: { 204: Type.Null({ description: 'Password changed' }), ...errorResponses(404, 410, 429) },
    },
    handler: async (request, reply) => {
      const found = sessionToken(request);
      await app.identity.passwordResets.complete(request.params.code, request.body.password, {
        ...requestMeta(request),
        keepSessionHash: found ? sha256Hex(found.token) : undefined,
      });
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
