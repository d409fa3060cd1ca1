import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';

// Address validation at purchase: the destination is checked before a label is bought. (Order intake already
// refuses what the built-in validator calls invalid; the 422 of an invalid destination is proven
// through a carrier's validator in test/e2e/ups-account.test.ts.)
let app: FastifyInstance;
let t: Tenant;
let root: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
  root = await superAdminHeaders(app);
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
// A San Francisco ZIP with Boston, CA typed in: the ZIP decides.
const misTyped = { name: 'Ada Lovelace', street1: '1 market street', city: 'Boston', state: 'CA', postal_code: '94105', country: 'US', phone: '4155550100' };

async function order(shipTo: Record<string, unknown>): Promise<{ id: string; status: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }],
      parcel: { weight_oz: 16, length_in: 10, width_in: 8, height_in: 4 },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const buy = (orderId: string, extra: Record<string, unknown> = {}) =>
  app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: orderId, service_code: 'usps_ground_advantage', ...extra } });

describe('address validation at purchase', () => {
  it('validate (the default): a corrected address is bought as given, with the messages kept', async () => {
    const o = await order(misTyped);
    const res = await buy(o.id);
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    expect(shipment.address_validation).toMatchObject({ mode: 'validate', status: 'corrected', source: { type: 'built_in' } });
    expect(shipment.address_validation.messages.map((m: { field: string }) => m.field)).toContain('city');
    expect(shipment.ship_to).toMatchObject({ city: 'Boston', street1: '1 market street' });
    expect(shipment.ship_to_original).toBeNull();
  });

  it('validate_and_clean: the label and shipment use the normalised address; the given one is kept', async () => {
    const o = await order(misTyped);
    const res = await buy(o.id, { address_validation: 'validate_and_clean' });
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    expect(shipment.address_validation).toMatchObject({ mode: 'validate_and_clean', status: 'corrected' });
    expect(shipment.ship_to).toMatchObject({ city: 'SAN FRANCISCO', state: 'CA', street1: '1 MARKET ST', name: 'Ada Lovelace', phone: '4155550100' });
    expect(shipment.ship_to_original).toMatchObject({ city: 'Boston', street1: '1 market street' });
    // The label prints the clean address.
    const label = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=zpl_4x6`, headers: t.headers });
    expect(label.body).toContain('SAN FRANCISCO');
    expect(label.body).not.toContain('Boston');
  });

  it('none: bought without a check, and the shipment says so', async () => {
    const o = await order(misTyped);
    const res = await buy(o.id, { address_validation: 'none' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().address_validation).toEqual({ mode: 'none', status: null, messages: [], source: null });
    expect(res.json().ship_to).toMatchObject({ city: 'Boston' });
  });

  it('the workspace default is the setting shipments.address_validation; a bad mode is a 400', async () => {
    const set = (value: string) =>
      app.inject({ method: 'PUT', url: '/api/super-admin/settings/shipments.address_validation', headers: root, payload: { value } });
    expect((await set('validate_and_clean')).statusCode).toBe(200);
    try {
      const o = await order(misTyped);
      const res = await buy(o.id);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ address_validation: { mode: 'validate_and_clean' }, ship_to: { city: 'SAN FRANCISCO' } });
    } finally {
      expect((await set('validate')).statusCode).toBe(200);
    }
    const o = await order(misTyped);
    const bad = await buy(o.id, { address_validation: 'always' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toContain('address_validation');
  });
});
