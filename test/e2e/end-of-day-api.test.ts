import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../helpers/app.js';
import { FAKE_SCAN_FORM, startFakeUsps, uspsFixture, type FakeUsps } from '../helpers/fake-usps.js';
import { eventually } from '../helpers/webhook-receiver.js';
import { builtInApiDrivers } from '../../src/carriers/api-drivers.js';
import { CarrierHttpClient } from '../../src/carriers/http/client.js';
import { getCarrierRegistry } from '../../src/carriers/registry.js';
import type { ApiCallContext, ApiManifestRequest, ApiManifestResult, CarrierDriver, DriverResult } from '../../src/carriers/driver.js';
import { registerManifestJobs } from '../../src/modules/manifests/index.js';

/**
 * End of day through an `api` USPS account on the fake USPS (loopback, requests checked
 * against USPS's published OpenAPI documents): labels bought at the carrier go on a manifest,
 * pickups are booked and cancelled at the carrier. The account's driver is the real one, with
 * `manifest` absent (the form is printed here), stood in for by the test (what the platform
 * does with the carrier's form, its refusals and its rejected tracking numbers), or the real
 * driver's SCAN form call answered by the fake USPS.
 */

const SECRET = 'fake-client-secret-e0d1';
const origin = {
  name: 'Warehouse',
  company: 'Acme',
  street1: '350 5th Ave',
  city: 'New York',
  state: 'NY',
  postal_code: '10118',
  country: 'US',
  phone: '2125550100',
};
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US', phone: '4155550100' };
const credentials = {
  client_id: 'fake-client-id',
  client_secret: SECRET,
  crid: '56982563',
  mid: '904128936',
  manifest_mid: '904128937',
  payment_account_number: '1000405525',
  payment_account_type: 'EPS',
};

type ManifestCall = (ctx: ApiCallContext, request: ApiManifestRequest) => Promise<DriverResult<ApiManifestResult>>;
let manifestCall: ManifestCall | null = null;
/** The real USPS driver's SCAN form call (POST /scan-forms/v3/scan-form at the fake). */
let realManifest: ManifestCall;
const manifestRequests: ApiManifestRequest[] = [];

let usps: FakeUsps;
let app: FastifyInstance;
let t: Tenant;
let account: string;

/** The built-in drivers, USPS's `manifest` replaced by the test's stand-in (absent when null). */
async function drivers(): Promise<ReadonlyMap<string, CarrierDriver>> {
  const built = new Map(builtInApiDrivers(new CarrierHttpClient(), await getCarrierRegistry()));
  const real = built.get('usps')!;
  realManifest = real.manifest!.bind(real);
  built.set(
    'usps',
    new Proxy(real, {
      get(target, prop) {
        if (prop === 'manifest') {
          const call = manifestCall;
          return call ? (ctx: ApiCallContext, request: ApiManifestRequest) => (manifestRequests.push(request), call(ctx, request)) : undefined;
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }),
  );
  return built;
}

beforeAll(async () => {
  usps = await startFakeUsps({ clientSecret: SECRET });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true }, apiDrivers: await drivers() });
  await registerManifestJobs(app.deps, app.services.manifests);
  await app.deps.jobs.start();
  t = await createTenant(app);
  expect((await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { origin_address: origin } })).statusCode).toBe(
    200,
  );
  const res = await app.inject({
    method: 'POST',
    url: '/v1/carrier-accounts',
    headers: t.headers,
    payload: { carrier: 'usps', driver: 'api', base_url: usps.url, credentials },
  });
  expect(res.statusCode, res.body).toBe(201);
  account = res.json().id;
});
afterAll(async () => {
  await usps?.close();
});

async function buy(): Promise<{ id: string; tracking_number: string; rate: { ship_date: string } }> {
  const order = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada' },
      ship_to: shipTo,
      ship_from: origin,
      line_items: [{ sku: 'A', name: 'A', quantity: 1, weight_oz: 8 }],
      parcel: { weight_oz: 16, length_in: 8, width_in: 6, height_in: 4 },
    },
  });
  expect(order.statusCode, order.body).toBe(201);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: t.headers,
    payload: { order_id: order.json().id, service_code: 'usps_ground_advantage', carrier_account_id: account },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().carrier_account_id).toBe(account);
  return res.json();
}

async function made(id: string) {
  return eventually(async () => {
    const m = (await app.inject({ method: 'GET', url: `/v1/manifests/${id}`, headers: t.headers })).json();
    return m.status !== 'pending' ? m : undefined;
  }, `manifest ${id} made`);
}

describe('manifests of an api account', () => {
  it("a driver without a SCAN form call: the form is printed here, listing the carrier's labels", async () => {
    manifestCall = null;
    const labels = [await buy(), await buy()];
    const res = await app.inject({
      method: 'POST',
      url: '/v1/manifests',
      headers: t.headers,
      payload: { carrier: 'usps', carrier_account_id: account, ship_date: labels[0].rate.ship_date },
    });
    expect(res.statusCode, res.body).toBe(202);
    const m = await made(res.json().id);
    expect(m).toMatchObject({ status: 'ready', carrier_account_id: account, documents: [{ type: 'scan_form' }] });
    expect(new Set(m.shipment_ids)).toEqual(new Set(labels.map((l) => l.id)));
    expect(m.form_number).toMatch(/^92\d{20}$/);
  });

  it("the carrier's SCAN form: kept as issued; a tracking number it left off is rejected (carrier_rejected) and free again", async () => {
    const form = Buffer.from("%PDF-1.7\n% the carrier's SCAN form\n");
    manifestCall = async (_ctx, request) => ({
      ok: true,
      value: {
        carrier_manifest_id: '9275090104166990000123',
        document: { type: 'scan_form', artifact: { format: 'PDF', mime: 'application/pdf', bytes: form } },
        rejected: [{ tracking_number: request.shipments[1]!.tracking_number, message: 'Package was not found in the mailing.', carrier_code: 'SCAN-021' }],
      },
    });
    const [kept, left] = [await buy(), await buy()];
    const res = await app.inject({
      method: 'POST',
      url: '/v1/manifests',
      headers: t.headers,
      payload: { carrier: 'usps', carrier_account_id: account, shipment_ids: [kept.id, left.id] },
    });
    expect(res.statusCode, res.body).toBe(202);
    const m = await made(res.json().id);
    expect(m).toMatchObject({
      status: 'ready',
      shipment_ids: [kept.id],
      form_number: '9275090104166990000123',
      rejected: [{ shipment_id: left.id, code: 'carrier_rejected', message: 'Package was not found in the mailing.' }],
    });
    const request = manifestRequests.at(-1)!;
    expect(request).toMatchObject({ ship_date: kept.rate.ship_date, address: { street1: '350 5th Ave', postal_code: '10118' } });
    expect(request.shipments.map((s) => s.tracking_number)).toEqual([kept.tracking_number, left.tracking_number]);
    const doc = await app.inject({ method: 'GET', url: `/v1/manifests/${m.id}/document`, headers: t.headers });
    expect(doc.rawPayload.equals(form)).toBe(true);
    // The label the carrier left off is on no manifest: it can be voided (at the carrier); the other cannot.
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${left.id}`, headers: t.headers })).json().manifest_id).toBeNull();
    expect((await app.inject({ method: 'POST', url: `/v1/shipments/${kept.id}/void`, headers: t.headers })).statusCode).toBe(409);
    const cancels = usps.count('cancel');
    expect((await app.inject({ method: 'POST', url: `/v1/shipments/${left.id}/void`, headers: t.headers })).statusCode).toBe(200);
    expect(usps.count('cancel')).toBe(cancels + 1);
  });

  it('the carrier refuses the form: the manifest fails with its reason and its labels are free again', async () => {
    manifestCall = async () => ({
      ok: false,
      kind: 'rejected',
      messages: [{ code: 'carrier_rejected', message: 'The mailer ID is not enrolled for SCAN forms.', carrier_code: 'SCAN-003' }],
    });
    const s = await buy();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/manifests',
      headers: t.headers,
      payload: { carrier: 'usps', carrier_account_id: account, shipment_ids: [s.id] },
    });
    const m = await made(res.json().id);
    expect(m).toMatchObject({ status: 'failed', documents: [], error: { code: 'carrier_rejected', message: expect.stringContaining('not enrolled') } });
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${s.id}`, headers: t.headers })).json().manifest_id).toBeNull();
    expect((await app.inject({ method: 'GET', url: `/v1/manifests/${m.id}/document`, headers: t.headers })).statusCode).toBe(409);
    manifestCall = null;
  });

  it("the real driver's SCAN form call on the fake USPS: ready with the carrier's form number and its document", async () => {
    manifestCall = realManifest;
    const labels = [await buy(), await buy()];
    const scanCalls = usps.count('scan_form');
    const res = await app.inject({
      method: 'POST',
      url: '/v1/manifests',
      headers: t.headers,
      payload: { carrier: 'usps', carrier_account_id: account, shipment_ids: labels.map((l) => l.id) },
    });
    expect(res.statusCode, res.body).toBe(202);
    const m = await made(res.json().id);
    expect(m).toMatchObject({
      status: 'ready',
      carrier_account_id: account,
      shipment_ids: labels.map((l) => l.id),
      rejected: [],
      documents: [{ type: 'scan_form' }],
      error: null,
    });
    expect(usps.count('scan_form')).toBe(scanCalls + 1);
    // The form number is the one USPS issued for exactly these labels.
    expect(m.form_number).toMatch(/^9275090\d{19}$/);
    expect(usps.scanForms.get(m.form_number)).toEqual(labels.map((l) => l.tracking_number));
    const doc = await app.inject({ method: 'GET', url: `/v1/manifests/${m.id}/document`, headers: t.headers });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.rawPayload.equals(FAKE_SCAN_FORM)).toBe(true);
    expect(usps.violations).toEqual([]);
    manifestCall = null;
  });

  it("a form that cannot be made at all: failed on the job's last attempt, never pending forever", async () => {
    manifestCall = async () => {
      throw new Error('driver crashed');
    };
    const s = await buy();
    const created = (
      await app.inject({
        method: 'POST',
        url: '/v1/manifests',
        headers: t.headers,
        payload: { carrier: 'usps', carrier_account_id: account, shipment_ids: [s.id] },
      })
    ).json();
    // The queue retries; its last attempt is what this call plays.
    await app.services.manifests.build({ manifest_id: created.id, workspace_id: t.workspaceId, environment: 'test' }, { attempt: 6, maxAttempts: 6 });
    const m = (await app.inject({ method: 'GET', url: `/v1/manifests/${created.id}`, headers: t.headers })).json();
    expect(m).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });
    expect(m.error.message).not.toContain('driver crashed');
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${s.id}`, headers: t.headers })).json().manifest_id).toBeNull();
    manifestCall = null;
  });
});

describe('pickups of an api account', () => {
  it('booked and cancelled at the carrier; its refusal is 422 carrier_rejected', async () => {
    const start = new Date(Date.now() + 2 * 86_400_000);
    // A weekday two to four days ahead (no Sunday, no federal holiday in early December… or whenever this runs).
    while (start.getUTCDay() === 0 || start.getUTCDay() === 6) start.setUTCDate(start.getUTCDate() + 1);
    const day = start.toISOString().slice(0, 10);
    const window = { start: `${day}T13:00:00-05:00`, end: `${day}T17:00:00-05:00` };
    const res = await app.inject({
      method: 'POST',
      url: '/v1/pickups',
      headers: t.headers,
      payload: { carrier: 'usps', carrier_account_id: account, window, package_count: 3, instructions: 'Front desk' },
    });
    if (res.statusCode === 422 && res.json().details?.[0]?.reason === 'carrier_holiday') return; // a federal holiday today + n: nothing to book
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p.confirmation_number).toMatch(/^WTC\d{9}$/);
    expect(p).toMatchObject({ carrier: 'usps', carrier_account_id: account, status: 'scheduled', price: { amount: 0, currency: 'USD' }, package_count: 3 });
    const booked = usps.pickups.get(p.confirmation_number);
    expect(booked?.cancelled).toBe(false);
    expect(booked?.body.carrierPickupRequest).toMatchObject({ pickupDate: day });
    expect(usps.violations).toEqual([]);

    const cancelled = await app.inject({ method: 'POST', url: `/v1/pickups/${p.id}/cancel`, headers: t.headers });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect(usps.pickups.get(p.confirmation_number)?.cancelled).toBe(true);

    usps.queue('pickup', { status: 400, body: uspsFixture('error-invalid-zip') });
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/pickups',
      headers: t.headers,
      payload: { carrier: 'usps', carrier_account_id: account, window, package_count: 1 },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('carrier_rejected');
    expect((await app.inject({ method: 'GET', url: '/v1/pickups?status=scheduled', headers: t.headers })).json().data).toEqual([]);
    expect(usps.violations).toEqual([]);
  });
});
