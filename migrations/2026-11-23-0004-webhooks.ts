import { sql, type Kysely } from 'kysely';

// Webhook endpoints, their deliveries (the outbox rows the fan-out writes in the transaction
// that records an event) and every delivery attempt. Timestamps are timestamptz(3) so keyset
// cursors (created_at, id) round-trip at ms precision.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      url text not null,
      description text,
      events text[] not null,
      enabled boolean not null default true,
      disabled_reason text,
      disabled_at timestamptz(3),
      secret_sealed text not null,
      previous_secret_sealed text,
      previous_secret_expires_at timestamptz(3),
      secret_rotated_at timestamptz(3),
      failing_since timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index webhook_endpoints_scope on webhook_endpoints (workspace_id, environment, created_at desc, id desc)`.execute(db);

  await sql`
    create table webhook_deliveries (
      id text primary key,
      workspace_id text not null,
      environment text not null,
      endpoint_id text not null references webhook_endpoints(id) on delete cascade,
      event_id text not null,
      event_type text not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'dead')),
      attempt_count integer not null default 0,
      attempt_limit integer,
      next_attempt_at timestamptz(3),
      locked_until timestamptz(3),
      last_attempt_at timestamptz(3),
      last_status_code integer,
      last_error text,
      delivered_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc, id desc)`.execute(db);
  await sql`create index webhook_deliveries_scope on webhook_deliveries (workspace_id, environment, status, created_at desc, id desc)`.execute(db);
  // The dispatcher's claim: due work only, so the index stays the size of the backlog.
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status in ('pending', 'failed')`.execute(db);

  await sql`
    create table webhook_delivery_attempts (
      id bigint generated always as identity primary key,
      delivery_id text not null references webhook_deliveries(id) on delete cascade,
      number integer not null,
      attempted_at timestamptz(3) not null,
      status_code integer,
      latency_ms integer not null,
      response_body text,
      error text
    )`.execute(db);
  await sql`create index webhook_delivery_attempts_delivery on webhook_delivery_attempts (delivery_id, number)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webhook_delivery_attempts`.execute(db);
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhook_endpoints`.execute(db);
}
