/**
 * What a helper opened for the calling test file and must close after its tests. Vitest never
 * runs a hook registered while another hook runs, and most files build their app in beforeAll:
 * an afterAll that buildTestApp registered there was silently dropped, leaving every file's app
 * and database open until its process ended. The helpers queue their cleanups here instead;
 * test/setup/cleanup.ts, a setup file of every project, runs them after each file, newest first.
 */
const pending: Array<() => Promise<void>> = [];

export function afterFile(cleanup: () => Promise<void>): void {
  pending.push(cleanup);
}

export async function runFileCleanups(): Promise<void> {
  for (let cleanup = pending.pop(); cleanup; cleanup = pending.pop()) await cleanup();
}
