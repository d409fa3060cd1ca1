import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { openDatabase } from '../../platform/db/database.js';

// A fake clock: Monday 2 March 2026, 15:00 UTC (before the 17:00 pickup cutoff).
const NOW = new Date('2026-03-02T15:00:00.000Z');
let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ now: () => NOW });
  t = await createTenant(app);
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const parcel = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };

const post = (url: string, payload: unknown, headers = t.headers) => app.inject({ method: 'POST', url, headers, payload: payload as object });
const createRule = async (payload: Record<string, unknown>, headers = t.headers) => {
  const res = await post('/v1/shipping-rules', payload, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

async function createOrder(headers: Record<string, string>, extra: Record<string, unknown> = {}) {
  const res = await post(
    '/v1/orders',
    {
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, weight_oz: 12, unit_price: { amount: 1500, currency: 'USD' } }],
      parcel,
      ...extra,
    },
    headers,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('shipping rules CRUD', () => {
  it('creates, reads, changes and deletes a rule; each change is audit-logged', async () => {
    const tenant = await createTenant(app);
    const rule = await createRule(
      {
        name: 'Canada',
        priority: 10,
        when: { destination_countries: ['ca'], weight_oz: { max: 160 } },
        then: { exclude_carriers: ['dhl_express'], max_business_days: 5, choose: 'best_value' },
      },
      tenant.headers,
    );
    expect(rule).toMatchObject({
      name: 'Canada',
      priority: 10,
      enabled: true,
      when: { destination_countries: ['CA'], weight_oz: { max: 160 } },
      then: { choose: 'best_value' },
    });
    expect(rule.id).toMatch(/^rule_/);
    const url = `/v1/shipping-rules/${rule.id}`;
    expect((await app.inject({ method: 'GET', url, headers: tenant.headers })).json()).toEqual(rule);

    const patched = await app.inject({ method: 'PATCH', url, headers: tenant.headers, payload: { enabled: false, then: { choose: 'fastest' } } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ enabled: false, when: rule.when, then: { choose: 'fastest' } });
    expect(patched.json().then.exclude_carriers).toBeUndefined();

    expect((await app.inject({ method: 'DELETE', url, headers: tenant.headers })).statusCode).toBe(204);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url, headers: tenant.headers, ...(method === 'PATCH' ? { payload: { enabled: true } } : {}) });
      expect(res.statusCode, method).toBe(404);
    }
    const audit = await app.deps.db.selectFrom('audit_log').select('action').where('target_id', '=', rule.id).orderBy('at').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['shipping_rule.created', 'shipping_rule.updated', 'shipping_rule.deleted']);
  });

  it('lists in the order rules apply (priority, then oldest first), a page at a time', async () => {
    const tenant = await createTenant(app);
    const made = [];
    for (const [name, priority] of [
      ['b', 20],
      ['a', 10],
      ['c', 20],
      ['d', 5],
      ['e', 10],
    ] as const)
      made.push(await createRule({ name, priority, then: { choose: 'cheapest' } }, tenant.headers));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await app.inject({ method: 'GET', url: `/v1/shipping-rules?limit=2${cursor ? `&cursor=${cursor}` : ''}`, headers: tenant.headers });
      expect(res.statusCode, res.body).toBe(200);
      const page: { data: Array<{ name: string }>; next_cursor: string | null; has_more: boolean } = res.json();
      seen.push(...page.data.map((r) => r.name));
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(['d', 'a', 'e', 'b', 'c']);
    const bad = await app.inject({ method: 'GET', url: '/v1/shipping-rules?cursor=nope', headers: tenant.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ field: 'cursor', message: 'is not a cursor returned by this endpoint' }]);
  });

  it('refuses every faulty condition and action, one detail per field', async () => {
    const res = await post('/v1/shipping-rules', {
      name: 'broken',
      priority: 1,
      when: {
        destination_countries: ['US', 'XX'],
        weight_oz: { min: 20, max: 10 },
        order_value: { min: { amount: 500, currency: 'USD' }, max: { amount: 100, currency: 'USD' } },
      },
      then: { exclude_carriers: ['nope'], exclude_services: ['ups_ground', 'ups_teleport'], only_services: ['fake'], choose: 'preferred' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(
      res
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual([
      'then.exclude_carriers[0]',
      'then.exclude_services[1]',
      'then.only_services[0]',
      'then.preferred_services',
      'when.destination_countries[1]',
      'when.order_value.min.amount',
      'when.weight_oz.min',
    ]);
    const currencies = await post('/v1/shipping-rules', {
      name: 'x',
      priority: 1,
      when: { order_value: { min: { amount: 1, currency: 'USD' }, max: { amount: 2, currency: 'EUR' } } },
      then: { choose: 'cheapest', preferred_services: ['ups_ground'] },
    });
    expect(currencies.json().details).toEqual([
      { field: 'when.order_value.max.currency', message: 'must be the currency of min (USD)' },
      { field: 'then.preferred_services', message: 'applies only when choose is preferred' },
    ]);
    const schema = await post('/v1/shipping-rules', { name: 'x', priority: 1.5, then: { choose: 'random' } });
    expect(schema.statusCode).toBe(400);
    expect(schema.json().details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['priority', 'then.choose']));
    // A PATCH is checked against the rule it makes.
    const rule = await createRule({ name: 'ok', priority: 1, then: { choose: 'cheapest' } });
    const patch = await app.inject({ method: 'PATCH', url: `/v1/shipping-rules/${rule.id}`, headers: t.headers, payload: { then: { choose: 'preferred' } } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().details).toEqual([{ field: 'then.preferred_services', message: 'is required when choose is preferred' }]);
  });

  it('are the same resource for the dashboard under /api/admin; another workspace’s rule is 404', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/shipping-rules',
      headers: t.adminHeaders,
      payload: { name: 'from the dashboard', priority: 3, then: { choose: 'fastest' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await app.inject({ method: 'GET', url: `/v1/shipping-rules/${created.json().id}`, headers: t.headers })).json().name).toBe('from the dashboard');
    const url = `/v1/shipping-rules/${created.json().id}`;
    await expectV1AuthMatrix(app, { method: 'GET', url }, { owner: t, otherWorkspaceResource: true });
    const stranger = await createTenant(app);
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url, headers: stranger.headers, ...(method === 'PATCH' ? { payload: { enabled: false } } : {}) });
      expect(res.statusCode, method).toBe(404);
    }
    // The live environment is another set of rules.
    expect((await app.inject({ method: 'GET', url, headers: t.liveHeaders })).statusCode).toBe(404);
  });
});

describe('POST /v1/shipping-rules/evaluate', () => {
  it('no rule: the cheapest option, every option considered', async () => {
    const tenant = await createTenant(app);
    const order = await createOrder(tenant.headers);
    const quote = (await post('/v1/rates/query', { ship_from: shipFrom, ship_to: shipTo, parcel }, tenant.headers)).json();
    const res = await post('/v1/shipping-rules/evaluate', { order_id: order.id }, tenant.headers);
    expect(res.statusCode, res.body).toBe(200);
    const selection = res.json();
    expect(selection).toMatchObject({ rule_id: null, rule_name: null, strategy: 'cheapest', chosen: quote.data[0].service_code });
    expect(selection.considered.map((c: { service_code: string }) => c.service_code)).toEqual(quote.data.map((o: { service_code: string }) => o.service_code));
    expect(selection.considered.every((c: { excluded: boolean }) => !c.excluded)).toBe(true);
  });

  it('the first matching rule by priority applies, for an order and for a rate query alike; a change applies at once', async () => {
    const tenant = await createTenant(app);
    const order = await createOrder(tenant.headers);
    await createRule({ name: 'never matches', priority: 1, when: { destination_countries: ['CA'] }, then: { choose: 'cheapest' } }, tenant.headers);
    const fastest = await createRule(
      {
        name: 'mugs go fast',
        priority: 5,
        when: { skus_any: ['MUG-1'], order_value: { min: { amount: 3000, currency: 'USD' } } },
        then: { choose: 'fastest', exclude_carriers: ['dhl_express'] },
      },
      tenant.headers,
    );
    await createRule({ name: 'later', priority: 9, then: { choose: 'cheapest' } }, tenant.headers);

    const byOrder = (await post('/v1/shipping-rules/evaluate', { order_id: order.id }, tenant.headers)).json();
    expect(byOrder).toMatchObject({ rule_id: fastest.id, rule_name: 'mugs go fast', strategy: 'fastest' });
    const kept = byOrder.considered.filter((c: { excluded: boolean }) => !c.excluded);
    const minDays = Math.min(...kept.map((c: { business_days: number }) => c.business_days));
    expect(kept.find((c: { service_code: string }) => c.service_code === byOrder.chosen).business_days).toBe(minDays);
    for (const c of byOrder.considered.filter((c: { service_code: string }) => c.service_code.startsWith('dhl_express')))
      expect(c).toMatchObject({ excluded: true, reason: 'carrier dhl_express is excluded' });

    // The same facts through a rate query; without the order value the rule does not match.
    const query = { ship_from: shipFrom, ship_to: shipTo, parcel, skus: ['MUG-1'] };
    expect((await post('/v1/shipping-rules/evaluate', { ...query, order_value: { amount: 3000, currency: 'USD' } }, tenant.headers)).json()).toMatchObject({
      rule_id: fastest.id,
      chosen: byOrder.chosen,
    });
    expect((await post('/v1/shipping-rules/evaluate', query, tenant.headers)).json()).toMatchObject({ rule_name: 'later' });

    // Disabling the rule takes effect on the next evaluation (the cache is invalidated).
    await app.inject({ method: 'PATCH', url: `/v1/shipping-rules/${fastest.id}`, headers: tenant.headers, payload: { enabled: false } });
    expect((await post('/v1/shipping-rules/evaluate', { order_id: order.id }, tenant.headers)).json()).toMatchObject({
      rule_name: 'later',
      strategy: 'cheapest',
    });
  });

  it('a rule that leaves no option: 422 no_rates naming the rule', async () => {
    const tenant = await createTenant(app);
    const order = await createOrder(tenant.headers);
    const strict = await createRule({ name: 'same day only', priority: 1, then: { max_business_days: 0, choose: 'cheapest' } }, tenant.headers);
    const res = await post('/v1/shipping-rules/evaluate', { order_id: order.id }, tenant.headers);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('no_rates');
    expect(res.json().details[0]).toMatchObject({ field: 'shipping_rule', rule_id: strict.id, rule_name: 'same day only' });
    expect(res.json().details.length).toBeGreaterThan(1);
  });

  it('takes an order_id or a rate query, not both nor neither; another workspace’s order is 404', async () => {
    const order = await createOrder(t.headers);
    const both = await post('/v1/shipping-rules/evaluate', { order_id: order.id, ship_from: shipFrom, ship_to: shipTo, parcel });
    expect(both.statusCode).toBe(400);
    expect(both.json().details).toEqual([{ field: 'order_id', message: 'is given with a rate query: send one or the other' }]);
    const neither = await post('/v1/shipping-rules/evaluate', { ship_to: shipTo });
    expect(neither.json().details.map((d: { field: string }) => d.field)).toEqual(['ship_from', 'parcel']);
    const stranger = await createTenant(app);
    expect((await post('/v1/shipping-rules/evaluate', { order_id: order.id }, stranger.headers)).statusCode).toBe(404);
    // A rate query is checked as POST /v1/rates/query checks it.
    const badLane = await post('/v1/shipping-rules/evaluate', { ship_from: shipFrom, ship_to: { ...shipTo, country: 'ZZ' }, parcel });
    expect(badLane.statusCode).toBe(400);
    expect(badLane.json().details.map((d: { field: string }) => d.field)).toContain('ship_to.country');
  });
});

// Two API processes on one PostgreSQL: both cache the enabled rules; a change on one is in force
// on the other at once (the invalidation bus is LISTEN/NOTIFY there).
it.runIf(inject('testDb').engine === 'postgres')('a rule change applies on every process', async () => {
  const tenant = await createTenant(app);
  const order = await createOrder(tenant.headers);
  const db2 = await openDatabase({ databaseUrl: app.deps.database.connectionString!, poolMax: 2 });
  let other: FastifyInstance | undefined;
  try {
    other = await buildApp({ config: testConfig(), database: db2, migrate: false, perIpPerMinute: 100_000, now: () => NOW });
    const evaluate = async () =>
      (await other!.inject({ method: 'POST', url: '/v1/shipping-rules/evaluate', headers: tenant.headers, payload: { order_id: order.id } })).json();
    expect((await evaluate()).rule_id).toBeNull(); // warms the other process's cache
    const rule = await createRule({ name: 'fastest', priority: 1, then: { choose: 'fastest' } }, tenant.headers);
    // NOTIFY is asynchronous: allow it a moment to arrive, bounded.
    let seen: string | null = null;
    for (let i = 0; i < 50 && seen !== rule.id; i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = (await evaluate()).rule_id;
    }
    expect(seen).toBe(rule.id);
  } finally {
    await other?.close();
    await db2.close();
  }
});

describe('service_code auto on POST /v1/shipments', () => {
  const buy = (headers: Record<string, string>, body: Record<string, unknown>) => post('/v1/shipments', body, headers);

  it('buys the service the rules choose and keeps the selection; an explicit service keeps none', async () => {
    const tenant = await createTenant(app);
    const rule = await createRule(
      {
        name: 'ups only, fastest',
        priority: 1,
        when: { destination_countries: ['US'] },
        then: { exclude_carriers: ['usps', 'fedex', 'dhl_express'], choose: 'fastest' },
      },
      tenant.headers,
    );
    const order = await createOrder(tenant.headers);
    const evaluated = (await post('/v1/shipping-rules/evaluate', { order_id: order.id }, tenant.headers)).json();
    const res = await buy(tenant.headers, { order_id: order.id, service_code: 'auto' });
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    expect(shipment.carrier).toBe('ups');
    expect(shipment.service_code).toBe(evaluated.chosen);
    expect(shipment.carrier_account_id).toBe(evaluated.carrier_account_id);
    expect(shipment.selection).toMatchObject({ rule_id: rule.id, rule_name: 'ups only, fastest', strategy: 'fastest', chosen: shipment.service_code });
    expect(shipment.selection.considered).toEqual(evaluated.considered);
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: tenant.headers })).json().selection).toEqual(shipment.selection);

    const again = await buy(tenant.headers, { order_id: order.id, service_code: 'auto' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state');

    const explicit = await buy(tenant.headers, { order_id: (await createOrder(tenant.headers)).id, service_code: 'usps_ground_advantage' });
    expect(explicit.statusCode, explicit.body).toBe(201);
    expect(explicit.json().selection).toBeNull();
  });

  it('admin generate without a service applies the rules too; "cheapest" skips them', async () => {
    const tenant = await createTenant(app);
    const rule = await createRule({ name: 'fastest', priority: 1, then: { choose: 'fastest' } }, tenant.headers);
    const shipmentOf = async (orderId: string) =>
      (await app.inject({ method: 'GET', url: `/v1/shipments?order_id=${orderId}`, headers: tenant.headers })).json().data[0];
    const byRules = await createOrder(tenant.headers);
    expect((await post(`/api/admin/orders/${byRules.id}/generate`, {}, tenant.adminHeaders)).statusCode).toBe(200);
    expect((await shipmentOf(byRules.id)).selection).toMatchObject({ rule_id: rule.id, strategy: 'fastest' });
    const cheapest = await createOrder(tenant.headers);
    expect((await post(`/api/admin/orders/${cheapest.id}/generate`, { service_code: 'cheapest' }, tenant.adminHeaders)).statusCode).toBe(200);
    const plain = (await shipmentOf(cheapest.id)).selection;
    expect(plain).toMatchObject({ rule_id: null, strategy: 'cheapest' });
    expect(plain.chosen).toBe(plain.considered[0].service_code);
  });

  it('a rule that leaves nothing is 422 no_rates and buys nothing; auto takes no carrier_account_id', async () => {
    const tenant = await createTenant(app);
    await createRule({ name: 'impossible', priority: 1, then: { max_price: { amount: 1, currency: 'USD' }, choose: 'cheapest' } }, tenant.headers);
    const order = await createOrder(tenant.headers);
    const res = await buy(tenant.headers, { order_id: order.id, service_code: 'auto' });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('no_rates');
    expect(res.json().details[0]).toMatchObject({ field: 'shipping_rule', rule_name: 'impossible' });
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: tenant.headers })).json().status).not.toBe('shipped');
    const withAccount = await buy(tenant.headers, { order_id: order.id, service_code: 'auto', carrier_account_id: 'ca_x' });
    expect(withAccount.statusCode).toBe(400);
    expect(withAccount.json().details).toEqual([
      { field: 'carrier_account_id', message: 'cannot be given with service_code auto: the shipping rules choose the account' },
    ]);
  });
});
