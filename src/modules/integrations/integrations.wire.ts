import type { Integration } from './integrations.schemas.js';
import type { IntegrationRow } from './integrations.tables.js';
import { iso } from '../../platform/http/wire.js';

/** The integration on the wire: never the credentials nor the ingest key's hash. */
export function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    name: row.name,
    platform: row.platform,
    environment: row.environment,
    config: row.config ?? {},
    has_credentials: row.credentials_sealed !== null,
    token_expires_at: iso(row.token_expires_at),
    health: row.health,
    health_reason: row.health_reason,
    health_checked_at: iso(row.health_checked_at),
    last_intake_at: iso(row.last_intake_at),
    ingest_key_last4: row.ingest_key_last4,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
