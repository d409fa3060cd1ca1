import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorCatalogue, type ErrorCode, type ErrorDetail } from '../errors.js';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import { DATE_FORMAT_MESSAGES, type DateFormat } from './dates.js';

interface AjvError {
  instancePath?: string;
  schemaPath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/**
 * An `anyOf` (a nullable field: string or null) fails with one error per branch plus its own
 * "must match a schema in anyOf". Say it once: "must be string or null" when every branch
 * failed on type; otherwise the reasons of the branches that were about the value (a string
 * too long), without "must be null".
 */
function collapseAnyOf(errors: AjvError[]): AjvError[] {
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf' && e.schemaPath);
  if (anyOfs.length === 0) return errors;
  const out: AjvError[] = [];
  const handled = new Set<AjvError>();
  for (const any of anyOfs) {
    const branches = errors.filter((e) => e !== any && e.instancePath === any.instancePath && e.schemaPath?.startsWith(`${any.schemaPath}/`));
    if (branches.length === 0) continue;
    handled.add(any);
    for (const b of branches) handled.add(b);
    if (branches.every((b) => b.keyword === 'const')) {
      // An enum written as a union of literals: name the values once.
      out.push({ ...any, keyword: 'enum', message: `must be one of: ${branches.map((b) => String(b.params?.allowedValue)).join(', ')}` });
    } else if (branches.every((b) => b.keyword === 'type')) {
      const types = branches.flatMap((b) => [b.params?.type ?? []].flat().map(String));
      out.push({ ...any, keyword: 'type', message: `must be ${[...new Set(types)].join(' or ')}` });
    } else {
      out.push(...branches.filter((b) => b.keyword !== 'type'));
    }
  }
  return [...errors.filter((e) => !handled.has(e)), ...out];
}

/** `/parcel/weight_oz` → `parcel.weight_oz`; `/items/0/sku` → `items[0].sku`. */
function fieldPath(instancePath: string | undefined): string {
  const parts = (instancePath ?? '').split('/').filter(Boolean);
  let out = '';
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

export function validationDetails(errors: AjvError[], context?: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of collapseAnyOf(errors)) {
    // Query and path parameters are named as they are (`status`, `cursor`), body fields by path.
    let field = fieldPath(e.instancePath);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required' && e.params?.missingProperty) {
      field = field ? `${field}.${String(e.params.missingProperty)}` : String(e.params.missingProperty);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && e.params?.additionalProperty) {
      field = field ? `${field}.${String(e.params.additionalProperty)}` : String(e.params.additionalProperty);
      message = 'is not an allowed field';
    } else if (e.keyword === 'type' && !field) {
      field = context ?? 'body';
    } else if (e.keyword === 'format' && typeof e.params?.format === 'string' && e.params.format in DATE_FORMAT_MESSAGES) {
      message = DATE_FORMAT_MESSAGES[e.params.format as DateFormat];
    }
    const key = `${field}|${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push({ field: field || (context ?? 'body'), message });
    }
  }
  return details;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's business-rule checks on its body (country codes, postal codes, …), run when
     * the schema already refused the body, so one answer names every bad field instead of
     * the schema's now and the rules' after the next attempt. Must accept any JSON value.
     */
    bodyChecks?: (body: unknown) => ErrorDetail[];
  }
}

/** The details of a schema failure as the client gets them (the route's body checks included). */
export function schemaFailureDetails(request: FastifyRequest, err: FastifyError): ErrorDetail[] {
  return withBodyChecks(request, validationDetails(err.validation as AjvError[], err.validationContext), err.validationContext);
}

/** Schema details first, then the route's rule details for fields the schema did not already name. */
function withBodyChecks(request: FastifyRequest, schemaDetails: ErrorDetail[], context?: string): ErrorDetail[] {
  const checks = request.routeOptions.config?.bodyChecks;
  if (!checks || context !== 'body') return schemaDetails;
  let more: ErrorDetail[];
  try {
    more = checks(request.body);
  } catch (err) {
    // A body the schema refused may be any shape; the schema's answer stands on its own.
    request.log.debug({ err }, 'body checks skipped on a malformed body');
    return schemaDetails;
  }
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`);
  return [...schemaDetails, ...more.filter((d) => !schemaDetails.some((s) => related(d.field, s.field) || related(s.field, d.field)))];
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  message: string,
  details?: unknown,
  status: number = errorCatalogue[code].status,
) {
  // `details` is always a list: empty when the error has nothing to add.
  const body = { code, message, details: details ?? [], request_id: request.id };
  // Serialised here, not by the route's response schema for that status (GET /health's 503 is
  // its own health document, and an error body must never fail a schema meant for another).
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Map Fastify's own errors (parsers, limits) to catalogue codes; undefined = unexpected. */
function fromFastifyError(err: FastifyError): { code: ErrorCode; message: string } | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', message: 'The request body is larger than allowed.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'unsupported_media_type', message: 'Content-Type must be application/json.' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { code: 'invalid_json', message: 'The request body is not valid JSON.' };
  }
  if (err.statusCode === 413) return { code: 'payload_too_large', message: 'The request body is larger than allowed.' };
  if (err.statusCode === 415) return { code: 'unsupported_media_type', message: 'Content-Type must be application/json.' };
  if (err.statusCode === 400 && err instanceof SyntaxError) return { code: 'invalid_json', message: 'The request body is not valid JSON.' };
  // Any other client error a plugin raises keeps its status class; its own message may quote
  // the input, so the catalogue's message is sent instead.
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    const code = clientErrorCodes[err.statusCode] ?? 'bad_request';
    return { code, message: errorCatalogue[code].message };
  }
  return undefined;
}

const clientErrorCodes: Record<number, ErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  410: 'gone',
  429: 'rate_limited',
  431: 'request_headers_too_large',
};

/** A piece of the URL fit to quote in a message (the URL may be kilobytes long). */
function quotable(path: string): string {
  return path.length > 100 ? `${path.slice(0, 100)}…` : path;
}

/**
 * Errors Fastify's router raises before any hook runs (Fastify's `frameworkErrors` option):
 * a path parameter longer than the router allows (no resource has such an id: 404), a
 * malformed percent-encoding (400). Fastify's own answer would echo the whole input and
 * carry no request id.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, request, 'not_found', 'No such resource (the id is longer than any id).');
  if (err.code === 'FST_ERR_BAD_URL') {
    return sendError(reply, request, 'validation_failed', 'The URL is not validly percent-encoded.', [
      { field: 'path', message: 'is not a valid URL component' },
    ]);
  }
  request.log.error({ err }, 'router error');
  return sendError(reply, request, 'internal_error', errorCatalogue.internal_error.message);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (Fastify's `clientErrorHandler`
 * option): a raw NUL or other bad byte in a header, headers or a URL over the size limit, a
 * request that took too long to arrive. The same `{code, message, details, request_id}` body and
 * X-Request-Id header as every other answer, then the connection is closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : err.code === 'HPE_HEADER_OVERFLOW' ? 'request_headers_too_large' : 'bad_request';
  const { status, message } = errorCatalogue[code];
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({ code, message, details: [], request_id: requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Retry-After of a request refused because the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The longest Retry-After the service answers (a day; OpenAPI's Retry-After header says so). A
 * carrier's own Retry-After is passed on, and a carrier may ask for longer, or for a date years
 * away: the header stays a whole number of seconds within the documented range.
 */
export const RETRY_AFTER_MAX_SECONDS = 86_400;

/**
 * The one error handler: AppErrors keep their status; schema failures are 400
 * validation_failed with field details; a database that cannot be reached is 503
 * service_unavailable with Retry-After; everything else is a logged 500 with a generic body.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) request.log.error({ err }, 'request failed');
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.min(RETRY_AFTER_MAX_SECONDS, Math.ceil(err.retryAfterSeconds))));
      return sendError(reply, request, err.code, err.message, err.details, err.status);
    }
    if (err.validation) {
      return sendError(reply, request, 'validation_failed', 'The request is invalid.', schemaFailureDetails(request, err));
    }
    const known = fromFastifyError(err);
    if (known) return sendError(reply, request, known.code, known.message);
    if (isDatabaseUnavailable(err)) {
      // An outage answers every request that needs the database: one line each, no stack.
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(reply, request, 'service_unavailable', 'The database is unreachable; retry shortly.');
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, request, 'internal_error', errorCatalogue.internal_error.message);
  });

  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = methods.filter((m) => m !== request.method && app.findRoute({ method: m, url: path }));
    if (allowed.length > 0) {
      if (allowed.includes('GET')) allowed.push('HEAD' as never);
      reply.header('allow', allowed.join(', '));
      return sendError(reply, request, 'method_not_allowed', `${request.method} is not allowed here. Allowed: ${allowed.join(', ')}.`);
    }
    return sendError(reply, request, 'not_found', `No route ${request.method} ${quotable(path)}.`);
  });

  // While the server drains on shutdown, new requests are turned away in the common shape
  // (Fastify's own 503 body is not; return503OnClosing is off in app.ts).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style: every request runs it, and it almost never has anything to do.
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    reply.header('retry-after', '1');
    sendError(reply, request, 'service_unavailable', 'The service is shutting down; retry.');
  });
}
