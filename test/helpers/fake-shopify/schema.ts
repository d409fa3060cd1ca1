import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, type GraphQLSchema } from 'graphql';

/**
 * Shopify's published Admin GraphQL schema, 2026-07 (../shared/channel-specs/shopify, SDL as
 * captured by introspection; SOURCES.md there says where it comes from). The fake Shopify
 * validates every document the service sends against it and executes them over it.
 *
 * Required, not optional: without the schema the fake would check nothing, so a missing file
 * fails the suite with the path it looked at (`SHOPIFY_SCHEMA_FILE` points elsewhere).
 * Building it takes ~1.4 s: once per process.
 */
export const SHOPIFY_SCHEMA_FILE =
  process.env.SHOPIFY_SCHEMA_FILE ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/channel-specs/shopify/admin-2026-07.graphql');

let cached: GraphQLSchema | null = null;

export function loadShopifySchema(): GraphQLSchema {
  if (cached) return cached;
  if (!existsSync(SHOPIFY_SCHEMA_FILE)) {
    throw new Error(
      `Shopify's Admin GraphQL schema is missing at ${SHOPIFY_SCHEMA_FILE}: the fake Shopify checks every request against it (set SHOPIFY_SCHEMA_FILE to its path)`,
    );
  }
  cached = buildSchema(readFileSync(SHOPIFY_SCHEMA_FILE, 'utf8'));
  return cached;
}
