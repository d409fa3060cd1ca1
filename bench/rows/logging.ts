// What per-request logging costs: the rate query at the default level (one access line per
// request, written asynchronously; docs/architecture.md, "Logging") beside the same service
// restarted with LOG_LEVEL=warn, back to back on the same data.
import { judge, round, type Context } from '../lib/context.js';
import { RATE_BODY } from '../lib/fixtures.js';
import { QUICK, throughput } from '../lib/measure.js';
import { sleep } from '../lib/proc.js';

export async function loggingRow(ctx: Context): Promise<void> {
  const { service, tenant } = ctx;
  const job = { url: `${service.base}/v1/rates/query`, method: 'POST', headers: tenant.headers, body: JSON.stringify(RATE_BODY) };
  const logged = await throughput(job, service.pid);
  await service.stop();
  await service.start({ env: { LOG_LEVEL: 'warn' } });
  await sleep(QUICK ? 1000 : 2500);
  let quiet;
  try {
    quiet = await throughput(job, service.pid);
  } finally {
    await service.stop();
    await service.start();
    await sleep(QUICK ? 1000 : 2500);
  }
  const ratio = logged.rps / quiet.rps;
  ctx.add({
    key: 'logging',
    name: 'POST /v1/rates/query at the default log level (a line per request) beside LOG_LEVEL=warn',
    value: logged.rps,
    unit: 'req/s',
    detail: { p99_ms: logged.p99, warn_p99_ms: quiet.p99, cpu_us_per_req: logged.cpuUsPerRequest, warn_cpu_us_per_req: quiet.cpuUsPerRequest },
    anchor: { name: 'LOG_LEVEL=warn', value: quiet.rps, unit: 'req/s' },
    ratio: round(ratio),
    target: '≥ 0.90 of LOG_LEVEL=warn',
    met: judge(ratio >= 0.9),
  });
}
