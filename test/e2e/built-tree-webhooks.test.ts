import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, onboardClient, useBuiltService, type BuiltClient, type BuiltService } from '../helpers/built-service.js';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

// Webhooks on the bundled tree (npm start): register an endpoint, send a test event, and see a
// real receiver get it signed (checked with Stripe's verifier) and the attempt in the log.
const service = useBuiltService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
let svc: BuiltService;
let c: BuiltClient;
let receiver: Receiver;

beforeAll(async () => {
  svc = service();
  c = await onboardClient(svc);
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
});

describe('webhooks on the built tree', () => {
  it('registers an endpoint, delivers a signed test event, logs the attempt', { timeout: 60_000 }, async () => {
    const created = await svc.request('POST', '/v1/webhooks', { headers: c.v1, json: { url: receiver.url('/built'), events: ['*'] } });
    expectStatus(svc, created, 201, 'create webhook');
    const test = await svc.request('POST', `/v1/webhooks/${created.body.id}/test`, { headers: c.v1 });
    expectStatus(svc, test, 202, 'test event');
    const req = await eventually(async () => receiver.at('/built')[0], 'the test delivery', 30_000);
    const event = new Stripe('sk_test_unused').webhooks.constructEvent(
      req.body,
      String(req.headers['x-service-signature']),
      created.body.secret,
    ) as unknown as { type: string };
    expect(event.type).toBe('webhook.test');
    const delivery = await eventually(async () => {
      const d = await svc.request('GET', `/v1/webhook-deliveries/${test.body.id}`, { headers: c.v1 });
      return d.body.status === 'delivered' ? d.body : undefined;
    }, 'delivered status');
    expect(delivery.attempts[0]).toMatchObject({ number: 1, status_code: 200 });
    const admin = await svc.request('GET', `/api/admin/webhooks/${created.body.id}/deliveries`, { headers: c.admin });
    expectStatus(svc, admin, 200, 'admin deliveries');
    expect(admin.body.data[0].id).toBe(test.body.id);
  });
});
