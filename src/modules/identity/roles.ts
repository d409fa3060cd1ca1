import { AppError } from '../../platform/errors.js';

/**
 * A member's (or an API key's) role in a workspace. The roles are nested: each can do what the
 * one below it can, and more (docs/architecture.md, "Roles"):
 * - viewer: reads everything, changes nothing;
 * - operator: the day's shipping work (orders, rates, labels, returns, batches, manifests,
 *   pickups, tracking);
 * - admin: everything but ownership (making, unmaking or removing an owner);
 * - owner: everything; a workspace always keeps at least one.
 */
export const WORKSPACE_ROLES = ['viewer', 'operator', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

const rank: Record<WorkspaceRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

/** Whether `role` may do what `required` may. */
export function roleAtLeast(role: WorkspaceRole, required: WorkspaceRole): boolean {
  return rank[role] >= rank[required];
}

/**
 * The 403 of an action a role may not take: `forbidden`, naming the role it needs in its one
 * detail `{field: "role", message, required_role}` (docs/api-conventions.md).
 */
export function roleForbidden(required: WorkspaceRole, have: WorkspaceRole | undefined, what = 'This action'): AppError {
  return new AppError('forbidden', `${what} needs the ${required} role${required === 'owner' ? '' : ' or above'}${have ? `; this ${have} may not` : ''}.`, {
    details: [{ field: 'role', message: `must be ${required}${required === 'owner' ? '' : ' or above'}`, required_role: required }],
  });
}

/** Refuse unless `have` reaches `required` (an actor without a role, e.g. the system, is never refused). */
export function requireRole(have: WorkspaceRole | undefined, required: WorkspaceRole, what?: string): void {
  if (have !== undefined && !roleAtLeast(have, required)) throw roleForbidden(required, have, what);
}
