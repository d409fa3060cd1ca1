import { sql, type Kysely } from 'kysely';

// Customs documents of a shipment: the CN 22, CN 23 or commercial invoice the
// platform renders from the shipment's declaration (on first download, then kept here, as
// shipment_labels keeps label formats: a purchase does not pay for them), and the documents a
// carrier issued with the label (DHL Express's commercial invoice, waybill…), stored as received.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table shipment_documents (
      shipment_id text not null references shipments(id) on delete cascade,
      type text not null,
      workspace_id text not null,
      environment text not null,
      source text not null check (source in ('platform', 'carrier')),
      content_type text not null,
      body bytea not null,
      created_at timestamptz(3) not null default now(),
      primary key (shipment_id, type)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists shipment_documents`.execute(db);
}
