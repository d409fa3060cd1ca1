// Measurements run in processes of their own: the load generator (bench/load.mjs) and the anchors
// (bench/anchors.mjs), so neither shares an event loop with the service or the orchestrator.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGLITE_CONF } from '../../src/platform/db/pglite-config.js';
import { cpuMs, port, spawnLogged, waitOutput } from './proc.js';

export const QUICK = process.env.BENCH_QUICK === '1';
export const DURATION = Number(process.env.BENCH_DURATION ?? (QUICK ? 2 : 10));
export const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 1 : 3));
export const CONNECTIONS = 32;

export interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Server CPU time per request, µs: other work on the machine moves req/s a lot, this much less. */
  cpuUsPerRequest: number;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export interface Latency extends LatencySummary {
  non2xx: number;
  firstError?: string;
  /** Each group's figures, when the sequence's requests name groups. */
  groups?: Record<string, LatencySummary>;
}

/** Runs bench/load.mjs with `job`, sampling `serverPid`'s CPU time between its measuring marks. */
async function runLoad(job: Record<string, unknown>, serverPid: number): Promise<{ out: any; cpuMs: number }> {
  let arg = JSON.stringify(job);
  // Linux caps one argument at 128 KiB: a long sequence of request bodies goes in a file (`@path`).
  const dir = arg.length > 64 * 1024 ? mkdtempSync(path.join(tmpdir(), 'bench-load-')) : null;
  if (dir) {
    writeFileSync(path.join(dir, 'job.json'), arg);
    arg = `@${path.join(dir, 'job.json')}`;
  }
  const child = spawn(process.execPath, ['bench/load.mjs', arg], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let cpuStart = NaN;
  let cpuEnd = NaN;
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    if (Number.isNaN(cpuStart) && stderr.includes('measuring')) cpuStart = cpuMs(serverPid);
    if (Number.isNaN(cpuEnd) && stderr.includes('measured')) cpuEnd = cpuMs(serverPid);
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`load generator failed: ${stderr}`);
  return { out: JSON.parse(stdout), cpuMs: cpuEnd - cpuStart };
}

/** autocannon, CONNECTIONS connections, WARMUP s then DURATION s measured. */
export async function throughput(
  job: { url: string; method?: string; headers?: Record<string, string>; body?: string; newLanes?: boolean },
  serverPid: number,
): Promise<Throughput> {
  const { out, cpuMs: cpu } = await runLoad({ connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, ...job }, serverPid);
  return {
    rps: Math.round(out.rps),
    p50: out.p50,
    p99: out.p99,
    errors: out.errors,
    non2xx: out.non2xx,
    cpuUsPerRequest: Math.round((cpu * 1000) / out.total),
  };
}

export interface SequencedRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The kind of request, when one sequence interleaves kinds: the result has each group's figures too. */
  group?: string;
}

/** One request at a time (a packing station, a page of a list): p50/p99 to 0.01 ms. */
export async function latency(
  sequence: SequencedRequest[],
  opts: { warmupCount?: number; warmupFor?: number; repeatFor?: number },
  serverPid: number,
): Promise<Latency> {
  const { out } = await runLoad({ sequence, warmupCount: opts.warmupCount ?? 0, warmupFor: opts.warmupFor, repeatFor: opts.repeatFor }, serverPid);
  return out as Latency;
}

export interface Anchor {
  child: ChildProcess;
  url: string;
  output(): string;
}

/** An anchor (or the webhook receiver) from bench/anchors.mjs, listening once it returns. */
export async function startAnchor(kind: string, ...args: string[]): Promise<Anchor> {
  const p = port();
  // The PGlite anchor opens its data dir with the service's own settings.
  const a = spawnLogged(process.execPath, ['bench/anchors.mjs', kind, String(p), ...args], { BENCH_PGLITE_CONF: JSON.stringify(PGLITE_CONF) });
  await waitOutput(a, 'ready');
  return { child: a.child, url: `http://127.0.0.1:${p}`, output: a.output };
}
