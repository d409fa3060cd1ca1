import Ajv from 'ajv';
import addFormats from 'ajv-formats';

// The examples of an OpenAPI document, checked: every request body and every 2xx JSON response
// has one, the Error schema has one, and each validates against its own schema (with ajv, the
// validator Fastify runs, types not coerced, so an example shows exactly what the wire carries).

type Schema = Record<string, any>;
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
interface Operation {
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
export interface DocWithExamples {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function mediaExamples(media: Media): unknown[] {
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((e) => e.value);
}

export function exampleProblems(doc: DocWithExamples): { missing: string[]; invalid: string[]; checked: number } {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: false, validateFormats: true });
  addFormats(ajv);
  // Every schema is compiled inside a root that holds the components, so #/components/schemas/… resolves.
  // One compile per distinct schema: most responses are the same few $refs (Error above all), and
  // compiling each inside a root of every component is what made this walk slow.
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const validate = (schema: Schema, value: unknown): string | null => {
    const key = JSON.stringify(schema);
    let v = compiled.get(key);
    if (!v) {
      v = ajv.compile({ ...schema, components: doc.components });
      compiled.set(key, v);
    }
    return v(value) ? null : ajv.errorsText(v.errors, { separator: '; ' });
  };
  const missing: string[] = [];
  const invalid: string[] = [];
  let checked = 0;
  const check = (where: string, media: Media) => {
    for (const example of mediaExamples(media)) {
      checked++;
      const error = media.schema ? validate(media.schema, example) : null;
      if (error) invalid.push(`${where}: ${error}`);
    }
  };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.includes(method)) continue;
      const name = `${method.toUpperCase()} ${path}`;
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        if (mediaExamples(media).length === 0) missing.push(`${name} request body (${type})`);
        check(`${name} request body`, media);
      }
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        if (/^2\d\d$/.test(status) && mediaExamples(media).length === 0) missing.push(`${name} ${status} response`);
        check(`${name} ${status} response`, media);
      }
    }
  }
  const error = doc.components?.schemas?.Error;
  if (!error?.examples?.length) missing.push('components.schemas.Error');
  for (const example of error?.examples ?? []) {
    checked++;
    const problem = validate(error!, example);
    if (problem) invalid.push(`components.schemas.Error: ${problem}`);
  }
  // Component examples, which the responses above reuse, validate against their own schema too.
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    if (name === 'Error') continue;
    for (const example of schema.examples ?? []) {
      checked++;
      const problem = validate(schema, example);
      if (problem) invalid.push(`components.schemas.${name}: ${problem}`);
    }
  }
  return { missing, invalid, checked };
}
