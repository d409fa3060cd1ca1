import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { registerBatchJobs } from '../batches/index.js';
import { rollUp } from './shipments.packages.js';

// Monday 2 March 2026, 15:00 UTC; tests move the clock forward to follow the packages.
let clock = Date.parse('2026-03-02T15:00:00.000Z');

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) });
  await registerBatchJobs(app.deps, app.services.batches);
  await app.deps.jobs.start();
  t = await createTenant(app);
});

afterAll(async () => {
  await app?.close();
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const small = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };
const large = { weight_oz: 80, length_in: 16, width_in: 12, height_in: 10 };
const third = { weight_oz: 40, length_in: 12, width_in: 12, height_in: 6 };

const rate = (body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/rates/query', headers: t.headers, payload: { ship_from: shipFrom, ship_to: shipTo, ...body } });

async function createOrder(extra: Record<string, unknown>) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: { ship_to: shipTo, ship_from: shipFrom, line_items: [{ sku: 'MUG-1', quantity: 3, weight_oz: 12 }], ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const buy = (orderId: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: orderId, ...body } });

type Option = { service_code: string; price: { amount: number }; surcharges: { code: string; amount: { amount: number } }[] };

describe('rate queries with parcels', () => {
  it('price a multi-piece shipment as the sum of its pieces and drop the services without multi-piece', async () => {
    const one = await rate({ parcel: small, services: ['ups_ground'] });
    const two = await rate({ parcel: large, services: ['ups_ground'] });
    const both = await rate({ parcels: [small, large], services: ['ups', 'usps'] });
    expect(both.statusCode, both.body).toBe(200);
    const ground = both.json().data.find((o: Option) => o.service_code === 'ups_ground');
    expect(ground.price.amount).toBe(one.json().data[0].price.amount + two.json().data[0].price.amount);
    // USPS takes one parcel per shipment: each of its services is a message naming parcels.
    const body = both.json();
    expect(body.data.some((o: { carrier: string }) => o.carrier === 'usps')).toBe(false);
    const dropped = body.messages.filter((m: { carrier: string }) => m.carrier === 'usps');
    expect(dropped.length).toBeGreaterThan(0);
    for (const m of dropped) expect(m).toMatchObject({ code: 'option_unavailable', option: 'parcels' });
  });

  it('one piece in parcels is the same as parcel', async () => {
    const a = await rate({ parcel: small, services: ['usps'] });
    const b = await rate({ parcels: [small], services: ['usps'] });
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json().data.map((o: Option) => o.price.amount)).toEqual(a.json().data.map((o: Option) => o.price.amount));
  });

  it('400 naming the field: both parcel and parcels, neither, a piece without dimensions, an empty list', async () => {
    const both = await rate({ parcel: small, parcels: [small] });
    expect(both.statusCode).toBe(400);
    expect(both.json().details.map((d: { field: string }) => d.field)).toContain('parcels');
    const neither = await rate({});
    expect(neither.statusCode).toBe(400);
    expect(neither.json().details.map((d: { field: string }) => d.field)).toContain('parcel');
    const shapeless = await rate({ parcels: [small, { weight_oz: 10 }] });
    expect(shapeless.statusCode).toBe(400);
    expect(shapeless.json().details.map((d: { field: string }) => d.field)).toContain('parcels[1].length_in');
    const empty = await rate({ parcels: [] });
    expect(empty.statusCode).toBe(400);
    expect(
      empty
        .json()
        .details.map((d: { field: string }) => d.field)
        .join(' '),
    ).toMatch(/parcels/);
  });
});

describe('orders with parcels', () => {
  it('echo the pieces (parcel is the first); PATCH parcel ends them; both at once → 400 parcels', async () => {
    const order = await createOrder({ parcels: [small, large] });
    expect(order.parcels).toEqual([small, large]);
    expect(order.parcel).toEqual(small);
    const read = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    expect(read.json().parcels).toEqual([small, large]);
    const plain = await createOrder({ parcel: small });
    expect(plain.parcels).toBeNull();
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: shipTo, line_items: [{ sku: 'A', quantity: 1 }], parcel: small, parcels: [small] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toContain('parcels');
    const unweighed = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: shipTo, line_items: [{ sku: 'A', quantity: 1 }], parcels: [{ length_in: 2, width_in: 2, height_in: 2 }] },
    });
    expect(unweighed.statusCode).toBe(400);
    expect(unweighed.json().details.map((d: { field: string }) => d.field)).toContain('parcels[0].weight_oz');
    const patched = await app.inject({ method: 'PATCH', url: `/v1/orders/${order.id}`, headers: t.headers, payload: { parcels: [large, small, third] } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().parcels).toEqual([large, small, third]);
    const single = await app.inject({ method: 'PATCH', url: `/v1/orders/${order.id}`, headers: t.headers, payload: { parcel: third } });
    expect(single.json().parcels).toBeNull();
    expect(single.json().parcel).toEqual(third);
  });
});

describe('multi-piece shipments', () => {
  let shipment: {
    id: string;
    tracking_number: string;
    packages: { tracking_number: string; parcel: unknown; tracking_status: string }[];
    price: { amount: number };
    estimated_delivery_date: string;
    parcels: unknown;
  };

  it('USPS (no multi-piece) → 422 option_unavailable naming parcels, nothing bought', async () => {
    const order = await createOrder({ parcels: [small, large] });
    const res = await buy(order.id, { service_code: 'usps_ground_advantage' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('option_unavailable');
    expect(res.json().details).toContainEqual(expect.objectContaining({ field: 'parcels', option: 'parcels' }));
    const after = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    expect(after.json().shipments).toEqual([]);
  });

  it('a UPS shipment holds one package per piece, the master first, priced as the rate query said', async () => {
    const order = await createOrder({ parcels: [small, large, third] });
    const quote = await rate({ parcels: [small, large, third], services: ['ups_ground'] });
    const res = await buy(order.id, { service_code: 'ups_ground' });
    expect(res.statusCode, res.body).toBe(201);
    shipment = res.json();
    expect(shipment.packages).toHaveLength(3);
    expect(shipment.packages.map((p) => p.parcel)).toEqual([small, large, third]);
    expect(shipment.parcels).toEqual([small, large, third]);
    expect(shipment.packages[0]!.tracking_number).toBe(shipment.tracking_number);
    expect(new Set(shipment.packages.map((p) => p.tracking_number)).size).toBe(3);
    expect(shipment.price.amount).toBe(quote.json().data[0].price.amount);
  });

  it('a single-parcel shipment has one package', async () => {
    const order = await createOrder({ parcel: small });
    const res = await buy(order.id, { service_code: 'usps_ground_advantage' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().packages).toEqual([{ tracking_number: res.json().tracking_number, parcel: small, tracking_status: 'pre_transit' }]);
  });

  it('the label has one page per package in every format, each with its own barcode and "i of N"', async () => {
    const zpl = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=zpl_4x6`, headers: t.headers });
    expect(zpl.statusCode).toBe(200);
    const formats = zpl.body.split('^XZ').filter((f) => f.includes('^XA'));
    expect(formats).toHaveLength(3);
    formats.forEach((f, i) => {
      expect(f).toContain(`${i + 1} of 3`);
      expect(f).toContain(shipment.packages[i]!.tracking_number);
    });
    const pdf = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=pdf_4x6`, headers: t.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.toString('latin1').match(/\/Type\s*\/Page\b/g)).toHaveLength(3);
  });

  it('sets the packages on their way one by one: delivered only when every package is', async () => {
    expect(rollUp(['delivered', 'out_for_delivery', 'delivered'])).toBe('out_for_delivery');
    expect(rollUp(['delivered', 'failure', 'in_transit'])).toBe('failure');
    expect(rollUp(['delivered', 'delivered'])).toBe('delivered');
    // The first package is delivered at 14:00 UTC on the delivery day, each later one 10 minutes after.
    const day = shipment.estimated_delivery_date;
    clock = Date.parse(`${day}T14:05:00.000Z`);
    const mid = (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json();
    expect(mid.packages.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'out_for_delivery', 'out_for_delivery']);
    expect(mid.tracking_status).toBe('out_for_delivery');
    expect(mid.status).not.toBe('delivered');
    clock = Date.parse(`${day}T14:15:00.000Z`);
    const later = (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json();
    expect(later.packages.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'delivered', 'out_for_delivery']);
    expect(later.status).not.toBe('delivered');
    clock = Date.parse(`${day}T14:25:00.000Z`);
    const done = (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json();
    expect(done.packages.every((p: { tracking_status: string }) => p.tracking_status === 'delivered')).toBe(true);
    expect(done.status).toBe('delivered');
    expect(done.delivered_at).toBe(new Date(`${day}T14:20:00.000Z`).toISOString());
    const order = await app.inject({ method: 'GET', url: `/v1/orders/${(done as { order_id: string }).order_id}`, headers: t.headers });
    expect(order.json().status).toBe('delivered');
  });

  it('a void voids every package', async () => {
    clock = Date.parse('2026-03-09T15:00:00.000Z');
    const order = await createOrder({ parcels: [small, large] });
    const bought = await buy(order.id, { service_code: 'fedex_home_delivery' });
    expect(bought.statusCode, bought.body).toBe(201);
    const res = await app.inject({ method: 'POST', url: `/v1/shipments/${bought.json().id}/void`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('voided');
    expect(res.json().packages.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['cancelled', 'cancelled']);
  });

  it('a return of a multi-piece shipment is one return shipment with a package per piece', async () => {
    const order = await createOrder({ parcels: [small, large] });
    const bought = (await buy(order.id, { service_code: 'ups_ground' })).json();
    const ret = await app.inject({ method: 'POST', url: `/v1/shipments/${bought.id}/return`, headers: t.headers, payload: {} });
    expect(ret.statusCode, ret.body).toBe(201);
    expect(ret.json().packages.map((p: { parcel: unknown }) => p.parcel)).toEqual([small, large]);
    const usps = await app.inject({
      method: 'POST',
      url: `/v1/shipments/${bought.id}/return`,
      headers: t.headers,
      payload: { service_code: 'usps_ground_advantage' },
    });
    expect(usps.statusCode, usps.body).toBe(422);
    expect(usps.json().code).toBe('option_unavailable');
  });
});

describe("tracking by a package's own number (GET /v1/tracking/:number, public tracking)", () => {
  type Read = {
    tracking_number: string;
    shipment_id: string | null;
    master_tracking_number: string | null;
    package: { sequence_number: number; count: number } | null;
    status: string;
    events: { status: string; occurred_at: string; carrier_status_code: string }[];
    timeline: { milestone: string; reached_at: string | null; estimated_at: string | null }[];
  };
  const read = async (n: string, tenant: Tenant = t) => app.inject({ method: 'GET', url: `/v1/tracking/${encodeURIComponent(n)}`, headers: tenant.headers });
  const delivered = (r: Read) => r.timeline.find((m) => m.milestone === 'delivered')!;

  it("answers the package's own journey and names its shipment and master; the master number answers the shipment", async () => {
    clock = Date.parse('2026-04-06T15:00:00.000Z');
    const order = await createOrder({ parcels: [small, large, third] });
    const s = (await buy(order.id, { service_code: 'ups_ground' })).json();
    const [master, second, last] = s.packages.map((p: { tracking_number: string }) => p.tracking_number) as [string, string, string];
    const first = await read(second);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      id: s.id,
      shipment_id: s.id,
      tracker_id: null,
      tracking_number: second,
      master_tracking_number: master,
      package: { sequence_number: 2, count: 3 },
      carrier: 'ups',
      status: 'pre_transit',
      estimated_delivery_date: s.estimated_delivery_date,
    });
    expect(first.json().events.map((e: { status_detail: string }) => e.status_detail)).toEqual(['label_created']);
    expect((await read(master)).json()).toMatchObject({ tracking_number: master, master_tracking_number: master, package: { sequence_number: 1, count: 3 } });

    // The first package is delivered at 14:00 UTC on the delivery day, each later one 10 minutes after.
    const day = s.estimated_delivery_date;
    clock = Date.parse(`${day}T14:15:00.000Z`);
    const two: Read = (await read(second)).json();
    expect(two.status).toBe('delivered');
    expect(two.events[0]).toMatchObject({ status: 'delivered', occurred_at: `${day}T14:10:00.000Z` });
    expect(delivered(two)).toEqual({ milestone: 'delivered', reached_at: `${day}T14:10:00.000Z`, estimated_at: null });
    const three: Read = (await read(last)).json();
    expect(three).toMatchObject({ tracking_number: last, status: 'out_for_delivery', package: { sequence_number: 3, count: 3 } });
    expect(three.events.map((e) => e.status)).not.toContain('delivered');
    expect(delivered(three).reached_at).toBeNull();
    // The shipment (its master number) is the roll-up: not delivered while a package is not.
    expect((await read(master)).json().status).toBe('out_for_delivery');

    // A refresh by a package's number refreshes its shipment and answers the package, as GET does; once a minute.
    const refresh = () => app.inject({ method: 'POST', url: `/v1/tracking/${encodeURIComponent(last)}/refresh`, headers: t.headers });
    const refreshed = await refresh();
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json()).toMatchObject({
      tracking_number: last,
      master_tracking_number: master,
      package: { sequence_number: 3, count: 3 },
      status: 'out_for_delivery',
    });
    expect((await refresh()).statusCode).toBe(429);

    const pub = await app.inject({ method: 'GET', url: `/api/public/track/${encodeURIComponent(second)}` });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json()).toMatchObject({
      tracking_number: second,
      master_tracking_number: master,
      package: { sequence_number: 2, count: 3 },
      status: 'delivered',
    });
    expect(pub.body).not.toContain(s.id);

    // Another workspace, the live environment: 404 as for any number.
    const stranger = await createTenant(app);
    expect((await read(second, stranger)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/v1/tracking/${second}`, headers: t.liveHeaders })).statusCode).toBe(404);
  });

  it('a slash in a number: encoded it is read as one number (404 not_found when none); bare it is another path', async () => {
    const order = await createOrder({ parcels: [small, large] });
    const s = (await buy(order.id, { service_code: 'ups_ground' })).json();
    const encoded = await read(`${s.tracking_number}/2`);
    expect(encoded.statusCode).toBe(404);
    expect(encoded.json()).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('tracking number'),
      details: [],
      request_id: encoded.headers['x-request-id'],
    });
    const bare = await app.inject({ method: 'GET', url: `/v1/tracking/${s.tracking_number}/2`, headers: t.headers });
    expect(bare.statusCode).toBe(404);
    expect(bare.json()).toMatchObject({ code: expect.any(String), details: [], request_id: bare.headers['x-request-id'] });
    // Spaces and lower case in a package's number are read as the master's are.
    const second = s.packages[1].tracking_number as string;
    expect((await read(` ${second.slice(0, 8).toLowerCase()} ${second.slice(8)}`)).json().tracking_number).toBe(second);
  });

  it("a voided shipment's package reads cancelled, the void its latest event", async () => {
    const order = await createOrder({ parcels: [small, large] });
    const s = (await buy(order.id, { service_code: 'fedex_home_delivery' })).json();
    await app.inject({ method: 'POST', url: `/v1/shipments/${s.id}/void`, headers: t.headers });
    const res: Read = (await read(s.packages[1].tracking_number)).json();
    expect(res).toMatchObject({ status: 'cancelled', package: { sequence_number: 2, count: 2 } });
    expect(res.events[0]).toMatchObject({ status: 'cancelled', carrier_status_code: 'VOID' });
    expect(res.timeline.every((m) => m.estimated_at === null)).toBe(true);
  });
});

describe('a batch of labels with a multi-piece order', () => {
  it('chooses a service that takes every piece and prints a page per package in the batch file', async () => {
    clock = Date.parse('2026-03-23T15:00:00.000Z');
    const multi = await createOrder({ parcels: [small, large] });
    const single = await createOrder({ parcel: small });
    const created = await app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: t.headers,
      payload: { type: 'purchase_labels', items: [{ order_id: multi.id }, { order_id: single.id }], label_format: 'zpl_4x6' },
    });
    expect(created.statusCode, created.body).toBe(202);
    let batch = created.json();
    for (let i = 0; i < 600 && ['queued', 'running'].includes(batch.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      batch = (await app.inject({ method: 'GET', url: `/v1/batches/${batch.id}`, headers: t.headers })).json();
    }
    expect(batch.status).toBe('completed');
    const order = (await app.inject({ method: 'GET', url: `/v1/orders/${multi.id}`, headers: t.headers })).json();
    // The cheapest service for one small box is USPS's, which takes one parcel: not chosen here.
    expect(order.shipments[0].carrier).not.toBe('usps');
    const alone = (await app.inject({ method: 'GET', url: `/v1/orders/${single.id}`, headers: t.headers })).json();
    expect(alone.shipments[0].carrier).toBe('usps');
    const shipment = (await app.inject({ method: 'GET', url: `/v1/shipments/${order.shipments[0].id}`, headers: t.headers })).json();
    const label = await app.inject({ method: 'GET', url: `/v1/batches/${batch.id}/label`, headers: t.headers });
    expect(label.statusCode).toBe(200);
    expect(label.body.match(/\^XA/g)).toHaveLength(3);
    for (const p of shipment.packages) expect(label.body).toContain(p.tracking_number);
  }, 120_000);
});

// zbarimg reads each page's barcode like a scanner (apt-get install zbar-tools poppler-utils); CI may lack them.
const tools = spawnSync('zbarimg', ['--version']).status === 0 && spawnSync('pdftoppm', ['-v']).status === 0;
describe.runIf(tools)("a scanner reads every package's barcode back", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'multipiece-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const scan = (file: string) =>
    execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', file], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split('\n');

  it("PDF: each page carries its own package's barcode; PNG: the stacked labels carry them all", async () => {
    clock = Date.parse('2026-03-16T15:00:00.000Z');
    const order = await createOrder({ parcels: [small, large, third] });
    const bought = (await buy(order.id, { service_code: 'ups_ground' })).json();
    const pdf = await app.inject({ method: 'GET', url: `/v1/shipments/${bought.id}/label?format=pdf_4x6`, headers: t.headers });
    writeFileSync(path.join(dir, 'label.pdf'), pdf.rawPayload);
    execFileSync('pdftoppm', ['-r', '203', '-png', path.join(dir, 'label.pdf'), path.join(dir, 'page')]);
    const pages = readdirSync(dir)
      .filter((f) => f.startsWith('page'))
      .sort();
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => scan(path.join(dir, p)))).toEqual(bought.packages.map((p: { tracking_number: string }) => [p.tracking_number]));
    const png = await app.inject({ method: 'GET', url: `/v1/shipments/${bought.id}/label?format=png_4x6`, headers: t.headers });
    expect(png.headers['content-type']).toMatch(/image\/png/);
    writeFileSync(path.join(dir, 'label.png'), png.rawPayload);
    expect(scan(path.join(dir, 'label.png')).sort()).toEqual(bought.packages.map((p: { tracking_number: string }) => p.tracking_number).sort());
  });

  it('ZPL: each format, printed at 203 dpi by an independent renderer, scans as its package', async () => {
    const order = await createOrder({ parcels: [large, small] });
    const bought = (await buy(order.id, { service_code: 'fedex_home_delivery' })).json();
    const zpl = await app.inject({ method: 'GET', url: `/v1/shipments/${bought.id}/label?format=zpl_4x6`, headers: t.headers });
    // ~9 MB of JavaScript and WebAssembly: loaded only where a scanner can read its output.
    const { zplToBase64MultipleAsync } = await import('zpl-renderer-js');
    const images = await zplToBase64MultipleAsync(zpl.body, 812 / 8, 1218 / 8, 8);
    expect(images).toHaveLength(2);
    const read = images.map((b64, i) => {
      const file = path.join(dir, `zpl-${i}.png`);
      writeFileSync(file, Buffer.from(b64, 'base64'));
      return scan(file);
    });
    expect(read).toEqual(bought.packages.map((p: { tracking_number: string }) => [p.tracking_number]));
  });
});
