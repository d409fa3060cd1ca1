import type { LoggerOptions } from 'pino';

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

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { service: 'shipping-service' },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
  };
}
