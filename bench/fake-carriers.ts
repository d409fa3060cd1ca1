// The carriers of the `carriers` row, in a process of their own (like the anchors, so their
// timers do not share an event loop with the orchestrator or the load generator):
//   node --import tsx bench/fake-carriers.ts <json>   {count, delayMs, hang}
// starts `count` fake UPS servers on 127.0.0.1 (test/helpers/fake-ups.ts, the double the
// driver's tests use), each answering its rate-shop after `delayMs`, plus `hang` more that
// never answer one. UPS's schema checks are off (`specs: null`): validating every request with
// Ajv would make the fake, not the service, the slowest part; the driver's own tests check the
// requests against UPS's published descriptions. Prints `ready {"urls": [...], "hanging": [...]}`.
import { startFakeUps } from '../test/helpers/fake-ups.js';

const job = JSON.parse(process.argv[2] ?? '{}') as { count?: number; delayMs?: number; hang?: number };
const answering = await Promise.all(Array.from({ length: job.count ?? 4 }, () => startFakeUps({ specs: null, delayMs: { rates: job.delayMs ?? 50 } })));
const hanging = await Promise.all(Array.from({ length: job.hang ?? 0 }, () => startFakeUps({ specs: null, hang: ['rates'] })));
process.stdout.write(`ready ${JSON.stringify({ urls: answering.map((f) => f.url), hanging: hanging.map((f) => f.url) })}\n`);

process.on('SIGTERM', () => {
  void Promise.all([...answering, ...hanging].map((f) => f.close())).then(() => process.exit(0));
});
