import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ErrorDetail } from '../../platform/errors.js';
import { maskSecret } from '../../platform/mask.js';

export { maskSecret };

/** A JSON Schema 2020-12 object schema, as each api driver declares its credentials. */
export type CredentialsSchema = Record<string, unknown>;

function properties(schema: CredentialsSchema): Record<string, { writeOnly?: boolean }> {
  return (schema.properties ?? {}) as Record<string, { writeOnly?: boolean }>;
}

/** The names of the schema's secret fields (`writeOnly: true`). */
export function secretFields(schema: CredentialsSchema): string[] {
  return Object.entries(properties(schema))
    .filter(([, property]) => property.writeOnly === true)
    .map(([name]) => name);
}

/** The credentials as responses and the audit log show them: every secret field masked. */
export function maskCredentials(schema: CredentialsSchema, credentials: Record<string, unknown>): Record<string, unknown> {
  const secrets = new Set(secretFields(schema));
  return Object.fromEntries(
    Object.entries(credentials).map(([name, value]) => [name, secrets.has(name) && typeof value === 'string' ? maskSecret(value) : value]),
  );
}

// One validator per driver schema; the schemas are module constants, so the map stays small.
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new WeakMap<CredentialsSchema, ValidateFunction>();

/** One detail per problem, on `credentials.<field>`, never quoting the value (it may be a secret). */
export function credentialProblems(schema: CredentialsSchema, credentials: unknown): ErrorDetail[] {
  if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) {
    return [{ field: 'credentials', message: 'must be an object' }];
  }
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  if (validate(credentials)) return [];
  const details = (validate.errors ?? []).map(toDetail);
  return details.filter((d, i) => details.findIndex((o) => o.field === d.field) === i);
}

function toDetail(error: ErrorObject): ErrorDetail {
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required') return { field: `credentials.${String(error.params.missingProperty)}`, message: 'is required' };
  if (error.keyword === 'additionalProperties') {
    return { field: `credentials.${String(error.params.additionalProperty)}`, message: "is not a field of this carrier's credentials" };
  }
  return { field: path ? `credentials.${path}` : 'credentials', message: error.message ?? 'is invalid' };
}
