import type { FastifyInstance } from 'fastify';
import { AppError, validationError } from '../errors.js';

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

/**
 * NUL (U+0000) and unpaired UTF-16 surrogates (JSON may escape either: \u0000, \uD800):
 * JavaScript keeps them, PostgreSQL text and jsonb refuse them at the driver, which would
 * surface as a 500. They are no text a client means to send.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path (`items[0].sku`) of the first string, key or value, PostgreSQL cannot store; null when none. */
export function unstorableStringAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = unstorableStringAt(value[i], `${path}[${i}]`);
      if (at) return at;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      if (UNSTORABLE.test(k)) return here;
      const at = unstorableStringAt(v, here);
      if (at) return at;
    }
  }
  return null;
}

/** JSON bodies: Fastify's safe parser (prototype-poisoning protection) behind a depth check. */
export function registerJsonParser(app: FastifyInstance): void {
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
    defaultParser(req, text, (err, value) => {
      if (err) return done(new AppError('invalid_json', 'The request body is not valid JSON.'), undefined);
      const bad = unstorableStringAt(value);
      if (bad) {
        return done(validationError([{ field: bad, message: 'must not contain NUL characters or unpaired surrogates' }]), undefined);
      }
      done(null, value);
    });
  });
}
