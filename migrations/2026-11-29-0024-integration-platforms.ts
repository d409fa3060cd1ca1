import { sql, type Kysely } from 'kysely';

// A store platform is a folder the service discovers (docs/channels.md, "Adding a platform"), so
// the column no longer lists the platforms: it keeps the slug's shape, and the API checks the
// value against the platforms found.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table integrations drop constraint if exists integrations_platform_check`.execute(db);
  await sql`alter table integrations add constraint integrations_platform_check check (platform ~ '^[a-z][a-z0-9_]*$')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table integrations drop constraint if exists integrations_platform_check`.execute(db);
  await sql`alter table integrations add constraint integrations_platform_check check (platform in ('shopify', 'woocommerce', 'bigcommerce', 'custom'))`.execute(
    db,
  );
}
