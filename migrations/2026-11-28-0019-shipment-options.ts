import { sql, type Kysely } from 'kysely';

// Shipment options and multi-piece shipments. An order keeps the options it was given (its
// default for every label bought for it) and, for a multi-piece order, its parcels; a shipment
// keeps the options in force when it was bought (the order's, overridden key by key) and its
// packages, each with its own tracking number. Null: none given (defaults; one parcel).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column options jsonb, add column parcels jsonb`.execute(db);
  await sql`alter table shipments add column options jsonb, add column packages jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table shipments drop column packages, drop column options`.execute(db);
  await sql`alter table orders drop column parcels, drop column options`.execute(db);
}
