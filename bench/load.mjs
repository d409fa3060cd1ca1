// The load generator, in a process of its own (bench/run.ts starts one per row so that neither
// the servers nor the orchestrator share its core time): autocannon with a warm-up first, then
// the measured run. Reads its job as JSON from argv[2]; prints the summary as JSON.
//   { url | urls, method?, headers?, body?, newLanes?, connections, duration, warmup }
// newLanes: every request a different lane and weight (no repeat within the run), so no cache
// keyed on the request can answer it. urls (bench/scale-out.ts): several servers at once, the
// connections split between them, one autocannon each in this one process; the summary adds
// their req/s and totals and reports the worst p99.
import autocannon from 'autocannon';

const job = JSON.parse(process.argv[2]);
const ZIPS = ['10001', '94105', '60601', '73301', '33101', '98101', '02108', '30301', '80202', '85001', '97201', '55401', '63101', '70112', '84101', '96813', '99501', '04101', '37201', '46201'];
let n = 0;
function newLaneBody() {
  n++;
  return JSON.stringify({
    ship_from: { country: 'US', postal_code: ZIPS[n % ZIPS.length] },
    ship_to: { country: 'US', postal_code: ZIPS[(n * 7 + 3) % ZIPS.length] },
    parcel: { weight_oz: 1 + (n % 1000) + (n % 9973) / 10_000, length_in: 12, width_in: 9, height_in: 6 },
  });
}

function runOne(url, connections, duration) {
  const opts = { url, connections, duration, pipelining: 1 };
  if (job.newLanes) {
    opts.requests = [{ method: job.method ?? 'POST', headers: job.headers, setupRequest: (req) => ({ ...req, body: newLaneBody() }) }];
  } else {
    Object.assign(opts, { method: job.method ?? 'GET', headers: job.headers, body: job.body });
  }
  return autocannon(opts);
}

async function run(duration) {
  if (!job.urls) return runOne(job.url, job.connections, duration);
  const each = job.urls.map((url, i) => runOne(url, Math.floor(job.connections / job.urls.length) + (i < job.connections % job.urls.length ? 1 : 0), duration));
  const results = await Promise.all(each);
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
}

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
