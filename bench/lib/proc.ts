// Child processes for the benchmark: every process the suite starts (the service, anchors, load
// generators, seeders) goes through here, so a failure half-way leaves none behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let nextPort = 20_000 + (process.pid % 20_000);
/** A port for the next server: consecutive from a pid-derived base, so parallel runs rarely meet. */
export const port = () => nextPort++;

const started: { child: ChildProcess; group: boolean }[] = [];

export interface Logged {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
}

const OUTPUT_KEEP = 1024 * 1024;

export function spawnLogged(
  cmd: string,
  args: string[],
  env: Record<string, string | undefined> = {},
  opts: { detached?: boolean; cwd?: string } = {},
): Logged {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached, cwd: opts.cwd });
  started.push({ child, group: Boolean(opts.detached) });
  // A service at its default level logs every request: the output is drained as it comes, as a
  // terminal would, keeping the start (banners) and a bounded tail as chunks, never copying the
  // whole text on each read (that would take CPU from the service on a 2-core machine).
  let head = '';
  const tail: string[] = [];
  let tailLength = 0;
  const append = (d: Buffer) => {
    if (head.length < OUTPUT_KEEP) {
      head += d;
      return;
    }
    const text = d.toString();
    tail.push(text);
    tailLength += text.length;
    while (tailLength > OUTPUT_KEEP && tail.length > 1) tailLength -= tail.shift()!.length;
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  return { child, output: () => (tail.length ? `${head}\n…\n${tail.join('')}` : head) };
}

/** SIGTERM (the whole group for `npm start`, whose child is the service) and wait for the exit. */
export async function stop(child: ChildProcess, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    try {
      if (group) process.kill(-child.pid!, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** Stops every process this run started, newest first. */
export async function stopAll(): Promise<void> {
  for (const { child, group } of started.reverse()) await stop(child, group).catch(() => {});
  started.length = 0;
}

/** Milliseconds until `url` answers 2xx; throws when the process exits or the time runs out. */
export async function waitHealthy(url: string, p: Logged, timeoutMs = 240_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (p.child.exitCode !== null) throw new Error(`process exited with ${p.child.exitCode}: ${p.output()}`);
    try {
      if ((await fetch(url)).ok) return performance.now() - t0;
    } catch {
      /* not up yet */
    }
    await sleep(10);
  }
  throw new Error(`${url} did not become healthy: ${p.output()}`);
}

/** Waits until the process printed `text` (anchors print "ready"). */
export async function waitOutput(p: Logged, text: string | RegExp, timeoutMs = 120_000): Promise<void> {
  const t0 = performance.now();
  const seen = () => (typeof text === 'string' ? p.output().includes(text) : text.test(p.output()));
  while (!seen()) {
    if (p.child.exitCode !== null) throw new Error(`process exited with ${p.child.exitCode}: ${p.output()}`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`no "${text}" within ${timeoutMs} ms: ${p.output()}`);
    await sleep(25);
  }
}

/** Runs a node script to completion in a process of its own; resolves to its stdout. */
export async function runNode(args: string[], env: Record<string, string | undefined> = {}): Promise<string> {
  const p = spawnLogged(process.execPath, args, env);
  let stdout = '';
  p.child.stdout!.on('data', (d) => (stdout += d));
  const code = await new Promise<number | null>((resolve) => p.child.once('close', resolve));
  if (code !== 0) throw new Error(`node ${args.join(' ').slice(0, 200)} failed (${code}): ${p.output().slice(-4000)}`);
  return stdout;
}

const CLOCK_TICKS = 100;

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * The node process under `pid` (itself or a descendant, breadth first) with an argument ending in
 * `needle`: the service `npm start` runs (npm → node, or npm → sh → node for a script that does
 * not exec); null when none is running yet or
 * /proc is missing (not Linux).
 */
export function findProcess(pid: number, needle: string): number | null {
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    try {
      const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      // A node process (not the shell npm runs the script in, whose command line holds it too).
      if (path.basename(readlinkSync(`/proc/${p}/exe`)).startsWith('node') && argv.some((a) => a.endsWith(needle))) return p;
      const children = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      if (children) queue.push(...children.split(' ').map(Number));
    } catch {
      // Gone (or no /proc): nothing under it.
    }
  }
  return null;
}

/** Resident memory now (VmRSS) and its peak (VmHWM) of a process, MiB (Linux); null elsewhere. */
export function memoryMiB(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/**
 * Restarts a process's peak-RSS counter (VmHWM) so the next reading is the peak of what follows
 * (Linux ≥ 4.0, own processes). False when the kernel refuses: the peak then covers the whole life.
 */
export function resetPeakMemory(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
