import type { ChannelPlatform } from '../../channels/platform.js';
import type { ChannelType, Integration } from './integrations.schemas.js';
import type { IntegrationRow } from './integrations.tables.js';
import { iso } from '../../platform/http/wire.js';
import { effectiveSettings, isConnector } from './integrations.connection.js';

/** Seconds since the store was last known to be in sync: the later of the last webhook and the last reconciliation. */
function lagSeconds(row: IntegrationRow, now: Date): number | null {
  const times = [row.last_webhook_at, row.last_reconciled_at].filter((t): t is Date => t !== null).map((t) => new Date(t).getTime());
  if (!times.length) return null;
  return Math.max(0, Math.round((now.getTime() - Math.max(...times)) / 1000));
}

/** The integration on the wire: never the credentials (only masked) nor the ingest key's hash. */
export function toIntegration(row: IntegrationRow, now: Date = new Date()): Integration {
  const connector = isConnector(row.platform) && row.connection_state !== null;
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
    store_ref: row.store_ref,
    base_url: row.base_url,
    credentials: connector ? (row.credentials_masked ?? null) : null,
    connection: connector
      ? {
          state: row.connection_state!,
          authorize_url: row.connection_state === 'pending_authorization' ? row.oauth_authorize_url : null,
          connected_at: iso(row.connected_at),
          scopes: row.scopes ?? [],
        }
      : null,
    settings: connector ? effectiveSettings(row.platform, row.settings) : null,
    sync: connector ? { last_webhook_at: iso(row.last_webhook_at), last_reconciled_at: iso(row.last_reconciled_at), lag_seconds: lagSeconds(row, now) } : null,
    health_since: iso(row.health_changed_at ?? row.created_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** A store platform as GET /api/admin/channel-types lists it: what the dashboard's forms are drawn from. */
export function toChannelType(p: ChannelPlatform): ChannelType {
  return {
    platform: p.slug,
    name: p.name,
    store_ref: { label: p.storeRefLabel, description: p.storeRefDescription },
    credentials: p.credentialFields.map((f) => ({ field: f.field, label: f.label, required: f.required, secret: p.secretCredentialFields.includes(f.field) })),
    oauth: typeof p.authorizeUrl === 'function',
    oauth_scopes: [...p.oauthScopes],
    default_import_statuses: [...p.defaultImportStatuses],
    import_statuses_hint: p.importStatusesHint,
    webhook_topics: [...p.webhookTopics],
  };
}
