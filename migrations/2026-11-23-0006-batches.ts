import { sql, type Kysely } from 'kysely';

// Batch jobs and their items. An item's status moves from pending exactly once (a conditional
// update in the item's own transaction), and a purchase's shipment is unique per item, so a
// retried or resumed chunk never repeats an item.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table batches (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      type text not null check (type in ('purchase_labels', 'import_orders', 'validate_addresses', 'process_orders')),
      status text not null check (status in ('queued', 'running', 'completed', 'completed_with_errors', 'failed', 'cancelled')),
      label_format text,
      service_code text,
      total integer not null,
      actor jsonb not null,
      started_at timestamptz(3),
      finished_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index batches_scope on batches (workspace_id, environment, created_at desc, id desc)`.execute(db);

  await sql`
    create table batch_items (
      id text primary key,
      batch_id text not null references batches(id) on delete cascade,
      workspace_id text not null,
      environment text not null,
      idx integer not null,
      status text not null check (status in ('pending', 'succeeded', 'failed', 'cancelled')),
      input jsonb not null,
      result jsonb,
      error jsonb,
      shipment_id text unique,
      finished_at timestamptz(3),
      unique (batch_id, idx)
    )`.execute(db);
  await sql`create index batch_items_status on batch_items (batch_id, status, idx)`.execute(db);

  // The merged label file, rendered once when first asked for after the batch finished.
  await sql`
    create table batch_labels (
      batch_id text primary key references batches(id) on delete cascade,
      content_type text not null,
      body bytea not null,
      created_at timestamptz(3) not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table batch_labels`.execute(db);
  await sql`drop table batch_items`.execute(db);
  await sql`drop table batches`.execute(db);
}
