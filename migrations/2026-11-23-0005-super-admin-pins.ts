import { sql, type Kysely } from 'kysely';

// Super-admin console (workspace suspension, API request counts, analytics indexes, an
// append-only audit log) and the office-redeem PIN feature.
export async function up(db: Kysely<any>): Promise<void> {
  // Set on the workspaces an account owns while that account is suspended: their API keys stop
  // working until it is reactivated.
  await sql`alter table workspaces add column suspended_at timestamptz(3)`.execute(db);

  // API requests per workspace and minute, flushed from each process's in-memory counter
  // (additive upserts, so several processes add up).
  await sql`
    create table api_request_counts (
      workspace_id text not null,
      environment text not null,
      minute timestamptz(3) not null,
      count bigint not null,
      primary key (minute, workspace_id, environment)
    )`.execute(db);

  // Analytics range scans across every workspace: orders created per day and by status, read
  // from the index alone (an index-only scan over the range instead of the 1M-row heap).
  await sql`create index orders_created_status on orders (created_at, status)`.execute(db);

  // Audit-log filters, newest first within each.
  await sql`create index audit_log_actor on audit_log (actor_id, at desc, id desc)`.execute(db);
  await sql`create index audit_log_action on audit_log (action, at desc, id desc)`.execute(db);
  await sql`create index audit_log_target_at on audit_log (target_type, target_id, at desc, id desc)`.execute(db);
  await sql`drop index if exists audit_log_target`.execute(db);

  // Append-only: the database itself refuses to change or remove an audit entry.
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_log_no_update_delete before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
  await sql`
    create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only()`.execute(db);

  await sql`
    create table office_pins (
      id text primary key,
      pin text not null check (pin ~ '^[0-9]{16}$'),
      product text not null check (product in ('office_2024', 'office_365')),
      status text not null default 'active' check (status in ('active', 'revoked')),
      expires_at timestamptz(3) not null,
      order_id text references orders(id) on delete set null,
      workspace_id text references workspaces(id) on delete cascade,
      environment text check (environment in ('test', 'live')),
      line_index integer,
      unit_index integer,
      test boolean not null default false,
      lookup_count integer not null default 0,
      last_lookup_at timestamptz(3),
      revoked_at timestamptz(3),
      renewed_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create unique index office_pins_pin on office_pins (pin)`.execute(db);
  // One PIN per unit of a line item: processing an order twice (a retried job) issues nothing new.
  await sql`create unique index office_pins_unit on office_pins (order_id, line_index, unit_index) where order_id is not null`.execute(db);
  await sql`create index office_pins_created on office_pins (created_at desc, id desc)`.execute(db);
  await sql`create index office_pins_status on office_pins (status, expires_at)`.execute(db);

  // The 2024 master configuration (product key sealed) and the 365 redeem page, one row each.
  await sql`
    create table office_redeem_config (
      product text primary key check (product in ('office_2024', 'office_365')),
      value jsonb not null,
      updated_at timestamptz(3) not null default now(),
      updated_by text
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists office_redeem_config`.execute(db);
  await sql`drop table if exists office_pins`.execute(db);
  await sql`drop trigger if exists audit_log_no_truncate on audit_log`.execute(db);
  await sql`drop trigger if exists audit_log_no_update_delete on audit_log`.execute(db);
  await sql`drop function if exists audit_log_append_only()`.execute(db);
  await sql`drop index if exists audit_log_actor`.execute(db);
  await sql`drop index if exists audit_log_action`.execute(db);
  await sql`drop index if exists audit_log_target_at`.execute(db);
  await sql`create index if not exists audit_log_target on audit_log (target_type, target_id)`.execute(db);
  await sql`drop index if exists orders_created_status`.execute(db);
  await sql`drop table if exists api_request_counts`.execute(db);
  await sql`alter table workspaces drop column if exists suspended_at`.execute(db);
}
