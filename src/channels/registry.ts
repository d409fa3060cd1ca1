import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleRegistryLogger, discoverFolders, SLUG, type RegistryLogger } from '../platform/folder-discovery.js';
import type { ChannelPlatform } from './platform.js';

/**
 * The store platforms, discovered from their folders as the carriers are (docs/channels.md,
 * "Adding a platform"): every folder beside this file with an `index.ts` (sources) or `index.js`
 * (the build, where `src/channels/` stays modules) that exports a valid `platform` is one. The
 * list is read once, when this module loads, so every schema and check built from it at load
 * (the `platform` enum of the integrations API, the secret fields) sees the same platforms. A
 * broken folder is logged and skipped: one bad platform cannot take the service down.
 */

/** `custom` is the platform of integrations that push orders with an ingest key: no connector. */
const RESERVED = new Set(['custom']);
const HERE = dirname(fileURLToPath(import.meta.url));

const FUNCTIONS = ['defaultOrigin', 'normaliseStoreRef', 'credentialProblems', 'webhookSecret', 'createChannel'] as const;
const STRINGS = ['name', 'storeRefLabel', 'storeRefDescription', 'importStatusesHint'] as const;
const STRING_LISTS = ['defaultImportStatuses', 'webhookTopics', 'oauthScopes', 'secretCredentialFields'] as const;

/** Checks a module's `platform` export; returns the problems (empty = valid). */
export function channelPlatformProblems(value: unknown, folder: string): string[] {
  if (typeof value !== 'object' || value === null) return ['index does not export `platform`'];
  const p = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof p.slug !== 'string' || !SLUG.test(p.slug)) problems.push('slug must be snake_case');
  else if (p.slug !== folder) problems.push(`slug "${p.slug}" does not match folder "${folder}"`);
  else if (RESERVED.has(p.slug)) problems.push(`slug "${p.slug}" is reserved`);
  for (const key of STRINGS) if (typeof p[key] !== 'string' || p[key] === '') problems.push(`${key} is required`);
  for (const key of STRING_LISTS) {
    if (!Array.isArray(p[key]) || !(p[key] as unknown[]).every((v) => typeof v === 'string')) problems.push(`${key} must be a list of strings`);
  }
  for (const key of FUNCTIONS) if (typeof p[key] !== 'function') problems.push(`${key} must be a function`);
  if (typeof p.generatesWebhookSecret !== 'boolean') problems.push('generatesWebhookSecret must be a boolean');
  if (p.authorizeUrl !== undefined && typeof p.authorizeUrl !== 'function') problems.push('authorizeUrl must be a function when present');
  const fields = p.credentialFields;
  if (!Array.isArray(fields) || fields.length === 0) problems.push('credentialFields must be a non-empty list');
  else {
    for (const [i, f] of (fields as Array<Record<string, unknown>>).entries()) {
      if (typeof f?.field !== 'string' || typeof f.label !== 'string' || typeof f.required !== 'boolean') {
        problems.push(`credentialFields[${i}] must be {field, label, required}`);
      }
    }
  }
  return problems;
}

/** Imports and validates every platform folder under `dir` (default: this folder), sorted by slug. */
export async function discoverChannelPlatforms(options: { dir?: string; logger?: RegistryLogger } = {}): Promise<ChannelPlatform[]> {
  const dir = options.dir ?? HERE;
  const logger = options.logger ?? consoleRegistryLogger;
  const kind = { key: 'platform', noun: 'store platform', exportName: 'platform', problemsOf: channelPlatformProblems };
  return (await discoverFolders<ChannelPlatform>(dir, import.meta.url, kind, logger)).map((f) => f.value);
}

const platforms: ChannelPlatform[] = await discoverChannelPlatforms();

/** The platforms the service speaks, sorted by slug. */
export const CHANNEL_PLATFORMS: readonly ChannelPlatform[] = platforms;

export function getChannelPlatform(slug: string): ChannelPlatform | undefined {
  return platforms.find((p) => p.slug === slug);
}

/**
 * Adds platforms from a folder outside this one (an embedding application's own connectors, or a
 * test's): validated as the built-in ones are. Only platforms added before the integrations module
 * loads reach its schemas, so call it first. Returns the slugs added.
 */
export async function addChannelPlatforms(dir: string, logger?: RegistryLogger): Promise<string[]> {
  const added: string[] = [];
  for (const platform of await discoverChannelPlatforms({ dir, logger })) {
    if (getChannelPlatform(platform.slug)) {
      (logger ?? consoleRegistryLogger).warn({ platform: platform.slug, problems: ['slug already registered'] }, 'store platform skipped: invalid metadata');
      continue;
    }
    platforms.push(platform);
    added.push(platform.slug);
  }
  platforms.sort((a, b) => a.slug.localeCompare(b.slug));
  return added;
}
