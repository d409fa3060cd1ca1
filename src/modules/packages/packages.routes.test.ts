import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date('2026-03-02T15:00:00.000Z') });
});

const lane = { ship_from: { postal_code: '94301', country: 'US' }, ship_to: { postal_code: '10118', country: 'US' } };
const BOX = { name: 'Mailer 10×8×4', length_in: 10, width_in: 8, height_in: 4, tare_weight_oz: 4, max_weight_oz: 100 };
const createPackage = (t: Tenant, payload: Record<string, unknown> = BOX) => app.inject({ method: 'POST', url: '/v1/packages', headers: t.headers, payload });
const rate = (t: Tenant, parcel: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/rates/query', headers: t.headers, payload: { ...lane, parcel } });
type Option = { service_code: string; carrier: string; price: { amount: number }; billable_weight_oz: number; surcharges: unknown[] };
const option = (body: { data: Option[] }, code: string) => body.data.find((o) => o.service_code === code);

describe('package presets', () => {
  it('create, read, list, change, delete', async () => {
    const t = await createTenant(app);
    const res = await createPackage(t);
    expect(res.statusCode, res.body).toBe(201);
    const pkg = res.json();
    expect(pkg.id).toMatch(/^pkg_[0-9a-z]{26}$/);
    expect(pkg).toMatchObject(BOX);
    const bare = (await createPackage(t, { name: 'Bare', length_in: 6, width_in: 6, height_in: 6 })).json();
    expect(bare).toMatchObject({ tare_weight_oz: 0, max_weight_oz: null });
    expect((await app.inject({ method: 'GET', url: `/v1/packages/${pkg.id}`, headers: t.headers })).json()).toEqual(pkg);
    const list = (await app.inject({ method: 'GET', url: '/v1/packages', headers: t.headers })).json();
    expect(list).toMatchObject({ data: [{ id: bare.id }, { id: pkg.id }], has_more: false, next_cursor: null });
    const patched = await app.inject({ method: 'PATCH', url: `/v1/packages/${pkg.id}`, headers: t.headers, payload: { name: 'Renamed', max_weight_oz: null } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ ...BOX, name: 'Renamed', max_weight_oz: null });
    expect((await app.inject({ method: 'DELETE', url: `/v1/packages/${pkg.id}`, headers: t.headers })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: `/v1/packages/${pkg.id}`, headers: t.headers })).statusCode).toBe(404);
  });

  it('400 on bad dimensions, unknown fields, an empty patch', async () => {
    const t = await createTenant(app);
    const zero = await createPackage(t, { ...BOX, length_in: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json()).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(zero.json().details)).toContain('length_in');
    expect((await createPackage(t, { ...BOX, id: 'pkg_x' })).statusCode).toBe(400);
    expect((await createPackage(t, { ...BOX, tare_weight_oz: '4' })).statusCode).toBe(400);
    const pkg = (await createPackage(t)).json();
    expect((await app.inject({ method: 'PATCH', url: `/v1/packages/${pkg.id}`, headers: t.headers, payload: {} })).statusCode).toBe(400);
  });

  it("tenancy: another workspace's package is 404 (read, change, delete, rate), and test and live are apart", async () => {
    const owner = await createTenant(app);
    const pkg = (await createPackage(owner)).json();
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/packages/${pkg.id}` }, { owner, otherWorkspaceResource: true });
    const stranger = await createTenant(app);
    expect((await app.inject({ method: 'PATCH', url: `/v1/packages/${pkg.id}`, headers: stranger.headers, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/v1/packages/${pkg.id}`, headers: stranger.headers })).statusCode).toBe(404);
    const theirs = await rate(stranger, { package_id: pkg.id, weight_oz: 10 });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'not_found', details: [{ field: 'parcel.package_id' }] });
    expect((await app.inject({ method: 'GET', url: `/v1/packages/${pkg.id}`, headers: owner.liveHeaders })).statusCode).toBe(404);
  });
});

describe('GET /v1/carrier-packages', () => {
  it("lists the carriers' packaging with dimensions, limits and the services that price it flat", async () => {
    const t = await createTenant(app);
    const res = await app.inject({ method: 'GET', url: '/v1/carrier-packages', headers: t.headers });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((p: { id: string }) => p.id);
    for (const id of [
      'usps_flat_rate_envelope',
      'usps_small_flat_rate_box',
      'usps_medium_flat_rate_box',
      'usps_large_flat_rate_box',
      'ups_letter',
      'ups_pak',
      'fedex_envelope',
      'fedex_pak',
      'dhl_express_flyer',
    ])
      expect(ids).toContain(id);
    expect(res.json().data.find((p: { id: string }) => p.id === 'usps_medium_flat_rate_box')).toEqual({
      id: 'usps_medium_flat_rate_box',
      carrier: 'usps',
      name: 'Priority Mail Medium Flat Rate Box',
      length_in: 11,
      width_in: 8.5,
      height_in: 5.5,
      max_weight_oz: 1120,
      flat_rate_services: ['usps_priority_mail'],
    });
    expect((await app.inject({ method: 'GET', url: '/v1/carrier-packages' })).statusCode).toBe(401);
  });
});

describe('rate queries with parcel: {package_id, weight_oz}', () => {
  it('a preset rates as its dimensions with the tare added', async () => {
    const t = await createTenant(app);
    const pkg = (await createPackage(t)).json();
    const packaged = await rate(t, { package_id: pkg.id, weight_oz: 20 });
    expect(packaged.statusCode, packaged.body).toBe(200);
    const explicit = (await rate(t, { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 })).json();
    const strip = (b: { data: Option[] }) => b.data.map((o) => [o.service_code, o.price, o.billable_weight_oz]);
    expect(strip(packaged.json())).toEqual(strip(explicit));
    // Over the box's own limit, tare included: 400 on the weight.
    const heavy = await rate(t, { package_id: pkg.id, weight_oz: 97 });
    expect(heavy.statusCode).toBe(400);
    expect(heavy.json().details[0].field).toBe('parcel.weight_oz');
  });

  it("a USPS flat-rate box prices flat whatever its weight; USPS's other services rate it by weight; no other carrier carries it", async () => {
    const t = await createTenant(app);
    const light = (await rate(t, { package_id: 'usps_medium_flat_rate_box', weight_oz: 16 })).json();
    const heavy = (await rate(t, { package_id: 'usps_medium_flat_rate_box', weight_oz: 60 * 16 })).json();
    expect(option(light, 'usps_priority_mail')).toMatchObject({ price: { amount: 1840 }, surcharges: [], billable_weight_oz: 16 });
    expect(option(heavy, 'usps_priority_mail')).toMatchObject({ price: { amount: 1840 }, billable_weight_oz: 960 });
    expect(option(light, 'usps_ground_advantage')!.price.amount).toBeLessThan(option(heavy, 'usps_ground_advantage')?.price.amount ?? Infinity);
    for (const body of [light, heavy]) {
      expect(body.data.every((o: Option) => o.carrier === 'usps')).toBe(true);
      expect(body.unavailable.find((u: { service_code: string }) => u.service_code === 'ups_ground').reason).toMatch(/another carrier's packaging/);
    }
    // Above the 70 lb limit: 400.
    const over = await rate(t, { package_id: 'usps_medium_flat_rate_box', weight_oz: 70 * 16 + 1 });
    expect(over.statusCode).toBe(400);
    expect(over.json().details[0].field).toBe('parcel.weight_oz');
  });

  it('FedEx One Rate: the Pak prices flat on its flat services', async () => {
    const t = await createTenant(app);
    const a = (await rate(t, { package_id: 'fedex_pak', weight_oz: 8 })).json();
    const b = (await rate(t, { package_id: 'fedex_pak', weight_oz: 40 * 16 })).json();
    expect(option(a, 'fedex_2day')!.price.amount).toBe(2945);
    expect(option(b, 'fedex_2day')!.price.amount).toBe(2945);
  });

  it('404 for an unknown package; 400 for a parcel with both shapes mixed', async () => {
    const t = await createTenant(app);
    const unknown = await rate(t, { package_id: 'pkg_01jdx3c2v5f0b6k8m9n1p2q3r4', weight_oz: 10 });
    expect(unknown.statusCode).toBe(404);
    expect((await rate(t, { package_id: 'usps_flat_rate_envelope', weight_oz: 10, length_in: 3 })).statusCode).toBe(400);
    expect((await rate(t, { package_id: 'usps_flat_rate_envelope' })).statusCode).toBe(400);
  });
});

describe('orders and shipments with parcel: {package_id, weight_oz}', () => {
  const origin = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
  const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
  const order = (t: Tenant, parcel: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: shipTo, ship_from: origin, line_items: [{ sku: 'A', name: 'A', quantity: 1, weight_oz: 8 }], parcel },
    });

  it("an order takes the package's dimensions; its label in a flat-rate box is bought at the flat price", async () => {
    const t = await createTenant(app);
    const res = await order(t, { package_id: 'usps_medium_flat_rate_box', weight_oz: 50 * 16 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().parcel).toEqual({ weight_oz: 800, length_in: 11, width_in: 8.5, height_in: 5.5, package_id: 'usps_medium_flat_rate_box' });
    expect(res.json().parcel_derived).toBe(false);
    const shipment = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: res.json().id, service_code: 'usps_priority_mail' },
    });
    expect(shipment.statusCode, shipment.body).toBe(201);
    expect(shipment.json().price).toEqual({ amount: 1840, currency: 'USD' });
    // No other carrier carries USPS's box.
    const ups = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: (await order(t, { package_id: 'usps_medium_flat_rate_box' })).json().id, service_code: 'ups_ground' },
    });
    expect(ups.statusCode).toBe(422);
  });

  it("a preset: its dimensions, the items' weight plus its tare; another workspace's preset is 404; dimensions and package_id together 400", async () => {
    const t = await createTenant(app);
    const pkg = (await createPackage(t)).json();
    const res = await order(t, { package_id: pkg.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().parcel).toEqual({ weight_oz: 12, length_in: 10, width_in: 8, height_in: 4 });
    const stranger = await createTenant(app);
    const theirs = await order(stranger, { package_id: pkg.id, weight_oz: 5 });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().details[0].field).toBe('parcel.package_id');
    const both = await order(t, { package_id: pkg.id, length_in: 5 });
    expect(both.statusCode).toBe(400);
    expect(both.json().details[0].field).toBe('parcel.length_in');
  });
});
