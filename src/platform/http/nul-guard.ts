import type { FastifyInstance } from 'fastify';
import { validationError, type ErrorDetail } from '../errors.js';

/**
 * PostgreSQL (and PGlite) refuse the NUL character (U+0000) in text and JSONB, so a NUL that
 * reached a query was a 500. It is refused at the door instead, once for every route: in JSON
 * bodies (json-parser.ts calls `nulFields`), and here in path parameters, query strings and
 * headers, as a 400 validation_failed naming the field; nothing is written.
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
const MAX_DETAILS = 20;

/** Field paths (`ship_to.street1`, `line_items[0].sku`) of strings in `value` that hold a NUL. */
export function nulFields(value: unknown, prefix = ''): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  walk(value, prefix, out);
  return out;
}

function walk(value: unknown, path: string, out: ErrorDetail[]): void {
  if (out.length >= MAX_DETAILS) return;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ field: path || 'body', message: NUL_MESSAGE });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      // A key is named by where it sits, never echoed: it is the bad input itself.
      if (key.includes('\u0000')) out.push({ field: path || 'body', message: `keys ${NUL_MESSAGE}` });
      else walk(item, path ? `${path}.${key}` : key, out);
    }
  }
}

function stringValues(record: unknown): [string, string][] {
  if (!record || typeof record !== 'object') return [];
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(record)) {
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') out.push([name, v]);
  }
  return out;
}

/** Path parameters, query strings and headers: refused before any guard reads them. */
export function registerNulGuard(app: FastifyInstance): void {
  // Callback style with a quick scan first: every request runs it, almost none holds a NUL.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!mayHoldNul(request.url, request.raw.rawHeaders)) return done();
    // Node's HTTP parser already refuses a raw NUL in a header; injected requests are checked too.
    const details: ErrorDetail[] = [];
    for (const [name, v] of [...stringValues(request.params), ...stringValues(request.query), ...stringValues(request.headers)]) {
      if (v.includes('\u0000') && !name.includes('\u0000')) details.push({ field: name, message: NUL_MESSAGE });
      else if (name.includes('\u0000')) details.push({ field: 'query', message: `names ${NUL_MESSAGE}` });
      if (details.length >= MAX_DETAILS) break;
    }
    done(details.length > 0 ? validationError(details) : undefined);
  });
}

/** A NUL reaches params and the query only from the URL, raw or as %00; headers only raw. */
function mayHoldNul(url: string, rawHeaders: readonly string[]): boolean {
  if (url.includes('%00') || url.includes('\u0000')) return true;
  for (const h of rawHeaders) if (h.includes('\u0000')) return true;
  return false;
}
