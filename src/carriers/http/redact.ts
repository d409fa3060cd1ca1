/**
 * Redaction for the carrier exchange log: nothing secret may reach a stored exchange.
 * Keys are matched by name (any key that looks like a secret), values are replaced whole.
 */

const SECRET_KEY = /(secret|password|passwd|passphrase|token|authorization|api[_-]?key|apikey|credential|signature|private[_-]?key|cookie)/i;
const REDACTED = '[REDACTED]';
/** Label images and the like: keep the log small and readable. */
const MAX_STRING = 512;
const MAX_TEXT = 8192;

/**
 * Keys secret by their exact (case-sensitive) name: USPS's `accountNumber` is the payment
 * account postage is drawn from (write-only in the USPS credentials). UPS's `AccountNumber`
 * (the shipper number, shown on every label) stays readable, hence no case-insensitive match.
 */
const SECRET_EXACT_KEYS: ReadonlySet<string> = new Set(['accountNumber']);

/** Verdicts on the keys seen so far: carrier answers repeat the same few hundred keys. */
const keyVerdicts = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 10_000;

export function isSecretKey(key: string): boolean {
  let secret = keyVerdicts.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key) || SECRET_EXACT_KEYS.has(key);
    if (keyVerdicts.size < MAX_REMEMBERED_KEYS) keyVerdicts.set(key, secret);
  }
  return secret;
}

/**
 * Narrower than `isSecretKey`: a field whose VALUE is a credential (what the secret scrubber
 * looks for in carrier answers), not one that merely sounds sensitive (`signatureOptionType`'s
 * `DIRECT` is not a secret to hunt for in every answer).
 */
const CREDENTIAL_KEY = /(secret|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|credential)/i;

export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key) || SECRET_EXACT_KEYS.has(key);
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = isSecretKey(name) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[DEPTH]';
  // As JSON.stringify would send it (a Date as its string).
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function')
    value = (value as { toJSON(): unknown }).toJSON();
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      out[k] = isSecretKey(k) ? REDACTED : redactValue((value as Record<string, unknown>)[k], depth + 1);
    }
    return out;
  }
  if (typeof value === 'string' && value.length > MAX_STRING) return `[${value.length} characters]`;
  return value;
}

/**
 * Redacts a request or response body as sent on the wire: JSON by key, form-encoded by field
 * name, anything else truncated with secret-looking `key=value` / `"key":"value"` pairs masked.
 */
export function redactBody(body: string | null | undefined, contentType?: string): unknown {
  if (body === null || body === undefined || body === '') return null;
  const json = parseJsonBody(body, contentType);
  if (json) return redactValue(json.value);
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('x-www-form-urlencoded')) {
    const params = new URLSearchParams(body);
    const out: Record<string, string> = {};
    for (const [k, v] of params) out[k] = isSecretKey(k) ? REDACTED : v;
    return out;
  }
  const masked = body
    .replace(/("[^"]*(?:secret|password|token|authorization)[^"]*"\s*:\s*)"[^"]*"/gi, `$1"${REDACTED}"`)
    .replace(/((?:secret|password|token)[^=&\s]*=)[^&\s]*/gi, `$1${REDACTED}`)
    .replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`);
  return masked.length > MAX_TEXT ? `${masked.slice(0, MAX_TEXT)}… [${masked.length} characters]` : masked;
}

/** A body that says it is JSON (or looks like it), parsed; undefined when it is not JSON after all. */
export function parseJsonBody(body: string, contentType?: string): { value: unknown } | undefined {
  if (!(contentType ?? '').toLowerCase().includes('json') && !/^\s*[{[]/.test(body)) return undefined;
  try {
    return { value: JSON.parse(body) };
  } catch {
    return undefined;
  }
}
