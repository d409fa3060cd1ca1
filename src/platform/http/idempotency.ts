import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { sha256Hex } from '../crypto.js';
import type { Db } from '../db/types.js';
import { inScope } from '../db/scope.js';

const TTL_MS = 24 * 3600 * 1000;
/**
 * A `running` key is held under a lease: its `expires_at` is at most this far ahead, and the
 * process running the request pushes it forward every third of it. A process that dies (kill -9,
 * a lost machine) stops renewing, so its keys are free again within one lease instead of
 * answering `idempotency_key_in_use` for as long as a request could ever run.
 */
export const IDEMPOTENCY_LEASE_MS = 30_000;
/** No request runs longer: past this the holder stops renewing and its key lapses with the lease. */
const MAX_RUNNING_MS = 5 * 60 * 1000;
/** What a 409 `idempotency_key_in_use` asks the client to wait: most requests finish in this time. */
const IN_USE_RETRY_AFTER_SECONDS = 2;

export interface IdempotencyOptions {
  /**
   * The embedded engine admits one process to its data directory (pglite-lock.ts), so a running
   * key this process does not hold was left by a process that died: it is free at once.
   */
  engine: 'pglite' | 'postgres';
  /** The lease of a running key (tests shorten it); IDEMPOTENCY_LEASE_MS by default. */
  leaseMs?: number;
}

/** The keys this process holds now, per database (a test process may run several apps). */
const heldKeys = new WeakMap<Db, Set<string>>();

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
    idempotency?: { workspaceId: string; environment: string; key: string; createdAt: Date; renew: NodeJS.Timeout };
  }
}

function fingerprint(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return sha256Hex(`${request.method} ${path}\n${JSON.stringify(request.body ?? null)}`);
}

/**
 * Idempotency for POST (docs/api-conventions.md): the first request with a key runs and its response is
 * kept 24 h; a repeat with the same body gets that response with `Idempotent-Replayed: true`;
 * a different body is 422; a repeat while the first still runs is 409. Server errors (5xx) are
 * not kept, so the client can retry them.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, now: () => Date, options: IdempotencyOptions): void {
  const leaseMs = options.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  const held = heldKeys.get(db) ?? new Set<string>();
  heldKeys.set(db, held);
  const heldName = (workspaceId: string, environment: string, key: string) => `${workspaceId}\u0000${environment}\u0000${key}`;

  // Attached to the POST routes of the scope only: a GET (the order read) then runs no
  // idempotency hook at all instead of two that return at once. Prepended, so they
  // still run before any hook of the route's own, as scope-level hooks would.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = [claimKeyHook, ...hookList(route.preHandler)] as never;
    route.onSend = [keepResponseHook, ...hookList(route.onSend)] as never;
  });

  // Callback-style wrappers: a POST without an Idempotency-Key (most of them) passes through
  // without a promise or a microtask turn.
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
          expires_at: new Date(at.getTime() + leaseMs),
        })
        .onConflict((oc) => oc.doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) {
        held.add(heldName(scope.workspaceId, scope.environment, key));
        request.idempotency = {
          workspaceId: scope.workspaceId,
          environment: scope.environment,
          key,
          createdAt: at,
          renew: renewLease(scope.workspaceId, scope.environment, key, at),
        };
        return false;
      }
      const row = await db.selectFrom('idempotency_keys').selectAll().where(inScope(scope)).where('key', '=', key).executeTakeFirst();
      if (!row) continue; // deleted between the two statements: try to claim it again
      // Expired: a kept response past its 24 h, or a running key whose holder stopped renewing
      // its lease (the process died). Abandoned: on the embedded engine, running and not ours.
      const expired = new Date(row.expires_at).getTime() <= at.getTime();
      const abandoned = row.state === 'running' && options.engine === 'pglite' && !held.has(heldName(scope.workspaceId, scope.environment, key));
      if (expired || abandoned) {
        await db.deleteFrom('idempotency_keys').where(inScope(scope)).where('key', '=', key).where('created_at', '=', row.created_at).execute();
        continue;
      }
      if (row.fingerprint !== fp) throw new AppError('idempotency_key_reused');
      if (row.state === 'running') throw keyInUse();
      reply.header('idempotent-replayed', 'true');
      reply.code(row.response_status ?? 200);
      if (row.response_content_type) reply.type(row.response_content_type);
      reply.send(row.response_body ?? '');
      return true;
    }
    throw keyInUse();
  }

  /** Pushes the running key's lease forward while its request runs; cleared when it ends. */
  function renewLease(workspaceId: string, environment: string, key: string, createdAt: Date): NodeJS.Timeout {
    const timer = setInterval(
      () => {
        const at = now();
        if (at.getTime() - createdAt.getTime() > MAX_RUNNING_MS) return clearInterval(timer);
        db.updateTable('idempotency_keys')
          .set({ expires_at: new Date(at.getTime() + leaseMs) })
          .where('workspace_id', '=', workspaceId)
          .where('environment', '=', environment)
          .where('key', '=', key)
          .where('state', '=', 'running')
          .where('created_at', '=', createdAt)
          .execute()
          .catch((err: unknown) => app.log.warn({ err }, 'idempotency key lease not renewed'));
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    return timer.unref();
  }

  async function keepResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const idem = request.idempotency;
    if (!idem) return payload;
    request.idempotency = undefined;
    clearInterval(idem.renew);
    try {
      // This claim only (created_at): had its lease lapsed and another request claimed the key
      // again, that request's row is not ours to change.
      if (reply.statusCode >= 500 || typeof payload !== 'string') {
        await db
          .deleteFrom('idempotency_keys')
          .where('workspace_id', '=', idem.workspaceId)
          .where('environment', '=', idem.environment)
          .where('key', '=', idem.key)
          .where('created_at', '=', idem.createdAt)
          .execute();
        return payload;
      }
      await db
        .updateTable('idempotency_keys')
        .set({
          state: 'done',
          expires_at: new Date(idem.createdAt.getTime() + TTL_MS),
          response_status: reply.statusCode,
          response_body: payload,
          response_content_type: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
        })
        .where('workspace_id', '=', idem.workspaceId)
        .where('environment', '=', idem.environment)
        .where('key', '=', idem.key)
        .where('created_at', '=', idem.createdAt)
        .execute();
      return payload;
    } finally {
      // Only once the row says done (or is gone): until then a repeat here must see it held.
      held.delete(heldName(idem.workspaceId, idem.environment, idem.key));
    }
  }
}

function keyInUse(): AppError {
  return new AppError('idempotency_key_in_use', undefined, { retryAfterSeconds: IN_USE_RETRY_AFTER_SECONDS });
}

function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** Delete expired keys (run periodically). */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<', now).execute();
}
