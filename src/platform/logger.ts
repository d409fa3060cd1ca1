import pino, { type DestinationStream, type LoggerOptions } from 'pino';

/** Paths whose values never reach a log line (secrets in headers and bodies). */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.token',
  '*.pin',
  '*.product_key',
  '*.credentials',
  '*.ingest_key',
  'password',
  'secret',
  'token',
  // Database errors carry row values: the embedded engine's errors the failing statement's
  // parameters, PostgreSQL's `detail` the conflicting key or failing row (customer names,
  // addresses, emails). The statement text and the error code stay.
  'err.params',
  'err.queryOptions',
  'err.detail',
  'error.params',
  'error.queryOptions',
  'error.detail',
];

/** Query parameters that carry a secret (an OAuth callback's code and state, a token in a link). */
const SECRET_QUERY = /([?&](?:code|state|hmac|signature|token|access_token|refresh_token|secret|client_secret|password)=)[^&#]*/gi;

/** A request URL as logs show it: secret query values masked. */
export function maskUrl(url: string): string {
  return url.includes('?') ? url.replace(SECRET_QUERY, '$1[redacted]') : url;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The `service` field of every line. */
export const SERVICE_NAME = 'shipping-service';

let lastMs = NaN;
let lastTime = '';

/**
 * pino's `time` field (ISO 8601): a busy service writes several lines in the same millisecond,
 * and formatting the date was a fifth of what an access line cost, so the text is kept for
 * the millisecond it names.
 */
export function timeField(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastTime = `,"time":"${new Date(ms).toISOString()}"`;
  }
  return lastTime;
}

/** The access line's logger (platform/http/access-log.ts); the service's adds redaction and serializers. */
export function accessLoggerOptions(level: string): LoggerOptions {
  return { level, base: { service: SERVICE_NAME }, timestamp: timeField };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    ...accessLoggerOptions(level),
    redact: { paths: redactPaths, censor: '[redacted]' },
    // Fastify's request serializer, with the URL's secret query values masked.
    serializers: {
      req: (req: LoggedRequest) => ({ method: req.method, url: maskUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  };
}

/**
 * Lines gathered before a write: ~20 access lines. One write per line cost the service a
 * thread-pool round trip and whoever reads the pipe (a terminal, journald, a container's log
 * collector) a wake-up per line: ~7 % of the machine's CPU per rate query (docs/architecture.md,
 * "Logging").
 */
const LOG_WRITE_MIN_BYTES = 4096;
/** The longest a line waits for others before it is written anyway (a quiet service's lines). */
const LOG_FLUSH_EVERY_MS = 100;

/**
 * Where a running service writes its log (docs/architecture.md, "Logging"): standard output,
 * asynchronously, so a request never waits for the terminal or the pipe. Lines are gathered
 * into writes of a few kilobytes, each line out within LOG_FLUSH_EVERY_MS; pino flushes what is
 * pending synchronously when the process exits, on a clean stop or a crash alike.
 */
export function serviceLogDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: LOG_WRITE_MIN_BYTES, periodicFlush: LOG_FLUSH_EVERY_MS });
}
