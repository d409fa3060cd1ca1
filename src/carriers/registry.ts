import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleRegistryLogger, discoverFolders, SLUG, type RegistryLogger } from '../platform/folder-discovery.js';

export type { RegistryLogger };
import type { CarrierApiDriver } from './driver.js';
import type { CarrierHttpClient } from './http/client.js';
import type { CarrierDefinition } from './types.js';

/**
 * Discovers carriers at boot: every folder beside this file with an `index.ts` (under tsx or
 * vitest) or `index.js` (compiled `dist/src/carriers/`) is imported, and its `carrier` export
 * validated; its `apiDriver` export, when it has one, makes the carrier's real-protocol driver
 * (docs/carriers.md): a new carrier is one folder. A broken carrier is logged and skipped so one bad folder cannot take the service
 * down. Folders without an index (the shared `simulation/` kit) are not carriers.
 */

export interface CarrierRegistry {
  /** Registered carriers, sorted by slug. */
  readonly carriers: readonly CarrierDefinition[];
  get(slug: string): CarrierDefinition | undefined;
  /** The carrier owning a service code (`ups_ground` → ups). */
  byServiceCode(serviceCode: string): CarrierDefinition | undefined;
  /** Every service code of every registered carrier. */
  readonly serviceCodes: ReadonlySet<string>;
  /** Identifies this registry and its rate tables (cache keys of quotes). */
  readonly version: string;
  /** The real-protocol driver each carrier folder declares (`export const apiDriver`), by slug. */
  readonly apiDrivers: ReadonlyMap<string, ApiDriverFactory>;
}

/** What a carrier folder's `apiDriver` export is: its driver, made on the shared HTTP client. */
export type ApiDriverFactory = (http: CarrierHttpClient) => CarrierApiDriver;

let registrySeq = 0;

const HERE = dirname(fileURLToPath(import.meta.url));

/** Checks a module's `carrier` export; returns the problems (empty = valid). */
export function validateCarrierDefinition(value: unknown, folder: string): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null) return ['index does not export `carrier`'];
  const c = value as Partial<CarrierDefinition>;
  if (typeof c.slug !== 'string' || !SLUG.test(c.slug)) problems.push('slug must be snake_case');
  else if (c.slug !== folder) problems.push(`slug "${c.slug}" does not match folder "${folder}"`);
  if (typeof c.name !== 'string' || c.name.trim() === '') problems.push('name is required');
  if (typeof c.rate_table_version !== 'string' || c.rate_table_version === '') problems.push('rate_table_version is required');
  if (!Array.isArray(c.services) || c.services.length === 0) problems.push('services must be a non-empty list');
  else {
    const seen = new Set<string>();
    for (const s of c.services) {
      if (typeof s?.code !== 'string' || !s.code.startsWith(`${c.slug}_`) || !SLUG.test(s.code)) {
        problems.push(`service code "${String(s?.code)}" must be "${String(c.slug)}_<service>"`);
      } else if (seen.has(s.code)) problems.push(`duplicate service code ${s.code}`);
      else seen.add(s.code);
      if (typeof s?.name !== 'string' || s.name === '') problems.push(`service ${String(s?.code)} needs a name`);
    }
    for (const s of c.services) {
      if (s?.return_service_code !== undefined && !seen.has(s.return_service_code)) {
        problems.push(`service ${String(s.code)} returns by "${String(s.return_service_code)}", which is not one of its carrier's services`);
      }
    }
  }
  if (!Array.isArray(c.observed_holidays)) problems.push('observed_holidays must be a list');
  if (typeof c.isValidTrackingNumber !== 'function') problems.push('isValidTrackingNumber must be a function');
  const label = c.label as Partial<CarrierDefinition['label']> | undefined;
  if (typeof label !== 'object' || label === null) problems.push('label (the label presentation) is required');
  else {
    if (typeof label.heading !== 'string') problems.push('label.heading must be a string');
    for (const fn of ['routingCode', 'barcode', 'displayTrackingNumber'] as const) {
      if (typeof label[fn] !== 'function') problems.push(`label.${fn} must be a function`);
    }
  }
  const caps = c.capabilities;
  const adapter = c.adapter as Record<string, unknown> | undefined;
  if (typeof caps !== 'object' || caps === null) problems.push('capabilities are required');
  else if (typeof adapter !== 'object' || adapter === null) problems.push('adapter is required');
  else {
    // A declared capability must have its method, and an undeclared one must not: an
    // unsupported operation is declared, never a method that throws.
    for (const op of ['rate', 'purchase', 'void', 'track'] as const) {
      const has = typeof adapter[op] === 'function';
      if (caps[op] === true && !has) problems.push(`capability ${op} is declared but adapter.${op} is missing`);
      if (caps[op] !== true && has) problems.push(`adapter.${op} exists but capability ${op} is not declared`);
    }
  }
  return problems;
}

/** Imports and validates every carrier folder under `dir` (default: this folder). */
export async function discoverCarriers(options: { dir?: string; logger?: RegistryLogger } = {}): Promise<CarrierRegistry> {
  const dir = options.dir ?? HERE;
  const logger = options.logger ?? consoleRegistryLogger;
  const carriers: CarrierDefinition[] = [];
  const apiDrivers = new Map<string, ApiDriverFactory>();
  const kind = { key: 'carrier', noun: 'carrier', exportName: 'carrier', problemsOf: validateCarrierDefinition };
  for (const { folder, value: def, mod } of await discoverFolders<CarrierDefinition>(dir, import.meta.url, kind, logger)) {
    const clash = def.services.find((s) => carriers.some((c) => c.services.some((o) => o.code === s.code)));
    if (clash) {
      logger.warn({ carrier: folder, problems: [`service code ${clash.code} already registered`] }, 'carrier skipped: invalid metadata');
      continue;
    }
    carriers.push(def);
    if (typeof mod.apiDriver === 'function') apiDrivers.set(def.slug, mod.apiDriver as ApiDriverFactory);
  }
  return createRegistry(carriers, apiDrivers);
}

export function createRegistry(carriers: readonly CarrierDefinition[], apiDrivers: ReadonlyMap<string, ApiDriverFactory> = new Map()): CarrierRegistry {
  const sorted = [...carriers].sort((a, b) => a.slug.localeCompare(b.slug));
  const bySlug = new Map(sorted.map((c) => [c.slug, c]));
  const byService = new Map<string, CarrierDefinition>();
  for (const c of sorted) for (const s of c.services) byService.set(s.code, c);
  return {
    carriers: sorted,
    get: (slug) => bySlug.get(slug),
    byServiceCode: (code) => byService.get(code),
    serviceCodes: new Set(byService.keys()),
    version: `${++registrySeq}:${sorted.map((c) => `${c.slug}@${c.rate_table_version}`).join(',')}`,
    apiDrivers: new Map([...apiDrivers].filter(([slug]) => bySlug.has(slug))),
  };
}

let shared: Promise<CarrierRegistry> | null = null;

/** The process-wide registry, discovered once. */
export function getCarrierRegistry(logger?: RegistryLogger): Promise<CarrierRegistry> {
  shared ??= discoverCarriers({ logger }).catch((err: unknown) => {
    shared = null;
    throw err;
  });
  return shared;
}
