// The load generator, in a process of its own (bench/run.ts starts one per row so that neither
// the servers nor the orchestrator share its core time): autocannon with a warm-up first, then
// the measured run. Reads its job as JSON from argv[2]; prints the summary as JSON.
//   { url, method?, headers?, body?, newLanes?, connections, duration, warmup }
// newLanes: every request a different lane and weight (no repeat within the run), so no cache
// keyed on the request can answer it.
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

function run(duration) {
  const opts = { url: job.url, connections: job.connections, duration, pipelining: 1 };
  if (job.newLanes) {
    opts.requests = [{ method: job.method ?? 'POST', headers: job.headers, setupRequest: (req) => ({ ...req, body: newLaneBody() }) }];
  } else {
    Object.assign(opts, { method: job.method ?? 'GET', headers: job.headers, body: job.body });
  }
  return autocannon(opts);
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
