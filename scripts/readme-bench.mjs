// `npm run bench:readme`: copies bench/results/latest.md (written by a full `npm run bench`) into
// README.md between the markers <!-- bench:start --> and <!-- bench:end -->, so the README shows
// the last full run's table as it was recorded. `--check` exits 1 when the README differs.
import { readFileSync, writeFileSync } from 'node:fs';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
const source = process.env.BENCH_LATEST ?? 'bench/results/latest.md';
const readme = process.env.README ?? 'README.md';

const latest = readFileSync(source, 'utf8').trim();
const text = readFileSync(readme, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) {
  process.stderr.write(`${readme} has no ${START} … ${END} block\n`);
  process.exit(1);
}
// The run's own "# Benchmark …" title becomes a sub-heading under the README's Benchmarks section.
const body = latest.replace(/^# /, '### ').replace(/^## /gm, '#### ');
const updated = `${text.slice(0, start + START.length)}\n${body}\n${text.slice(end)}`;
if (process.argv.includes('--check')) {
  if (updated !== text) {
    process.stderr.write(`${readme} does not show ${source}: run npm run bench:readme\n`);
    process.exit(1);
  }
} else {
  writeFileSync(readme, updated);
  process.stdout.write(`${readme}: benchmark block replaced with ${source}\n`);
}
