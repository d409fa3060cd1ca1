import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../../config.js';
import { errorCatalogue } from '../errors.js';

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
    transformObject: (documentObject) => completeOperations((documentObject as { openapiObject: OpenApiObject }).openapiObject),
    refResolver: {
      // Name components after their $id (Error, Account…) rather than def-0, def-1.
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  };
}

type OpenApiOperation = { summary?: string; description?: string; security?: Array<Record<string, string[]>> };
type OpenApiObject = { paths?: Record<string, Record<string, OpenApiOperation>> };

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
