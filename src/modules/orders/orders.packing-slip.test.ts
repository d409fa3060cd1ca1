import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';

let app: FastifyInstance;
let t: Tenant;
let other: Tenant;
const dir = mkdtempSync(path.join(tmpdir(), 'slip-'));

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
  other = await createTenant(app);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const poppler = spawnSync('pdftotext', ['-v']).status === 0;
function pdfText(body: Buffer): string {
  const file = path.join(dir, `slip-${Date.now()}-${Math.random()}.pdf`);
  writeFileSync(file, body);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
}

let seq = 0;
async function order(headers: Record<string, string>) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers,
    payload: {
      external_id: `SHOP-${1042 + seq++}`,
      ship_to: { name: '山田 太郎', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
      ship_from: { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
      line_items: [
        { sku: 'MUG-1', name: 'Ceramic mug', quantity: 2, weight_oz: 12 },
        { sku: 'TEA-9', name: 'Green tea, 100 g', quantity: 3 },
      ],
      notes: 'Gift wrap please',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

describe('GET /v1/orders/:id/packing-slip', () => {
  it('is a PDF naming the order, the buyer and every line with its quantity; the admin twin answers the same', async () => {
    const o = await order(t.headers);
    const res = await app.inject({ method: 'GET', url: `/v1/orders/${o.id}/packing-slip`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="packing-slip-${o.id}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    if (poppler) {
      const text = pdfText(res.rawPayload);
      for (const s of ['PACKING SLIP', 'Order SHOP-1042', '山田 太郎', 'Acme', 'MUG-1', 'Ceramic mug', 'Green tea, 100 g', 'Items: 5', 'Gift wrap please'])
        expect(text, s).toContain(s);
      expect(text).toMatch(/2 MUG-1/);
      expect(text).toMatch(/3 TEA-9/);
    }
    const admin = await app.inject({ method: 'GET', url: `/api/admin/orders/${o.id}/packing-slip`, headers: t.adminHeaders });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.headers['content-type']).toBe('application/pdf');
  });

  it("is 404 (JSON) for another workspace's order or an unknown id, 401 without a key", async () => {
    const o = await order(t.headers);
    for (const url of [`/v1/orders/${o.id}/packing-slip`, '/v1/orders/ord_01jx0000000000000000000000/packing-slip']) {
      const res = await app.inject({ method: 'GET', url, headers: other.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', details: [], request_id: expect.any(String) });
    }
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${o.id}/packing-slip` })).statusCode).toBe(401);
  });
});
