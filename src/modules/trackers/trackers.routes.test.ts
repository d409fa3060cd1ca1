import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { startFakeUps, type FakeUps } from '../../../test/helpers/fake-ups.js';
import { uspsTrackingNumber } from '../../carriers/usps/tracking-numbers.js';

// A fake clock: Monday 2 March 2026, 15:00 UTC. The simulated carriers pick a parcel up at 18:00
// UTC on a weekday and deliver at 14:00 UTC on the promised day (src/carriers/simulation).
let clock = Date.parse('2026-03-02T15:00:00.000Z');
const setClock = (iso: string) => (clock = Date.parse(iso));

const UPS_SECRET = 'fake-ups-secret-trackers-7c1a';
/** UPS's own published sample number (its check digit is right). */
const UPS_NUMBER = '1Z999AA10123456784';

let app: FastifyInstance;
let ups: FakeUps;
beforeAll(async () => {
  ups = await startFakeUps({ clientSecret: UPS_SECRET });
  app = await buildTestApp({ now: () => new Date(clock), config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true } });
}, 60_000);
afterAll(async () => {
  await ups?.close();
});

const create = (t: Tenant, payload: Record<string, unknown>, headers = t.headers) => app.inject({ method: 'POST', url: '/v1/trackers', headers, payload });
const get = (t: Tenant, id: string, headers = t.headers) => app.inject({ method: 'GET', url: `/v1/trackers/${id}`, headers });
const updates = (t: Tenant) =>
  app.deps.db
    .selectFrom('events')
    .select('data')
    .where('type', '=', 'tracking.updated')
    .where('workspace_id', '=', t.workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('a label bought elsewhere, simulated (no carrier account named)', () => {
  it('is followed from label created to delivered, one tracking.updated per change of status', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await createTenant(app);
    const res = await create(t, { carrier: 'ups', tracking_number: '1z 999 aa1 01 2345 6784' });
    expect(res.statusCode, res.body).toBe(201);
    const tracker = res.json();
    expect(tracker.id).toMatch(/^trk_[0-9a-z]{26}$/);
    expect(tracker).toMatchObject({
      carrier: 'ups',
      tracking_number: UPS_NUMBER,
      carrier_account_id: null,
      status: 'pre_transit',
      status_detail: 'label_created',
    });
    expect(tracker.events).toHaveLength(1);
    // Three business days after Monday: delivered Thursday at 14:00 UTC.
    expect(tracker.estimated_delivery_at).toBe('2026-03-05T14:00:00.000Z');
    expect(Object.keys(tracker).sort()).toEqual([
      'carrier',
      'carrier_account_id',
      'created_at',
      'estimated_delivery_at',
      'events',
      'id',
      'status',
      'status_detail',
      'tracking_number',
      'updated_at',
    ]);

    setClock('2026-03-03T12:00:00.000Z');
    const moving = (await get(t, tracker.id)).json();
    expect(moving.status).toBe('in_transit');
    expect(moving.events.map((e: { status_detail: string }) => e.status_detail)).toEqual([
      'arrived_at_facility',
      'departed_facility',
      'picked_up',
      'label_created',
    ]);

    setClock('2026-03-06T09:00:00.000Z');
    const done = (await get(t, tracker.id)).json();
    expect(done).toMatchObject({ status: 'delivered', status_detail: 'delivered', estimated_delivery_at: '2026-03-05T14:00:00.000Z' });
    expect(done.events[0]).toMatchObject({ status: 'delivered', occurred_at: '2026-03-05T14:00:00.000Z', carrier_status_code: 'DL' });
    // Reading again stores nothing twice.
    expect((await get(t, tracker.id)).json().events).toHaveLength(done.events.length);

    const sent = (await updates(t)).map((e) => e.data as Record<string, any>);
    expect(sent.map((d) => [d.previous_status, d.status])).toEqual([
      ['pre_transit', 'in_transit'],
      ['in_transit', 'delivered'],
    ]);
    expect(sent[1]).toMatchObject({
      tracker_id: tracker.id,
      shipment_id: null,
      tracking_number: UPS_NUMBER,
      carrier: 'ups',
      tracker: { id: tracker.id, status: 'delivered' },
    });
  });

  it('the poll job moves it without a read', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await createTenant(app);
    const number = uspsTrackingNumber('poll-job', 'usps_priority_mail');
    const tracker = (await create(t, { carrier: 'usps', tracking_number: number })).json();
    setClock('2026-03-09T09:00:00.000Z');
    expect(await app.services.trackers.pollDue()).toBeGreaterThanOrEqual(1);
    const row = await app.deps.db.selectFrom('trackers').selectAll().where('id', '=', tracker.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('delivered');
    expect(row.next_check_at).toBeNull();
  });

  it('the same number again answers the existing tracker (200); list, filters and pages; delete 204 then 404', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await createTenant(app);
    const first = (await create(t, { carrier: 'ups', tracking_number: UPS_NUMBER })).json();
    const again = await create(t, { carrier: 'ups', tracking_number: UPS_NUMBER });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.id);
    const usps = (await create(t, { carrier: 'usps', tracking_number: uspsTrackingNumber('list', 'usps_ground_advantage') })).json();

    const page1 = (await app.inject({ method: 'GET', url: '/v1/trackers?limit=1', headers: t.headers })).json();
    expect(page1.data.map((x: { id: string }) => x.id)).toEqual([usps.id]);
    expect(page1.has_more).toBe(true);
    const page2 = (await app.inject({ method: 'GET', url: `/v1/trackers?limit=1&cursor=${page1.next_cursor}`, headers: t.headers })).json();
    expect(page2).toMatchObject({ data: [{ id: first.id }], has_more: false, next_cursor: null });
    const byCarrier = (await app.inject({ method: 'GET', url: '/v1/trackers?carrier=ups', headers: t.headers })).json();
    expect(byCarrier.data.map((x: { id: string }) => x.id)).toEqual([first.id]);
    const byNumber = (await app.inject({ method: 'GET', url: `/v1/trackers?tracking_number=${usps.tracking_number}`, headers: t.headers })).json();
    expect(byNumber.data.map((x: { id: string }) => x.id)).toEqual([usps.id]);

    const del = await app.inject({ method: 'DELETE', url: `/v1/trackers/${first.id}`, headers: t.headers });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await get(t, first.id)).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/v1/trackers/${first.id}`, headers: t.headers })).statusCode).toBe(404);
  });
});

describe("a tracker's number in the tracking reads (GET /v1/tracking/:number, public tracking)", () => {
  const tracking = (t: Tenant, n: string, headers = t.headers) => app.inject({ method: 'GET', url: `/v1/tracking/${encodeURIComponent(n)}`, headers });
  const milestones = (body: { timeline: { milestone: string; reached_at: string | null; estimated_at: string | null }[] }) =>
    Object.fromEntries(body.timeline.map((m) => [m.milestone, m.reached_at ?? `~${m.estimated_at}`]));

  it("answers the tracker's journey in the shipments' tracking shape, up to date, and delivered later", async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await createTenant(app);
    const number = uspsTrackingNumber('tracking-read', 'usps_ground_advantage');
    const tracker = (await create(t, { carrier: 'usps', tracking_number: number })).json();
    const first = await tracking(t, number);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(Object.keys(body).sort()).toEqual([
      'carrier',
      'estimated_delivery_date',
      'events',
      'id',
      'master_tracking_number',
      'package',
      'shipment_id',
      'status',
      'status_detail',
      'timeline',
      'tracker_id',
      'tracking_number',
    ]);
    expect(body).toMatchObject({
      id: tracker.id,
      tracker_id: tracker.id,
      shipment_id: null,
      tracking_number: number,
      carrier: 'usps',
      status: 'pre_transit',
      status_detail: 'label_created',
      estimated_delivery_date: '2026-03-05',
      master_tracking_number: null,
      package: null,
    });
    expect(body.events).toEqual(tracker.events);
    expect(milestones(body)).toEqual({
      label_created: '2026-03-02T15:00:00.000Z',
      picked_up: '~null',
      in_transit: '~null',
      out_for_delivery: '~null',
      delivered: '~2026-03-05T14:00:00.000Z',
    });
    // Spaces and lower case are read as the tracker's own read takes them.
    expect((await tracking(t, ` ${number.slice(0, 10)} ${number.slice(10)}`)).json().tracker_id).toBe(tracker.id);

    setClock('2026-03-06T09:00:00.000Z');
    const done = (await tracking(t, number)).json();
    expect(done).toMatchObject({ status: 'delivered', status_detail: 'delivered' });
    expect(done.events[0]).toMatchObject({ status: 'delivered', occurred_at: '2026-03-05T14:00:00.000Z' });
    expect(milestones(done)).toEqual({
      label_created: '2026-03-02T15:00:00.000Z',
      picked_up: '2026-03-02T18:00:00.000Z',
      in_transit: '2026-03-02T22:00:00.000Z',
      out_for_delivery: '2026-03-05T08:00:00.000Z',
      delivered: '2026-03-05T14:00:00.000Z',
    });
    // The read moved the tracker as its own read does: one tracking.updated for the change.
    expect((await get(t, tracker.id)).json()).toMatchObject({ status: 'delivered', events: done.events });
    expect((await updates(t)).map((e) => (e.data as { status: string }).status)).toEqual(['delivered']);

    const pub = await app.inject({ method: 'GET', url: `/api/public/track/${number}` });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json()).toMatchObject({
      tracking_number: number,
      carrier: 'usps',
      status: 'delivered',
      master_tracking_number: null,
      package: null,
      timeline: done.timeline,
    });
    expect(pub.json()).not.toHaveProperty('tracker_id');
  });

  it('is scoped: another workspace and the live environment do not find it (404); a deleted tracker is gone', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const owner = await createTenant(app);
    const number = uspsTrackingNumber('tracking-scope', 'usps_ground_advantage');
    const tracker = (await create(owner, { carrier: 'usps', tracking_number: number })).json();
    const stranger = await createTenant(app);
    const other = await tracking(stranger, number);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'not_found', details: [], request_id: other.headers['x-request-id'] });
    expect((await tracking(owner, number, owner.liveHeaders)).statusCode).toBe(404);
    expect((await tracking(owner, number)).statusCode).toBe(200);
    await app.inject({ method: 'DELETE', url: `/v1/trackers/${tracker.id}`, headers: owner.headers });
    expect((await tracking(owner, number)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/public/track/${number}` })).statusCode).toBe(404);
  });

  it('a tracker kept before scans carried milestones still reads a full timeline', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await createTenant(app);
    const number = uspsTrackingNumber('tracking-old', 'usps_ground_advantage');
    const tracker = (await create(t, { carrier: 'usps', tracking_number: number })).json();
    setClock('2026-03-06T09:00:00.000Z');
    await get(t, tracker.id);
    const row = await app.deps.db.selectFrom('trackers').select('events').where('id', '=', tracker.id).executeTakeFirstOrThrow();
    const old = row.events.map(({ milestone: _m, ...e }) => e);
    await app.deps.db
      .updateTable('trackers')
      .set({ events: JSON.stringify(old) })
      .where('id', '=', tracker.id)
      .execute();
    expect(milestones((await tracking(t, number)).json())).toEqual({
      label_created: '2026-03-02T15:00:00.000Z',
      picked_up: '2026-03-02T18:00:00.000Z',
      in_transit: '2026-03-02T22:00:00.000Z',
      out_for_delivery: '2026-03-05T08:00:00.000Z',
      delivered: '2026-03-05T14:00:00.000Z',
    });
  });
});

describe('errors', () => {
  it('400 on a wrong check digit, an unknown carrier, a number of another carrier, unknown fields', async () => {
    const t = await createTenant(app);
    const wrongDigit = await create(t, { carrier: 'ups', tracking_number: '1Z999AA10123456785' });
    expect(wrongDigit.statusCode).toBe(400);
    expect(wrongDigit.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'tracking_number' }] });
    expect(wrongDigit.json().request_id).toBe(wrongDigit.headers['x-request-id']);
    const usps = uspsTrackingNumber('digit', 'usps_ground_advantage');
    const badUsps = `${usps.slice(0, 21)}${(Number(usps[21]) + 1) % 10}`;
    expect((await create(t, { carrier: 'usps', tracking_number: badUsps })).json().details[0].field).toBe('tracking_number');
    expect((await create(t, { carrier: 'usps', tracking_number: UPS_NUMBER })).statusCode).toBe(400);
    const carrier = await create(t, { carrier: 'pony_express', tracking_number: UPS_NUMBER });
    expect(carrier.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'carrier' }] });
    expect((await create(t, { carrier: 'ups', tracking_number: UPS_NUMBER, extra: 1 })).statusCode).toBe(400);
    expect((await create(t, { carrier: 'ups' })).statusCode).toBe(400);
  });

  it("tenancy: another workspace's tracker is 404 (read, delete) and absent from its list; test and live are apart", async () => {
    const owner = await createTenant(app);
    const tracker = (await create(owner, { carrier: 'ups', tracking_number: UPS_NUMBER })).json();
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/trackers/${tracker.id}` }, { owner, otherWorkspaceResource: true });
    const stranger = await createTenant(app);
    expect((await app.inject({ method: 'DELETE', url: `/v1/trackers/${tracker.id}`, headers: stranger.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/v1/trackers', headers: stranger.headers })).json().data).toEqual([]);
    expect((await get(owner, tracker.id, owner.liveHeaders)).statusCode).toBe(404);
    expect((await get(owner, tracker.id)).statusCode).toBe(200);
  });
});

describe('through a UPS api account', () => {
  it("the carrier's tracking API answers: a foreign label already delivered, asked once at creation and on the poll schedule", async () => {
    setClock('2026-03-06T15:00:00.000Z');
    const t = await createTenant(app);
    const account = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: t.headers,
      payload: {
        carrier: 'ups',
        driver: 'api',
        account_number: 'A1B2C3',
        base_url: ups.url,
        credentials: { client_id: 'fake-client-id', client_secret: UPS_SECRET },
      },
    });
    expect(account.statusCode, account.body).toBe(201);
    const before = ups.count('track');
    const res = await create(t, { carrier: 'ups', tracking_number: UPS_NUMBER, carrier_account_id: account.json().id });
    expect(res.statusCode, res.body).toBe(201);
    expect(ups.count('track')).toBe(before + 1);
    const sent = ups.requests.filter((r) => r.operation === 'track').at(-1)!;
    expect(sent.path).toContain(UPS_NUMBER);
    const tracker = res.json();
    expect(tracker).toMatchObject({ carrier_account_id: account.json().id, status: 'delivered', status_detail: 'delivered' });
    expect(tracker.events[0]).toMatchObject({ status: 'delivered', location: { city: 'Alpharetta', state: 'GA', postal_code: '30005', country: 'US' } });
    // Delivered: never asked again.
    const row = await app.deps.db.selectFrom('trackers').select('next_check_at').where('id', '=', tracker.id).executeTakeFirstOrThrow();
    expect(row.next_check_at).toBeNull();
    expect(ups.violations).toEqual([]);
    // A read does not call the carrier.
    await get(t, tracker.id);
    expect(ups.count('track')).toBe(before + 1);
  });

  it('400 for an account of another carrier or of another workspace', async () => {
    const t = await createTenant(app);
    const other = await createTenant(app);
    const account = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: other.headers,
      payload: {
        carrier: 'ups',
        driver: 'api',
        account_number: 'A1B2C3',
        base_url: ups.url,
        credentials: { client_id: 'fake-client-id', client_secret: UPS_SECRET },
      },
    });
    const res = await create(t, { carrier: 'ups', tracking_number: UPS_NUMBER, carrier_account_id: account.json().id });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('carrier_account_id');
  });
});
