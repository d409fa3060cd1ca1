// The service under test as users run it (`npm start`: the built tree, with the node settings
// of package.json's start script), on one engine: a fresh PGlite data dir, or a PostgreSQL database of its own
// created in BENCH_DATABASE_URL's server and dropped at the end. Plus the first-start onboarding
// every bench needs (the demo seed's workspace and test key, the burst limit lifted) and a
// small JSON client.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGLITE_CONF } from '../../src/platform/db/pglite-config.js';
import { QUICK } from './measure.js';
import { cpuMs, findProcess, port, runNode, sleep, spawnLogged, stop, waitHealthy, waitOutput, type Logged } from './proc.js';

export type Engine = 'pglite' | 'postgres';
export const ENGINE_NAMES: Record<Engine, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SUPER = { email: 'bench@example.com', password: 'bench-password-123' };

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface Tenant {
  workspaceId: string;
  apiKey: string;
  /** Key, workspace and JSON content type: what every /v1 call sends. */
  headers: Record<string, string>;
}

export class Service {
  readonly base: string;
  readonly dataDir: string;
  /** The PostgreSQL database's URL (postgres engine only). */
  dbUrl?: string;
  #dbName?: string;
  #env: Record<string, string>;
  #proc?: Logged;
  #pid?: number;
  /** How the service was last started, so a restart around seeding starts it the same way. */
  #lastStart: { profile?: string; env?: Record<string, string> } = {};

  constructor(
    readonly engine: Engine,
    work: string,
    readonly serviceDir: string,
  ) {
    this.dataDir = path.join(work, engine);
    mkdirSync(this.dataDir, { recursive: true });
    const servicePort = port();
    this.base = `http://127.0.0.1:${servicePort}`;
    this.#env = {
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      DATABASE_URL: '',
      SEED_DEMO: '1',
      SUPER_ADMIN_EMAIL: SUPER.email,
      SUPER_ADMIN_PASSWORD: SUPER.password,
      // The webhook row delivers to a receiver on 127.0.0.1 (honoured outside production only).
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      // The carriers row points `api` accounts at fake carriers on 127.0.0.1 (`base_url`, honoured outside production only).
      CARRIER_ALLOW_BASE_URL_OVERRIDE: '1',
    };
  }

  /** Creates the PostgreSQL database (postgres engine); a no-op on PGlite. */
  async create(): Promise<void> {
    if (this.engine !== 'postgres') return;
    this.#dbName = `bench_${process.pid}_${Date.now() % 100_000}`;
    await withAdmin((c) => c.query(`create database ${this.#dbName}`));
    const u = new URL(ADMIN_URL);
    u.pathname = `/${this.#dbName}`;
    this.dbUrl = u.toString();
    this.#env.DATABASE_URL = this.dbUrl;
  }

  async drop(): Promise<void> {
    await this.stop();
    if (this.#dbName) await withAdmin((c) => c.query(`drop database if exists ${this.#dbName} with (force)`)).catch(() => {});
  }

  /** The service's own node process, npm's child (the start script execs node in place of its shell). */
  get pid(): number {
    if (!this.#pid) throw new Error('the service is not running');
    return this.#pid;
  }

  output(): string {
    return this.#proc?.output() ?? '';
  }

  /**
   * Starts the service through `npm start` itself (a process group: npm, then node), as
   * users run it, so the settings package.json's start script gives node are those measured;
   * resolves to the milliseconds until /health answered. `profile` runs package.json's start
   * script itself in a shell, with --cpu-prof given to its node (node refuses --cpu-prof in
   * NODE_OPTIONS).
   */
  async start(opts: { profile?: string; env?: Record<string, string> } = {}): Promise<number> {
    if (this.#proc) throw new Error('the service is already running');
    const env = { ...this.#env, ...opts.env };
    this.#proc = opts.profile
      ? spawnLogged('sh', ['-c', profiledStartScript(this.serviceDir, opts.profile)], env, { detached: true, cwd: this.serviceDir })
      : spawnLogged('npm', ['start', '--silent'], env, { detached: true, cwd: this.serviceDir });
    this.#lastStart = opts;
    const child = this.#proc.child;
    const ms = await waitHealthy(`${this.base}/health`, this.#proc);
    this.#pid = findProcess(child.pid!, 'scripts/start.mjs') ?? undefined;
    if (!this.#pid) throw new Error(`no node process runs scripts/start.mjs under npm start (pid ${child.pid})`);
    return ms;
  }

  /**
   * Waits until the work a start leaves running is done: the background schema compilation, the
   * rate data and the database's optimising compiler keep the process busy (well above one core,
   * on several threads) for 2–4 s after /health answers. Rows measure the service after it, as a
   * user's service is long after its start: until its CPU over half a second is under a fifth of
   * a core, at most `maxMs` (5 s in a quick run). Resolves to the milliseconds waited.
   */
  async settled(maxMs = QUICK ? 5_000 : 20_000): Promise<number> {
    const started = performance.now();
    for (let before = cpuMs(this.pid); performance.now() - started < maxMs;) {
      await sleep(500);
      const now = cpuMs(this.pid);
      if (!(now - before >= 100)) break; // NaN (no /proc) ends the wait too
      before = now;
    }
    return Math.round(performance.now() - started);
  }

  async stop(): Promise<void> {
    if (!this.#proc) return;
    await stop(this.#proc.child, true);
    this.#proc = undefined;
    this.#pid = undefined;
  }

  /**
   * The first start's onboarding: the demo workspace and test key the seed prints, and its burst
   * limit lifted (super-admin) so rows measure the service, not the limiter (which still runs).
   */
  async onboard(): Promise<Tenant> {
    if (!this.#proc) throw new Error('the service is not running');
    const SEED = /Workspace:\s+(ws_\S+)[\s\S]*Test API key:\s+(sk_test_\S+)/;
    await waitOutput(this.#proc, SEED);
    const [, workspaceId, apiKey] = this.output().match(SEED)!;
    // The demo day fills the workspace after listen and puts it back on the starter plan when it
    // is done: lifting the limit before that would be undone under the rows' feet.
    await waitOutput(this.#proc, /Demo day ready|demo seed failed/);
    await this.call(
      'PATCH',
      `/api/super-admin/workspaces/${workspaceId}`,
      { plan: 'enterprise', burst_per_minute: 10_000_000 },
      await this.superAdminHeaders(),
    );
    return { workspaceId, apiKey, headers: { authorization: `Bearer ${apiKey}`, 'x-service-workspace': workspaceId, 'content-type': 'application/json' } };
  }

  /** A fresh super-admin session's headers (/api/super-admin: workspaces, settings). */
  async superAdminHeaders(): Promise<Record<string, string>> {
    const { token } = (await this.call('POST', '/api/auth/login', SUPER, { 'content-type': 'application/json' })) as { token: string };
    return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  }

  /** One JSON call; throws on a non-2xx answer with its body. */
  async call(method: string, url: string, body: unknown, headers: Record<string, string>): Promise<any> {
    const res = await fetch(`${this.base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  }

  /**
   * SQL straight into the service's database (bench/seed.mjs, a process of its own). PGlite
   * allows one process per data dir, so there the service is stopped first and started again
   * after (the caller's next row then runs on a fresh process; it warms up before measuring).
   */
  async sql(statements: string[]): Promise<{ ms: number[]; rows: any[] }> {
    const running = Boolean(this.#proc);
    if (this.engine === 'pglite' && running) await this.stop();
    const job =
      this.engine === 'postgres'
        ? { engine: 'postgres', url: this.dbUrl, statements }
        : { engine: 'pglite', dataDir: this.dataDir, conf: PGLITE_CONF, statements };
    try {
      return JSON.parse(await runNode([path.resolve('bench/seed.mjs'), JSON.stringify(job)]));
    } finally {
      if (this.engine === 'pglite' && running) await this.start(this.#lastStart);
    }
  }
}

/** package.json's start script with `--cpu-prof` (into `dir`) given to the node it runs. */
function profiledStartScript(serviceDir: string, dir: string): string {
  const script: string = JSON.parse(readFileSync(path.join(serviceDir, 'package.json'), 'utf8')).scripts.start;
  if (!/\bexec node /.test(script)) throw new Error(`the start script runs no \`exec node\`: ${script}`);
  return script.replace(/\bexec node /, `exec node --cpu-prof --cpu-prof-dir=${dir} `);
}
