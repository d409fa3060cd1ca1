import { Type } from '@sinclair/typebox';
import { errorResponses, type App } from '../../platform/http/schemas.js';
import { requestMeta } from '../../platform/http/request-context.js';
import { PutSettingBody, SettingKeyParams, SettingSchema } from './settings.schemas.js';
import type { SettingsService } from './settings.service.js';

/** /api/super-admin/settings: the known keys, each validated against its schema. */
export async function superAdminSettingsRoutes(app: App, opts: { settings: SettingsService }) {
  const { settings } = opts;
  app.addHook('onRequest', app.identity.guards.superAdmin);
  const security = [{ session: [] }];
  const tags = ['super-admin'];

  app.get('/settings', {
    schema: {
      operationId: 'superAdminListSettings',
      summary: 'List every known setting with its value, default and schema',
      tags,
      security,
      response: { 200: Type.Object({ data: Type.Array(SettingSchema) }), ...errorResponses(401, 403) },
    },
    handler: async () => ({ data: await settings.list() }),
  });

  app.put('/settings/:key', {
    schema: {
      operationId: 'superAdminUpdateSetting',
      summary: 'Change one setting (in force on every process at once)',
      tags,
      security,
      params: SettingKeyParams,
      body: PutSettingBody,
      response: { 200: SettingSchema, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => settings.set(request.params.key, request.body.value, request.auth!.actor, requestMeta(request)),
  });
}
