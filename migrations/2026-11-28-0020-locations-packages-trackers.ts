import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/** The dominant IANA zone per US state (a copy: migrations import nothing from src/; see modules/rates/delivery-dates.ts). */
const STATE_TIME_ZONES: Record<string, string> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  FL: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  ID: 'America/Boise',
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago',
  KS: 'America/Chicago',
  KY: 'America/New_York',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MI: 'America/Detroit',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NE: 'America/Chicago',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  ND: 'America/Chicago',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  OR: 'America/Los_Angeles',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  SD: 'America/Chicago',
  TN: 'America/Chicago',
  TX: 'America/Chicago',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
  PR: 'America/Puerto_Rico',
  VI: 'America/St_Thomas',
  GU: 'Pacific/Guam',
  AS: 'Pacific/Pago_Pago',
  MP: 'Pacific/Saipan',
  FM: 'Pacific/Pohnpei',
  MH: 'Pacific/Majuro',
  PW: 'Pacific/Palau',
};

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

/** A `loc_` TypeID (UUIDv7: the ms clock, then random bits), as platform/ids.ts makes them. */
function locationId(nowMs: number): string {
  const bytes = randomBytes(16);
  let ms = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = BASE32[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return `loc_${out}`;
}

// Locations (where a workspace ships from), packages (its own box presets) and trackers.
//
// Trackers: labels bought elsewhere, followed like our own (docs/api-conventions.md). The
// carrier's journey is kept on the row (`events`, oldest first, deduplicated by the carrier's
// own event identity), so a tracker needs no shipment and touches no shipment table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table trackers (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      carrier text not null,
      tracking_number text not null,
      carrier_account_id text,
      carrier_driver text not null check (carrier_driver in ('simulated', 'api')),
      service_code text not null,
      status text not null,
      status_detail text,
      events jsonb not null,
      estimated_delivery_at timestamptz(3),
      sandbox jsonb,
      next_check_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  // One tracker per number and carrier in a scope: creating it again answers the existing one.
  await sql`create unique index trackers_number on trackers (workspace_id, environment, carrier, tracking_number)`.execute(db);
  await sql`create index trackers_scope on trackers (workspace_id, environment, created_at, id)`.execute(db);
  await sql`create index trackers_due on trackers (next_check_at) where next_check_at is not null`.execute(db);

  // Packages: a workspace's own box presets. The carriers' packaging is data in their folders.
  await sql`
    create table packages (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      name text not null,
      length_in double precision not null,
      width_in double precision not null,
      height_in double precision not null,
      tare_weight_oz double precision not null,
      max_weight_oz double precision,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index packages_scope on packages (workspace_id, environment, created_at, id)`.execute(db);

  // Locations: where a workspace ships from. Each workspace's origin address becomes its default
  // location, in both environments (the origin is per workspace; locations, like every business
  // row, per environment), in the origin state's time zone with the usual 17:00 cut-off.
  await sql`
    create table locations (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      name text not null,
      address jsonb not null,
      return_address jsonb,
      timezone text not null,
      pickup_cutoff text not null,
      is_default boolean not null default false,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index locations_scope on locations (workspace_id, environment, created_at, id)`.execute(db);
  await sql`create unique index locations_one_default on locations (workspace_id, environment) where is_default`.execute(db);
  const origins = await sql<{
    id: string;
    origin_address: Record<string, unknown> | string;
  }>`select id, origin_address from workspaces where origin_address is not null`.execute(db);
  const now = Date.now();
  for (const ws of origins.rows) {
    const address = typeof ws.origin_address === 'string' ? (JSON.parse(ws.origin_address) as Record<string, unknown>) : ws.origin_address;
    const state = typeof address.state === 'string' ? address.state.toUpperCase() : '';
    const country = typeof address.country === 'string' ? address.country.toUpperCase() : '';
    const timezone = (country === 'US' && STATE_TIME_ZONES[state]) || 'UTC';
    const name =
      typeof address.company === 'string' && address.company ? address.company : typeof address.name === 'string' && address.name ? address.name : 'Origin';
    for (const environment of ['test', 'live']) {
      await sql`insert into locations (id, workspace_id, environment, name, address, timezone, pickup_cutoff, is_default)
        values (${locationId(now)}, ${ws.id}, ${environment}, ${name}, ${JSON.stringify(address)}::jsonb, ${timezone}, '17:00', true)`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists locations`.execute(db);
  await sql`drop table if exists packages`.execute(db);
  await sql`drop table if exists trackers`.execute(db);
}
