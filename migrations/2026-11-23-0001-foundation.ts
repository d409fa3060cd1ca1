import { sql, type Kysely } from 'kysely';

// Identity, keys, idempotency, audit log, events and settings: the ground every module uses.
// Ids are text (prefixed TypeIDs); every business table carries workspace_id + environment.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table accounts (
      id text primary key,
      email text not null,
      name text not null,
      password_hash text not null,
      role text not null default 'user' check (role in ('user', 'super_admin')),
      status text not null default 'pending' check (status in ('pending', 'active', 'suspended')),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create unique index accounts_email_key on accounts (lower(email))`.execute(db);
  await sql`create index accounts_status_created on accounts (status, created_at desc, id desc)`.execute(db);

  await sql`
    create table workspaces (
      id text primary key,
      name text not null,
      plan text not null default 'starter' check (plan in ('starter', 'professional', 'enterprise')),
      burst_per_minute integer,
      origin_address jsonb,
      settings jsonb not null default '{}'::jsonb,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);

  await sql`
    create table workspace_members (
      workspace_id text not null references workspaces(id) on delete cascade,
      account_id text not null references accounts(id) on delete cascade,
      role text not null default 'owner' check (role in ('owner', 'admin', 'member')),
      created_at timestamptz(3) not null default now(),
      primary key (workspace_id, account_id)
    )`.execute(db);
  await sql`create index workspace_members_account on workspace_members (account_id)`.execute(db);

  await sql`
    create table sessions (
      id text primary key,
      account_id text not null references accounts(id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null,
      revoked_at timestamptz(3),
      ip text,
      user_agent text
    )`.execute(db);
  await sql`create index sessions_account on sessions (account_id)`.execute(db);

  await sql`
    create table api_keys (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      name text not null,
      key_hash text not null unique,
      prefix text not null,
      last4 text not null,
      created_by text,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3),
      revoked_at timestamptz(3),
      last_used_at timestamptz(3)
    )`.execute(db);
  await sql`create index api_keys_scope on api_keys (workspace_id, environment, created_at desc, id desc)`.execute(db);

  await sql`
    create table idempotency_keys (
      workspace_id text not null,
      environment text not null,
      key text not null,
      fingerprint text not null,
      state text not null check (state in ('running', 'done')),
      response_status integer,
      response_body text,
      response_content_type text,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null,
      primary key (workspace_id, environment, key)
    )`.execute(db);
  await sql`create index idempotency_keys_expires on idempotency_keys (expires_at)`.execute(db);

  await sql`
    create table audit_log (
      id text primary key,
      at timestamptz(3) not null default now(),
      workspace_id text,
      environment text,
      actor_type text not null,
      actor_id text,
      actor_email text,
      action text not null,
      target_type text not null,
      target_id text,
      changes jsonb,
      ip text,
      request_id text
    )`.execute(db);
  await sql`create index audit_log_at on audit_log (at desc, id desc)`.execute(db);
  await sql`create index audit_log_target on audit_log (target_type, target_id)`.execute(db);

  // Domain events (webhooks read them): the envelope of a webhook delivery.
  await sql`
    create table events (
      id text primary key,
      workspace_id text not null,
      environment text not null,
      type text not null,
      data jsonb not null,
      created_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index events_scope on events (workspace_id, environment, created_at desc, id desc)`.execute(db);

  await sql`
    create table settings (
      key text primary key,
      value jsonb not null,
      updated_at timestamptz(3) not null default now(),
      updated_by text
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['settings', 'events', 'audit_log', 'idempotency_keys', 'api_keys', 'sessions', 'workspace_members', 'workspaces', 'accounts']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
