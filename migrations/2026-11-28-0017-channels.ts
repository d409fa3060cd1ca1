import { sql, type Kysely } from 'kysely';

// Store connectors (docs/channels.md): a connection to a real platform on the integration row,
// the platform's webhook deliveries (kept and deduplicated on the platform's delivery id, then
// applied by a job), sync runs, the per-order sync history, and write-backs (tracking sent back
// to the store, created in the label purchase's transaction and delivered by a job).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table integrations
      add column store_ref text,
      add column base_url text,
      add column connection_state text check (connection_state in ('pending_authorization', 'active', 'paused', 'disconnected')),
      add column connected_at timestamptz(3),
      add column scopes jsonb,
      add column settings jsonb not null default '{}'::jsonb,
      add column oauth_state_hash text,
      add column oauth_state_expires_at timestamptz(3),
      add column oauth_authorize_url text,
      add column credentials_masked jsonb,
      add column last_webhook_at timestamptz(3),
      add column last_reconciled_at timestamptz(3),
      add column sync_watermark timestamptz(3)`.execute(db);
  await sql`create unique index integrations_oauth_state on integrations (oauth_state_hash) where oauth_state_hash is not null`.execute(db);

  await sql`
    alter table orders
      add column external_number text,
      add column channel_version text,
      add column needs_review jsonb`.execute(db);

  await sql`
    create table channel_deliveries (
      id text primary key,
      integration_id text not null references integrations(id) on delete cascade,
      workspace_id text not null,
      environment text not null,
      delivery_id text not null,
      topic text not null,
      body jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'applied', 'failed')),
      error text,
      received_at timestamptz(3) not null default now(),
      applied_at timestamptz(3)
    )`.execute(db);
  await sql`create unique index channel_deliveries_dedup on channel_deliveries (integration_id, delivery_id)`.execute(db);
  await sql`create index channel_deliveries_received on channel_deliveries (received_at)`.execute(db);

  await sql`
    create table channel_sync_runs (
      id text primary key,
      integration_id text not null references integrations(id) on delete cascade,
      workspace_id text not null,
      environment text not null,
      kind text not null check (kind in ('backfill', 'reconcile', 'manual')),
      status text not null check (status in ('queued', 'running', 'completed', 'completed_with_errors', 'failed')),
      since timestamptz(3),
      cursor text,
      counts jsonb not null default '{}'::jsonb,
      error text,
      created_at timestamptz(3) not null default now(),
      started_at timestamptz(3),
      finished_at timestamptz(3)
    )`.execute(db);
  await sql`create index channel_sync_runs_list on channel_sync_runs (integration_id, created_at desc, id desc)`.execute(db);

  await sql`
    create table order_sync_entries (
      id bigint generated always as identity primary key,
      workspace_id text not null,
      environment text not null,
      integration_id text not null,
      external_id text not null,
      at timestamptz(3) not null default now(),
      source text not null check (source in ('webhook', 'poll', 'manual')),
      platform_version text,
      decision text not null,
      changes jsonb not null default '[]'::jsonb,
      message text
    )`.execute(db);
  await sql`create index order_sync_entries_order on order_sync_entries (integration_id, external_id, id)`.execute(db);

  await sql`
    create table write_backs (
      id text primary key,
      workspace_id text not null,
      environment text not null,
      shipment_id text not null,
      order_id text not null,
      integration_id text not null references integrations(id) on delete cascade,
      action text not null check (action in ('fulfill', 'update_tracking', 'cancel_fulfillment')),
      tracking_number text not null,
      carrier text not null,
      service_code text,
      status text not null check (status in ('pending', 'succeeded', 'retrying', 'dead', 'skipped')),
      attempts integer not null default 0,
      external_ref text,
      external_refs jsonb,
      last_error jsonb,
      next_attempt_at timestamptz(3),
      claimed_until timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      completed_at timestamptz(3)
    )`.execute(db);
  await sql`create index write_backs_list on write_backs (workspace_id, environment, created_at desc, id desc)`.execute(db);
  await sql`create index write_backs_shipment on write_backs (shipment_id, created_at)`.execute(db);
  await sql`create index write_backs_waiting on write_backs (integration_id, status) where status in ('pending', 'retrying')`.execute(db);
  await sql`
    create table channel_exchanges (
      id text primary key,
      integration_id text not null references integrations(id) on delete cascade,
      workspace_id text not null,
      environment text not null,
      operation text not null,
      method text not null,
      path text not null,
      status integer,
      outcome text not null,
      duration_ms integer not null,
      attempt integer not null,
      request_body jsonb,
      response_body jsonb,
      request_id text,
      created_at timestamptz(3) not null
    )`.execute(db);
  await sql`create index channel_exchanges_recent on channel_exchanges (integration_id, created_at desc, id desc)`.execute(db);
  await sql`create index channel_exchanges_age on channel_exchanges (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists channel_exchanges`.execute(db);
  await sql`drop table if exists write_backs`.execute(db);
  await sql`drop table if exists order_sync_entries`.execute(db);
  await sql`drop table if exists channel_sync_runs`.execute(db);
  await sql`drop table if exists channel_deliveries`.execute(db);
  await sql`alter table orders drop column if exists external_number, drop column if exists channel_version, drop column if exists needs_review`.execute(db);
  await sql`
    alter table integrations
      drop column if exists store_ref, drop column if exists base_url, drop column if exists connection_state,
      drop column if exists connected_at, drop column if exists scopes, drop column if exists settings,
      drop column if exists oauth_state_hash, drop column if exists oauth_state_expires_at, drop column if exists oauth_authorize_url,
      drop column if exists credentials_masked, drop column if exists last_webhook_at,
      drop column if exists last_reconciled_at, drop column if exists sync_watermark`.execute(db);
}
