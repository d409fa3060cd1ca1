import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from '../errors.js';
import { nulFields } from './nul-guard.js';

const MAX_DEPTH = 64;

/**
 * Nesting depth of a JSON text, counted without parsing. A body of 100k nested arrays would
 * otherwise blow the stack in JSON.parse and surface as a 500.
 */
export function jsonDepthExceeds(text: string, max = MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

// An unpaired UTF-16 surrogate (JSON may escape one: \uD800): JavaScript keeps it, PostgreSQL
// text and jsonb refuse it at the driver, which would be a 500 (found by the fuzz suite).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Field paths of strings (or keys) holding an unpaired surrogate. */
export function unpairedSurrogateFields(value: unknown, path = ''): Array<{ field: string; message: string }> {
  const message = 'must be valid Unicode (no unpaired UTF-16 surrogates)';
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? [{ field: path || 'body', message }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => unpairedSurrogateFields(v, `${path}[${i}]`)).slice(0, 20);
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .flatMap(([k, v]) =>
        LONE_SURROGATE.test(k) ? [{ field: path || 'body', message: `keys ${message}` }] : unpairedSurrogateFields(v, path ? `${path}.${k}` : k),
      )
      .slice(0, 20);
  }
  return [];
}

/**
 * JSON bodies: Fastify's safe parser (prototype-poisoning protection) behind a depth check;
 * a NUL character anywhere in the body is a 400 naming the field (see nul-guard.ts).
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.decorateRequest('bodyText', undefined);
  const defaultParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // JSON only: any other body type is a 415, not a string that fails schema validation.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(text)) {
      return done(new AppError('invalid_json', `JSON nesting deeper than ${MAX_DEPTH} levels.`), undefined);
    }
    // Callback-style: the outcome arrives through the callback, not the returned promise.
    void defaultParser(req, text, (err, value) => {
      if (err) return done(new AppError('invalid_json', 'The request body is not valid JSON.'), undefined);
      // A NUL can only arrive escaped (JSON refuses raw control characters in strings).
      if (text.includes('\\u0000')) {
        const nul = nulFields(value);
        if (nul.length > 0) return done(validationError(nul), undefined);
      }
      if (/\\u[dD][89a-fA-F]/.test(text)) {
        const unpaired = unpairedSurrogateFields(value);
        if (unpaired.length > 0) return done(validationError(unpaired), undefined);
      }
      (req as FastifyRequest).bodyText = text;
      done(null, value);
    });
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as it arrived: the cache key of a route whose answer depends on it alone (the rate query). */
    bodyText: string | undefined;
  }
}
