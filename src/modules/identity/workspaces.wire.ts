import type { AccountRow, ApiKeyRow, WorkspaceRow } from './workspaces.tables.js';
import { iso } from '../../platform/http/wire.js';

export function toAccount(row: AccountRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function toWorkspace(row: WorkspaceRow) {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    burst_per_minute: row.burst_per_minute,
    mtls_required: row.mtls_required,
    origin_address: (row.origin_address ?? null) as Record<string, unknown> | null,
    suspended_at: iso(row.suspended_at ?? null),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function toApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    prefix: row.prefix,
    last4: row.last4,
    role: row.role,
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
  };
}
