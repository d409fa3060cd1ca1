// What per-request logging costs: the rate query at the default level (one access line per
// request, written asynchronously; docs/architecture.md, "Logging") beside the same service
// restarted with LOG_LEVEL=warn, on the same data. Each side runs twice on a freshly started
// service, alternating (default, warn, default, warn): measured on the service the rows before
// left running, the default side carried their heap and caches and the warn side did not.
import { judge, round, type Context } from '../lib/context.js';
import { RATE_BODY } from '../lib/fixtures.js';
import { throughput, type Throughput } from '../lib/measure.js';

const SIDES = ['default', 'warn', 'default', 'warn'] as const;

export async function loggingRow(ctx: Context): Promise<void> {
  const { service, tenant } = ctx;
  const job = { url: `${service.base}/v1/rates/query`, method: 'POST', headers: tenant.headers, body: JSON.stringify(RATE_BODY) };
  const runs: Record<(typeof SIDES)[number], Throughput[]> = { default: [], warn: [] };
  try {
    for (const side of SIDES) {
      await service.stop();
      await service.start(side === 'warn' ? { env: { LOG_LEVEL: 'warn' } } : {});
      await service.settled();
      runs[side].push(await throughput(job, service.pid));
    }
  } finally {
    await service.stop();
    await service.start();
    await service.settled();
  }
  const logged = mean(runs.default);
  const quiet = mean(runs.warn);
  const ratio = logged.rps / quiet.rps;
  ctx.add({
    key: 'logging',
    name: 'POST /v1/rates/query at the default log level (a line per request) beside LOG_LEVEL=warn',
    value: logged.rps,
    unit: 'req/s',
    detail: {
      runs: 'each side twice on a fresh start, alternating',
      rps_each: runs.default.map((r) => r.rps).join(', '),
      warn_rps_each: runs.warn.map((r) => r.rps).join(', '),
      p99_ms: logged.p99,
      warn_p99_ms: quiet.p99,
      cpu_us_per_req: logged.cpuUsPerRequest,
      warn_cpu_us_per_req: quiet.cpuUsPerRequest,
    },
    anchor: { name: 'LOG_LEVEL=warn', value: quiet.rps, unit: 'req/s' },
    ratio: round(ratio),
    target: '≥ 0.90 of LOG_LEVEL=warn',
    met: judge(ratio >= 0.9),
  });
}

/** The runs' mean throughput and CPU per request, and their worse p99. */
function mean(runs: Throughput[]): Pick<Throughput, 'rps' | 'p99' | 'cpuUsPerRequest'> {
  const avg = (pick: (r: Throughput) => number) => Math.round(runs.reduce((sum, r) => sum + pick(r), 0) / runs.length);
  return { rps: avg((r) => r.rps), p99: Math.max(...runs.map((r) => r.p99)), cpuUsPerRequest: avg((r) => r.cpuUsPerRequest) };
}
