import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { MemoryJobQueue } from '../../platform/jobs/index.js';
import { registerJobHandlers } from '../../bootstrap/jobs.js';
import { healthAfterFailure, healthAfterSuccess, healthAfterTokenUpdate, healthAtCheck } from './integrations.health.js';

const MINUTE = 60_000;

describe('health rules', () => {
  it('degrades at 5 failures in the window and goes down at 20; token_expired is left alone', () => {
    expect(healthAfterFailure('healthy', 4)).toBeNull();
    expect(healthAfterFailure('healthy', 5)).toMatchObject({ health: 'degraded' });
    expect(healthAfterFailure('degraded', 6)).toBeNull();
    expect(healthAfterFailure('degraded', 20)).toMatchObject({ health: 'down' });
    expect(healthAfterFailure('healthy', 25)).toMatchObject({ health: 'down' });
    expect(healthAfterFailure('down', 30)).toBeNull();
    expect(healthAfterFailure('token_expired', 50)).toBeNull();
  });

  it('a success heals degraded and down only', () => {
    expect(healthAfterSuccess('degraded')).toMatchObject({ health: 'healthy' });
    expect(healthAfterSuccess('down')).toMatchObject({ health: 'healthy' });
    expect(healthAfterSuccess('healthy')).toBeNull();
    expect(healthAfterSuccess('token_expired')).toBeNull();
  });

  it('a token update heals unless the new token has already expired; the check expires tokens', () => {
    const now = new Date('2026-05-01T00:00:00Z');
    expect(healthAfterTokenUpdate('token_expired', new Date(now.getTime() + 1), now)).toMatchObject({ health: 'healthy' });
    expect(healthAfterTokenUpdate('down', null, now)).toMatchObject({ health: 'healthy' });
    expect(healthAfterTokenUpdate('healthy', now, now)).toMatchObject({ health: 'token_expired' });
    expect(healthAfterTokenUpdate('healthy', null, now)).toBeNull();
    expect(healthAtCheck('healthy', new Date(now.getTime() + 1), now)).toBeNull();
    expect(healthAtCheck('degraded', now, now)).toMatchObject({ health: 'token_expired', reason: expect.stringContaining(now.toISOString()) });
    expect(healthAtCheck('token_expired', now, now)).toBeNull();
    expect(healthAtCheck('healthy', null, now)).toBeNull();
  });
});

describe('integration health over time (fake clock)', () => {
  let app: FastifyInstance;
  let t: Tenant;
  let clock = new Date();
  const queue = new MemoryJobQueue({ now: () => clock.getTime() });
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    app = await buildTestApp({ now: () => clock, jobs: queue, config: { encryptionKey: randomBytes(32).toString('hex') } });
    await registerJobHandlers(app);
    t = await createTenant(app);
  });

  const create = async (body: Record<string, unknown> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: { name: 'Store', platform: 'custom', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; ingest_key: string; health: string };
  };
  const health = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/api/admin/integrations/${id}`, headers: t.adminHeaders })).json() as {
      health: string;
      health_reason: string | null;
      health_checked_at: string | null;
    };
  const events = (id: string) =>
    app.deps.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'integration.health_changed')
      .where(sql<boolean>`data->>'integration_id' = ${id}`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  const good = { ship_to: { street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' }, line_items: [{ sku: 'A', quantity: 1 }] };
  const bad = { ship_to: { street1: '1 Main St', city: 'Austin', country: 'US' }, line_items: [{ sku: 'A', quantity: 1 }] };
  const send = (key: string, body: object) =>
    app.inject({ method: 'POST', url: '/api/integrations/orders', headers: { authorization: `Bearer ${key}` }, payload: body });

  it('the minute job marks an expired token once, with one event; a token update heals it', async () => {
    const integration = await create({ token_expires_at: new Date(clock.getTime() + 3 * MINUTE).toISOString() });
    expect(integration.health).toBe('healthy');

    advance(2 * MINUTE);
    await queue.runDue();
    expect((await health(integration.id)).health).toBe('healthy');

    advance(2 * MINUTE);
    const run = await queue.runDue();
    expect(run.failed).toBe(0);
    expect(run.completed).toBeGreaterThanOrEqual(1);
    const expired = await health(integration.id);
    expect(expired.health).toBe('token_expired');
    expect(expired.health_reason).toContain('expired');
    expect(expired.health_checked_at).toBe(clock.toISOString());

    // More ticks, and a direct second check: no second event.
    advance(MINUTE);
    await queue.runDue();
    await app.services.integrations.checkHealth(clock);
    let rows = await events(integration.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ workspace_id: t.workspaceId, environment: 'test' });
    expect(rows[0].id).toMatch(/^evt_/);
    expect(rows[0].data).toMatchObject({
      integration_id: integration.id,
      name: 'Store',
      platform: 'custom',
      previous_health: 'healthy',
      health: 'token_expired',
      reason: expect.any(String),
    });

    // Intake still works with the ingest key, but does not hide the expired store token.
    expect((await send(integration.ingest_key, good)).statusCode).toBe(201);
    expect((await health(integration.id)).health).toBe('token_expired');

    const renewed = await app.inject({
      method: 'PUT',
      url: `/api/admin/integrations/${integration.id}`,
      headers: t.adminHeaders,
      payload: { token_expires_at: new Date(clock.getTime() + 60 * MINUTE).toISOString(), credentials: { token: 'new' } },
    });
    expect(renewed.json().health).toBe('healthy');
    rows = await events(integration.id);
    expect(rows.map((r) => [(r.data as { previous_health: string }).previous_health, (r.data as { health: string }).health])).toEqual([
      ['healthy', 'token_expired'],
      ['token_expired', 'healthy'],
    ]);
  });

  it('5 intake failures in 10 minutes degrade, 20 bring it down, a success heals; each change announced once', async () => {
    const integration = await create();
    for (let i = 1; i <= 4; i++) {
      expect((await send(integration.ingest_key, bad)).statusCode).toBe(400);
      advance(10_000);
    }
    expect((await health(integration.id)).health).toBe('healthy');
    await send(integration.ingest_key, bad);
    expect((await health(integration.id)).health).toBe('degraded');
    for (let i = 6; i <= 19; i++) await send(integration.ingest_key, bad);
    expect((await health(integration.id)).health).toBe('degraded');
    await send(integration.ingest_key, bad);
    const down = await health(integration.id);
    expect(down.health).toBe('down');
    expect(down.health_reason).toContain('20');
    await send(integration.ingest_key, bad);

    advance(MINUTE);
    expect((await send(integration.ingest_key, good)).statusCode).toBe(201);
    expect((await health(integration.id)).health).toBe('healthy');
    // The failures before the success no longer count: one more failure does not degrade again.
    await send(integration.ingest_key, bad);
    expect((await health(integration.id)).health).toBe('healthy');
    // A second success while healthy announces nothing.
    await send(integration.ingest_key, good);

    const rows = await events(integration.id);
    expect(rows.map((r) => [(r.data as { previous_health: string }).previous_health, (r.data as { health: string }).health])).toEqual([
      ['healthy', 'degraded'],
      ['degraded', 'down'],
      ['down', 'healthy'],
    ]);
  });

  it('failures spread wider than the window never degrade; the job prunes old failures', async () => {
    const integration = await create();
    for (let i = 0; i < 8; i++) {
      expect((await send(integration.ingest_key, bad)).statusCode).toBe(400);
      advance(3 * MINUTE); // at most 4 failures in any 10 minutes
    }
    expect((await health(integration.id)).health).toBe('healthy');
    expect(await events(integration.id)).toHaveLength(0);

    const before = await app.deps.db.selectFrom('integration_intake_failures').select('id').where('integration_id', '=', integration.id).execute();
    expect(before).toHaveLength(8);
    const result = await app.services.integrations.checkHealth(clock);
    expect(result.pruned).toBeGreaterThanOrEqual(4);
    const after = await app.deps.db.selectFrom('integration_intake_failures').select('id').where('integration_id', '=', integration.id).execute();
    expect(after.length).toBeLessThanOrEqual(4);
  });

  it('an integration created with a past expiry starts token_expired, without an event', async () => {
    const integration = await create({ token_expires_at: new Date(clock.getTime() - MINUTE).toISOString() });
    expect(integration.health).toBe('token_expired');
    await app.services.integrations.checkHealth(clock);
    expect(await events(integration.id)).toHaveLength(0);
  });
});
