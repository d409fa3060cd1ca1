import type { ExpressionBuilder } from 'kysely';
import type { Scope } from '../context.js';

/**
 * The tenancy filter, written once: rows of one workspace and environment. Every business
 * table carries both columns, so `.where(inScope(scope))` fits any of them (which is why the
 * builder is untyped here: the two column names are the same on every table).
 */
export function inScope(scope: Scope) {
  return (eb: ExpressionBuilder<any, any>) => eb.and([eb('workspace_id', '=', scope.workspaceId), eb('environment', '=', scope.environment)]);
}
