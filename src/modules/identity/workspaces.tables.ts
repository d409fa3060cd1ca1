import type { ColumnType, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp, Json } from '../../platform/db/columns.js';
import type { WorkspaceRole } from './roles.js';

export interface AccountsTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: 'user' | 'super_admin';
  status: 'pending' | 'active' | 'suspended';
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: 'starter' | 'professional' | 'enterprise';
  burst_per_minute: number | null;
  mtls_required: ColumnType<boolean, boolean | undefined, boolean>;
  origin_address: Json<Record<string, unknown> | null> | null;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** Set while the owning account is suspended: the workspace's API keys are refused. */
  suspended_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  account_id: string;
  role: ColumnType<WorkspaceRole, WorkspaceRole | undefined, WorkspaceRole>;
  created_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  account_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  name: string;
  key_hash: string;
  prefix: string;
  last4: string;
  created_by: string | null;
  role: ColumnType<WorkspaceRole, WorkspaceRole | undefined, WorkspaceRole>;
  created_at: Timestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
}

export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  role: WorkspaceRole;
  token_hash: string;
  status: ColumnType<'pending' | 'accepted' | 'revoked', 'pending' | 'accepted' | 'revoked' | undefined, 'pending' | 'accepted' | 'revoked'>;
  invited_by: string | null;
  accepted_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
}

export interface PasswordResetsTable {
  id: string;
  account_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export type AccountRow = Selectable<AccountsTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type MemberRow = Selectable<WorkspaceMembersTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    accounts: AccountsTable;
    workspaces: WorkspacesTable;
    workspace_members: WorkspaceMembersTable;
    sessions: SessionsTable;
    api_keys: ApiKeysTable;
    invitations: InvitationsTable;
    password_resets: PasswordResetsTable;
  }
}
