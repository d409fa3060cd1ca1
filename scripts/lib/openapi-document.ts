// The service's OpenAPI document exactly as GET /openapi.json serves it, built by buildApp on a
// throwaway in-memory database (no server, no port, no data dir). Shared by `npm run openapi`
// and the staleness test, so both see the same document.
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { openDatabase } from '../../src/platform/db/database.js';

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

export async function loadOpenApiDocument(): Promise<OpenApiDocument> {
  const database = await openDatabase({});
  const app = await buildApp({ config: testConfig(), database });
  try {
    return (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  } finally {
    await app.close();
    await database.close();
  }
}

/** The committed file's text: stable key order as served, two-space indent, trailing newline. */
export function serializeOpenApi(doc: OpenApiDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
