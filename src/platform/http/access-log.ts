import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { SERVICE_NAME, accessLoggerOptions, timeField } from '../logger.js';

/** The fields of an access line (docs/architecture.md, "Logging"). */
export interface AccessFields {
  reqId: string;
  method: string;
  route: string | null;
  status: number;
  ms: number;
  workspace_id: string | null;
}

const LINE_START = `{"level":${pino.levels.values.info}`;
const SERVICE = `,"service":${JSON.stringify(SERVICE_NAME)}`;
const text = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));

/**
 * The access line as the access logger (pino, accessLoggerOptions) writes it at `info`, field
 * for field and in the same order, built as one template instead of through pino's generic
 * serialisation of an object (its key loop and per-value type switch were most of a line's
 * cost). The log test compares the two.
 */
export function accessLine(f: AccessFields): string {
  return `${LINE_START}${timeField()}${SERVICE},"reqId":${text(f.reqId)},"method":${text(f.method)},"route":${text(f.route)},"status":${f.status},"ms":${f.ms},"workspace_id":${text(f.workspace_id)},"msg":"request"}\n`;
}

/**
 * One line per request (docs/architecture.md, "Logging"): method, route pattern, status,
 * duration, request id and workspace, written when the answer has gone. Fastify's own pair of
 * lines ("incoming request", "request completed") is turned off in app.ts: it cost two
 * serialisations per request and repeated the URL, which may carry values a log should not hold.
 * The line goes to the app's log stream through a logger of its own without the redaction
 * paths: it holds only these fields, none of them a client's secret, and redaction was most of
 * what a line cost. The level is the access logger's; the text is accessLine's.
 */
export function registerAccessLog(app: FastifyInstance, level: string): void {
  const stream = (app.log as unknown as Record<symbol, pino.DestinationStream & Record<symbol, unknown>>)[pino.symbols.streamSym];
  const log = pino(accessLoggerOptions(level), stream);
  if (!log.isLevelEnabled('info')) return;
  // A pino multistream wants each line's level and object beside its text: pino's own write.
  const viaPino = stream[pino.symbols.needsMetadataGsym] === true;
  app.addHook('onResponse', (request, reply, done) => {
    const fields: AccessFields = {
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      workspace_id: request.auth?.scope?.workspaceId ?? null,
    };
    if (viaPino) log.info(fields, 'request');
    else stream.write(accessLine(fields));
    done();
  });
}
