import { sql, type Kysely } from 'kysely';

// Orders, store/channel integrations and the intake failures that drive integration health.
// Timestamps are timestamptz(3) so keyset cursors (created_at, id) round-trip at ms precision.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table integrations (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      name text not null,
      platform text not null check (platform in ('shopify', 'woocommerce', 'bigcommerce', 'custom')),
      config jsonb not null default '{}'::jsonb,
      credentials_sealed text,
      ingest_key_hash text not null unique,
      ingest_key_last4 text not null,
      token_expires_at timestamptz(3),
      health text not null default 'healthy' check (health in ('healthy', 'degraded', 'down', 'token_expired')),
      health_reason text,
      health_checked_at timestamptz(3),
      health_changed_at timestamptz(3),
      failures_reset_at timestamptz(3),
      last_intake_at timestamptz(3),
      created_by text,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index integrations_scope on integrations (workspace_id, environment, created_at desc, id desc)`.execute(db);
  // The health job looks for tokens that have run out.
  await sql`create index integrations_token_expiry on integrations (token_expires_at) where token_expires_at is not null`.execute(db);

  await sql`
    create table integration_intake_failures (
      id bigint generated always as identity primary key,
      integration_id text not null references integrations(id) on delete cascade,
      workspace_id text not null,
      environment text not null,
      at timestamptz(3) not null,
      code text not null,
      details jsonb
    )`.execute(db);
  await sql`create index integration_intake_failures_recent on integration_intake_failures (integration_id, at desc)`.execute(db);
  await sql`create index integration_intake_failures_at on integration_intake_failures (at)`.execute(db);

  await sql`
    create table orders (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      source text not null,
      external_id text,
      status text not null default 'awaiting_fulfillment'
        check (status in ('awaiting_fulfillment', 'processing', 'shipped', 'delivered', 'cancelled')),
      archived boolean not null default false,
      customer_name text,
      customer_email text,
      customer_phone text,
      ship_to jsonb not null,
      ship_from jsonb,
      line_items jsonb not null,
      parcel jsonb not null,
      parcel_input jsonb,
      requested_service text,
      notes text,
      processed_at timestamptz(3),
      shipped_at timestamptz(3),
      delivered_at timestamptz(3),
      cancelled_at timestamptz(3),
      archived_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  // external_id is unique per workspace + environment + source; leading with external_id also
  // serves the ?external_id= filter across sources.
  await sql`
    create unique index orders_external_id on orders (workspace_id, environment, external_id, source)
    where external_id is not null`.execute(db);
  // The default list (unarchived, newest first) and the status-filtered list, keyset order.
  await sql`create index orders_scope_archived on orders (workspace_id, environment, archived, created_at desc, id desc)`.execute(db);
  await sql`create index orders_scope_status on orders (workspace_id, environment, status, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['orders', 'integration_intake_failures', 'integrations']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
