import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { sha256Hex } from '../crypto.js';
import type { Db } from '../db/types.js';
import { inScope } from '../db/scope.js';

const TTL_MS = 24 * 3600 * 1000;
/** A key still `running` after this long belongs to a request whose process died. */
const ABANDONED_MS = 5 * 60 * 1000;

interface IdempotencyRow {
  workspace_id: string;
  environment: string;
  key: string;
  fingerprint: string;
  state: 'running' | 'done';
  response_status: number | null;
  response_body: string | null;
  response_content_type: string | null;
  created_at: Date;
  expires_at: Date;
}

declare module '../db/types.js' {
  interface Tables {
    idempotency_keys: IdempotencyRow;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { workspaceId: string; environment: string; key: string };
  }
}

function fingerprint(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return sha256Hex(`${request.method} ${path}\n${JSON.stringify(request.body ?? null)}`);
}

/**
 * Idempotency for POST (DESIGN.md §4): the first request with a key runs and its response is
 * kept 24 h; a repeat with the same body gets that response with `Idempotent-Replayed: true`;
 * a different body is 422; a repeat while the first still runs is 409. Server errors (5xx) are
 * not kept, so the client can retry them.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, now: () => Date): void {
  // Attached to the POST routes of the scope only: a GET (the order read) then runs no
  // idempotency hook at all instead of two that return at once (issue 25). Prepended, so they
  // still run before any hook of the route's own, as scope-level hooks would.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = [claimKeyHook, ...hookList(route.preHandler)] as never;
    route.onSend = [keepResponseHook, ...hookList(route.onSend)] as never;
  });

  // Callback-style wrappers: a POST without an Idempotency-Key (most of them) passes through
  // without a promise or a microtask turn (issue 25).
  function claimKeyHook(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined) return done();
    // A replay has answered the request: the chain must stop there.
    claimKey(request, reply, header).then((replayed) => (replayed ? undefined : done()), done);
  }

  function keepResponseHook(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) {
    if (!request.idempotency) return done(null, payload);
    keepResponse(request, reply, payload).then((kept) => done(null, kept), done);
  }

  /** Claims the request's key; true when a stored response was replayed (the request is answered). */
  async function claimKey(request: FastifyRequest, reply: FastifyReply, header: string | string[]): Promise<boolean> {
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || key.length > 255) {
      throw new AppError('validation_failed', 'Idempotency-Key must be 1 to 255 characters.', {
        details: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }],
      });
    }
    const scope = request.auth?.scope;
    if (!scope) return false;
    const fp = fingerprint(request);
    const at = now();

    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          workspace_id: scope.workspaceId,
          environment: scope.environment,
          key,
          fingerprint: fp,
          state: 'running',
          response_status: null,
          response_body: null,
          response_content_type: null,
          created_at: at,
          expires_at: new Date(at.getTime() + TTL_MS),
        })
        .onConflict((oc) => oc.doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) {
        request.idempotency = { workspaceId: scope.workspaceId, environment: scope.environment, key };
        return false;
      }
      const row = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where(inScope(scope))
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) continue; // deleted between the two statements: try to claim it again
      const expired = new Date(row.expires_at).getTime() <= at.getTime();
      const abandoned = row.state === 'running' && at.getTime() - new Date(row.created_at).getTime() > ABANDONED_MS;
      if (expired || abandoned) {
        await db
          .deleteFrom('idempotency_keys')
          .where(inScope(scope))
          .where('key', '=', key)
          .where('created_at', '=', row.created_at)
          .execute();
        continue;
      }
      if (row.fingerprint !== fp) throw new AppError('idempotency_key_reused');
      if (row.state === 'running') throw new AppError('idempotency_key_in_use');
      reply.header('idempotent-replayed', 'true');
      reply.code(row.response_status ?? 200);
      if (row.response_content_type) reply.type(row.response_content_type);
      reply.send(row.response_body ?? '');
      return true;
    }
    throw new AppError('idempotency_key_in_use');
  }

  async function keepResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const idem = request.idempotency;
    if (!idem) return payload;
    request.idempotency = undefined;
    const where = db
      .updateTable('idempotency_keys')
      .where('workspace_id', '=', idem.workspaceId)
      .where('environment', '=', idem.environment)
      .where('key', '=', idem.key);
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await db
        .deleteFrom('idempotency_keys')
        .where('workspace_id', '=', idem.workspaceId)
        .where('environment', '=', idem.environment)
        .where('key', '=', idem.key)
        .execute();
      return payload;
    }
    await where
      .set({
        state: 'done',
        response_status: reply.statusCode,
        response_body: payload,
        response_content_type: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      })
      .execute();
    return payload;
  }
}

function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** Delete expired keys (run periodically). */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<', now).execute();
}
