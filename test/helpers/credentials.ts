import type { FastifyInstance } from 'fastify';
import { createTenant, superAdminHeaders, type Tenant } from './app.js';
import type { AuthKind } from './openapi.js';

export type Env = 'test' | 'live';

/**
 * A tenant with every kind of credential the API knows, per environment: API keys, an admin
 * session, and an integration's ingest key (made on first use).
 */
export interface Principal {
  tenant: Tenant;
  headers(kind: AuthKind, env?: Env): Promise<Record<string, string>>;
}

export async function makePrincipal(app: FastifyInstance, root?: Record<string, string>): Promise<Principal> {
  const tenant = await createTenant(app);
  const rootHeaders = root ?? (await superAdminHeaders(app));
  const ingest = new Map<Env, string>();
  const admin = (env: Env) => ({ ...tenant.adminHeaders, 'x-service-environment': env });
  return {
    tenant,
    async headers(kind, env = 'test') {
      switch (kind) {
        case 'apiKey':
          return env === 'test' ? tenant.headers : tenant.liveHeaders;
        case 'admin':
          return admin(env);
        case 'session':
          return { authorization: `Bearer ${tenant.sessionToken}` };
        case 'superAdmin':
          return rootHeaders;
        case 'ingestKey': {
          if (!ingest.has(env)) {
            const res = await app.inject({
              method: 'POST',
              url: '/api/admin/integrations',
              headers: admin(env),
              payload: { name: `ingest ${env}`, platform: 'custom' },
            });
            if (res.statusCode !== 201) throw new Error(`integration: ${res.statusCode} ${res.body}`);
            ingest.set(env, res.json().ingest_key);
          }
          return { authorization: `Bearer ${ingest.get(env)}` };
        }
        case 'none':
        case 'signature':
          return {};
      }
    },
  };
}

export const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
export const orderBody = () => ({
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  ship_to: shipTo,
  line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 }],
});

/**
 * How to make one resource of each collection that templated paths act on (`/orders/{id}` →
 * `orders`), in a given principal's workspace and environment. A module that adds routes with
 * ids adds its collection here (a few lines) and the tenancy walks cover it.
 */
export interface ResourceFactory {
  /** Whether routes under this path keep the two environments apart (false: workspace-wide). */
  environmentScoped(path: string): boolean;
  create(app: FastifyInstance, who: Principal, env: Env): Promise<string>;
}

async function created(res: { statusCode: number; body: string; json(): { id: string } }, what: string): Promise<string> {
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

const shipFrom = { name: 'Warehouse', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };

async function buyLabel(app: FastifyInstance, who: Principal, env: Env): Promise<string> {
  const headers = await who.headers('apiKey', env);
  const order = await app.inject({ method: 'POST', url: '/v1/orders', headers, payload: { ...orderBody(), ship_from: shipFrom } });
  const orderId = await created(order, 'order');
  return created(
    await app.inject({ method: 'POST', url: '/v1/shipments', headers, payload: { order_id: orderId, service_code: 'usps_ground_advantage' } }),
    'shipment',
  );
}

export const resourceFactories: Record<string, ResourceFactory> = {
  shipments: { environmentScoped: () => true, create: buyLabel },
  // /v1/tracking/{id} takes a shipment id (or its tracking number).
  tracking: { environmentScoped: () => true, create: buyLabel },
  webhooks: {
    environmentScoped: () => true,
    create: async (app, who, env) =>
      created(
        await app.inject({
          method: 'POST',
          url: '/v1/webhooks',
          headers: await who.headers('apiKey', env),
          payload: { url: 'https://127.0.0.1:9/hook', events: ['tracking.updated'] },
        }),
        'webhook',
      ),
  },
  orders: {
    environmentScoped: () => true,
    create: async (app, who, env) =>
      created(await app.inject({ method: 'POST', url: '/v1/orders', headers: await who.headers('apiKey', env), payload: orderBody() }), 'order'),
  },
  'api-keys': {
    // A key acts in its own environment on /v1; the admin API manages both (the body and the
    // ?environment= filter name it), so there the environment header does not apply.
    environmentScoped: (path) => path.startsWith('/v1/'),
    create: async (app, who, env) =>
      created(await app.inject({ method: 'POST', url: '/v1/api-keys', headers: await who.headers('apiKey', env), payload: { name: 'spare' } }), 'api key'),
  },
  integrations: {
    environmentScoped: () => true,
    create: async (app, who, env) =>
      created(
        await app.inject({
          method: 'POST',
          url: '/api/admin/integrations',
          headers: await who.headers('admin', env),
          payload: { name: 'store', platform: 'custom' },
        }),
        'integration',
      ),
  },
  'mtls-certificates': {
    environmentScoped: () => false,
    create: async (app, who) => {
      const fingerprint = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
      return created(
        await app.inject({
          method: 'POST',
          url: '/api/admin/mtls-certificates',
          headers: await who.headers('admin', 'test'),
          payload: { name: 'cert', fingerprint_sha256: fingerprint },
        }),
        'certificate',
      );
    },
  },
};
