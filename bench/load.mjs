// The load generator, in a process of its own (bench/run.ts starts one per row so that neither
// the servers nor the orchestrator share its core time). Reads its job as JSON from argv[2];
// prints the summary as JSON (`@<file>` instead: the job is in that file, for a sequence too long
// for one argument). Two kinds of job:
//
// Throughput (autocannon, a warm-up first, then the measured run):
//   { url | urls, method?, headers?, body?, newLanes?, connections, duration, warmup }
//   newLanes: every request a different lane and weight (no repeat within the run), so no cache
//   keyed on the request can answer it.
//
// Latency (one request at a time over a keep-alive connection, timed each with performance.now,
// so sub-millisecond differences show; autocannon's histogram rounds to whole milliseconds):
//   { sequence: [{ method, url, headers?, body?, group? }, …], warmupCount, warmupFor?, repeatFor? }
//   repeatFor (s): cycle through the sequence until that long has passed, after warmupCount
//   uncounted requests and warmupFor s of them (read-only requests). Without it each request is sent once and the first
//   warmupCount of them are not counted. `group` names the kind of a request when one sequence
//   interleaves kinds (an A/B on the same run): the summary then also has each group's figures.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import http from 'node:http';

const arg = process.argv[2];
const job = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg);

if (job.sequence) await latency();
else await throughput();

async function latency() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (r) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(r.url, { method: r.method ?? 'GET', headers: r.headers, agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(r.body);
    });
  const times = [];
  /** Each group's times, for sequences that name groups. */
  const groups = {};
  let non2xx = 0;
  let firstError;
  const count = (res) => {
    if (res.status < 200 || res.status >= 300) {
      non2xx++;
      firstError ??= `${res.status} ${res.body.slice(0, 300)}`;
    }
  };
  const record = (r, res) => {
    count(res);
    times.push(res.ms);
    if (r.group !== undefined) (groups[r.group] ??= []).push(res.ms);
  };
  const seq = job.sequence;
  const warm = job.repeatFor ? (job.warmupCount ?? 0) : Math.min(job.warmupCount ?? 0, seq.length);
  for (let i = 0; i < warm; i++) count(await send(seq[i % seq.length]));
  const warmUntil = performance.now() + (job.warmupFor ?? 0) * 1000;
  for (let i = 0; job.repeatFor && performance.now() < warmUntil; i++) count(await send(seq[i % seq.length]));
  process.stderr.write('measuring\n');
  const started = performance.now();
  if (job.repeatFor) {
    for (let i = 0; performance.now() - started < job.repeatFor * 1000; i++) {
      const r = seq[i % seq.length];
      record(r, await send(r));
    }
  } else {
    for (let i = job.warmupCount ?? 0; i < seq.length; i++) record(seq[i], await send(seq[i]));
  }
  process.stderr.write('measured\n');
  agent.destroy();
  const byGroup = Object.fromEntries(Object.entries(groups).map(([name, t]) => [name, summary(t)]));
  process.stdout.write(
    JSON.stringify({ ...summary(times), non2xx, firstError, total: times.length, ...(Object.keys(byGroup).length ? { groups: byGroup } : {}) }),
  );
}

/** n, p50, p99, max and mean of a list of times (ms, to 0.01). */
function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const round = (x) => Math.round(x * 100) / 100;
  return {
    n: sorted.length,
    p50: round(pct(50)),
    p99: round(pct(99)),
    max: round(sorted[sorted.length - 1]),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

async function throughput() {
  const ZIPS = [
    '10001',
    '94105',
    '60601',
    '73301',
    '33101',
    '98101',
    '02108',
    '30301',
    '80202',
    '85001',
    '97201',
    '55401',
    '63101',
    '70112',
    '84101',
    '96813',
    '99501',
    '04101',
    '37201',
    '46201',
  ];
  let n = 0;
  const newLaneBody = () => {
    n++;
    return JSON.stringify({
      ship_from: { country: 'US', postal_code: ZIPS[n % ZIPS.length] },
      ship_to: { country: 'US', postal_code: ZIPS[(n * 7 + 3) % ZIPS.length] },
      parcel: { weight_oz: 1 + (n % 1000) + (n % 9973) / 10_000, length_in: 12, width_in: 9, height_in: 6 },
    });
  };
  const runOne = (url, connections, duration) => {
    const opts = { url, connections, duration, pipelining: 1 };
    if (job.newLanes) {
      opts.requests = [{ method: job.method ?? 'POST', headers: job.headers, setupRequest: (req) => ({ ...req, body: newLaneBody() }) }];
    } else {
      Object.assign(opts, { method: job.method ?? 'GET', headers: job.headers, body: job.body });
    }
    return autocannon(opts);
  };
  // urls (bench/scale-out.ts): several servers at once, the connections split between them; the
  // summary adds their req/s and totals and reports the worst p99.
  const run = async (duration) => {
    if (!job.urls) return runOne(job.url, job.connections, duration);
    const results = await Promise.all(
      job.urls.map((url, i) => runOne(url, Math.floor(job.connections / job.urls.length) + (i < job.connections % job.urls.length ? 1 : 0), duration)),
    );
    const total = results.reduce((n, r) => n + r.requests.total, 0);
    return {
      requests: { average: results.reduce((n, r) => n + r.requests.average, 0), total },
      latency: {
        p50: results.reduce((n, r) => n + r.latency.p50 * r.requests.total, 0) / Math.max(1, total),
        p99: Math.max(...results.map((r) => r.latency.p99)),
      },
      errors: results.reduce((n, r) => n + r.errors, 0),
      timeouts: results.reduce((n, r) => n + r.timeouts, 0),
      non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    };
  };
  if (job.warmup > 0) await run(job.warmup);
  // The orchestrator samples the servers' CPU time between these two marks.
  process.stderr.write('measuring\n');
  const r = await run(job.duration);
  process.stderr.write('measured\n');
  process.stdout.write(
    JSON.stringify({
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      total: r.requests.total,
    }),
  );
}
