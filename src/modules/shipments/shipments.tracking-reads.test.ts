import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { newId } from '../../platform/ids.js';
import * as repo from './shipments.repo.js';

// Tracking reads are kept per number until the shipment's row version moves
// (shipments.tracking-reads.ts). What must hold: a kept answer is served (a change that bypasses
// the row is not seen), and every real change is seen at once, in this process and in another
// one on the same database.
const START = Date.parse('2026-03-02T15:00:00.000Z');
let app: FastifyInstance;
let other: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(START) });
  // A second process on the same database, with answers of its own.
  other = await buildApp({ config: testConfig(), database: app.deps.database, migrate: false, perIpPerMinute: 100_000, now: () => new Date(START) });
  t = await createTenant(app);
});
afterAll(async () => {
  await other.close();
});

async function buyLabel() {
  const order = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      ship_to: { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
      ship_from: { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }],
      parcel: { weight_oz: 12, length_in: 10, width_in: 8, height_in: 4 },
    },
  });
  expect(order.statusCode, order.body).toBe(201);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: t.headers,
    payload: { order_id: order.json().id, service_code: 'usps_ground_advantage' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const track = async (on: FastifyInstance, n: string) => {
  const res = await on.inject({ method: 'GET', url: `/v1/tracking/${n}`, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const publicTrack = async (on: FastifyInstance, n: string) => {
  const res = await on.inject({ method: 'GET', url: `/api/public/track/${n}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** An event written straight into the table, without the row touch every write path makes. */
async function eventBehindTheRow(shipment: { id: string; tracking_number: string }, description: string) {
  await app.deps.db
    .insertInto('tracking_events')
    .values({
      id: newId('trackingEvent'),
      workspace_id: t.workspaceId,
      environment: 'test',
      shipment_id: shipment.id,
      tracking_number: shipment.tracking_number,
      carrier: 'usps',
      event_key: `TEST|${description}`,
      seq: 1,
      occurred_at: new Date(START + 60_000),
      status: 'in_transit',
      status_detail: 'in_transit',
      milestone: null,
      description,
      location: JSON.stringify({ city: 'Kearny', state: 'NJ', postal_code: '07032', country: 'US' }),
      carrier_status_code: 'TEST',
      created_at: new Date(START + 60_000),
    })
    .execute();
}

describe('kept tracking reads', () => {
  it('serves the kept answer until the row moves, by number and by id, in the API and the public page', async () => {
    const shipment = await buyLabel();
    const first = await track(app, shipment.tracking_number);
    await track(app, shipment.id);
    await publicTrack(app, shipment.tracking_number);
    await eventBehindTheRow(shipment, 'hidden scan');
    // Kept: the event that bypassed the row is not seen.
    expect(await track(app, shipment.tracking_number)).toEqual(first);
    expect((await track(app, shipment.id)).events).toHaveLength(first.events.length);
    expect((await publicTrack(app, shipment.tracking_number)).events).toHaveLength(first.events.length);
    // Any update of the row moves its version: everything is read again.
    await app.deps.db
      .updateTable('shipments')
      .set({ updated_at: sql`updated_at` })
      .where('id', '=', shipment.id)
      .execute();
    for (const answer of [await track(app, shipment.tracking_number), await track(app, shipment.id), await publicTrack(app, shipment.tracking_number)]) {
      expect(answer.events.map((e: { description: string }) => e.description)).toContain('hidden scan');
    }
  });

  it('a new event through the repository is seen at once (it moves the row version)', async () => {
    const shipment = await buyLabel();
    await track(app, shipment.tracking_number);
    await repo.insertTrackingEvents(app.deps.db, [
      {
        id: newId('trackingEvent'),
        workspace_id: t.workspaceId,
        environment: 'test',
        shipment_id: shipment.id,
        tracking_number: shipment.tracking_number,
        carrier: 'usps',
        event_key: 'TEST|accepted',
        seq: 2,
        occurred_at: new Date(START + 120_000),
        status: 'in_transit',
        status_detail: 'accepted',
        milestone: 'picked_up',
        description: 'Accepted at the post office',
        location: JSON.stringify({ city: 'New York', state: 'NY', postal_code: '10118', country: 'US' }),
        carrier_status_code: 'TEST',
        created_at: new Date(START + 120_000),
      },
    ]);
    const after = await track(app, shipment.tracking_number);
    expect(after.events.map((e: { description: string }) => e.description)).toContain('Accepted at the post office');
  });

  it('a void through another process is seen by this one at once', async () => {
    const shipment = await buyLabel();
    expect((await track(app, shipment.tracking_number)).status).toBe('pre_transit');
    expect((await track(other, shipment.tracking_number)).status).toBe('pre_transit');
    const voided = await other.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.headers });
    expect(voided.statusCode, voided.body).toBe(200);
    const seen = await track(app, shipment.tracking_number);
    expect(seen.status).toBe('cancelled');
    expect(seen.events[0]).toMatchObject({ status: 'cancelled', status_detail: 'label_voided' });
  });

  it('a number of another workspace or environment is still a 404', async () => {
    const shipment = await buyLabel();
    await track(app, shipment.tracking_number);
    const stranger = await createTenant(app);
    for (const headers of [stranger.headers, t.liveHeaders]) {
      expect((await app.inject({ method: 'GET', url: `/v1/tracking/${shipment.tracking_number}`, headers })).statusCode).toBe(404);
    }
  });
});
