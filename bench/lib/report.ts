// The suite's results: one row per measurement (value, anchor, ratio, target, met),
// the machine it ran on, written as JSON and Markdown to bench/results/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { ENGINE_NAMES, type Engine } from './service.js';

export interface Row {
  engine: Engine;
  /** Stable key (what BENCH_ROWS selects is its first part: `list-first-10k` belongs to `list`). */
  key: string;
  name: string;
  value: number;
  unit: string;
  /** Everything else measured for the row (p50, p99, CPU per request, errors…). */
  detail: Record<string, number | string | boolean | null>;
  anchor?: { name: string; value: number; unit: string };
  /** value / anchor value. */
  ratio?: number;
  /** The target the row is held to, or why none applies. */
  target: string;
  /** true / false against the target; null when there is none or it does not apply to this run. */
  met: boolean | null;
}

export interface Machine {
  cpu: string;
  cores: number;
  ram_gib: number;
  node: string;
  load_start: number[];
  load_end?: number[];
}

export interface Report {
  date: string;
  git: { sha: string; subject: string; dirty: boolean };
  quick: boolean;
  /** Only some rows were selected (BENCH_ROWS). */
  partial: boolean;
  settings: Record<string, unknown>;
  machine: Machine;
  engines: Partial<Record<Engine, { status: 'measured' | 'skipped' | 'failed'; notes: string[] }>>;
  rows: Row[];
}

export function machine(): Machine {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    /* not Linux: os.cpus() it is */
  }
  return { cpu, cores: cpus().length, ram_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10, node: process.version, load_start: load() };
}

export const load = () => loadavg().map((l) => Math.round(l * 100) / 100);

export function gitInfo(dir: string): Report['git'] {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return {
      sha: git('rev-parse', '--short', 'HEAD'),
      subject: git('log', '-1', '--format=%s').slice(0, 100),
      dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    };
  } catch {
    return { sha: 'nogit', subject: 'not a git checkout', dirty: false };
  }
}

const num = (n: number) => (Number.isInteger(n) && Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n));

/** Readable names of the detail keys (the JSON keeps snake_case); others print with spaces for underscores. */
const DETAIL_LABELS: Record<string, string> = {
  p50_ms: 'p50 ms',
  p99_ms: 'p99 ms',
  mean_ms: 'mean ms',
  max_ms: 'max ms',
  cpu_us_per_req: 'CPU µs/req',
  anchor_cpu_us_per_req: 'anchor CPU µs/req',
  via_npm_start_ms: 'restarts via npm start, ms',
  cold_start_new_data_ms: 'cold start on a new data dir, ms',
  rss_after_mib: 'RSS after, MiB',
  service_peak_rss_mib: 'service peak RSS, MiB',
  first_to_last_s: 'first to last delivery, s',
  due_to_last_s: 'due to last delivery, s',
  service_cpu_ms_per_delivery: 'service CPU ms/delivery',
  seeded_in_ms: 'seeded in, ms',
  items_per_s: 'items/s',
  explicit_items_per_s: 'explicit items/s',
  idle_p50_ms: 'idle p50 ms',
  merged_label: 'merged label (status, time, size)',
};

function detailText(d: Row['detail']): string {
  return Object.entries(d)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${DETAIL_LABELS[k] ?? k.replace(/_/g, ' ')}: ${typeof v === 'number' ? num(v) : v}`)
    .join('; ');
}

export function markdown(r: Report): string {
  const m = r.machine;
  const out = [
    `# Benchmark ${r.date.slice(0, 10)} — ${r.git.sha}${r.git.dirty ? ' (uncommitted changes)' : ''}${r.quick ? ' — QUICK smoke run, sizes too small for the targets' : ''}`,
    '',
    `Code: ${r.git.sha} "${r.git.subject}". Machine: ${m.cpu}, ${m.cores} cores, ${m.ram_gib} GiB RAM, Node ${m.node}. ` +
      `Load average (1/5/15 min) at start ${m.load_start.join(' / ')}, at end ${m.load_end?.join(' / ') ?? '?'}.`,
    `Settings: ${Object.entries(r.settings)
      .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : String(v)}`)
      .join(
        '; ',
      )}. Throughput rows: autocannon in a process of its own against the built service (\`npm start\`), each beside its anchor, a bare server in a process of its own.`,
  ];
  for (const [engine, state] of Object.entries(r.engines) as [Engine, NonNullable<Report['engines'][Engine]>][]) {
    out.push('', `## ${ENGINE_NAMES[engine]}${state.status === 'measured' ? '' : ` — ${state.status}`}`, '');
    const rows = r.rows.filter((row) => row.engine === engine);
    if (rows.length) {
      out.push('| Row | Value | Anchor | Ratio | Target | Met | Details |', '|---|---|---|---|---|---|---|');
      for (const row of rows) {
        const met = row.met === null ? '—' : row.met ? 'met' : '**not met**';
        out.push(
          `| ${row.name} | ${num(row.value)} ${row.unit} | ${row.anchor ? `${row.anchor.name}: ${num(row.anchor.value)} ${row.anchor.unit}` : ''} | ${row.ratio?.toFixed(2) ?? ''} | ${row.target} | ${met} | ${detailText(row.detail)} |`,
        );
      }
    }
    for (const note of state.notes) out.push('', note);
  }
  return `${out.join('\n')}\n`;
}

/** Writes <date>-<sha>[-quick].json/.md and, for a run of every row, latest.md; returns the JSON file's path. */
export function writeResults(r: Report, dir = process.env.BENCH_RESULTS_DIR ?? 'bench/results'): string {
  mkdirSync(dir, { recursive: true });
  const stem = path.join(dir, `${r.date.slice(0, 10)}-${r.git.sha}${r.quick ? '-quick' : ''}`);
  const md = markdown(r);
  writeFileSync(`${stem}.json`, `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(`${stem}.md`, md);
  // A smoke run's numbers mean nothing and a partial run lacks rows: neither replaces the figures the README shows.
  if (!r.quick && !r.partial) writeFileSync(path.join(dir, 'latest.md'), md);
  return `${stem}.json`;
}
