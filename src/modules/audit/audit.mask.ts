/**
 * Secrets never reach the audit log: values under secret-bearing keys are masked before the
 * row is written (so not even a database reader sees them). Product keys and PINs keep their
 * last characters so an operator can tell two of them apart.
 */
const SECRET_KEY = /^(password|secret|token|credentials|ingest_key|api_key|private_key|access_token|refresh_token|client_secret)$|_(secret|password|token)$/i;
const TAIL_KEYS: Record<string, number> = { product_key: 5, pin: 4 };

export const MASK = '[redacted]';
/** What a service writes to say a secret changed without writing the secret: kept as is. */
const MARKER = /^(set|removed|rotated|replaced|updated|unchanged)$/;

export function maskValue(value: unknown, visibleTail = 0): string {
  if (typeof value !== 'string' || visibleTail === 0) return MASK;
  return value.length > visibleTail ? value.slice(0, -visibleTail).replace(/[A-Za-z0-9]/g, '•') + value.slice(-visibleTail) : '•'.repeat(value.length);
}

export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (Object.hasOwn(TAIL_KEYS, key)) out[key] = v == null ? v : maskTree(v, TAIL_KEYS[key]);
    else if (SECRET_KEY.test(key)) out[key] = v == null || typeof v === 'boolean' || (typeof v === 'string' && MARKER.test(v)) ? v : MASK;
    else out[key] = maskSecrets(v, depth + 1);
  }
  return out;
}

/** A masked key's value may itself be a {from, to} change: mask both sides. */
function maskTree(value: unknown, tail: number): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v == null ? v : maskTree(v, tail)]));
  }
  return maskValue(value, tail);
}
