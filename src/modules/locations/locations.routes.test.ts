import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';

// Monday 2 March 2026, 23:30 UTC: 18:30 in New York (past a 17:00 cut-off), 15:30 in Los Angeles.
let clock = Date.parse('2026-03-02T23:30:00.000Z');
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) });
});

const address = { company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'us' };
const body = (over: Record<string, unknown> = {}) => ({ name: 'Manhattan', address, timezone: 'America/New_York', pickup_cutoff: '17:00', ...over });
const create = (t: Tenant, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/v1/locations', headers: t.headers, payload });
const rate = (t: Tenant, payload: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/v1/rates/query',
    headers: t.headers,
    payload: {
      ship_to: { postal_code: '94105', country: 'US' },
      parcel: { weight_oz: 16, length_in: 8, width_in: 6, height_in: 4 },
      services: ['usps_priority_mail'],
      ...payload,
    },
  });
const eta = (res: { json(): any }) => res.json().data[0].delivery.estimated_delivery_date as string;

describe('locations', () => {
  it('create (the first is the default), read, list, change, make another default, delete', async () => {
    const t = await createTenant(app);
    const res = await create(t, body({ return_address: { street1: '1 Returns Rd', city: 'Newark', state: 'NJ', postal_code: '07102', country: 'US' } }));
    expect(res.statusCode, res.body).toBe(201);
    const first = res.json();
    expect(first.id).toMatch(/^loc_[0-9a-z]{26}$/);
    expect(first).toMatchObject({
      name: 'Manhattan',
      address: { ...address, country: 'US' },
      timezone: 'America/New_York',
      pickup_cutoff: '17:00',
      is_default: true,
      return_address: { city: 'Newark' },
    });
    const second = (await create(t, body({ name: 'Reno', timezone: 'America/Los_Angeles', pickup_cutoff: '16:30' }))).json();
    expect(second.is_default).toBe(false);
    const list = (await app.inject({ method: 'GET', url: '/v1/locations', headers: t.headers })).json();
    expect(list.data.map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);

    const made = await app.inject({ method: 'PATCH', url: `/v1/locations/${second.id}`, headers: t.headers, payload: { is_default: true, name: 'Reno DC' } });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ is_default: true, name: 'Reno DC' });
    expect((await app.inject({ method: 'GET', url: `/v1/locations/${first.id}`, headers: t.headers })).json().is_default).toBe(false);

    // The default cannot go while another remains; the other can.
    const refused = await app.inject({ method: 'DELETE', url: `/v1/locations/${second.id}`, headers: t.headers });
    expect(refused.statusCode).toBe(409);
    expect((await app.inject({ method: 'DELETE', url: `/v1/locations/${first.id}`, headers: t.headers })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: `/v1/locations/${first.id}`, headers: t.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/v1/locations/${second.id}`, headers: t.headers })).statusCode).toBe(204);
  });

  it('400: unknown time zone, malformed cut-off, missing street, unknown fields, undefaulting the default', async () => {
    const t = await createTenant(app);
    const zone = await create(t, body({ timezone: 'Mars/Olympus_Mons' }));
    expect(zone.statusCode).toBe(400);
    expect(zone.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'timezone' }] });
    expect((await create(t, body({ pickup_cutoff: '25:00' }))).statusCode).toBe(400);
    const street = await create(t, body({ address: { city: 'New York', country: 'US' } }));
    expect(street.json().details[0].field).toBe('address.street1');
    expect((await create(t, body({ id: 'loc_x' }))).statusCode).toBe(400);
    const loc = (await create(t, body())).json();
    const undefault = await app.inject({ method: 'PATCH', url: `/v1/locations/${loc.id}`, headers: t.headers, payload: { is_default: false } });
    expect(undefault.statusCode).toBe(400);
  });

  it("tenancy: another workspace's location is 404 (read, change, delete, rate with it); test and live are apart", async () => {
    const owner = await createTenant(app);
    const loc = (await create(owner, body())).json();
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/locations/${loc.id}` }, { owner, otherWorkspaceResource: true });
    const stranger = await createTenant(app);
    expect((await app.inject({ method: 'PATCH', url: `/v1/locations/${loc.id}`, headers: stranger.headers, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/v1/locations/${loc.id}`, headers: stranger.headers })).statusCode).toBe(404);
    const theirs = await rate(stranger, { location_id: loc.id });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'not_found', details: [{ field: 'location_id' }] });
    expect((await app.inject({ method: 'GET', url: `/v1/locations/${loc.id}`, headers: owner.liveHeaders })).statusCode).toBe(404);
  });
});

describe('rate queries from a location', () => {
  it('two locations in different time zones give different delivery dates for the same lane', async () => {
    clock = Date.parse('2026-03-02T23:30:00.000Z');
    const t = await createTenant(app);
    const east = (await create(t, body({ name: 'East' }))).json();
    const west = (await create(t, body({ name: 'West', timezone: 'America/Los_Angeles' }))).json();
    const fromEast = await rate(t, { location_id: east.id });
    const fromWest = await rate(t, { location_id: west.id });
    expect(fromEast.statusCode, fromEast.body).toBe(200);
    expect(fromWest.statusCode, fromWest.body).toBe(200);
    // Same address, same lane, same price; New York's cut-off has passed, Los Angeles' has not.
    expect(fromEast.json().data[0].price).toEqual(fromWest.json().data[0].price);
    expect(eta(fromWest) < eta(fromEast)).toBe(true);
    // The location is the ship_from: the same as sending its address.
    expect(eta(await rate(t, { ship_from: address }))).toBe(eta(fromEast));
  });

  it('its own cut-off: 19:00 in New York tenders today', async () => {
    clock = Date.parse('2026-03-02T23:30:00.000Z');
    const t = await createTenant(app);
    const late = (await create(t, body({ pickup_cutoff: '19:00' }))).json();
    const usual = (await create(t, body({ name: 'Usual' }))).json();
    expect(eta(await rate(t, { location_id: late.id })) < eta(await rate(t, { location_id: usual.id }))).toBe(true);
  });

  it('without ship_from or location_id: the default location; with neither and no location, 400; with both, 400', async () => {
    clock = Date.parse('2026-03-02T23:30:00.000Z');
    const t = await createTenant(app);
    const none = await rate(t, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0].field).toBe('ship_from');
    const loc = (await create(t, body({ timezone: 'America/Los_Angeles' }))).json();
    const byDefault = await rate(t, {});
    expect(byDefault.statusCode, byDefault.body).toBe(200);
    expect(eta(byDefault)).toBe(eta(await rate(t, { location_id: loc.id })));
    expect((await rate(t, { location_id: loc.id, ship_from: address })).statusCode).toBe(400);
  });
});
