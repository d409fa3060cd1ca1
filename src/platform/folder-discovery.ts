import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where a registry reports a folder it skipped. */
export interface RegistryLogger {
  warn(obj: object, msg: string): void;
}

/** The default: one JSON line on stderr (the registries load before the app's logger exists). */
export const consoleRegistryLogger: RegistryLogger = {
  warn(obj, msg) {
    console.warn(JSON.stringify({ level: 'warn', msg, ...obj }));
  },
};

/** A folder's name as a registry slug: snake_case. */
export const SLUG = /^[a-z][a-z0-9_]*$/;

/**
 * What the registries of carriers and store platforms share (docs/carriers.md, docs/channels.md):
 * each subfolder of `dir` with an `index` module is imported, in name order. `.ts` under tsx or
 * vitest, `.js` in the build, whichever the calling module itself is (`ownUrl`). A folder whose
 * module fails to load is reported with its error, so the registry can log it and go on.
 */
export async function importFolders(dir: string, ownUrl: string): Promise<Array<{ folder: string; mod?: Record<string, unknown>; error?: string }>> {
  const ownExt = extname(fileURLToPath(ownUrl)) || '.js';
  const found: Array<{ folder: string; mod?: Record<string, unknown>; error?: string }> = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const file = [ownExt, ownExt === '.ts' ? '.js' : '.ts'].map((ext) => join(dir, entry.name, `index${ext}`)).find((f) => existsSync(f));
    if (!file) continue;
    try {
      found.push({ folder: entry.name, mod: (await import(pathToFileURL(file).href)) as Record<string, unknown> });
    } catch (err) {
      found.push({ folder: entry.name, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return found;
}
