import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, discoverCarriers } from '../../src/carriers/registry.js';
import { CarrierError, type CarrierDefinition } from '../../src/carriers/types.js';
import { buildTestApp, createTenant, type Tenant } from '../helpers/app.js';

/**
 * The carrier registry is part of the app's Deps (buildApp's `carriers` option): a test can
 * hand the app a carrier that fails, or one more carrier, with no other change anywhere.
 */

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const NOW = Date.parse('2026-03-02T15:00:00.000Z'); // a Monday, before the pickup cutoff

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const parcel = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };

async function createOrder(app: FastifyInstance, t: Tenant): Promise<{ id: string; status: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 24 }],
      parcel,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const rateQuery = (app: FastifyInstance, t: Tenant) =>
  app.inject({ method: 'POST', url: '/v1/rates/query', headers: t.headers, payload: { ship_from: shipFrom, ship_to: shipTo, parcel } });

describe('a carrier that cannot be reached (injected through buildApp)', () => {
  let app: FastifyInstance;
  let t: Tenant;

  beforeAll(async () => {
    const builtIn = await discoverCarriers();
    const ups = builtIn.get('ups')!;
    const down = (): never => {
      throw new CarrierError('ups', 'timeout', 'no answer within 8000 ms', { retryable: true });
    };
    const failingUps: CarrierDefinition = { ...ups, adapter: { ...ups.adapter, rate: async () => down(), purchase: async () => down() } };
    app = await buildTestApp({ now: () => new Date(NOW), carriers: createRegistry(builtIn.carriers.map((c) => (c.slug === 'ups' ? failingUps : c))) });
    t = await createTenant(app);
  });

  it('a rate query still answers: the other carriers priced, every UPS service unavailable with the reason', async () => {
    const res = await rateQuery(app, t);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const carriers = new Set(body.data.map((o: { carrier: string }) => o.carrier));
    expect(carriers.has('ups')).toBe(false);
    expect(carriers.has('usps')).toBe(true);
    expect(carriers.has('fedex')).toBe(true);
    const upsUnavailable = body.unavailable.filter((u: { carrier: string }) => u.carrier === 'ups');
    expect(upsUnavailable.map((u: { service_code: string }) => u.service_code).sort()).toEqual(
      app.deps.carriers
        .get('ups')!
        .services.map((s) => s.code)
        .sort(),
    );
    for (const u of upsUnavailable) expect(u.reason).toBe('UPS is unavailable: no answer within 8000 ms');
  });

  it('buying from it is 503 carrier_unavailable with Retry-After and leaves the order open; another carrier still sells', async () => {
    const order = await createOrder(app, t);
    const res = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: order.id, service_code: 'ups_ground' } });
    expect(res.statusCode, res.body).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const body = res.json();
    expect(body.code).toBe('carrier_unavailable');
    expect(typeof body.request_id).toBe('string');
    const after = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    expect(after.json().status).toBe(order.status);
    const usps = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.id, service_code: 'usps_ground_advantage' },
    });
    expect(usps.statusCode, usps.body).toBe(201);
  });
});

/**
 * A fifth carrier is one folder: `acme_express/index.ts`, written here into a folder of its own
 * (the simulation kit and a rate card borrowed from UPS, with its own services, tracking numbers
 * and label presentation), discovered by the registry, and bought from through the API.
 */
const ACME_INDEX = `
import { defineSimulatedCarrier } from '${SRC}/carriers/simulation/define-carrier.js';
import { PRIVATE_CARRIER_HOLIDAYS } from '${SRC}/carriers/simulation/holidays.js';
import { seededDigits } from '${SRC}/carriers/simulation/seed.js';
import { upsRateCard } from '${SRC}/carriers/ups/rates.v2026-01.js';
import { upsOptions } from '${SRC}/carriers/ups/options.v2026-01.js';

const rename = (code) => code.replace(/^ups_/, 'acme_express_');
const card = {
  ...upsRateCard,
  version: 'acme_express-2026-01',
  services: upsRateCard.services.map((s) => ({ ...s, code: rename(s.code), name: s.name.replace('UPS', 'Acme') })),
  size_surcharges: (upsRateCard.size_surcharges ?? []).map((r) => (r.services ? { ...r, services: r.services.map(rename) } : r)),
};
// Its one options table (docs/carriers.md, "Shipment options"): UPS's offers under its own codes.
const options = { ...upsOptions, version: 'acme_express-2026-01', services: Object.fromEntries(Object.entries(upsOptions.services).map(([code, o]) => [rename(code), o])) };

export const carrier = defineSimulatedCarrier({
  slug: 'acme_express',
  name: 'Acme Express',
  card,
  options,
  observed_holidays: PRIVATE_CARRIER_HOLIDAYS,
  trackingNumber: (reference) => 'AX' + seededDigits(reference, 10),
  isValidTrackingNumber: (value) => /^AX[0-9]{10}$/.test(value),
  label: {
    heading: 'ACME EXPRESS CONSIGNMENT',
    routingCode: (to) => 'ACME ' + to.country + '-' + to.postal_code.slice(0, 3),
    barcode: (trackingNumber) => ({ symbology: 'code128', text: trackingNumber }),
    displayTrackingNumber: (trackingNumber) => trackingNumber.slice(0, 2) + ' ' + trackingNumber.slice(2),
  },
});
`;

describe('a fifth carrier is one folder', () => {
  let dir: string;
  let app: FastifyInstance;
  let t: Tenant;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'carriers-fifth-'));
    await mkdir(join(dir, 'acme_express'));
    await writeFile(join(dir, 'acme_express', 'index.ts'), ACME_INDEX);
    const warnings: unknown[] = [];
    const extra = await discoverCarriers({ dir, logger: { warn: (obj) => warnings.push(obj) } });
    expect(warnings).toEqual([]);
    const builtIn = await discoverCarriers();
    app = await buildTestApp({ now: () => new Date(NOW), carriers: createRegistry([...builtIn.carriers, ...extra.carriers]) });
    t = await createTenant(app);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is quoted beside the others', async () => {
    const res = await rateQuery(app, t);
    expect(res.statusCode, res.body).toBe(200);
    const acme = res.json().data.filter((o: { carrier: string }) => o.carrier === 'acme_express');
    expect(acme.length).toBeGreaterThan(0);
    expect(acme.map((o: { service_code: string }) => o.service_code)).toContain('acme_express_ground');
    expect(res.json().rate_table_versions.acme_express).toBe('acme_express-2026-01');
  });

  it("is in the dashboard's carrier filter: the admin rate query it sends names every registered carrier", async () => {
    // The body web/src/api/carriers.ts sends (there is no carrier listing route yet).
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/rates/query',
      headers: t.adminHeaders,
      payload: {
        ship_from: { country: 'US', postal_code: '10001' },
        ship_to: { country: 'US', postal_code: '90210' },
        parcel: { weight_oz: 16, length_in: 10, width_in: 8, height_in: 4 },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows: Array<{ carrier: string }> = [...res.json().data, ...res.json().unavailable];
    expect([...new Set(rows.map((r) => r.carrier))].sort()).toEqual(['acme_express', 'dhl_express', 'fedex', 'ups', 'usps']);
  });

  it('sells a label that carries its own heading, routing code, printed number and barcode', async () => {
    const order = await createOrder(app, t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.id, service_code: 'acme_express_ground', label_format: 'zpl_4x6' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    expect(shipment.carrier).toBe('acme_express');
    expect(shipment.tracking_number).toMatch(/^AX[0-9]{10}$/);

    const zpl = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=zpl_4x6`, headers: t.headers });
    expect(zpl.statusCode).toBe(200);
    const text = zpl.body;
    expect(text).toContain('^FDACME EXPRESS CONSIGNMENT^FS');
    expect(text).toContain('^FDACME US-941^FS');
    expect(text).toContain(`^FDAX ${shipment.tracking_number.slice(2)}^FS`);
    expect(text).toMatch(new RegExp(`\\^BC[^\\^]*\\^FD${shipment.tracking_number}\\^FS`));

    // A scanner reads the PNG label's barcode back as the tracking number.
    if (spawnSync('zbarimg', ['--version']).status !== 0) return;
    const png = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=png_4x6`, headers: t.headers });
    expect(png.statusCode).toBe(200);
    const file = join(dir, 'label.png');
    await writeFile(file, png.rawPayload);
    const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', file], { encoding: 'latin1' });
    expect(out.trim()).toBe(shipment.tracking_number);
  });
});
