import { sql, type Kysely } from 'kysely';

// Address validation at purchase: each shipment records how its destination was
// checked ({mode, status, messages, source}) and, when validate_and_clean shipped it to the
// normalised address, the address as the order gave it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table shipments add column address_validation jsonb`.execute(db);
  await sql`alter table shipments add column ship_to_original jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table shipments drop column ship_to_original`.execute(db);
  await sql`alter table shipments drop column address_validation`.execute(db);
}
