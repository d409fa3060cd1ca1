import type { TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ErrorDetail } from '../../platform/errors.js';

/** What a masked secret shows: the dots, plus its last four characters when it is long enough to keep them. */
const MASK = '••••';
/** Below this length the last four characters would give away too much of the secret. */
const MIN_LENGTH_TO_SHOW_TAIL = 12;

export function maskSecret(value: string): string {
  return value.length >= MIN_LENGTH_TO_SHOW_TAIL ? `${MASK}${value.slice(-4)}` : MASK;
}

/** The names of the schema's secret fields (`writeOnly: true`). */
export function secretFields(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, property]) => (property as { writeOnly?: boolean }).writeOnly === true)
    .map(([name]) => name);
}

/** The credentials as responses and the audit log show them: every secret field masked. */
export function maskCredentials(schema: TObject, credentials: Record<string, unknown>): Record<string, unknown> {
  const secrets = new Set(secretFields(schema));
  return Object.fromEntries(
    Object.entries(credentials).map(([name, value]) => [name, secrets.has(name) && typeof value === 'string' ? maskSecret(value) : value]),
  );
}

/** One detail per problem, on `credentials.<field>`, never quoting the value (it may be a secret). */
export function credentialProblems(schema: TObject, credentials: unknown): ErrorDetail[] {
  if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) {
    return [{ field: 'credentials', message: 'must be an object' }];
  }
  const given = credentials as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const name of schema.required ?? []) if (given[name] === undefined) details.push({ field: `credentials.${name}`, message: 'is required' });
  for (const [name, value] of Object.entries(given)) {
    const property = schema.properties[name];
    if (!property) {
      details.push({ field: `credentials.${name}`, message: "is not a field of this carrier's credentials" });
      continue;
    }
    const first = Value.Errors(property, value).First();
    if (first) details.push({ field: `credentials.${name}`, message: first.message.replace(/^Expected /, 'must be ') });
  }
  return details;
}
