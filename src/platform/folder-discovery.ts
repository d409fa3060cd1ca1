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

/** How a registry names what its folders hold, in the lines it logs for a folder it skips. */
export interface FolderKind {
  /** The log line's key for the folder's name (`carrier`, `platform`). */
  key: string;
  /** The start of the log line's message (`carrier`, `store platform`). */
  noun: string;
  /** The export each folder's index module must have (`carrier`, `platform`). */
  exportName: string;
  /** What is wrong with that export (none: valid). */
  problemsOf(value: unknown, folder: string): string[];
}

/**
 * What the registries of carriers and store platforms share (docs/carriers.md, docs/channels.md):
 * each subfolder of `dir` with an `index` module is imported, in name order. `.ts` under tsx or
 * vitest, `.js` in the build, whichever the calling module itself is (`ownUrl`). A folder whose
 * module fails to load, or whose export has problems, is logged and left out, so one broken
 * folder cannot take the service down; the others come back with their whole module.
 */
export async function discoverFolders<T>(
  dir: string,
  ownUrl: string,
  kind: FolderKind,
  logger: RegistryLogger,
): Promise<Array<{ folder: string; value: T; mod: Record<string, unknown> }>> {
  const ownExt = extname(fileURLToPath(ownUrl)) || '.js';
  const found: Array<{ folder: string; value: T; mod: Record<string, unknown> }> = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const file = [ownExt, ownExt === '.ts' ? '.js' : '.ts'].map((ext) => join(dir, entry.name, `index${ext}`)).find((f) => existsSync(f));
    if (!file) continue;
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (err) {
      logger.warn({ [kind.key]: entry.name, err: err instanceof Error ? err.message : String(err) }, `${kind.noun} skipped: failed to load`);
      continue;
    }
    const problems = kind.problemsOf(mod[kind.exportName], entry.name);
    if (problems.length > 0) {
      logger.warn({ [kind.key]: entry.name, problems }, `${kind.noun} skipped: invalid metadata`);
      continue;
    }
    found.push({ folder: entry.name, value: mod[kind.exportName] as T, mod });
  }
  return found;
}
