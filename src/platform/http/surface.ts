import { errorResponses } from './schemas.js';

/**
 * The two surfaces a workspace resource is served on, one set of routes for both: /v1 with an
 * API key (an integration) and /api/admin with the dashboard's session (docs/api-conventions.md,
 * "Authentication and environments").
 */
export type Surface = 'v1' | 'admin';

/**
 * What a route's OpenAPI entry differs by between its two surfaces: the credentials, the tag
 * (the resource's own under /v1, `admin` under /api/admin), the operation id (`adminXxx` for
 * the admin twin of `xxx`) and the errors of the surface's guard. Bodies, answers and service
 * calls are the same.
 */
export function surfaceDocs(surface: Surface, v1Tag: string) {
  const v1 = surface === 'v1';
  const security: Array<Record<string, string[]>> = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  return {
    v1,
    security,
    tags: [v1 ? v1Tag : 'admin'],
    operationId: (name: string) => (v1 ? name : `admin${name.charAt(0).toUpperCase()}${name.slice(1)}`),
    // /v1 answers 403 for a key of another workspace and 429 past the plan's burst; /api/admin
    // 404 for a workspace the session's account is not a member of.
    errors: (...statuses: number[]) => errorResponses(401, ...statuses, ...(v1 ? [403, 429] : [404])),
  };
}
