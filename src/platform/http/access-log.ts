import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { accessLoggerOptions } from '../logger.js';

/**
 * One line per request (docs/architecture.md, "Logging"): method, route pattern, status,
 * duration, request id and workspace, written when the answer has gone. Fastify's own pair of
 * lines ("incoming request", "request completed") is turned off in app.ts: it cost two
 * serialisations per request and repeated the URL, which may carry values a log should not hold.
 * The line goes to the app's log stream through a logger of its own without the redaction
 * paths: it holds only these fields, none of them a client's secret, and redaction was most of
 * what a line cost.
 */
export function registerAccessLog(app: FastifyInstance, level: string): void {
  const stream = (app.log as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  const log = pino(accessLoggerOptions(level), stream);
  if (!log.isLevelEnabled('info')) return;
  app.addHook('onResponse', (request, reply, done) => {
    log.info(
      {
        reqId: request.id,
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
