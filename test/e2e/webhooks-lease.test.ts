import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_WEBHOOK_LEASE_SECONDS } from '../../src/config.js';
import { freePort } from '../helpers/built-service.js';
import { emptyPostgresDatabase, healthy, httpApi, killAllServiceProcesses, startServiceProcess, until, waitForLog } from '../helpers/cluster.js';

// A worker killed with -9 while a webhook delivery is in flight (the receiver holds the request
// and never answers): the delivery's lease runs out and another worker sends it again, with the
// same delivery id, and it is delivered once (one acknowledged request, one recorded attempt).
// PostgreSQL only: the embedded database serves one process.

const target = inject('testDb');
afterAll(() => killAllServiceProcesses());

// The shortest lease the service accepts (WEBHOOK_LEASE_SECONDS, README): the takeover is the
// same as with the default, the test waits a third as long.
const LEASE_SECONDS = 20;

describe.runIf(target.engine === 'postgres')('a webhook delivery in flight when its worker dies', () => {
  it('is handed to another worker when the lease runs out: same delivery id, delivered once', { timeout: 600_000 }, async () => {
    if (target.engine !== 'postgres') return;
    // The receiver: holds the first request open (never answers), answers 200 to the others.
    const received: Array<{ deliveryId: string; at: number; answered: boolean }> = [];
    const held: http.ServerResponse[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const entry = { deliveryId: String(req.headers['x-service-delivery-id']), at: Date.now(), answered: false };
        received.push(entry);
        if (received.length === 1) {
          held.push(res);
          return;
        }
        entry.answered = true;
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hold`;

    const env = {
      DATABASE_URL: await emptyPostgresDatabase(target, 'lease'),
      REDIS_URL: '',
      NODE_ENV: 'development',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      SUPER_ADMIN_EMAIL: 'root@lease.test',
      SUPER_ADMIN_PASSWORD: 'lease-test-password',
      WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    const port = await freePort();
    const apiProc = startServiceProcess('server', { ...env, PORT: String(port), RUN_WORKERS: '0' });
    try {
      expect(await healthy(`http://127.0.0.1:${port}`, apiProc), apiProc.output()).toBe(true);
      const first = startServiceProcess('worker', { ...env, LOG_LEVEL: 'info' });
      expect(await waitForLog(first, 'worker started'), first.output()).toBe(true);
      const api = httpApi(`http://127.0.0.1:${port}`, 'api', []);

      const root = {
        authorization: `Bearer ${(await api.call('POST', '/api/auth/login', {}, { email: env.SUPER_ADMIN_EMAIL, password: env.SUPER_ADMIN_PASSWORD })).json.token}`,
      };
      const reg = await api.call(
        'POST',
        '/api/auth/register',
        {},
        { email: 'ops@lease.test', password: 'long enough pw', name: 'Ops', workspace_name: 'Lease' },
      );
      expect(reg.status).toBe(201);
      const workspaceId: string = reg.json.workspace.id;
      expect((await api.call('POST', `/api/super-admin/accounts/${reg.json.account.id}/approve`, root)).status).toBe(200);
      const session = (await api.call('POST', '/api/auth/login', {}, { email: 'ops@lease.test', password: 'long enough pw' })).json.token;
      const admin = { authorization: `Bearer ${session}`, 'x-service-workspace': workspaceId, 'x-service-environment': 'test' };
      const key = await api.call('POST', '/api/admin/api-keys', admin, { name: 'lease', environment: 'test' });
      const v1 = { authorization: `Bearer ${key.json.secret}`, 'x-service-workspace': workspaceId };

      const hook = await api.call('POST', '/v1/webhooks', v1, { url: hookUrl, events: ['*'] });
      expect(hook.status, JSON.stringify(hook.json)).toBe(201);
      const queued = await api.call('POST', `/v1/webhooks/${hook.json.id}/test`, v1);
      expect(queued.status).toBe(202);
      const deliveryId: string = queued.json.id;

      // In flight: the first worker sent it and waits for an answer that does not come.
      await until(
        async () => received.length === 1,
        'the first attempt to reach the receiver',
        120_000,
        () => first.output(),
      );
      const sentAt = received[0].at;
      await first.kill9();
      const killedAt = Date.now();
      const second = startServiceProcess('worker', { ...env, LOG_LEVEL: 'info' });
      expect(await waitForLog(second, 'worker started'), second.output()).toBe(true);

      // While the lease holds, nobody sends it again; then the second worker does.
      const delivered = await until(
        async () => {
          const d = await api.call('GET', `/v1/webhook-deliveries/${deliveryId}`, v1);
          return d.json.status === 'delivered' ? d.json : undefined;
        },
        'the delivery to be delivered by the second worker',
        (LEASE_SECONDS + 120) * 1000,
        () => second.output(),
        500,
      );
      const redeliveredAt = received[1].at;
      // No third request comes (one more relay round or two).
      await new Promise((r) => setTimeout(r, 3_000));
      expect(received.map((r) => r.deliveryId)).toEqual([deliveryId, deliveryId]);
      expect(received.filter((r) => r.answered)).toHaveLength(1);
      expect(delivered).toMatchObject({ id: deliveryId, status: 'delivered', attempt_count: 1, last_status_code: 200 });
      expect(delivered.attempts).toHaveLength(1);
      // The lease (taken just before the first send) held the delivery back, not a retry timer.
      expect(redeliveredAt - sentAt).toBeGreaterThanOrEqual((LEASE_SECONDS - 2) * 1000);
      // The configured lease, not the default one.
      expect(redeliveredAt - sentAt).toBeLessThan(DEFAULT_WEBHOOK_LEASE_SECONDS * 1000);
      console.info(`[webhooks-lease] first send → kill ${killedAt - sentAt} ms, first send → redelivery ${redeliveredAt - sentAt} ms`);
      await second.stop();
    } finally {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await apiProc.stop();
    }
  });
});
