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
    refResolver: {
      // Name components after their $id (Error, Account…) rather than def-0, def-1.
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  };
}
