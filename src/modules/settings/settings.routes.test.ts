import { describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders } from '../../../test/helpers/app.js';
import { settingsService } from './settings.service.js';
import { settingDefinitions } from './settings.registry.js';

const app = await buildTestApp();
const root = await superAdminHeaders(app);

describe('super-admin settings', () => {
  it('lists every known key with its default while unset', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/super-admin/settings', headers: root });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Array<{ key: string; value: unknown; default: unknown; schema: object; updated_at: string | null }>;
    expect(data.map((d) => d.key).sort()).toEqual(Object.keys(settingDefinitions).sort());
    const attempts = data.find((d) => d.key === 'webhooks.max_attempts')!;
    expect(attempts).toMatchObject({ value: 8, default: 8, updated_at: null });
    expect(attempts.schema).toMatchObject({ type: 'integer' });
  });

  it('changes a value, audits it, and the accessor sees it at once', async () => {
    const settings = settingsService(app.deps);
    expect(await settings.get('sandbox.tracking_time_scale')).toBe(1); // cached now
    const res = await app.inject({ method: 'PUT', url: '/api/super-admin/settings/sandbox.tracking_time_scale', headers: root, payload: { value: 3600 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ key: 'sandbox.tracking_time_scale', value: 3600, default: 1 });
    expect(res.json().updated_at).toEqual(expect.any(String));
    expect(await settings.get('sandbox.tracking_time_scale')).toBe(3600);

    const audit = await app.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'setting.updated')
      .where('target_id', '=', 'sandbox.tracking_time_scale')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].changes).toEqual({ value: { from: null, to: 3600 } });

    const list = await app.inject({ method: 'GET', url: '/api/super-admin/settings', headers: root });
    expect(list.json().data.find((d: { key: string }) => d.key === 'sandbox.tracking_time_scale').value).toBe(3600);
  });

  it('refuses a value that does not fit the schema with field details, and changes nothing', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/super-admin/settings/webhooks.retry_schedule_seconds',
      headers: root,
      payload: { value: [10, -1] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().details[0].field).toMatch(/^value/);
    const missing = await app.inject({ method: 'PUT', url: '/api/super-admin/settings/webhooks.max_attempts', headers: root, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(await settingsService(app.deps).get('webhooks.retry_schedule_seconds')).toEqual(settingDefinitions['webhooks.retry_schedule_seconds'].default);
  });

  it('answers 404 for an unknown key', async () => {
    const res = await app.inject({ method: 'PUT', url: '/api/super-admin/settings/no.such.key', headers: root, payload: { value: 1 } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });

  it('a stored value that no longer fits its schema reads as the default', async () => {
    await app.deps.db
      .insertInto('settings')
      .values({ key: 'orders.default_box', value: JSON.stringify({ length_in: 0, width_in: 8, height_in: 4 }) })
      .execute();
    app.deps.bus.publish('settings');
    expect(await settingsService(app.deps).get('orders.default_box')).toEqual({ length_in: 10, width_in: 8, height_in: 4 });
  });

  it('is for super-admins only', async () => {
    const tenant = await createTenant(app);
    const none = await app.inject({ method: 'GET', url: '/api/super-admin/settings' });
    expect(none.statusCode).toBe(401);
    const user = await app.inject({
      method: 'PUT',
      url: '/api/super-admin/settings/registration.auto_approve',
      headers: { authorization: `Bearer ${tenant.sessionToken}` },
      payload: { value: true },
    });
    expect(user.statusCode).toBe(403);
    expect(user.json().code).toBe('forbidden');
  });
});
