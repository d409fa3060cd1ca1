import type { ErrorDetail } from '../../platform/errors.js';
import type { Environment } from '../../platform/context.js';
import { roleAtLeast, roleForbidden, type WorkspaceRole } from './roles.js';
import type { AppError } from '../../platform/errors.js';

/** The API key a /v1 request acts with, as far as it bounds the keys that request may create. */
export interface IssuingKey {
  id: string;
  prefix: string;
  environment: Environment;
  expiresAt: Date | null;
  role: WorkspaceRole;
}

/** The key asked for, after its own validation. */
export interface RequestedKey {
  environment: Environment;
  expiresAt: Date | null;
}

/**
 * Why a key may not create the key asked for; empty when it may. A key never creates a key
 * that can do more than itself (a key belongs to one environment):
 * - only in its own environment, so a test key cannot reach live data through a key it mints
 *   (a live key comes from the dashboard session or from another live key);
 * - never outliving it: a key with an expiry creates keys that expire no later, so a leaked
 *   short-lived key cannot be turned into a permanent one.
 * A role above the issuer's is refused apart (keyRoleRefusal): it answers 403 naming the role.
 */
export function keyCreationRefusals(issuer: IssuingKey, requested: RequestedKey): ErrorDetail[] {
  const refusals: ErrorDetail[] = [];
  if (requested.environment !== issuer.environment) {
    refusals.push({
      field: 'environment',
      message: `a ${issuer.environment} key creates ${issuer.environment} keys only; create a ${requested.environment} key from the dashboard (/api/admin/api-keys) or with a ${requested.environment} key`,
    });
  }
  if (issuer.expiresAt !== null && (requested.expiresAt === null || requested.expiresAt.getTime() > issuer.expiresAt.getTime())) {
    refusals.push({
      field: 'expires_at',
      message: `must be set and no later than ${issuer.expiresAt.toISOString()}, when the key making this request expires`,
    });
  }
  return refusals;
}

/** Why a key may not act on (list) keys of the environment asked for; empty when it may. */
export function keyEnvironmentRefusals(issuer: Pick<IssuingKey, 'environment'>, environment: Environment | undefined): ErrorDetail[] {
  if (environment === undefined || environment === issuer.environment) return [];
  return [
    {
      field: 'environment',
      message: `a ${issuer.environment} key manages ${issuer.environment} keys only; use the dashboard (/api/admin/api-keys) for ${environment} keys`,
    },
  ];
}

/**
 * A key never gets a role above its creator's (the member's role in the workspace, or the
 * calling key's): else a 403 naming the role the key asked for. Null when it may.
 */
export function keyRoleRefusal(creator: WorkspaceRole | undefined, requested: WorkspaceRole): AppError | null {
  if (creator === undefined || roleAtLeast(creator, requested)) return null;
  return roleForbidden(requested, creator, `A key with the ${requested} role`);
}
