import { sql, type Kysely } from 'kysely';

// Shipments bought through a carrier account. A shipment names the account
// that sold it (null for the ones bought before accounts existed: the simulated default) and
// its driver (an `api` shipment is tracked by polling the carrier, never on a read), the
// carrier's own shipment id (what a void sends) and the image format the carrier issued.
// `tracking_refreshed_at` spaces POST /v1/tracking/:id/refresh to once a minute.
//
// carrier_labels keeps every label a real carrier issued, exactly as received, written the
// moment the carrier answers and before anything else can fail: a label that cost money is
// never lost, even when our own transaction then fails (status `compensated` once voided again,
// `void_failed` when that void did not go through and an operator must look).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table shipments add column carrier_account_id text`.execute(db);
  await sql`alter table shipments add column carrier_driver text not null default 'simulated'`.execute(db);
  await sql`alter table shipments add column carrier_shipment_id text`.execute(db);
  await sql`alter table shipments add column carrier_label_format text`.execute(db);
  await sql`alter table shipments add column tracking_refreshed_at timestamptz(3)`.execute(db);
  await sql`
    create table carrier_labels (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null,
      carrier_account_id text not null,
      shipment_id text not null,
      carrier text not null,
      tracking_number text not null,
      carrier_shipment_id text not null,
      format text not null,
      content_type text not null,
      body bytea not null,
      status text not null default 'issued' check (status in ('issued', 'kept', 'compensated', 'void_failed')),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index carrier_labels_shipment on carrier_labels (shipment_id)`.execute(db);
  await sql`create index carrier_labels_unkept on carrier_labels (status, created_at) where status <> 'kept'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table carrier_labels`.execute(db);
  for (const column of ['tracking_refreshed_at', 'carrier_label_format', 'carrier_shipment_id', 'carrier_driver', 'carrier_account_id']) {
    await sql`alter table shipments drop column ${sql.id(column)}`.execute(db);
  }
}
