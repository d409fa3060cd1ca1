import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../../config.js';
import { errorCatalogue, type ErrorCode } from '../errors.js';
import { ERROR_EXAMPLE, INVALID_STATE_EXAMPLE } from './schemas.js';

const errorTable = Object.entries(errorCatalogue)
  .map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message} |`)
  .join('\n');

/** OpenAPI 3.1.0 document generated from the route schemas. */
export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Shipping service API',
        version: config.version,
        description:
          'Multi-carrier shipping API. `/v1` takes an API key (`Authorization: Bearer sk_…`) plus ' +
          '`X-Service-Workspace`; `/api/admin` and `/api/super-admin` take a session token from ' +
          '`POST /api/auth/login`.\n\nErrors are `{code, message, details?, request_id}`:\n\n' +
          `| Status | Code | Meaning |\n|---|---|---|\n${errorTable}`,
      },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Secret API key sk_test_… / sk_live_…' },
          workspace: { type: 'apiKey', in: 'header', name: 'X-Service-Workspace', description: 'The workspace id the key belongs to' },
          session: { type: 'http', scheme: 'bearer', description: 'Session token from POST /api/auth/login' },
          ingestKey: { type: 'http', scheme: 'bearer', description: "An integration's ingest key ik_…" },
        },
      },
    },
    transformObject: (documentObject) => addResponseExamples(completeOperations((documentObject as { openapiObject: OpenApiObject }).openapiObject)),
    refResolver: {
      // Name components after their $id (Error, Account…) rather than def-0, def-1.
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  };
}

type Schema = Record<string, any>;
type MediaObject = { schema?: Schema; example?: unknown; examples?: Record<string, unknown> };
type OpenApiOperation = {
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { content?: Record<string, MediaObject> }>;
};
type OpenApiObject = { paths?: Record<string, Record<string, OpenApiOperation>>; components?: { schemas?: Record<string, Schema> } };

const authSentences: Array<[scheme: string, sentence: string]> = [
  ['apiKey', 'Authentication: an API key (`Authorization: Bearer sk_…`) and `X-Service-Workspace`.'],
  ['ingestKey', "Authentication: an integration's ingest key (`Authorization: Bearer ik_…`)."],
  ['session', 'Authentication: a session token from `POST /api/auth/login` (and `X-Service-Workspace` for /api/admin).'],
];

/**
 * Fills what every operation must carry and route files need not repeat: a description (the
 * summary plus how the route authenticates), and an explicit empty `security` on public routes so
 * the document says they are public rather than leaving it unsaid (redocly's security-defined).
 */
export function completeOperations<T extends OpenApiObject>(doc: T): T {
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(operations)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      op.security ??= [];
      if (op.description) continue;
      const schemes = op.security.flatMap((s) => Object.keys(s));
      const auth = authSentences.find(([scheme]) => schemes.includes(scheme))?.[1] ?? 'Public: no credentials needed.';
      const summary = op.summary ? `${op.summary.replace(/\.?$/, '.')}\n\n` : '';
      op.description = `${summary}${auth} Errors are \`{code, message, details?, request_id}\`; the statuses this operation can answer are listed under its responses.`;
    }
  }
  return doc;
}

/** The error each status most often means, for the example of that error response. */
const exampleErrorCode: Record<string, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'invalid_state',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** An error body as the error handler writes it, for a status's usual code. */
export function errorExample(status: string): Record<string, unknown> {
  if (status === '400') return ERROR_EXAMPLE;
  if (status === '409') return INVALID_STATE_EXAMPLE;
  const code = exampleErrorCode[status] ?? 'internal_error';
  return { code, message: errorCatalogue[code].message, request_id: ERROR_EXAMPLE.request_id };
}

/**
 * Response examples the route files need not repeat. A route schema's own `examples` (moved by
 * @fastify/swagger to the media object) wins; otherwise a JSON response gets one derived from
 * its schema: a component's example (Order, Shipment… carry one in their module's
 * *.examples.ts), a cursor page of that component's example, or an error body with the status's
 * usual code.
 */
export function addResponseExamples<T extends OpenApiObject>(doc: T): T {
  const components = doc.components?.schemas ?? {};
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    typeof schema?.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/') ? components[schema.$ref.slice(21)] : schema;
  const exampleOf = (schema: Schema | undefined): unknown => {
    const direct = schema?.examples?.[0] ?? resolve(schema)?.examples?.[0];
    if (direct !== undefined) return direct;
    // A list (listResponse's cursor page, or a plain {data}): `data` holds the item's example.
    const list = resolve(schema);
    const item = list?.properties?.data?.type === 'array' ? exampleOf(list.properties.data.items) : undefined;
    if (item === undefined) return undefined;
    const page: Record<string, unknown> = { data: [item], has_more: false, next_cursor: null };
    const fields = Object.keys(list!.properties);
    if (!fields.every((f) => f in page)) return undefined;
    return Object.fromEntries(fields.map((f) => [f, page[f]]));
  };
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(operations)) {
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (!media?.schema || media.example !== undefined || media.examples !== undefined) continue;
        const example = /^[45]\d\d$/.test(status) && media.schema.$ref === '#/components/schemas/Error' ? errorExample(status) : exampleOf(media.schema);
        if (example !== undefined) media.example = example;
      }
    }
  }
  return doc;
}
