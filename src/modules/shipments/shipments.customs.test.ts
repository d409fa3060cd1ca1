import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';

// Customs on orders, rates and label purchase, through the HTTP API.
// Monday 2 March 2026, 15:00 UTC (before the 17:00 pickup cutoff).
const START = Date.parse('2026-03-02T15:00:00.000Z');

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(START), config: { encryptionKey: randomBytes(32).toString('base64') } });
  t = await createTenant(app);
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const london = { name: 'Ada Lovelace', street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' };
const sanFrancisco = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const apo = { name: 'SGT Ada Lovelace', street1: 'Unit 2050 Box 4190', city: 'APO', state: 'AE', postal_code: '09001', country: 'US' };

/** Two lines a customs declaration can be derived from (US → GB). */
const twoLines = [
  { sku: 'MUG-BLUE', name: 'Ceramic coffee mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 12, hs_tariff_number: '6912.00.48' },
  { sku: 'TOWEL-1', name: 'Cotton tea towel', quantity: 1, unit_price: { amount: 900, currency: 'USD' }, weight_oz: 3, hs_tariff_number: '6302.60' },
];
const parcel = { weight_oz: 32, length_in: 10, width_in: 8, height_in: 6 };

const givenCustoms = {
  contents_type: 'merchandise',
  signer: 'Grace Hopper',
  importer: { eori: 'GB123456789000' },
  items: [
    {
      description: 'Stoneware dinner plate',
      quantity: 4,
      unit_value: { amount: 1500, currency: 'USD' },
      weight_oz: 6,
      hs_tariff_number: '6912.00',
      origin_country: 'pt',
      sku: 'PLATE-4',
    },
  ],
};

async function createOrder(extra: Record<string, unknown> = {}, headers = t.headers) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers,
    payload: { ship_to: london, ship_from: shipFrom, line_items: twoLines, parcel, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const buy = (orderId: string, body: Record<string, unknown> = {}, headers = t.headers) =>
  app.inject({ method: 'POST', url: '/v1/shipments', headers, payload: { order_id: orderId, service_code: 'usps_priority_mail_international', ...body } });

const orderStatus = async (id: string) => (await app.inject({ method: 'GET', url: `/v1/orders/${id}`, headers: t.headers })).json().status;
const shipmentsOf = (orderId: string) => app.deps.db.selectFrom('shipments').select(['id', 'customs']).where('order_id', '=', orderId).execute();

describe('customs on orders', () => {
  it('is stored with its defaults and returned; null when absent', async () => {
    const plain = await createOrder();
    expect(plain.customs).toBeNull();
    const order = await createOrder({ customs: givenCustoms });
    expect(order.customs).toEqual({
      contents_type: 'merchandise',
      contents_explanation: null,
      non_delivery: 'return',
      incoterm: 'DDU',
      eel_pfc: null,
      aes_itn: null,
      signer: 'Grace Hopper',
      importer: { tax_id: null, eori: 'GB123456789000', ioss: null, vat: null },
      items: [{ ...givenCustoms.items[0] }],
    });
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json().customs).toEqual(order.customs);
    // Business rules wait for the purchase (an imported order is not refused for a vague line).
    const vague = await createOrder({ customs: { ...givenCustoms, items: [{ ...givenCustoms.items[0], description: 'gift' }] } });
    expect(vague.customs.items[0].description).toBe('gift');
  });

  it('refuses a wrong shape as 400 validation_failed naming the fields', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        ship_to: london,
        line_items: twoLines,
        customs: { contents_type: 'junk', incoterm: 'FOB', items: [{ description: 'Mug', quantity: 0, unit_value: { amount: 1 }, origin_country: 'US' }] },
      },
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'customs.contents_type',
        'customs.incoterm',
        'customs.items[0].quantity',
        'customs.items[0].unit_value.currency',
        'customs.items[0].weight_oz',
      ]),
    );
    const empty = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: london, line_items: twoLines, customs: { contents_type: 'gift', items: [] } },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('is edited by the admin PATCH (null removes it) and taken by integration intake', async () => {
    const order = await createOrder();
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/admin/orders/${order.id}`,
      headers: t.adminHeaders,
      payload: { customs: { ...givenCustoms, incoterm: 'DDP' } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().customs).toMatchObject({ incoterm: 'DDP', items: [{ description: 'Stoneware dinner plate' }] });
    const removed = await app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders, payload: { customs: null } });
    expect(removed.json().customs).toBeNull();
    const bad = await app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders, payload: { customs: { items: [] } } });
    expect(bad.statusCode).toBe(400);

    const adminCreated = await app.inject({
      method: 'POST',
      url: '/api/admin/orders',
      headers: t.adminHeaders,
      payload: { ship_to: london, ship_from: shipFrom, line_items: twoLines, customs: givenCustoms },
    });
    expect(adminCreated.statusCode, adminCreated.body).toBe(201);
    expect(adminCreated.json().customs.items).toHaveLength(1);

    const integration = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: { name: 'Shop', platform: 'custom' },
    });
    expect(integration.statusCode, integration.body).toBe(201);
    const ingest = { authorization: `Bearer ${integration.json().ingest_key}` };
    const intake = await app.inject({
      method: 'POST',
      url: '/api/integrations/orders',
      headers: ingest,
      payload: { external_id: 'UK-1', ship_to: london, line_items: twoLines, customs: givenCustoms },
    });
    expect(intake.statusCode, intake.body).toBe(201);
    expect(intake.json().customs.signer).toBe('Grace Hopper');
    const badIntake = await app.inject({
      method: 'POST',
      url: '/api/integrations/orders',
      headers: ingest,
      payload: { external_id: 'UK-2', ship_to: london, line_items: twoLines, customs: { contents_type: 'merchandise' } },
    });
    expect(badIntake.statusCode).toBe(400);
  });
});

describe('requires_customs on rates', () => {
  const quote = (shipTo: Record<string, unknown>, weightOz = 32) =>
    app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: { ship_from: shipFrom, ship_to: shipTo, parcel: { ...parcel, weight_oz: weightOz } },
    });

  it('is true on a lane that crosses a border or goes to a military address, false at home', async () => {
    for (const [to, expected] of [
      [london, true],
      [apo, true],
      [sanFrancisco, false],
    ] as const) {
      const res = await quote(to);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.requires_customs).toBe(expected);
      expect(body.data.length).toBeGreaterThan(0);
      for (const option of body.data) expect(option.requires_customs).toBe(expected);
    }
  });

  it('rates a heavy parcel to GB by USPS Priority Mail International (First-Class International stops at 4 lb)', async () => {
    const res = await quote(london, 160); // 10 lb
    const body = res.json();
    const pmi = body.data.find((o: { service_code: string }) => o.service_code === 'usps_priority_mail_international');
    expect(pmi).toMatchObject({ carrier: 'usps', service_name: 'USPS Priority Mail International', zone: 3, billable_weight_oz: 160, requires_customs: true });
    expect(pmi.price.amount).toBeGreaterThan(0);
    expect(body.data.some((o: { service_code: string }) => o.service_code === 'usps_priority_mail_express_international')).toBe(true);
    expect(body.unavailable).toContainEqual(expect.objectContaining({ service_code: 'usps_first_class_international' }));
    // Heavier costs more; Express costs more than Priority.
    const heavier = (await quote(london, 320)).json().data.find((o: { service_code: string }) => o.service_code === 'usps_priority_mail_international');
    expect(heavier.price.amount).toBeGreaterThan(pmi.price.amount);
    const express = body.data.find((o: { service_code: string }) => o.service_code === 'usps_priority_mail_express_international');
    expect(express.price.amount).toBeGreaterThan(pmi.price.amount);
  });
});

describe('customs at label purchase', () => {
  it("derives the declaration from a US → GB order's two lines: derived, validated, declared value on the shipment", async () => {
    const order = await createOrder();
    const res = await buy(order.id);
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    expect(shipment.customs).toEqual({
      contents_type: 'merchandise',
      contents_explanation: null,
      non_delivery: 'return',
      incoterm: 'DDU',
      eel_pfc: 'NOEEI 30.37(a)',
      aes_itn: null,
      signer: null,
      importer: null,
      items: [
        {
          description: 'Ceramic coffee mug',
          quantity: 2,
          unit_value: { amount: 1250, currency: 'USD' },
          weight_oz: 12,
          hs_tariff_number: '69120048',
          origin_country: 'US',
          sku: 'MUG-BLUE',
        },
        {
          description: 'Cotton tea towel',
          quantity: 1,
          unit_value: { amount: 900, currency: 'USD' },
          weight_oz: 3,
          hs_tariff_number: '630260',
          origin_country: 'US',
          sku: 'TOWEL-1',
        },
      ],
      derived: true,
      declared_value: { amount: 3400, currency: 'USD' },
    });
    // Kept on the shipment (what its documents are printed from), and read back the same.
    const [row] = await shipmentsOf(order.id);
    expect(row.customs).toMatchObject({ derived: true, eel_pfc: 'NOEEI 30.37(a)' });
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json().customs).toEqual(shipment.customs);
  });

  it("buys with the declaration given at purchase, which replaces the order's", async () => {
    const order = await createOrder({ customs: { ...givenCustoms, items: [{ ...givenCustoms.items[0], description: 'gift' }] } });
    const res = await buy(order.id, { customs: { ...givenCustoms, incoterm: 'DDP' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().customs).toMatchObject({
      derived: false,
      incoterm: 'DDP',
      signer: 'Grace Hopper',
      importer: { eori: 'GB123456789000' },
      items: [{ description: 'Stoneware dinner plate', hs_tariff_number: '691200', origin_country: 'PT' }],
      declared_value: { amount: 6000, currency: 'USD' },
    });
  });

  it("buys with the order's own declaration when none is given (admin generate too)", async () => {
    const order = await createOrder({ customs: givenCustoms, requested_service: 'usps_priority_mail_international' });
    const res = await app.inject({ method: 'POST', url: `/api/admin/orders/${order.id}/generate`, headers: t.adminHeaders, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await shipmentsOf(order.id);
    expect(row.customs).toMatchObject({ derived: false, items: [{ description: 'Stoneware dinner plate' }] });
  });

  it('refuses with 422 customs_required, one detail per missing line field, and buys nothing', async () => {
    const order = await createOrder({
      line_items: [twoLines[0], { sku: 'SOAP-1', name: 'Lavender soap', quantity: 1 }],
    });
    const res = await buy(order.id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'customs_required',
      details: [
        { field: 'line_items[1].unit_price', message: expect.any(String) },
        { field: 'line_items[1].weight_oz', message: expect.any(String) },
      ],
    });
    expect(await shipmentsOf(order.id)).toEqual([]);
    expect(await orderStatus(order.id)).toBe('awaiting_fulfillment');
  });

  it('refuses with 422 customs_invalid, one detail per problem, and buys nothing', async () => {
    const order = await createOrder();
    const res = await buy(order.id, {
      customs: {
        contents_type: 'other',
        aes_itn: 'ITN-1',
        items: [
          { description: 'Gift', quantity: 1, unit_value: { amount: 500, currency: 'USD' }, weight_oz: 4, hs_tariff_number: '12.34', origin_country: 'USA' },
          { description: 'Ceramic coffee mug', quantity: 10, unit_value: { amount: 500, currency: 'EUR' }, weight_oz: 12, origin_country: 'US' },
        ],
      },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('customs_invalid');
    expect(body.details.map((d: { field: string }) => d.field)).toEqual([
      'customs.contents_explanation',
      'customs.aes_itn',
      'customs.items[0].description',
      'customs.items[0].hs_tariff_number',
      'customs.items[0].origin_country',
      'customs.items[1].unit_value.currency',
      'customs.items',
    ]);
    expect(await shipmentsOf(order.id)).toEqual([]);
  });

  it('asks for the AES ITN above 2,500 USD a line (422 on customs.aes_itn), and buys with it', async () => {
    const order = await createOrder();
    const pricey = {
      contents_type: 'merchandise',
      items: [
        {
          description: 'Mechanical wristwatch',
          quantity: 1,
          unit_value: { amount: 300_000, currency: 'USD' },
          weight_oz: 8,
          hs_tariff_number: '9102.11',
          origin_country: 'CH',
        },
      ],
    };
    const refused = await buy(order.id, { customs: pricey });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'customs_invalid', details: [{ field: 'customs.aes_itn' }] });
    const bought = await buy(order.id, { customs: { ...pricey, aes_itn: 'X20260302123456' } });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json().customs).toMatchObject({ aes_itn: 'X20260302123456', eel_pfc: 'AES X20260302123456' });
  });

  it('needs customs to a US military address (AE): refused without a declarable line, bought with one', async () => {
    const undeclarable = await createOrder({
      ship_to: apo,
      line_items: [{ sku: 'BOOK-1', name: 'Paperback novel', quantity: 1, weight_oz: 10 }],
      parcel: { ...parcel, weight_oz: 12 },
    });
    const refused = await buy(undeclarable.id, { service_code: 'usps_priority_mail' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'customs_required', details: [{ field: 'line_items[0].unit_price' }] });

    const order = await createOrder({
      ship_to: apo,
      line_items: [{ sku: 'BOOK-1', name: 'Paperback novel', quantity: 1, unit_price: { amount: 1599, currency: 'USD' }, weight_oz: 10 }],
      parcel: { ...parcel, weight_oz: 12 },
    });
    const res = await buy(order.id, { service_code: 'usps_priority_mail' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().customs).toMatchObject({ derived: true, eel_pfc: 'NOEEI 30.37(a)', declared_value: { amount: 1599, currency: 'USD' } });
  });

  it("leaves a domestic shipment's customs null (a declaration given for it is ignored)", async () => {
    const order = await createOrder({ ship_to: sanFrancisco, customs: givenCustoms });
    const res = await buy(order.id, { service_code: 'usps_ground_advantage', customs: givenCustoms });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().customs).toBeNull();
    const [row] = await shipmentsOf(order.id);
    expect(row.customs).toBeNull();
  });

  it("is refused by the simulated carrier's customs desk: 422 carrier_rejected naming the item, nothing bought", async () => {
    const order = await createOrder();
    const res = await buy(order.id, { customs: { ...givenCustoms, items: [{ ...givenCustoms.items[0], description: 'Clothing' }] } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'carrier_rejected',
      details: [{ field: 'customs.items[0].description', message: expect.stringContaining('Clothing') }],
    });
    // To GB every item of goods needs its HS number.
    const noHs = await buy(order.id, { customs: { ...givenCustoms, items: [{ ...givenCustoms.items[0], hs_tariff_number: null }] } });
    expect(noHs.statusCode).toBe(422);
    expect(noHs.json()).toMatchObject({ code: 'carrier_rejected', details: [{ field: 'customs.items[0].hs_tariff_number' }] });
    expect(await shipmentsOf(order.id)).toEqual([]);
    expect(await orderStatus(order.id)).toBe('awaiting_fulfillment');
  });
});
