import { sql, type Kysely } from 'kysely';

// The team (docs/architecture.md, "Roles"): workspace members get the four roles owner, admin,
// operator and viewer (the unused `member` becomes operator); API keys carry a role too
// (admin for every key made before roles existed, which is what they could do); invitations
// and password-reset links keep only the SHA-256 of their token, single-use.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table workspace_members drop constraint if exists workspace_members_role_check`.execute(db);
  await sql`update workspace_members set role = 'operator' where role = 'member'`.execute(db);
  await sql`alter table workspace_members add constraint workspace_members_role_check check (role in ('owner', 'admin', 'operator', 'viewer'))`.execute(db);
  await sql`create index workspace_members_workspace on workspace_members (workspace_id, created_at, account_id)`.execute(db);

  await sql`alter table api_keys add column role text not null default 'admin' check (role in ('owner', 'admin', 'operator', 'viewer'))`.execute(db);

  await sql`
    create table invitations (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      email text not null,
      role text not null check (role in ('owner', 'admin', 'operator', 'viewer')),
      token_hash text not null unique,
      status text not null default 'pending' check (status in ('pending', 'accepted', 'revoked')),
      invited_by text,
      accepted_by text,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null,
      accepted_at timestamptz(3)
    )`.execute(db);
  await sql`create index invitations_workspace on invitations (workspace_id, created_at desc, id desc)`.execute(db);

  await sql`
    create table password_resets (
      id text primary key,
      account_id text not null references accounts(id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null,
      used_at timestamptz(3)
    )`.execute(db);
  await sql`create index password_resets_account on password_resets (account_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists password_resets`.execute(db);
  await sql`drop table if exists invitations`.execute(db);
  await sql`alter table api_keys drop column if exists role`.execute(db);
  await sql`drop index if exists workspace_members_workspace`.execute(db);
  await sql`alter table workspace_members drop constraint if exists workspace_members_role_check`.execute(db);
  await sql`update workspace_members set role = 'admin' where role in ('operator', 'viewer')`.execute(db);
  await sql`alter table workspace_members add constraint workspace_members_role_check check (role in ('owner', 'admin', 'member'))`.execute(db);
}
