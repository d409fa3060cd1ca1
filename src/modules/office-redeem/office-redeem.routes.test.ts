import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';
import { generatePin, MAX_PINS_PER_ORDER } from './office-redeem.service.js';

let app: FastifyInstance;
let root: Record<string, string>;
let t: Tenant;

const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const PRODUCT_KEY = 'ABCDE-12345-FGHIJ-67890-KLMNO';
const CONFIG_365 = {
  title: 'Your Microsoft 365',
  video_url: 'https://example.com/video',
  portal_url: 'https://portal.example.com',
  installer_url: 'https://example.com/setup.exe',
  redeem_url: 'https://redeem.example.com/start',
};

async function setSetting(key: string, value: unknown) {
  const res = await app.inject({ method: 'PUT', url: `/api/super-admin/settings/${key}`, headers: root, payload: { value } });
  expect(res.statusCode, res.body).toBe(200);
}

// Each test looks up from an address of its own, so the per-IP limit is per test.
let ipCounter = 1;
const freshIp = () => `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
const lookup = (pin: string, ip = '10.9.9.9') => app.inject({ method: 'POST', url: '/api/public/office-redeem/lookup', payload: { pin }, remoteAddress: ip });

async function processedOrder(lineItems: Array<Record<string, unknown>>) {
  const created = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: { ship_to: shipTo, line_items: lineItems } });
  expect(created.statusCode, created.body).toBe(201);
  const processed = await app.inject({ method: 'POST', url: `/api/admin/orders/${created.json().id}/process`, headers: t.adminHeaders });
  expect(processed.statusCode, processed.body).toBe(200);
  return processed.json();
}

beforeAll(async () => {
  app = await buildTestApp();
  root = await superAdminHeaders(app);
  t = await createTenant(app);
  await setSetting('office_redeem.sku_map', { 'OFF-2024': 'office_2024', 'OFF-365': 'office_365' });
  await setSetting('office_redeem.lookup_limit_per_minute', 1000);
  const key = await app.inject({
    method: 'PUT',
    url: '/api/super-admin/office-redeem/2024-master-product-key',
    headers: root,
    payload: { product_key: PRODUCT_KEY.toLowerCase(), slip: { title: 'Office 2024', support_email: 'help@example.com' } },
  });
  expect(key.statusCode, key.body).toBe(200);
  const c365 = await app.inject({ method: 'PUT', url: '/api/super-admin/office-redeem/365-pin-configure', headers: root, payload: CONFIG_365 });
  expect(c365.statusCode, c365.body).toBe(200);
});

describe('issuing on order process', () => {
  it('issues one 16-digit PIN per mapped unit; admin read shows them whole, lists and /v1 the last four', async () => {
    const order = await processedOrder([
      { sku: 'OFF-2024', name: 'Office 2024', quantity: 2 },
      { sku: 'off-365', name: 'Office 365', quantity: 1 },
      { sku: 'MUG', name: 'Mug', quantity: 3 },
    ]);
    expect(order.office_pins).toHaveLength(3);
    expect(order.office_pins.map((p: { product: string }) => p.product)).toEqual(['office_2024', 'office_2024', 'office_365']);
    for (const p of order.office_pins) {
      expect(p.pin).toMatch(/^[1-9][0-9]{15}$/);
      expect(p).toMatchObject({ status: 'active', last4: p.pin.slice(-4), test: false });
      expect(new Date(p.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    }
    expect(new Set(order.office_pins.map((p: { pin: string }) => p.pin)).size).toBe(3);

    const adminRead = await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders });
    expect(adminRead.json().office_pins.map((p: { pin: string }) => p.pin)).toEqual(order.office_pins.map((p: { pin: string }) => p.pin));

    const v1Read = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    const masked = v1Read.json().office_pins[0];
    expect(masked.pin).toBe(`••••••••••••${order.office_pins[0].pin.slice(-4)}`);
    const list = await app.inject({ method: 'GET', url: '/api/admin/orders?limit=100', headers: t.adminHeaders });
    const listed = list.json().data.find((o: { id: string }) => o.id === order.id);
    expect(listed.office_pins.map((p: { pin: string }) => p.pin.slice(0, 12))).toEqual(['••••••••••••', '••••••••••••', '••••••••••••']);
    // The single read (one statement, PINs as a JSON subquery) and the list agree field for field.
    const v1Listed = (await app.inject({ method: 'GET', url: '/v1/orders?limit=100', headers: t.headers })).json();
    expect(v1Read.json()).toEqual(v1Listed.data.find((o: { id: string }) => o.id === order.id));

    // The process audit entry names the PINs (ids, never the digits).
    const audit = await app.inject({ method: 'GET', url: `/api/super-admin/audit-log?action=order.processed&target_id=${order.id}`, headers: root });
    expect(audit.json().data[0].changes.office_pins).toEqual(order.office_pins.map((p: { id: string }) => p.id));
  });

  it('an order without mapped SKUs gets no PINs; too many units is 422 and the order stays unprocessed', async () => {
    expect((await processedOrder([{ sku: 'MUG', quantity: 1 }])).office_pins).toEqual([]);
    const created = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: shipTo, line_items: [{ sku: 'OFF-365', quantity: MAX_PINS_PER_ORDER + 1 }] },
    });
    const res = await app.inject({ method: 'POST', url: `/api/admin/orders/${created.json().id}/process`, headers: t.adminHeaders });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('line_items[0].quantity');
    const after = await app.inject({ method: 'GET', url: `/v1/orders/${created.json().id}`, headers: t.headers });
    expect(after.json().status).toBe('awaiting_fulfillment');
  });

  it('generates 16 digits with a non-zero first digit', () => {
    for (let i = 0; i < 200; i++) expect(generatePin()).toMatch(/^[1-9][0-9]{15}$/);
  });
});

describe('public lookup', () => {
  it('answers a 2024 PIN with the master key and slip, a 365 PIN with the configured page, and counts lookups', async () => {
    const order = await processedOrder([
      { sku: 'OFF-2024', quantity: 1 },
      { sku: 'OFF-365', quantity: 1 },
    ]);
    const [p2024, p365] = order.office_pins;
    const ip = freshIp();
    const r2024 = await lookup(p2024.pin.replace(/(\d{4})(?=\d)/g, '$1-'), ip); // printed with dashes
    expect(r2024.statusCode, r2024.body).toBe(200);
    expect(r2024.json()).toEqual({
      product: 'office_2024',
      status: 'active',
      expires_at: p2024.expires_at,
      product_key: PRODUCT_KEY,
      slip: { title: 'Office 2024', instructions: null, support_url: null, support_email: 'help@example.com', footer: null },
    });
    const r365 = await lookup(p365.pin, ip);
    expect(r365.json()).toEqual({ product: 'office_365', status: 'active', expires_at: p365.expires_at, ...CONFIG_365 });
    await lookup(p365.pin, ip);

    const listed = await app.inject({ method: 'GET', url: `/api/super-admin/office-redeem/pins?q=${p365.pin}`, headers: root });
    expect(listed.json().data[0]).toMatchObject({ pin: p365.pin, lookup_count: 2, order_id: order.id });
    expect(listed.json().data[0].last_lookup_at).toEqual(expect.any(String));
  });

  it('malformed → 400, unknown → 404, both in the common error shape', async () => {
    const ip = freshIp();
    const malformed = await lookup('12ab', ip);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'pin', message: 'must be 16 digits' }],
      request_id: malformed.headers['x-request-id'],
    });
    const unknown = await lookup('1000000000000000', ip);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found', request_id: unknown.headers['x-request-id'] });
    expect(Object.keys(unknown.json()).sort()).toEqual(['code', 'details', 'message', 'request_id']);
    expect(unknown.json().details).toEqual([]); // always a list, empty when there is nothing to add
    const nul = await lookup('1234\u0000567812345678', ip);
    expect(nul.statusCode).toBe(400);
  });

  it('refuses past the per-IP limit (setting) with 429 and Retry-After-like details', async () => {
    await setSetting('office_redeem.lookup_limit_per_minute', 3);
    try {
      const ip = freshIp();
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await lookup('1000000000000001', ip)).statusCode);
      expect(codes).toEqual([404, 404, 404, 429]);
      expect(Number((await lookup('1000000000000001', ip)).headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await lookup('1000000000000001', freshIp())).statusCode).toBe(404); // another address is not affected
    } finally {
      await setSetting('office_redeem.lookup_limit_per_minute', 1000);
    }
  });
});

describe('global failed-lookup budget', () => {
  it('refuses every lookup once the failures of the minute (any address) reach the budget', async () => {
    const pin = (
      await app.inject({ method: 'POST', url: '/api/super-admin/office-redeem/create-test-pin', headers: root, payload: { product: 'office_365' } })
    ).json().pin;
    const failedSoFar = await app.deps.counters.count('office_redeem:failed_lookups');
    await setSetting('office_redeem.failed_lookup_budget_per_minute', failedSoFar + 2);
    try {
      expect((await lookup('2000000000000000', freshIp())).statusCode).toBe(404);
      expect((await lookup('bad', freshIp())).statusCode).toBe(400);
      const refused = await lookup('2000000000000000', freshIp());
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('rate_limited');
      expect((await lookup(pin, freshIp())).statusCode).toBe(429); // a real PIN waits too
    } finally {
      await setSetting('office_redeem.failed_lookup_budget_per_minute', 100_000);
    }
    expect((await lookup(pin, freshIp())).statusCode).toBe(200);
  });
});

describe('super-admin PIN management', () => {
  it('expire → 410 with the status; renew → active for 30 more days; renew of an active PIN is 409', async () => {
    const order = await processedOrder([{ sku: 'OFF-365', quantity: 1 }]);
    const pin = order.office_pins[0];
    const ip = freshIp();

    const expired = await app.inject({ method: 'POST', url: `/api/super-admin/office-redeem/pins/${pin.pin}/expire`, headers: root });
    expect(expired.statusCode, expired.body).toBe(200);
    expect(expired.json()).toMatchObject({ id: pin.id, status: 'revoked' });
    const gone = await lookup(pin.pin, ip);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: 'gone', details: [{ field: 'status', message: 'revoked' }] });
    expect((await app.inject({ method: 'POST', url: `/api/super-admin/office-redeem/pins/${pin.pin}/expire`, headers: root })).statusCode).toBe(409);

    const renewed = await app.inject({ method: 'POST', url: `/api/super-admin/office-redeem/pins/${pin.id}/renew`, headers: root });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json()).toMatchObject({ status: 'active', revoked_at: null });
    expect(Math.abs(new Date(renewed.json().expires_at).getTime() - (Date.now() + 30 * 86_400_000))).toBeLessThan(120_000);
    expect((await lookup(pin.pin, ip)).statusCode).toBe(200);
    const again = await app.inject({ method: 'POST', url: `/api/super-admin/office-redeem/pins/${pin.pin}/renew`, headers: root });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state');

    // A PIN past expires_at reads as expired everywhere and can be renewed.
    await app.deps.db
      .updateTable('office_pins')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', pin.id)
      .execute();
    const late = await lookup(pin.pin, ip);
    expect(late.statusCode).toBe(410);
    expect(late.json().details).toEqual([{ field: 'status', message: 'expired' }]);
    const adminRead = await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders });
    expect(adminRead.json().office_pins[0].status).toBe('expired');
    const listed = await app.inject({ method: 'GET', url: `/api/super-admin/office-redeem/pins?filter=expired&q=${pin.pin}`, headers: root });
    expect(listed.json()).toMatchObject({ total: 1, data: [{ id: pin.id, status: 'expired' }] });
    expect((await app.inject({ method: 'POST', url: `/api/super-admin/office-redeem/pins/${pin.pin}/renew`, headers: root })).json().status).toBe('active');

    const audit = await app.inject({ method: 'GET', url: `/api/super-admin/audit-log?target_type=office_pin&target_id=${pin.id}`, headers: root });
    expect(audit.json().data.map((e: { action: string }) => e.action)).toEqual(['office_pin.renewed', 'office_pin.renewed', 'office_pin.revoked']);
    expect(audit.json().data[0].changes.pin).toBe(`••••••••••••${pin.pin.slice(-4)}`);
    expect((await app.inject({ method: 'POST', url: '/api/super-admin/office-redeem/pins/1111222233334444/renew', headers: root })).statusCode).toBe(404);
  });

  it('lists with filter, q/search, limit/offset and total', async () => {
    const a = await app.inject({ method: 'POST', url: '/api/super-admin/office-redeem/create-test-pin', headers: root, payload: { product: 'office_2024' } });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ product: 'office_2024', status: 'active', test: true, order_id: null });
    const all = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/pins?limit=2', headers: root });
    expect(all.json().limit).toBe(2);
    expect(all.json().data).toHaveLength(2);
    const total = all.json().total as number;
    expect(total).toBeGreaterThan(3);
    const page2 = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/pins?limit=2&offset=2', headers: root });
    expect(page2.json()).toMatchObject({ total, offset: 2 });
    expect(page2.json().data[0].id).not.toBe(all.json().data[0].id);
    expect(all.json().data[0].id).toBe(a.json().id); // newest first

    const by2024 = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/pins?filter=office_2024&limit=100', headers: root });
    expect(by2024.json().data.every((p: { product: string }) => p.product === 'office_2024')).toBe(true);
    const revoked = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/pins?status=revoked&limit=100', headers: root });
    expect(revoked.json().data.every((p: { status: string }) => p.status === 'revoked')).toBe(true);
    const search = await app.inject({ method: 'GET', url: `/api/super-admin/office-redeem/pins?search=${a.json().pin.slice(3, 13)}`, headers: root });
    expect(search.json().data.map((p: { id: string }) => p.id)).toContain(a.json().id);
    const bad = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/pins?q=abc', headers: root });
    expect(bad.statusCode).toBe(400);
    const badFilter = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/pins?filter=nope', headers: root });
    expect(badFilter.statusCode).toBe(400);
  });

  it('2024 configuration: format checked, key sealed at rest, masked in the audit log', async () => {
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/super-admin/office-redeem/2024-master-product-key',
      headers: root,
      payload: { product_key: 'ABCDE-12345' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('product_key');
    const read = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/2024-master-product-key', headers: root });
    expect(read.json()).toMatchObject({ product_key: PRODUCT_KEY, slip: { title: 'Office 2024' } });

    const stored = await app.deps.db.selectFrom('office_redeem_config').select('value').where('product', '=', 'office_2024').executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.value)).not.toContain('ABCDE');
    const audit = await app.deps.db.selectFrom('audit_log').select('changes').where('target_id', '=', 'office_2024').execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit.map((a) => a.changes))).not.toContain('ABCDE');
    expect((audit[0].changes as { product_key: { to: string } }).product_key.to).toBe('•••••-•••••-•••••-•••••-KLMNO');
  });

  it('365 configuration: URLs are validated', async () => {
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/super-admin/office-redeem/365-pin-configure',
      headers: root,
      payload: { ...CONFIG_365, portal_url: 'javascript:alert(1)', redeem_url: 'not a url' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['portal_url', 'redeem_url']);
    const nul = await app.inject({
      method: 'PUT',
      url: '/api/super-admin/office-redeem/365-pin-configure',
      headers: root,
      payload: { ...CONFIG_365, title: 'a\u0000b' },
    });
    expect(nul.statusCode).toBe(400);
    const slipNul = await app.inject({
      method: 'PUT',
      url: '/api/super-admin/office-redeem/2024-master-product-key',
      headers: root,
      payload: { product_key: PRODUCT_KEY, slip: { footer: '\u0000' } },
    });
    expect(slipNul.statusCode).toBe(400);
    const read = await app.inject({ method: 'GET', url: '/api/super-admin/office-redeem/365-pin-configure', headers: root });
    expect(read.json()).toMatchObject(CONFIG_365);
  });

  it('the public dev endpoint creates a test PIN outside production', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/public/office-redeem/dev-create-test-pin', payload: { product: 'office_365' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ test: true, product: 'office_365' });
    expect((await lookup(res.json().pin, freshIp())).json().product).toBe('office_365');
  });
});

describe('production gating of test PINs', () => {
  let prod: FastifyInstance;
  let prodAllowed: FastifyInstance;
  beforeAll(async () => {
    const key = 'a'.repeat(64);
    prod = await buildTestApp({ config: { nodeEnv: 'production', isProduction: true, encryptionKey: key } });
    prodAllowed = await buildTestApp({ config: { nodeEnv: 'production', isProduction: true, encryptionKey: key, allowOfficeRedeemTestPin: true } });
  });

  it('production: both refused with 403 not_available_in_production', async () => {
    const headers = await superAdminHeaders(prod);
    const pub = await prod.inject({ method: 'POST', url: '/api/public/office-redeem/dev-create-test-pin', payload: { product: 'office_365' } });
    expect(pub.statusCode).toBe(403);
    expect(pub.json().code).toBe('not_available_in_production');
    const sa = await prod.inject({ method: 'POST', url: '/api/super-admin/office-redeem/create-test-pin', headers, payload: { product: 'office_365' } });
    expect(sa.statusCode).toBe(403);
    expect(sa.json().code).toBe('not_available_in_production');
  });

  it('production with ALLOW_OFFICE_REDEEM_TEST_PIN=1: the super-admin one only', async () => {
    const headers = await superAdminHeaders(prodAllowed);
    const sa = await prodAllowed.inject({
      method: 'POST',
      url: '/api/super-admin/office-redeem/create-test-pin',
      headers,
      payload: { product: 'office_2024' },
    });
    expect(sa.statusCode, sa.body).toBe(201);
    expect(sa.json().test).toBe(true);
    const pub = await prodAllowed.inject({ method: 'POST', url: '/api/public/office-redeem/dev-create-test-pin', payload: { product: 'office_365' } });
    expect(pub.statusCode).toBe(403);
    // Without a session the super-admin route is still 401 first.
    expect(
      (await prodAllowed.inject({ method: 'POST', url: '/api/super-admin/office-redeem/create-test-pin', payload: { product: 'office_2024' } })).statusCode,
    ).toBe(401);
  });
});
