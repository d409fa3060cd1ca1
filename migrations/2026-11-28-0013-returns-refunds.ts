import { sql, type Kysely } from 'kysely';

// Returns and refunds. A return label is a shipment like any other (tracked,
// voidable, printed) with its return facts beside it; an outbound shipment's billing is simply
// `charged`. A new final status `expired`: an on_scan return label unused at its expiry. The
// refund a void asks for lives on the voided shipment (one refund per label at most), so
// GET /v1/refunds is a filtered, keyset-paginated read of shipments.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table shipments drop constraint if exists shipments_status_check`.execute(db);
  await sql`alter table shipments add constraint shipments_status_check
    check (status in ('label_purchased', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'voided', 'expired'))`.execute(db);
  await sql`alter table shipments
    add column is_return boolean not null default false,
    add column return_of text,
    add column return_charge text check (return_charge in ('on_creation', 'on_scan')),
    add column return_expires_at timestamptz(3),
    add column rma_number text,
    add column return_reason text,
    add column billing_status text not null default 'charged' check (billing_status in ('pending', 'charged', 'not_charged')),
    add column refund_id text,
    add column refund_status text check (refund_status in ('submitted', 'refunded', 'rejected')),
    add column refund_amount integer,
    add column refund_currency text,
    add column refund_requested_at timestamptz(3),
    add column refund_decided_at timestamptz(3),
    add column refund_reason text,
    add column refund_decide_after timestamptz(3)`.execute(db);
  // A batch of return labels (create_returns), one item per outbound shipment.
  await sql`alter table batches drop constraint if exists batches_type_check`.execute(db);
  await sql`alter table batches add constraint batches_type_check
    check (type in ('purchase_labels', 'import_orders', 'validate_addresses', 'process_orders', 'create_returns'))`.execute(db);
  await sql`create index shipments_return_of on shipments (return_of) where return_of is not null`.execute(db);
  await sql`create index shipments_refunds on shipments (workspace_id, environment, refund_requested_at desc, id desc) where refund_status is not null`.execute(
    db,
  );
  await sql`create index shipments_refunds_due on shipments (refund_decide_after) where refund_status = 'submitted'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table batches drop constraint if exists batches_type_check`.execute(db);
  await sql`alter table batches add constraint batches_type_check
    check (type in ('purchase_labels', 'import_orders', 'validate_addresses', 'process_orders'))`.execute(db);
  await sql`drop index if exists shipments_refunds_due`.execute(db);
  await sql`drop index if exists shipments_refunds`.execute(db);
  await sql`drop index if exists shipments_return_of`.execute(db);
  for (const c of [
    'is_return',
    'return_of',
    'return_charge',
    'return_expires_at',
    'rma_number',
    'return_reason',
    'billing_status',
    'refund_id',
    'refund_status',
    'refund_amount',
    'refund_currency',
    'refund_requested_at',
    'refund_decided_at',
    'refund_reason',
    'refund_decide_after',
  ]) {
    await sql`alter table shipments drop column ${sql.ref(c)}`.execute(db);
  }
  await sql`alter table shipments drop constraint if exists shipments_status_check`.execute(db);
  await sql`alter table shipments add constraint shipments_status_check
    check (status in ('label_purchased', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'voided'))`.execute(db);
}
