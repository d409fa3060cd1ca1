// The credentials form's data, apart from its drawing: what a carrier's credentials schema
// (JSON Schema 2020-12, from GET /api/admin/carrier-types) asks for, a blank draft of it, and the
// object sent to the service. No React here, so it is tested on its own.

/** The part of JSON Schema (2020-12) a driver's credentials schema uses, as far as the form draws it. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  writeOnly?: boolean;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** What the operator typed, per credentials field: text for inputs and selects, a flag for checkboxes. */
export type CredentialDraft = Record<string, string | boolean>;

export const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);
export const properties = (schema: JsonSchema | null | undefined): [string, JsonSchema][] => Object.entries(schema?.properties ?? {});
/** The schema's title, else the property's name made readable (client_id → Client id). */
export const fieldLabel = (name: string, s: JsonSchema) => s.title ?? name.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());

/** A blank form for the schema: its defaults, and nothing typed for the rest. */
export function emptyDraft(schema: JsonSchema | null | undefined, from: Record<string, unknown> = {}): CredentialDraft {
  return Object.fromEntries(
    properties(schema).map(([name, s]) => {
      // A secret is never put back into a form: the answer only has its mask.
      const known = s.writeOnly ? undefined : (from[name] ?? s.default);
      if (typeOf(s) === 'boolean') return [name, known === true];
      return [name, known === undefined || known === null ? '' : typeof known === 'object' ? JSON.stringify(known) : String(known)];
    }),
  );
}

/**
 * The credentials object to send: a blank field is left out (so a required one is the service's
 * "is required"), numbers and enum values keep their JSON type, and text that is not what the
 * schema asks for is sent as typed so that the service names the field and the problem.
 */
export function credentialsFromDraft(schema: JsonSchema | null | undefined, draft: CredentialDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, s] of properties(schema)) {
    const value = draft[name];
    if (typeof value === 'boolean') {
      out[name] = value;
      continue;
    }
    if (value === undefined || value === '') continue;
    const type = typeOf(s);
    if (s.enum) out[name] = s.enum.find((v) => String(v) === value) ?? value;
    else if (type === 'integer' || type === 'number') out[name] = value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
    else if (type === 'object' || type === 'array') {
      try {
        out[name] = JSON.parse(value);
      } catch {
        out[name] = value;
      }
    } else out[name] = value;
  }
  return out;
}

/** The field names (`credentials.client_id`) the form shows, so errors on others go to the error box. */
export function credentialFieldNames(schema: JsonSchema | null | undefined): string[] {
  return ['credentials', ...properties(schema).map(([name]) => `credentials.${name}`)];
}
