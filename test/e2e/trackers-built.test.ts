import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, onboardClient, useBuiltService, type BuiltClient, type BuiltService } from '../helpers/built-service.js';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

// A label bought elsewhere, followed on the bundled tree (npm start) to delivered. A real process
// has no fake clock: the sandbox time scale (the setting `sandbox.tracking_time_scale`, test
// environment only, fixed per tracker when it is made) compresses the simulated journey, as the
// operations test does for shipments. The webhook goes to a real receiver and its signature is
// checked with Stripe's verifier, not ours.
const service = useBuiltService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
let svc: BuiltService;
let c: BuiltClient;
let receiver: Receiver;

/** UPS's own published sample number (its check digit is right): a label this service never sold. */
const UPS_NUMBER = '1Z999AA10123456784';
/**
 * Simulated seconds per real second: a foreign label is promised three business days out
 * (a week at most across a weekend and a holiday), so the whole journey takes about 12 s.
 */
const SCALE = 50_000;

beforeAll(async () => {
  svc = service();
  c = await onboardClient(svc, { name: 'Trackers Client' });
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
});

describe('a tracker on the built tree', () => {
  it('follows a foreign UPS number to delivered; tracking.updated reaches a real receiver, signed', { timeout: 120_000 }, async () => {
    const hook = await svc.request('POST', '/v1/webhooks', { headers: c.v1, json: { url: receiver.url('/trackers'), events: ['tracking.updated'] } });
    expectStatus(svc, hook, 201, 'create webhook');
    const scale = await svc.request('PUT', '/api/super-admin/settings/sandbox.tracking_time_scale', { headers: c.root, json: { value: SCALE } });
    expectStatus(svc, scale, 200, 'set the sandbox time scale');
    try {
      const created = await svc.request('POST', '/v1/trackers', {
        headers: { ...c.v1, 'idempotency-key': `trk-${hook.body.id}` },
        json: { carrier: 'ups', tracking_number: '1z999aa10123456784' },
      });
      expectStatus(svc, created, 201, 'create tracker');
      expect(created.body).toMatchObject({ carrier: 'ups', tracking_number: UPS_NUMBER, carrier_account_id: null, status: 'pre_transit' });
      const id: string = created.body.id;

      // Reads bring a simulated tracker up to date (the poll job does too, once a minute).
      const done = await eventually(
        async () => {
          const res = await svc.request('GET', `/v1/trackers/${id}`, { headers: c.v1 });
          expectStatus(svc, res, 200, 'read tracker');
          return res.body.status === 'delivered' ? res.body : undefined;
        },
        `tracker ${id} delivered`,
        60_000,
      );
      expect(done.events[0]).toMatchObject({ status: 'delivered', carrier_status_code: 'DL' });
      expect(done.events.map((e: { status_detail: string }) => e.status_detail)).toEqual(
        expect.arrayContaining(['label_created', 'picked_up', 'out_for_delivery', 'delivered']),
      );

      // The tracking read by number answers the same journey.
      const read = await svc.request('GET', `/v1/tracking/${encodeURIComponent(UPS_NUMBER)}`, { headers: c.v1 });
      expectStatus(svc, read, 200, 'tracking by number');
      expect(read.body).toMatchObject({ tracker_id: id, shipment_id: null, status: 'delivered', events: done.events });
      expect(read.body.timeline.every((m: { reached_at: string | null }) => m.reached_at !== null)).toBe(true);

      const delivery = await eventually(
        async () =>
          receiver.at('/trackers').find((r) => {
            const body = JSON.parse(r.body) as { type: string; data: { tracker_id?: string; status?: string } };
            return body.type === 'tracking.updated' && body.data.tracker_id === id && body.data.status === 'delivered';
          }),
        'tracking.updated (delivered) at the receiver',
        60_000,
      );
      const event = new Stripe('sk_test_unused').webhooks.constructEvent(
        delivery.body,
        String(delivery.headers['x-service-signature']),
        hook.body.secret,
      ) as unknown as {
        type: string;
        environment: string;
        data: Record<string, any>;
      };
      expect(event).toMatchObject({ type: 'tracking.updated', environment: 'test' });
      expect(event.data).toMatchObject({
        tracker_id: id,
        shipment_id: null,
        tracking_number: UPS_NUMBER,
        carrier: 'ups',
        status: 'delivered',
        tracker: { id, status: 'delivered' },
      });
      expect(delivery.headers['x-service-delivery-id']).toMatch(/^dlv_/);
      // One event per change of status: never two for delivered.
      const deliveredEvents = receiver.at('/trackers').filter((r) => JSON.parse(r.body).data.status === 'delivered');
      expect(deliveredEvents).toHaveLength(1);
    } finally {
      await svc.request('PUT', '/api/super-admin/settings/sandbox.tracking_time_scale', { headers: c.root, json: { value: 1 } });
    }
  });
});
