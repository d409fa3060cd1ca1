import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';

// "Nothing written on a 4xx", intake's exception: a refused store push is recorded,
// because it drives the integration's health. That record (and a health change's event) is
// committed before the 400 is sent (the route's onError hook runs before the error handler
// answers), never after: a client, or the fuzz walk's row count, that looks right after the
// answer sees it. Checked over a real socket, read back on a connection of its own (on
// PostgreSQL, another session: only committed rows are visible to it).

let app: FastifyInstance;
let t: Tenant;
let base: string;
let reader: pg.Client | undefined;

beforeAll(async () => {
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('hex') } });
  t = await createTenant(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  if (app.deps.database.connectionString) {
    reader = new pg.Client({ connectionString: app.deps.database.connectionString });
    await reader.connect();
  }
});
afterAll(async () => {
  await reader?.end();
});

/** Rows of this integration as another session sees them now. */
async function committed(integrationId: string): Promise<{ failures: number; changes: number }> {
  const text = `select (select count(*)::int from integration_intake_failures where integration_id = $1) as failures,
                       (select count(*)::int from events where type = 'integration.health_changed' and data->>'integration_id' = $1) as changes`;
  if (reader) return (await reader.query<{ failures: number; changes: number }>(text, [integrationId])).rows[0];
  const { rows } = await app.deps.database.pglite!.query<{ failures: number; changes: number }>(text, [integrationId]);
  return rows[0];
}

describe('a refused intake push', () => {
  it('has its failure (and a health change) committed by the time its 400 arrives', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: { name: 'Store', platform: 'custom' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, ingest_key: key } = created.json() as { id: string; ingest_key: string };
    const bad = JSON.stringify({ ship_to: { street1: '1 Main St', city: 'Austin', country: 'US' }, line_items: [{ sku: 'A', quantity: 1 }] });
    const seen: Array<{ failures: number; changes: number }> = [];
    for (let i = 1; i <= 21; i++) {
      const res = await fetch(`${base}/api/integrations/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: bad,
      });
      expect(res.status).toBe(400);
      // Read the moment the answer is in, before the body.
      seen.push(await committed(id));
      expect((await res.json()).code).toBe('validation_failed');
    }
    // 5 failures degrade, 20 bring it down: each one counted, and each change announced, in time.
    expect(seen.map((s) => s.failures)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(seen.map((s) => s.changes)).toEqual(Array.from({ length: 21 }, (_, i) => (i + 1 >= 20 ? 2 : i + 1 >= 5 ? 1 : 0)));
  });
});
