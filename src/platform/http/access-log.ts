import type { FastifyInstance } from 'fastify';

/**
 * One line per request (docs/architecture.md, "Logging"): method, route pattern, status,
 * duration, request id (the child logger's `reqId`) and workspace, written when the answer has
 * gone. Fastify's own pair of lines ("incoming request", "request completed") is turned off in
 * app.ts: it cost two serialisations per request and repeated the URL, which may carry values a
 * log should not hold.
 */
export function registerAccessLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        workspace_id: request.auth?.scope?.workspaceId ?? null,
      },
      'request',
    );
    done();
  });
}
