import { sql, type Kysely } from 'kysely';

// Mutual TLS (enterprise): a workspace flag that makes /v1 demand a registered client
// certificate, and the SHA-256 fingerprints registered per workspace. Certificates belong to
// the workspace (both environments): the connection, not the key, is what they authenticate.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table workspaces add column mtls_required boolean not null default false`.execute(db);
  await sql`
    create table mtls_certificates (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      name text not null,
      fingerprint_sha256 text not null check (fingerprint_sha256 ~ '^[0-9a-f]{64}$'),
      subject text,
      expires_at timestamptz(3),
      created_by text,
      created_at timestamptz(3) not null default now(),
      unique (workspace_id, fingerprint_sha256)
    )`.execute(db);
  await sql`create index mtls_certificates_scope on mtls_certificates (workspace_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table mtls_certificates`.execute(db);
  await sql`alter table workspaces drop column mtls_required`.execute(db);
}
