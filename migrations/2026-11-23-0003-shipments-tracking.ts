import { sql, type Kysely } from 'kysely';

// Shipments (labels bought for orders), their stored label artifacts and their tracking events.
// Timestamps are timestamptz(3) so keyset cursors (created_at, id) round-trip at ms precision.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table shipments (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      order_id text not null references orders(id) on delete cascade,
      carrier text not null,
      service_code text not null,
      service_name text not null,
      tracking_number text not null,
      status text not null default 'label_purchased'
        check (status in ('label_purchased', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'voided')),
      price_amount integer not null,
      price_currency text not null,
      rate jsonb not null,
      ship_from jsonb not null,
      ship_to jsonb not null,
      parcel jsonb not null,
      label_format text not null,
      label_created_at timestamptz(3) not null,
      tracking_status text not null default 'pre_transit',
      tracking_status_detail text,
      estimated_delivery_date text,
      expected_milestones jsonb not null default '{}'::jsonb,
      sandbox jsonb,
      next_check_at timestamptz(3),
      purchased_at timestamptz(3) not null,
      voided_at timestamptz(3),
      delivered_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index shipments_scope on shipments (workspace_id, environment, created_at desc, id desc)`.execute(db);
  await sql`create index shipments_order on shipments (order_id)`.execute(db);
  // Public tracking and /v1/tracking/:id look a number up across carriers.
  await sql`create index shipments_tracking_number on shipments (tracking_number)`.execute(db);
  // The poll job: shipments whose next scan is due.
  await sql`create index shipments_next_check on shipments (next_check_at) where next_check_at is not null`.execute(db);

  // Rendered labels: the purchased format, and others rendered on demand (a cache). Stored in
  // the database so any API process serves any label.
  await sql`
    create table shipment_labels (
      shipment_id text not null references shipments(id) on delete cascade,
      format text not null,
      workspace_id text not null,
      environment text not null,
      content_type text not null,
      body bytea not null,
      created_at timestamptz(3) not null default now(),
      primary key (shipment_id, format)
    )`.execute(db);

  await sql`
    create table tracking_events (
      id text primary key,
      workspace_id text not null,
      environment text not null,
      shipment_id text not null references shipments(id) on delete cascade,
      tracking_number text not null,
      carrier text not null,
      event_key text not null,
      seq integer not null,
      occurred_at timestamptz(3) not null,
      status text not null,
      status_detail text not null,
      milestone text,
      description text not null,
      location jsonb not null,
      carrier_status_code text not null,
      created_at timestamptz(3) not null default now()
    )`.execute(db);
  // A carrier event is stored once, however often it is ingested (poll job and reads race).
  await sql`create unique index tracking_events_dedupe on tracking_events (shipment_id, event_key)`.execute(db);
  await sql`create index tracking_events_shipment on tracking_events (shipment_id, occurred_at desc, seq desc)`.execute(db);
  await sql`create index tracking_events_scope on tracking_events (workspace_id, environment, occurred_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tracking_events', 'shipment_labels', 'shipments']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
