import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';
import { EXPORT_MAX_ROWS } from './orders.csv.js';
import { insertOrders } from './orders.repo.js';
import type { NewOrderRow } from './orders.tables.js';

// The CSV export's cap: one order more than the file holds → the first rows in the list's sort,
// and the response says the file is cut.
let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
  const start = Date.parse('2026-01-01T00:00:00Z');
  const rows: NewOrderRow[] = Array.from({ length: EXPORT_MAX_ROWS + 1 }, (_, i) => ({
    id: newId('order'),
    workspace_id: t.workspaceId,
    environment: 'test',
    source: 'api',
    external_id: `CAP-${String(i).padStart(5, '0')}`,
    status: 'awaiting_fulfillment',
    customer_name: null,
    customer_email: null,
    customer_phone: null,
    ship_to: JSON.stringify({ name: 'Ada', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' }),
    line_items: JSON.stringify([{ sku: 'A', name: null, quantity: 1, unit_price: null, weight_oz: 1 }]),
    parcel: JSON.stringify({ weight_oz: 1, length_in: 6, width_in: 4, height_in: 2 }),
    created_at: new Date(start + i * 1000),
    updated_at: new Date(start + i * 1000),
  }));
  for (let i = 0; i < rows.length; i += 1000) await insertOrders(app.deps.db, rows.slice(i, i + 1000));
}, 240_000);

describe('GET /v1/orders/export.csv past its cap', () => {
  it('holds the first rows in the sort and says it is truncated; under the cap it does not', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/orders/export.csv?sort=created_at', headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-export-truncated']).toBe('true');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(EXPORT_MAX_ROWS + 1);
    expect(lines[1]).toMatch(/^"CAP-00000",/);
    expect(lines[EXPORT_MAX_ROWS]).toMatch(new RegExp(`^"CAP-${String(EXPORT_MAX_ROWS - 1).padStart(5, '0')}",`));
    const under = await app.inject({ method: 'GET', url: '/v1/orders/export.csv?created_after=2026-01-01T00:00:01Z', headers: t.headers });
    expect(under.headers['x-export-truncated']).toBeUndefined();
    expect(under.body.trimEnd().split('\r\n')).toHaveLength(EXPORT_MAX_ROWS + 1);
  }, 120_000);
});
