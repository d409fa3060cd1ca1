import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import type { TestDbTarget } from './db.js';

/**
 * Several service processes on one PostgreSQL database (scale-out tests): API processes
 * (`scripts/start.mjs server`, RUN_WORKERS=0) and worker processes (`scripts/start.mjs worker`),
 * each a real child process reached over HTTP or through its log, killed with real signals.
 */
export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it printed (stdout and stderr). */
  output(): string;
  /** Its JSON log lines (pino), parsed; other lines skipped. */
  logLines(): Array<Record<string, unknown>>;
  exited: Promise<void>;
  /** SIGKILL (no shutdown code runs), resolved once it is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful), then SIGKILL after 15 s. */
  stop(): Promise<void>;
}

const started: ChildProcess[] = [];

/** SIGKILL whatever is still running (for afterAll). */
export function killAllServiceProcesses(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

export function startServiceProcess(entry: 'server' | 'worker', env: Record<string, string>): ServiceProcess {
  let output = '';
  const child = spawn(process.execPath, ['scripts/start.mjs', entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => output,
    logLines: () =>
      output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
    async kill9() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone()) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** An empty database of the run (dropped by the run's global teardown): the first process migrates it. */
export async function emptyPostgresDatabase(target: Extract<TestDbTarget, { engine: 'postgres' }>, suffix: string): Promise<string> {
  const name = `${target.prefix}_${suffix}`;
  const admin = new pg.Client({ connectionString: target.adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(target.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function healthy(base: string, proc: ServiceProcess, timeoutMs = 300_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && proc.child.exitCode === null) {
    try {
      if ((await fetch(`${base}/health`)).ok) return true;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** Until a log line says `msg` (a worker has no HTTP port to probe). */
export async function waitForLog(proc: ServiceProcess, msg: string, timeoutMs = 300_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && proc.child.exitCode === null) {
    if (proc.logLines().some((l) => l.msg === msg)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

export interface HttpApi {
  base: string;
  call(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<{ status: number; headers: Headers; json: any }>; // tests read arbitrary shapes
}

/** A client of one process that records every status (for "no 5xx anywhere"). */
export function httpApi(base: string, label: string, statuses: Array<{ api: string; method: string; path: string; status: number }>): HttpApi {
  return {
    base,
    async call(method, path, headers = {}, body) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      statuses.push({ api: label, method, path, status: res.status });
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = text;
      }
      return { status: res.status, headers: res.headers, json };
    },
  };
}

/**
 * Checks `X-Service-Signature: t=<unix>,v1=<hex>[,v1=…]` with node:crypto alone (not the
 * service's signing code): HMAC-SHA256(secret, "<t>.<raw body>") must equal one v1.
 */
export function signatureValid(header: string | undefined, body: string, secret: string): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = parts.find(([k]) => k === 't')?.[1];
  if (!t) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts.some(([k, v]) => k === 'v1' && v.length === expected.length * 2 && timingSafeEqual(Buffer.from(v, 'hex'), expected));
}

/** Poll until `check` returns a value, or throw naming `what` (with `context()` for the failure message). */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs: number,
  context: () => string = () => '',
  pollMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${context().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
