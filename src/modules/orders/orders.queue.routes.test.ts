import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { INTERNATIONAL_ORDER_BODY_EXAMPLE } from './orders.examples.js';
import { ORDER_STATUSES } from './orders.states.js';

// The order queue's reads: the list's new filters and sorts, the tabs' counts and the CSV export,
// on both surfaces (docs/api-conventions.md, "Lists and pagination" and "Files").
let app: FastifyInstance;
let t: Tenant;
let stranger: Tenant;
const US = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

async function createOrder(tenant: Tenant, body: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: tenant.headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; external_id: string | null; status: string };
}

const line = (over: Record<string, unknown> = {}) => ({
  sku: 'MUG',
  name: 'Mug',
  quantity: 2,
  weight_oz: 10,
  unit_price: { amount: 1250, currency: 'USD' },
  ...over,
});

let ids: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
  stranger = await createTenant(app);
  ids = {};
  // Created in this order: created_at ascending follows it.
  ids.b = (await createOrder(t, { external_id: 'B-200', ship_to: US, line_items: [line()], requested_service: 'usps_ground_advantage' })).id;
  ids.a = (await createOrder(t, { external_id: 'A-100', ship_to: US, line_items: [line({ quantity: 1 })], requested_service: 'ups_ground' })).id;
  ids.intl = (await createOrder(t, { ...INTERNATIONAL_ORDER_BODY_EXAMPLE, external_id: 'C-300' })).id;
  ids.evil = (
    await createOrder(t, {
      external_id: '=HYPERLINK("http://evil.example","x")',
      ship_to: { ...US, name: '+Mallory, "the" @boss\nsecond line' },
      line_items: [line({ quantity: 3 })],
      requested_service: 'ups_next_day_air',
    })
  ).id;
  const processed = await app.inject({ method: 'POST', url: `/v1/orders/${ids.a}/process`, headers: t.headers });
  expect(processed.statusCode, processed.body).toBe(200);
  // Another workspace's orders, each matching every filter used here: never listed nor counted.
  for (const n of [1, 2]) await createOrder(stranger, { external_id: `X-${n}`, ship_to: US, line_items: [line()], requested_service: 'ups_ground' });
});

const get = (url: string, headers = t.headers) => app.inject({ method: 'GET', url, headers });
const listIds = async (url: string) => {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { id: string }[]).map((o) => o.id);
};

describe('GET /v1/orders filters and sorts', () => {
  it('filters on the requested service, its carrier and the destination country', async () => {
    expect(await listIds('/v1/orders?carrier=ups')).toEqual([ids.evil, ids.a]);
    expect(await listIds('/v1/orders?service=usps_ground_advantage')).toEqual([ids.b]);
    expect(await listIds('/v1/orders?ship_to_country=gb')).toEqual([ids.intl]);
    expect(await listIds('/v1/orders?ship_to_country=US&carrier=ups&status=processing')).toEqual([ids.a]);
  });

  it('sorts by created_at either way and by order number, pages keeping the sort', async () => {
    expect(await listIds('/v1/orders')).toEqual([ids.evil, ids.intl, ids.a, ids.b]);
    expect(await listIds('/v1/orders?sort=-created_at')).toEqual([ids.evil, ids.intl, ids.a, ids.b]);
    expect(await listIds('/v1/orders?sort=created_at')).toEqual([ids.b, ids.a, ids.intl, ids.evil]);
    // '=' sorts before letters in byte order, so the formula-looking number comes first.
    const byNumber = await listIds('/v1/orders?sort=order_number');
    expect(byNumber.slice(1)).toEqual([ids.a, ids.b, ids.intl]);
    expect(await listIds('/v1/orders?sort=-order_number')).toEqual([...byNumber].reverse());
    for (const sort of ['created_at', 'order_number', '-order_number', '-created_at']) {
      const all = await listIds(`/v1/orders?sort=${sort}`);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`/v1/orders?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.statusCode, res.body).toBe(200);
        seen.push(...res.json().data.map((o: { id: string }) => o.id));
        cursor = res.json().next_cursor;
      } while (cursor);
      expect(seen, sort).toEqual(all);
    }
  });

  it('refuses an unknown sort, a malformed filter and a cursor of another sort, naming the field', async () => {
    for (const [query, field] of [
      ['sort=total', 'sort'],
      ['carrier=UPS!', 'carrier'],
      ['service=ground', 'service'],
      ['ship_to_country=USA', 'ship_to_country'],
    ]) {
      const res = await get(`/v1/orders?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(
        res.json().details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
    const first = await get('/v1/orders?sort=created_at&limit=1');
    const other = await get(`/v1/orders?sort=-order_number&cursor=${first.json().next_cursor}`);
    expect(other.statusCode).toBe(400);
    expect(other.json().details).toEqual([expect.objectContaining({ field: 'cursor' })]);
    const defaults = await get('/v1/orders?limit=1');
    expect((await get(`/v1/orders?sort=created_at&cursor=${defaults.json().next_cursor}`)).statusCode).toBe(400);
  });
});

describe('GET …/orders/counts', () => {
  it('counts every status with the filters but the status, only this workspace', async () => {
    for (const url of ['/v1/orders/counts', '/api/admin/orders/counts']) {
      const res = await get(url, url.startsWith('/v1') ? t.headers : t.adminHeaders);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.data.map((d: { status: string }) => d.status)).toEqual([...ORDER_STATUSES]);
      expect(Object.fromEntries(body.data.map((d: { status: string; count: number }) => [d.status, d.count]))).toMatchObject({
        awaiting_fulfillment: 3,
        processing: 1,
        shipped: 0,
      });
      expect(body.total).toBe(4);
    }
    const ups = (await get('/v1/orders/counts?carrier=ups')).json();
    expect(ups.total).toBe(2);
    expect(ups.data.find((d: { status: string }) => d.status === 'processing').count).toBe(1);
    // The stranger sees its own two only.
    expect((await get('/v1/orders/counts', stranger.headers)).json().total).toBe(2);
    expect((await get('/api/admin/orders/counts?ship_to_country=US', stranger.adminHeaders)).json().total).toBe(2);
  });

  it("ignores a status filter (the list's query string serves as is) and counts archived orders only when asked", async () => {
    const res = await get('/v1/orders/counts?status=shipped');
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(4);
    const archived = await app.inject({ method: 'POST', url: `/v1/orders/${ids.b}/archive`, headers: t.headers });
    expect(archived.statusCode).toBe(200);
    try {
      expect((await get('/v1/orders/counts')).json().total).toBe(3);
      expect((await get('/v1/orders/counts?archived=all')).json().total).toBe(4);
      expect((await get('/v1/orders/counts?archived=true')).json().total).toBe(1);
    } finally {
      await app.inject({ method: 'POST', url: `/v1/orders/${ids.b}/unarchive`, headers: t.headers });
    }
  });

  it('is not read as an order id, and a viewer may read it', async () => {
    const viewerKey = await app.identity.workspaces.createApiKey(
      t.workspaceId,
      { name: 'viewer', environment: 'test', role: 'viewer' },
      { type: 'system', id: null },
      {},
    );
    const headers = { authorization: `Bearer ${viewerKey.secret}`, 'x-service-workspace': t.workspaceId };
    expect((await get('/v1/orders/counts', headers)).statusCode).toBe(200);
    expect((await get('/v1/orders/export.csv', headers)).statusCode).toBe(200);
  });
});

/** RFC 4180 reader: quoted cells, doubled quotes, commas and line breaks inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(quoted).toBe(false);
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe('GET …/orders/export.csv', () => {
  it('downloads the filtered, sorted orders as CSV, formulas neutralised', async () => {
    const res = await get('/api/admin/orders/export.csv?sort=created_at', t.adminHeaders);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['x-export-truncated']).toBeUndefined();
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(res.body.slice(1));
    expect(header).toEqual(['Order number', 'Date', 'Recipient', 'Destination', 'Items', 'Weight (oz)', 'Requested service', 'Total', 'Currency', 'Status']);
    expect(rows.map((r) => r[0])).toEqual(['B-200', 'A-100', 'C-300', `'=HYPERLINK("http://evil.example","x")`]);
    const b = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
    expect(b).toMatchObject({
      Recipient: 'Ada Lovelace',
      Destination: 'San Francisco, CA 94105, US',
      Items: '2',
      'Weight (oz)': '20',
      'Requested service': 'usps_ground_advantage',
      Total: '25.00',
      Currency: 'USD',
      Status: 'awaiting_fulfillment',
    });
    expect(rows[1]![9]).toBe('processing');
    // The recipient keeps its comma, quotes and line break, and cannot start a formula.
    expect(rows[3]![2]).toBe(`'+Mallory, "the" @boss\nsecond line`);
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it("honours the filters on /v1 too and never holds another workspace's orders", async () => {
    const res = await get('/v1/orders/export.csv?carrier=ups&sort=-created_at');
    expect(res.statusCode, res.body).toBe(200);
    const rows = parseCsv(res.body.slice(1)).slice(1);
    expect(rows.map((r) => r[0])).toEqual([`'=HYPERLINK("http://evil.example","x")`, 'A-100']);
    const theirs = parseCsv((await get('/api/admin/orders/export.csv', stranger.adminHeaders)).body.slice(1)).slice(1);
    expect(theirs.map((r) => r[0]).sort()).toEqual(['X-1', 'X-2']);
    const bad = await get('/v1/orders/export.csv?sort=weight');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toContain('sort');
  });
});
