// Summarise a V8 .cpuprofile (node --cpu-prof; `BENCH_PROFILE=1 npm run bench` writes the
// service's to bench/profiles/): self time per function and per package, top N.
//   node bench/profile-summary.mjs <file.cpuprofile> [N] [last seconds]
// With `last seconds`, only the samples of that many seconds before the process ended (the
// measured load, without start-up) are counted.
import { readFileSync } from 'node:fs';

const [file, topText, lastText] = process.argv.slice(2);
const top = Number(topText ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const from = lastText ? profile.endTime - Number(lastText) * 1e6 : -Infinity;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  t += dt;
  if (t < from) continue;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fns = new Map();
const pkgs = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const url = f.url.replace(/^file:\/\//, '');
  const key = `${f.functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  const pkg = m
    ? m[1]
    : url.startsWith('node:')
      ? 'node:' + url.slice(5).split('/')[0]
      : url
        ? url.split('/').slice(-2).join('/')
        : `(${f.functionName || 'native'})`;
  pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`total ${(total / 1e6).toFixed(2)} s sampled`);
console.log('\n-- self time by package/file --');
for (const [k, us] of [...pkgs].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(pct(us), k);
console.log('\n-- self time by function --');
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(pct(us), k);
