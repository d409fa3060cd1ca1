import Fastify, { type FastifyInstance } from 'fastify';
import { registerIdempotency } from '../../src/platform/http/idempotency.js';
import { registerErrorHandling } from '../../src/platform/http/error-handler.js';
import type { DatabaseHandle } from '../../src/platform/db/database.js';

/**
 * A minimal service with the idempotency hooks on one POST route, as /v1 has them (and the service's error handler): the request's
 * scope is fixed, and the route either never answers (`hang`: the holder of a key, to be killed
 * with -9) or answers 201 at once. Run as a process by idempotency-holder.main.ts.
 */
export async function holderApp(handle: DatabaseHandle, opts: { hang: boolean; leaseMs: number; onClaimed?: () => void }): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandling(app);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', (request, _reply, done) => {
    (request as unknown as { auth: unknown }).auth = { scope: { workspaceId: 'ws_holder', environment: 'test' } };
    done();
  });
  await app.register(async (scope) => {
    registerIdempotency(scope, handle.db, () => new Date(), { engine: handle.engine, leaseMs: opts.leaseMs });
    scope.post('/hold', async (_request, reply) => {
      if (opts.hang) {
        opts.onClaimed?.();
        return new Promise(() => {});
      }
      return reply.code(201).send({ ok: true });
    });
  });
  return app;
}
