import { sql, type Kysely } from 'kysely';

// International shipping: an order may carry the customs declaration its
// sender gave; a shipment keeps the one its label was bought with (given or derived), which
// its customs documents are printed from.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column customs jsonb`.execute(db);
  await sql`alter table shipments add column customs jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table shipments drop column customs`.execute(db);
  await sql`alter table orders drop column customs`.execute(db);
}
