import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, rateLimited } from '../../platform/errors.js';
import type { Environment } from '../../platform/context.js';
import { bearer } from '../../platform/http/request-context.js';
import type { CounterStore, TakeResult } from '../../platform/cache/counter-store.js';
import type { Executor } from '../../platform/db/types.js';
import type { AccountsService } from './accounts.service.js';
import type { VerifiedKey } from './auth-cache.js';
import type { WorkspacesService } from './workspaces.service.js';
import * as repo from './workspaces.repo.js';
import { checkSameOrigin, isStateChanging, sessionCookieToken } from './session-cookie.js';

/**
 * The session token of a request: the Bearer header (API clients) or else the dashboard's
 * httpOnly cookie. Which one was used matters for CSRF (see createGuards' session).
 */
export function sessionToken(request: FastifyRequest): { token: string; via: 'bearer' | 'cookie' } | null {
  const header = bearer(request);
  if (header) return { token: header, via: 'bearer' };
  const cookie = sessionCookieToken(request);
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

export interface Guards {
  apiKey(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void;
  session(request: FastifyRequest): Promise<void>;
  admin(request: FastifyRequest): Promise<void>;
  superAdmin(request: FastifyRequest): Promise<void>;
  perIp(bucket: string, perMinute: number): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

export function createGuards(opts: {
  accounts: AccountsService;
  workspaces: WorkspacesService;
  counters: CounterStore;
  db: Executor;
  /** Origin accepted on cookie-authenticated writes besides the request's own host. */
  publicBaseUrl: string;
}): Guards {
  const { accounts, workspaces, counters } = opts;

  async function session(request: FastifyRequest): Promise<void> {
    const found = sessionToken(request);
    if (!found) throw new AppError('unauthorized', 'A session token is required (Authorization: Bearer <token>).');
    // A cookie is sent by the browser on its own, so a write made with it must prove it came
    // from this service's pages. A Bearer header cannot be attached by another site.
    if (found.via === 'cookie' && isStateChanging(request)) checkSameOrigin(request, opts.publicBaseUrl, { requirePresent: true });
    const s = await accounts.verifySession(found.token);
    if (!s) throw new AppError('unauthorized', 'The session is invalid or has expired.');
    request.auth = { actor: { type: 'account', id: s.accountId, email: s.email }, session: s };
  }

  /**
   * A workspace whose owner is suspended is closed to its members too (the owner's own sessions
   * are already ended). Read with the membership on every request, so no cache can lag; a
   * super-admin who is not a member still gets in, to look into it.
   */
  function refuseSuspended(workspaceSuspendedAt: Date | null): void {
    if (workspaceSuspendedAt !== null) throw new AppError('account_suspended', 'The account that owns this workspace is suspended.');
  }

  /** The API-key check; a promise only when something had to be loaded or a shared store asked. */
  function checkApiKey(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const token = bearer(request);
    if (!token) throw new AppError('unauthorized', 'An API key is required (Authorization: Bearer sk_…).');
    const verified = workspaces.verifyApiKey(token);
    if (verified instanceof Promise) return verified.then((key) => admitKey(request, reply, key));
    return admitKey(request, reply, verified);
  }

  function admitKey(request: FastifyRequest, reply: FastifyReply, key: VerifiedKey | null): void | Promise<void> {
    if (!key) throw new AppError('unauthorized', 'The API key is invalid, revoked or expired.');
    if (key.suspended) throw new AppError('account_suspended', 'The account that owns this workspace is suspended.');
    const workspaceHeader = request.headers['x-service-workspace'];
    if (typeof workspaceHeader !== 'string' || workspaceHeader === '') {
      throw new AppError('unauthorized', 'The X-Service-Workspace header is required.');
    }
    if (workspaceHeader !== key.workspaceId) {
      throw new AppError('forbidden', 'The API key does not belong to the workspace named in X-Service-Workspace.');
    }
    request.auth = {
      actor: { type: 'api_key', id: key.id },
      scope: { workspaceId: key.workspaceId, environment: key.environment },
      apiKeyId: key.id,
      role: key.role,
    };
    // One request, one token: a batch is one POST whatever its item count.
    const limit = workspaces.cachedBurstLimit(key.workspaceId);
    if (limit === undefined) return workspaces.burstLimit(key.workspaceId).then((l) => takeToken(reply, key.workspaceId, l));
    return takeToken(reply, key.workspaceId, limit);
  }

  function takeToken(reply: FastifyReply, workspaceId: string, limit: number): void | Promise<void> {
    const bucket = `ws:${workspaceId}`;
    const taken = counters.takeNow?.(bucket, limit, 60_000);
    if (taken) return answerLimit(reply, limit, taken);
    return counters.take(bucket, limit, 60_000).then((t) => answerLimit(reply, limit, t));
  }

  function answerLimit(reply: FastifyReply, limit: number, taken: TakeResult): void {
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(taken.remaining));
    reply.header('ratelimit-reset', String(taken.resetSeconds));
    reply.header('ratelimit-policy', `${limit};w=60`);
    if (!taken.allowed) throw rateLimited(`Rate limit of ${limit} requests per minute exceeded.`, taken.retryAfterSeconds);
  }

  return {
    /**
     * /v1: an API key plus a matching X-Service-Workspace; then the workspace's burst limit.
     * Callback-style, and with the key, the limits and the bucket in memory (the usual case)
     * nothing is awaited and no promise is made: every request of the API pays this guard, and
     * an async hook costs a promise and a microtask turn even when it returns at once.
     */
    apiKey(request, reply, done) {
      let pending: void | Promise<void>;
      try {
        pending = checkApiKey(request, reply);
      } catch (err) {
        done(err as Error);
        return;
      }
      if (pending) pending.then(() => done(), done);
      else done();
    },

    session,

    /**
     * /api/admin: an active session acting on the workspace named by X-Service-Workspace (or
     * the account's only workspace) and the environment named by X-Service-Environment
     * (live by default). A workspace the account is not a member of is a 404; one whose owner
     * is suspended is 403 account_suspended.
     */
    async admin(request) {
      await session(request);
      const auth = request.auth!;
      const envHeader = request.headers['x-service-environment'];
      const environment: Environment = envHeader === undefined || envHeader === '' ? 'live' : (envHeader as Environment);
      if (environment !== 'test' && environment !== 'live') {
        throw new AppError('validation_failed', 'X-Service-Environment must be test or live.', {
          details: [{ field: 'X-Service-Environment', message: 'must be test or live' }],
        });
      }
      const header = request.headers['x-service-workspace'];
      let workspaceId: string;
      if (typeof header === 'string' && header !== '') {
        const member = await repo.findMembership(opts.db, auth.session!.accountId, header);
        if (!member && auth.session!.role !== 'super_admin') throw new AppError('not_found', 'No such workspace.');
        if (!member)
          await workspaces.getWorkspace(header); // super-admin: must exist
        else refuseSuspended(member.suspended_at);
        workspaceId = header;
        // A super-admin who is not a member acts with the owner's reach (the platform's operator).
        auth.role = member?.role ?? 'owner';
      } else {
        const memberships = await repo.listMemberships(opts.db, auth.session!.accountId);
        if (memberships.length !== 1) {
          throw new AppError('validation_failed', 'Name the workspace in the X-Service-Workspace header.', {
            details: [{ field: 'X-Service-Workspace', message: 'is required when the account has several workspaces' }],
          });
        }
        refuseSuspended(memberships[0].suspended_at);
        workspaceId = memberships[0].id;
        auth.role = memberships[0].role;
      }
      auth.scope = { workspaceId, environment };
    },

    async superAdmin(request) {
      await session(request);
      if (request.auth!.session!.role !== 'super_admin') throw new AppError('forbidden', 'Super-admin role required.');
    },

    perIp(bucket, perMinute) {
      return async (request) => {
        const taken = await counters.take(`ip:${bucket}:${request.ip}`, perMinute, 60_000);
        if (!taken.allowed) {
          throw rateLimited('Too many requests from this address.', taken.retryAfterSeconds);
        }
      };
    },
  };
}
