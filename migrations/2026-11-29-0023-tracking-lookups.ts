import { sql, type Kysely } from 'kysely';

// GET /v1/tracking/:number and public tracking find a number that is not a shipment's master:
// one of a multi-piece shipment's package numbers (the packages column) or a tracker's (a label
// bought elsewhere). Both lookups run only after the master number missed; these indexes keep a
// miss an index probe (docs/api-conventions.md, "Tracking by number").
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index shipments_packages on shipments using gin (packages jsonb_path_ops) where packages is not null`.execute(db);
  await sql`create index trackers_tracking_number on trackers (tracking_number, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists trackers_tracking_number`.execute(db);
  await sql`drop index if exists shipments_packages`.execute(db);
}
