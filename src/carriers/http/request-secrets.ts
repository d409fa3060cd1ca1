import { isCredentialKey, isSecretKey } from './redact.js';

/**
 * The secret values one carrier request carries: what an answer (or a proxy) quoting that
 * request back could leak, so what its exchange log entry is scrubbed of. A carrier can only
 * quote what it was sent, so these, plus the account's cached tokens, are all there is to find.
 * - the `Authorization` value (a bearer token, or a Basic value and the password inside it);
 * - any other header named like a secret (an API key, USPS's payment authorization token);
 * - form and JSON fields whose value is a credential (`client_secret`, `password`, …).
 */
export function requestSecrets(headers: Record<string, string>, form?: Record<string, string>, json?: unknown): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretKey(name)) continue;
    // `Bearer x` / `Basic x`: the credential alone, so a scrubbed quote still names the scheme.
    const scheme = /^(\S+)\s+(\S+)$/.exec(value);
    out.push(scheme ? scheme[2]! : value);
    if (!scheme) continue;
    if (scheme[1]!.toLowerCase() === 'basic') {
      const decoded = Buffer.from(scheme[2]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) out.push(decoded.slice(colon + 1));
    }
  }
  if (form) for (const [name, value] of Object.entries(form)) if (isCredentialKey(name)) out.push(value);
  if (json !== undefined) collect(json, false, out, 0);
  return out;
}

function collect(value: unknown, secret: boolean, out: string[], depth: number): void {
  if (depth > 32) return;
  if (typeof value === 'string') {
    if (secret) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, secret, out, depth + 1);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collect(v, secret || isCredentialKey(k), out, depth + 1);
  }
}
