/**
 * Webhook delivery throughput: N events recorded (one subscribed endpoint each), then the
 * delivery jobs started and timed until every delivery is `delivered`, to a bare node:http
 * receiver in a process of its own on 127.0.0.1 (keep-alive, answers 200).
 *
 *   node --import tsx bench/webhooks.ts                         # PGlite, in memory
 *   BENCH_DATABASE_URL=postgres://… node --import tsx bench/webhooks.ts   # PostgreSQL (a fresh database is created)
 *
 * BENCH_EVENTS (default 5000) sets the count. The service runs in this process (API + one
 * worker, as `npm start`), from the sources.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import { recordEvent } from '../src/modules/audit/index.js';
import { registerWebhookJobs, webhooksService } from '../src/modules/webhooks/index.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const url = process.env.BENCH_DATABASE_URL;

async function startReceiver(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const http=require('node:http');let n=0;const s=http.createServer((q,r)=>{q.resume();q.on('end',()=>{n++;r.writeHead(200,{'content-type':'text/plain'});r.end('ok')})});
       s.keepAliveTimeout=60000;s.listen(0,'127.0.0.1',()=>console.log(s.address().port));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  return { port, stop: () => child.kill() };
}

async function freshDatabase() {
  if (!url) return openDatabase({});
  const name = `bench_webhooks_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return openDatabase({ databaseUrl: u.toString() });
}

async function main() {
  const receiver = await startReceiver();
  const database = await freshDatabase();
  const app = await buildApp({
    config: testConfig({ encryptionKey: randomBytes(32).toString('hex'), webhookAllowPrivateTargets: true, logLevel: 'warn' }),
    database,
  });
  const system = { type: 'system' as const, id: null };
  const reg = await app.identity.accounts.register({ email: `bench${Date.now()}@example.com`, password: 'bench password 123', name: 'Bench', workspace_name: 'Bench' }, {});
  const scope = { workspaceId: reg.workspace.id, environment: 'test' as const };
  await webhooksService(app.deps).createEndpoint({ ...scope, actor: system }, { url: `http://127.0.0.1:${receiver.port}/hook`, events: ['*'] });

  // Record the events first (each in its own transaction, as emitters do), then time delivery alone.
  const seedStart = performance.now();
  for (let i = 0; i < EVENTS; i += 100) {
    await app.deps.db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(EVENTS, i + 100); j++) await recordEvent(trx, scope, 'tracking.updated', { n: j, tracking_number: `1Z${j}` });
    });
  }
  const seedMs = performance.now() - seedStart;

  await registerWebhookJobs(app.deps);
  const started = performance.now();
  const cpu = process.cpuUsage();
  await app.deps.jobs.start();
  for (;;) {
    const row = await app.deps.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'delivered')
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= EVENTS) break;
    if (process.env.BENCH_VERBOSE) console.error(`${((performance.now() - started) / 1000).toFixed(1)} s: ${row.n} delivered`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const load = (await import('node:os')).loadavg()[0];
  console.log(
    JSON.stringify({
      engine: database.engine,
      deliveries: EVENTS,
      seconds: Number(seconds.toFixed(2)),
      deliveries_per_second: Math.round(EVENTS / seconds),
      fan_out_events_per_second: Math.round(EVENTS / (seedMs / 1000)),
      // CPU of the service process per delivery (the receiver and the database use more): on a
      // loaded machine the rate is bounded by the CPU share this process gets, so this is the portable number.
      service_cpu_ms_per_delivery: Number(((used.user + used.system) / 1000 / EVENTS).toFixed(3)),
      load_average_1m: Number(load.toFixed(1)),
    }),
  );
  await app.close();
  await database.close();
  receiver.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
