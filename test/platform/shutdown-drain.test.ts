import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerWebhookJobs } from '../../src/modules/webhooks/index.js';
import { buildTestApp, createTenant } from '../helpers/app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// While the server drains on shutdown, a request that still arrives on an open connection is
// turned away in the common error shape with X-Request-Id, not Fastify's own 503 body.
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
});

describe('during shutdown', () => {
  it('answers 503 service_unavailable in the common shape, with Retry-After and Connection: close', async () => {
    const { port } = app.server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a request: the connection is busy, so the drain waits for it.
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 50));
    const closing = app.close();
    for (let i = 0; i < 200 && app.server.listening; i++) await new Promise((r) => setTimeout(r, 10));
    socket.write('\r\n');
    await ended;
    await closing;
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503/);
    const headers = Object.fromEntries(
      head
        .split('\r\n')
        .slice(1)
        .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    expect(JSON.parse(body)).toMatchObject({ code: 'service_unavailable', message: expect.any(String), request_id: headers['x-request-id'] });
    expect(headers['retry-after']).toBe('1');
    expect(headers.connection).toBe('close');
  });
});

describe('while the job queue waits for a running job at shutdown', () => {
  it('logs no error line per second (the webhook relay stops before the queue does)', { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const busy = await buildTestApp({ config: { webhookAllowPrivateTargets: true, logLevel: 'warn' }, logStream });
    const t = await createTenant(busy);
    const receiver = await startReceiver();
    receiver.on('/hook', () => ({ status: 500 }));
    await registerWebhookJobs(busy.deps);
    // A job that keeps the queue's graceful stop waiting for three seconds.
    let running = false;
    await busy.deps.jobs.work('test.hold-shutdown', async () => {
      running = true;
      await new Promise((r) => setTimeout(r, 3_000));
    });
    await busy.deps.jobs.start();
    const hook = await busy.inject({ method: 'POST', url: '/v1/webhooks', headers: t.headers, payload: { url: receiver.url('/hook'), events: ['*'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    expect((await busy.inject({ method: 'POST', url: `/v1/webhooks/${hook.json().id}/test`, headers: t.headers })).statusCode).toBe(202);
    for (let i = 0; i < 300 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received.length).toBeGreaterThan(0);
    await busy.deps.jobs.send('test.hold-shutdown', {});
    for (let i = 0; i < 300 && !running; i++) await new Promise((r) => setTimeout(r, 50));
    expect(running).toBe(true);

    const closing = busy.close();
    // The failed delivery falls due again while the queue waits: a relay still ticking would try
    // to queue its job on a stopped queue every second.
    await new Promise((r) => setTimeout(r, 100));
    await sql`update webhook_deliveries set next_attempt_at = now() - interval '1 second', locked_until = null`.execute(busy.deps.db);
    await closing;
    await receiver.close();
    const errors = lines.filter((l) => JSON.parse(l).level >= 50);
    expect(errors).toEqual([]);
    // One line says what the stop waited for.
    const waiting = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'job queue stopping: waiting for running jobs to finish');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ running: { 'test.hold-shutdown': 1 }, timeout_ms: 10_000 });
  });
});
