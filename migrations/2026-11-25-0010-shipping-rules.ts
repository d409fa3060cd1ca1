import { sql, type Kysely } from 'kysely';

// Shipping rules: per workspace and environment, ordered by priority (lower
// first, then oldest first). `conditions` is the rule's `when`, `actions` its `then` (both
// SQL keywords). A deleted rule is gone: a shipment's `selection` keeps the rule's id and name
// as they were when it chose the service.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table shipping_rules (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      name text not null,
      priority integer not null,
      enabled boolean not null default true,
      conditions jsonb not null,
      actions jsonb not null,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index shipping_rules_scope on shipping_rules (workspace_id, environment, priority, created_at, id)`.execute(db);
  // Why a label got its service (null when the service was given explicitly).
  await sql`alter table shipments add column selection jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table shipments drop column selection`.execute(db);
  await sql`drop table shipping_rules`.execute(db);
}
