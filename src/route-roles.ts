import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ErrorResponseSchema, type App } from './platform/http/schemas.js';
import { roleAtLeast, roleForbidden, type WorkspaceRole } from './modules/identity/index.js';

/**
 * Who may do what, for every route of /v1 and /api/admin: the one table (docs/architecture.md,
 * "Roles"). A read (GET, HEAD) needs `viewer`, which every role is. A write needs the role its
 * resource, the path's first segment under the surface, names here; a few writes differ from
 * their resource and are listed by method and path below. A route whose resource is missing
 * from the table stops the service at boot, so no route is ever left unguarded.
 */
export const WRITE_ROLES: Record<string, WorkspaceRole> = {
  // The day's shipping work: operator and above.
  orders: 'operator',
  rates: 'operator',
  addresses: 'operator',
  shipments: 'operator',
  refunds: 'operator',
  batches: 'operator',
  // Printing labels (POST /labels/merge changes nothing, but is the packing station's work).
  labels: 'operator',
  manifests: 'operator',
  pickups: 'operator',
  tracking: 'operator',
  trackers: 'operator',
  'carrier-packages': 'operator',
  // Running the workspace: admin and above.
  'api-keys': 'admin',
  webhooks: 'admin',
  'webhook-deliveries': 'admin',
  'carrier-accounts': 'admin',
  'carrier-types': 'admin',
  integrations: 'admin',
  'channel-types': 'admin',
  'write-backs': 'admin',
  'shipping-rules': 'admin',
  members: 'admin',
  invitations: 'admin',
  workspace: 'admin',
  'mtls-certificates': 'admin',
  locations: 'admin',
  packages: 'admin',
};

/** Writes whose role differs from their resource's: `METHOD /path` with every parameter as `:id`. */
export const WRITE_ROLE_EXCEPTIONS: Record<string, WorkspaceRole> = {
  // A dry run of the rules on a parcel: part of buying a label, changes nothing.
  'POST /shipping-rules/evaluate': 'operator',
  // Overrides the carrier's tracking: an admin's call.
  'POST /shipments/:id/force-delivery': 'admin',
};

const READS = new Set(['GET', 'HEAD']);

/**
 * The role a route needs, from its method and its path under the surface (`/orders/:id`);
 * undefined when the table does not know the resource.
 */
export function requiredRole(method: string, path: string): WorkspaceRole | undefined {
  const normalized = path.replace(/:[A-Za-z_]+/g, ':id').replace(/\/$/, '');
  const resource = normalized.split('/').filter(Boolean)[0] ?? '';
  const write = WRITE_ROLES[resource];
  if (write === undefined) return undefined;
  if (READS.has(method.toUpperCase())) return 'viewer';
  return WRITE_ROLE_EXCEPTIONS[`${method.toUpperCase()} ${normalized}`] ?? write;
}

type Hook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/**
 * Holds every route registered in `scope` (mounted at `prefix`) to the table: each gets an
 * onRequest check, run after the scope's guard has set the request's role, and its OpenAPI 403
 * names the role. Register before the routes.
 */
export function enforceRouteRoles(scope: App, prefix: string): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.startsWith(prefix) ? route.url.slice(prefix.length) : route.url;
    const roles = methods.map((m) => requiredRole(m, path));
    if (roles.some((r) => r === undefined)) {
      throw new Error(`${methods.join(',')} ${route.url}: its resource has no entry in the role table (src/route-roles.ts)`);
    }
    const required = roles[0]!;
    const check: Hook = (request, _reply, done) => {
      const role = request.auth?.role;
      // Fail closed: a request the guard gave no role is refused like a role too low.
      if (role === undefined || !roleAtLeast(role, required)) done(roleForbidden(required, role));
      else done();
    };
    route.onRequest = [...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]), check as never];
    if (route.schema && !route.schema.hide) {
      const response = (route.schema.response ?? {}) as Record<string, { description?: string } & Record<string, unknown>>;
      const sentence = `Needs the ${required} role${required === 'owner' ? '' : ' or above'} (else 403 forbidden with details [{field: "role", message, required_role}]).`;
      const existing = response[403];
      route.schema = {
        ...route.schema,
        response: {
          ...response,
          403: existing
            ? { ...existing, description: `${(existing.description ?? 'Forbidden').replace(/\.?$/, '.')} ${sentence}` }
            : Type.Ref(ErrorResponseSchema, { description: `Forbidden. ${sentence}` }),
        },
      };
    }
  });
}
