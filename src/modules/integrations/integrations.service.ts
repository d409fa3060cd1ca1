import type { Updateable } from 'kysely';
import { AppError, validationError, type ErrorDetail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { randomBase62, sha256Hex } from '../../platform/crypto.js';
import type { Deps } from '../../platform/deps.js';
import type { Environment, Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { createSecretBox, type SecretBox } from '../../platform/secret-box.js';
import { writeAudit } from '../audit/index.js';
import { recordEvent } from '../events/index.js';
import * as repo from './integrations.repo.js';
import { HEALTH_WINDOW_MS, healthAfterFailure, healthAfterSuccess, healthAfterTokenUpdate, healthAtCheck, type HealthChange } from './integrations.health.js';
import type { CreateIntegrationInput, Integration, IntegrationListFilter, UpdateIntegrationInput } from './integrations.schemas.js';
import type { IntegrationRow, IntegrationsTable } from './integrations.tables.js';
import { toIntegration } from './integrations.wire.js';
import { maskSecret } from '../../platform/mask.js';
import {
  baseUrlProblems,
  CONNECTOR_PLATFORMS,
  effectiveSettings,
  isConnector,
  SECRET_CREDENTIAL_FIELDS,
  checkCredentials,
  checkStoreRef,
  storeAddressProblems,
  withWebhookSecret,
} from './integrations.connection.js';
import { oauthStart } from './integrations.oauth.js';

export const HEALTH_CHANGED_EVENT = 'integration.health_changed';
/** config and credentials are small JSON objects. */
const MAX_JSON_BYTES = 16 * 1024;

export interface VerifiedIngestKey {
  integrationId: string;
  workspaceId: string;
  environment: Environment;
  /** The workspace's owner is suspended: the key is refused until reactivation. */
  suspended: boolean;
}

export interface HealthChangedData {
  integration_id: string;
  name: string;
  platform: string;
  previous_health: string;
  health: string;
  reason: string;
  changed_at: string;
}

function newIngestKey(): string {
  // 43 base62 characters ≈ 256 bits, as API keys.
  return `ik_${randomBase62(43)}`;
}

function parseTimestamp(value: string | null | undefined, field: string, details: ErrorDetail[]): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    details.push({ field, message: 'must be an ISO-8601 date-time' });
    return undefined;
  }
  return date;
}

function checkJsonSize(value: unknown, field: string, details: ErrorDetail[]): void {
  if (value != null && Buffer.byteLength(JSON.stringify(value)) > MAX_JSON_BYTES) {
    details.push({ field, message: `must be at most ${MAX_JSON_BYTES} bytes of JSON` });
  }
}

const scopeOf = (row: IntegrationRow): Scope => ({ workspaceId: row.workspace_id, environment: row.environment });

/** Credentials as answers and the audit log show them: every secret field masked. */
function maskedCredentials(credentials: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k, SECRET_CREDENTIAL_FIELDS.has(k) && typeof v === 'string' ? maskSecret(v) : v]));
}

/** The activation job (docs/channels.md): webhooks registered, then the backfill. */
export const ACTIVATE_JOB = 'integrations.activate';
export interface ActivateJob {
  workspace_id: string;
  environment: Environment;
  integration_id: string;
}

export class IntegrationsService {
  private readonly box: SecretBox;
  /** Verified ingest keys by hash (also negative), dropped at once on rotation or deletion. */
  private readonly keys = new TtlCache<VerifiedIngestKey | null>(60_000, 50_000);

  constructor(private readonly deps: Deps) {
    this.box = createSecretBox(deps.config);
    deps.bus.subscribe((topic) => this.invalidate(topic));
  }

  /**
   * One invalidation topic, as the bus delivers it. Ingest keys share the API keys' topic
   * (`api_key:<sha256>`): hashes never collide, and the identity cache treats an unknown hash
   * as a no-op. `workspace:<id>` is published on suspension and reactivation of its owner.
   */
  invalidate(topic: string): void {
    if (topic.startsWith('api_key:')) this.keys.delete(topic.slice('api_key:'.length));
    else if (topic.startsWith('workspace:')) {
      const workspaceId = topic.slice('workspace:'.length);
      this.keys.deleteWhere((k) => k?.workspaceId === workspaceId);
    } else if (!topic.includes(':')) this.keys.clear();
  }

  // ---- admin ----

  async listIntegrations(scope: Scope, filter: IntegrationListFilter): Promise<Page<Integration>> {
    const page = await paginate(repo.integrationsQuery(this.deps.db, scope, filter), filter);
    const now = this.deps.now();
    return { ...page, data: page.data.map((row) => toIntegration(row, now)) };
  }

  async getIntegration(scope: Scope, id: string): Promise<Integration> {
    const row = await repo.findIntegration(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such integration.');
    return toIntegration(row, this.deps.now());
  }

  /** What a connector adds to a create: the checks of docs/channels.md, one detail per problem. */
  private connectorProblems(input: CreateIntegrationInput, details: ErrorDetail[]): { kind?: 'token' | 'oauth'; storeRef?: string } {
    if (!isConnector(input.platform)) {
      for (const field of ['store_ref', 'base_url', 'settings'] as const) {
        if (input[field] !== undefined)
          details.push({ field, message: `applies to store platforms with a connector (${[...CONNECTOR_PLATFORMS].join(', ')}), not ${input.platform}` });
      }
      return {};
    }
    const store = checkStoreRef(input.platform, input.store_ref);
    details.push(...store.details);
    if (store.storeRef && input.base_url === undefined) details.push(...storeAddressProblems(store.storeRef, this.deps.config.channelAllowBaseUrlOverride));
    if (input.base_url !== undefined) details.push(...baseUrlProblems(input.base_url, this.deps.config.channelAllowBaseUrlOverride));
    if (input.token_expires_at != null) details.push({ field: 'token_expires_at', message: 'is managed by the connection for store platforms' });
    const { kind, details: problems } = checkCredentials(input.platform, input.credentials);
    details.push(...problems);
    return { kind, storeRef: store.storeRef };
  }

  /**
   * Connect a store or channel in the caller's environment. The ingest key is returned here
   * once (only its SHA-256 is kept); credentials are sealed with AES-256-GCM.
   */
  async createIntegration(ctx: ServiceContext, input: CreateIntegrationInput): Promise<Integration & { ingest_key: string }> {
    const details: ErrorDetail[] = [];
    const name = input.name.trim();
    if (!name) details.push({ field: 'name', message: 'must not be blank' });
    const tokenExpiresAt = parseTimestamp(input.token_expires_at, 'token_expires_at', details) ?? null;
    checkJsonSize(input.config, 'config', details);
    checkJsonSize(input.credentials, 'credentials', details);
    const { kind, storeRef } = this.connectorProblems(input, details);
    if (details.length) throw validationError(details);

    const now = this.deps.now();
    const id = newId('integration');
    const ingestKey = newIngestKey();
    const initial = healthAfterTokenUpdate('healthy', tokenExpiresAt, now);
    const connector = kind !== undefined;
    const oauth =
      kind === 'oauth'
        ? oauthStart(
            this.deps.config.publicBaseUrl,
            { platform: input.platform, store_ref: storeRef!, base_url: input.base_url, credentials: input.credentials! },
            now,
          )
        : null;
    const credentials = connector ? withWebhookSecret(input.platform, input.credentials!, null) : input.credentials;
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.insertIntegration(trx, {
        id,
        workspace_id: ctx.workspaceId,
        environment: ctx.environment,
        name,
        platform: input.platform,
        config: JSON.stringify(input.config ?? {}),
        credentials_sealed: credentials ? this.box.seal(JSON.stringify(credentials), id) : null,
        ingest_key_hash: sha256Hex(ingestKey),
        ingest_key_last4: ingestKey.slice(-4),
        token_expires_at: tokenExpiresAt,
        health: initial?.health ?? 'healthy',
        health_reason: initial?.reason ?? null,
        health_checked_at: now,
        health_changed_at: null,
        failures_reset_at: null,
        created_by: ctx.actor.id,
        created_at: now,
        updated_at: now,
        ...(connector
          ? {
              store_ref: storeRef,
              base_url: input.base_url ?? null,
              settings: JSON.stringify(input.settings ?? {}),
              credentials_masked: JSON.stringify(maskedCredentials(input.credentials!)),
              connection_state: oauth ? 'pending_authorization' : 'active',
              connected_at: oauth ? null : now,
              scopes: JSON.stringify([]),
              oauth_state_hash: oauth?.stateHash ?? null,
              oauth_state_expires_at: oauth?.expiresAt ?? null,
              oauth_authorize_url: oauth?.authorizeUrl ?? null,
            }
          : {}),
      });
      if (connector && !oauth)
        await this.deps.jobs.send<ActivateJob>(
          ACTIVATE_JOB,
          { workspace_id: ctx.workspaceId, environment: ctx.environment, integration_id: id },
          { executor: trx },
        );
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'integration.created',
        targetType: 'integration',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes: {
          name,
          platform: input.platform,
          config: input.config ?? {},
          token_expires_at: tokenExpiresAt?.toISOString() ?? null,
          has_credentials: Boolean(input.credentials),
          ...(connector ? { store_ref: storeRef, base_url: input.base_url ?? null, settings: effectiveSettings(input.platform, input.settings) } : {}),
        },
      });
      return { ...toIntegration(row, now), ingest_key: ingestKey };
    });
  }

  /**
   * Change the fields given. New credentials or a new `token_expires_at` is a token update:
   * health becomes healthy (or token_expired when the new expiry has passed) and earlier intake
   * failures stop counting. `rotate_ingest_key` replaces the key; the old one is refused at once.
   */
  async updateIntegration(ctx: ServiceContext, id: string, input: UpdateIntegrationInput): Promise<Integration & { ingest_key?: string }> {
    const details: ErrorDetail[] = [];
    const name = input.name?.trim();
    if (input.name !== undefined && !name) details.push({ field: 'name', message: 'must not be blank' });
    const tokenExpiresAt = parseTimestamp(input.token_expires_at, 'token_expires_at', details);
    checkJsonSize(input.config, 'config', details);
    checkJsonSize(input.credentials, 'credentials', details);
    if (details.length) throw validationError(details);

    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.findIntegration(trx, ctx, id, { forUpdate: true });
      if (!row) throw new AppError('not_found', 'No such integration.');
      const now = this.deps.now();
      const set: Updateable<IntegrationsTable> = { updated_at: now };
      const changes: Record<string, unknown> = {};
      if (name !== undefined && name !== row.name) {
        set.name = name;
        changes.name = { from: row.name, to: name };
      }
      if (input.platform !== undefined && input.platform !== row.platform) {
        if (isConnector(input.platform) || isConnector(row.platform)) {
          throw validationError([{ field: 'platform', message: 'a store connection cannot change platform: create a new integration' }]);
        }
        set.platform = input.platform;
        changes.platform = { from: row.platform, to: input.platform };
      }
      const connector = isConnector(row.platform) && row.connection_state !== null;
      let reconnect = false;
      if (connector) reconnect = this.connectorUpdate(row, input, set, changes, now);
      else {
        const misplaced = (['base_url', 'settings'] as const).filter((f) => input[f] !== undefined);
        if (misplaced.length)
          throw validationError(
            misplaced.map((field) => ({
              field,
              message: `applies to store platforms with a connector (${[...CONNECTOR_PLATFORMS].join(', ')}), not ${row.platform}`,
            })),
          );
      }
      if (input.config !== undefined && JSON.stringify(input.config) !== JSON.stringify(row.config)) {
        set.config = JSON.stringify(input.config);
        changes.config = { from: row.config, to: input.config };
      }
      if (input.credentials !== undefined && !connector) {
        set.credentials_sealed = input.credentials ? this.box.seal(JSON.stringify(input.credentials), id) : null;
        changes.credentials = input.credentials ? 'replaced' : 'removed';
      }
      const newExpiry = tokenExpiresAt === undefined ? (row.token_expires_at ? new Date(row.token_expires_at) : null) : tokenExpiresAt;
      if (tokenExpiresAt !== undefined) {
        set.token_expires_at = tokenExpiresAt;
        const before = row.token_expires_at ? new Date(row.token_expires_at).toISOString() : null;
        if (before !== (tokenExpiresAt?.toISOString() ?? null)) changes.token_expires_at = { from: before, to: tokenExpiresAt?.toISOString() ?? null };
      }
      let change: HealthChange | null = null;
      if (input.credentials !== undefined || input.token_expires_at !== undefined) {
        set.failures_reset_at = now;
        set.health_checked_at = now;
        change = healthAfterTokenUpdate(row.health, newExpiry, now);
        if (change) Object.assign(set, { health: change.health, health_reason: change.reason, health_changed_at: now });
      }
      let ingestKey: string | undefined;
      if (input.rotate_ingest_key) {
        ingestKey = newIngestKey();
        set.ingest_key_hash = sha256Hex(ingestKey);
        set.ingest_key_last4 = ingestKey.slice(-4);
        changes.ingest_key = 'rotated';
        await this.deps.bus.publish(`api_key:${row.ingest_key_hash}`, trx);
      }
      const updated = (await repo.updateIntegration(trx, ctx, id, set))!;
      if (reconnect && updated.connection_state === 'active') {
        await this.deps.jobs.send<ActivateJob>(
          ACTIVATE_JOB,
          { workspace_id: ctx.workspaceId, environment: ctx.environment, integration_id: id },
          { executor: trx },
        );
      }
      if (change) {
        changes.health = { from: row.health, to: change.health };
        await this.announce(trx, updated, row.health, change, now);
      }
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'integration.updated',
        targetType: 'integration',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes,
      });
      return ingestKey ? { ...toIntegration(updated, now), ingest_key: ingestKey } : toIntegration(updated, now);
    });
  }

  /**
   * A connector's part of an update: settings merged, base_url checked, credentials replaced
   * whole (validated, sealed, masked; OAuth ones restart the install). True when the connection
   * must be tested and set up again (new credentials or origin).
   */
  private connectorUpdate(
    row: IntegrationRow,
    input: UpdateIntegrationInput,
    set: Updateable<IntegrationsTable>,
    changes: Record<string, unknown>,
    now: Date,
  ): boolean {
    const details: ErrorDetail[] = [];
    if (input.token_expires_at !== undefined) details.push({ field: 'token_expires_at', message: 'is managed by the connection for store platforms' });
    if (input.base_url != null) details.push(...baseUrlProblems(input.base_url, this.deps.config.channelAllowBaseUrlOverride));
    let kind: 'token' | 'oauth' | undefined;
    if (input.credentials !== undefined) {
      const checked = checkCredentials(row.platform, input.credentials);
      details.push(...checked.details);
      kind = checked.kind;
    }
    if (details.length) throw validationError(details);
    if (input.settings !== undefined) {
      const merged = { ...(row.settings ?? {}), ...input.settings };
      set.settings = JSON.stringify(merged);
      changes.settings = { from: effectiveSettings(row.platform, row.settings), to: effectiveSettings(row.platform, merged) };
    }
    let reconnect = false;
    const baseUrl = input.base_url === undefined ? row.base_url : input.base_url;
    if (input.base_url !== undefined && input.base_url !== row.base_url) {
      set.base_url = input.base_url;
      changes.base_url = { from: row.base_url, to: input.base_url };
      reconnect = true;
    }
    if (input.credentials && kind) {
      set.credentials_sealed = this.box.seal(JSON.stringify(withWebhookSecret(row.platform, input.credentials, this.openCredentials(row))), row.id);
      set.credentials_masked = JSON.stringify(maskedCredentials(input.credentials));
      changes.credentials = 'replaced';
      set.failures_reset_at = now;
      reconnect = true;
      if (kind === 'oauth') {
        const oauth = oauthStart(
          this.deps.config.publicBaseUrl,
          { platform: row.platform, store_ref: row.store_ref!, base_url: baseUrl, credentials: input.credentials },
          now,
        );
        Object.assign(set, {
          connection_state: 'pending_authorization',
          oauth_state_hash: oauth.stateHash,
          oauth_state_expires_at: oauth.expiresAt,
          oauth_authorize_url: oauth.authorizeUrl,
        });
      } else {
        Object.assign(set, { connection_state: 'active', connected_at: now, oauth_state_hash: null, oauth_state_expires_at: null, oauth_authorize_url: null });
      }
    }
    return reconnect;
  }

  /** Disconnect: the ingest key stops working at once; the orders it brought stay. */
  async deleteIntegration(ctx: ServiceContext, id: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.deleteIntegration(trx, ctx, id);
      if (!row) throw new AppError('not_found', 'No such integration.');
      await this.deps.bus.publish(`api_key:${row.ingest_key_hash}`, trx);
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'integration.deleted',
        targetType: 'integration',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes: { name: row.name, platform: row.platform },
      });
    });
  }

  /** New credentials of a connector as columns: sealed, and masked for answers. */
  sealedCredentials(id: string, credentials: Record<string, unknown>): Pick<Updateable<IntegrationsTable>, 'credentials_sealed' | 'credentials_masked'> {
    return { credentials_sealed: this.box.seal(JSON.stringify(credentials), id), credentials_masked: JSON.stringify(maskedCredentials(credentials)) };
  }

  /** A row's credentials, decrypted (for connectors; never sent to clients). */
  openCredentials(row: IntegrationRow): Record<string, unknown> | null {
    return row.credentials_sealed ? (JSON.parse(this.box.open(row.credentials_sealed, row.id)) as Record<string, unknown>) : null;
  }

  /**
   * A connector's health change (docs/channels.md), in the caller's transaction: compare-and-set
   * on the health it read, announced once with `integration.health_changed`. Extra columns
   * (the connection's state) change with it.
   */
  async changeHealth(trx: Executor, row: IntegrationRow, change: HealthChange, extra: Updateable<IntegrationsTable> = {}): Promise<IntegrationRow | undefined> {
    const now = this.deps.now();
    if (row.health === change.health)
      return repo.updateIntegration(trx, scopeOf(row), row.id, { ...extra, health_reason: change.reason, health_checked_at: now });
    const updated = await repo.updateIntegration(
      trx,
      scopeOf(row),
      row.id,
      { ...extra, health: change.health, health_reason: change.reason, health_changed_at: now, health_checked_at: now },
      { whereHealth: row.health },
    );
    if (updated) await this.announce(trx, updated, row.health, change, now);
    return updated;
  }

  /** The stored credentials, decrypted (for connectors; never sent to clients). */
  async readCredentials(scope: Scope, id: string): Promise<Record<string, unknown> | null> {
    const row = await repo.findIntegration(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such integration.');
    return row.credentials_sealed ? (JSON.parse(this.box.open(row.credentials_sealed, id)) as Record<string, unknown>) : null;
  }

  // ---- intake ----

  /** Resolve a presented ingest key (cached, also negatively, invalidated on rotation, deletion and suspension). */
  async verifyIngestKey(secret: string): Promise<VerifiedIngestKey | null> {
    if (!/^ik_[0-9A-Za-z]{20,100}$/.test(secret)) return null;
    const hash = sha256Hex(secret);
    const hit = this.keys.get(hash);
    if (hit !== undefined) return hit;
    const ticket = this.keys.loading();
    const row = await repo.findIntegrationByKeyHash(this.deps.db, hash);
    const key = row
      ? { integrationId: row.id, workspaceId: row.workspace_id, environment: row.environment, suspended: row.workspace_suspended_at !== null }
      : null;
    this.keys.fill(hash, key, ticket);
    return key;
  }

  /** An accepted intake: degraded/down become healthy; earlier failures stop counting. */
  async recordIntakeSuccess(key: VerifiedIngestKey, now: Date): Promise<void> {
    const scope = { workspaceId: key.workspaceId, environment: key.environment };
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.findIntegration(trx, scope, key.integrationId, { forUpdate: true });
      if (!row) return;
      const change = healthAfterSuccess(row.health);
      const set: Updateable<IntegrationsTable> = { last_intake_at: now, failures_reset_at: now, health_checked_at: now };
      if (change) Object.assign(set, { health: change.health, health_reason: change.reason, health_changed_at: now });
      const updated = await repo.updateIntegration(trx, scope, row.id, set, { whereHealth: row.health });
      if (updated && change) await this.announce(trx, updated, row.health, change, now);
    });
  }

  /**
   * An intake refused as invalid (schema or domain validation, malformed JSON): recorded, and
   * enough of them within the window degrade the integration, then mark it down.
   */
  async recordIntakeFailure(key: VerifiedIngestKey, failure: { code: string; details?: unknown }, now: Date): Promise<void> {
    const scope = { workspaceId: key.workspaceId, environment: key.environment };
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.findIntegration(trx, scope, key.integrationId, { forUpdate: true });
      if (!row) return;
      await repo.insertIntakeFailure(trx, {
        integration_id: row.id,
        workspace_id: row.workspace_id,
        environment: row.environment,
        at: now,
        code: failure.code,
        details: failure.details,
      });
      const windowStart = new Date(now.getTime() - HEALTH_WINDOW_MS);
      const resetAt = row.failures_reset_at ? new Date(row.failures_reset_at) : null;
      const since = resetAt && resetAt > windowStart ? resetAt : windowStart;
      const failures = await repo.countIntakeFailures(trx, row.id, since, now);
      const change = healthAfterFailure(row.health, failures);
      const set: Updateable<IntegrationsTable> = { health_checked_at: now };
      if (change) Object.assign(set, { health: change.health, health_reason: change.reason, health_changed_at: now });
      const updated = await repo.updateIntegration(trx, scope, row.id, set, { whereHealth: row.health });
      if (updated && change) await this.announce(trx, updated, row.health, change, now);
    });
  }

  /**
   * A store connection's trouble that is not an outage (docs/channels.md): deliveries with a bad
   * signature, sustained throttling. Each is recorded under its code; `after` of one code within
   * the health window degrade a healthy connection, with `reason` (the count filled in).
   */
  async recordTrouble(
    row: IntegrationRow,
    trouble: { code: 'invalid_signature' | 'throttled'; after: number; reason: (count: number) => string },
  ): Promise<void> {
    const now = this.deps.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.insertIntakeFailure(trx, {
        integration_id: row.id,
        workspace_id: row.workspace_id,
        environment: row.environment,
        at: now,
        code: trouble.code,
        details: undefined,
      });
      const count = await repo.countIntakeFailures(trx, row.id, new Date(now.getTime() - HEALTH_WINDOW_MS), now, trouble.code);
      const current = await repo.findIntegration(trx, { workspaceId: row.workspace_id, environment: row.environment }, row.id, { forUpdate: true });
      if (count >= trouble.after && current?.health === 'healthy') await this.changeHealth(trx, current, { health: 'degraded', reason: trouble.reason(count) });
    });
  }

  // ---- periodic ----

  /**
   * The periodic check (job `integrations.check_health`, every minute): integrations whose
   * token has expired become token_expired, each announced once; failures older than the
   * window are pruned. `now` is a parameter so tests drive it with a fake clock.
   */
  async checkHealth(now: Date): Promise<{ expired: number; checked: number; pruned: number }> {
    let expired = 0;
    // Batches of 100 rows, each locked with SKIP LOCKED, so two workers never announce one change twice.
    for (;;) {
      const { locked, changed } = await this.deps.db.transaction().execute(async (trx) => {
        const rows = await repo.lockExpiredTokens(trx, now, 100);
        let n = 0;
        for (const row of rows) {
          const change = healthAtCheck(row.health, row.token_expires_at ? new Date(row.token_expires_at) : null, now);
          if (!change) continue;
          const updated = await repo.updateIntegration(
            trx,
            scopeOf(row),
            row.id,
            { health: change.health, health_reason: change.reason, health_changed_at: now, health_checked_at: now },
            { whereHealth: row.health },
          );
          if (updated) {
            n++;
            await this.announce(trx, updated, row.health, change, now);
          }
        }
        return { locked: rows.length, changed: n };
      });
      expired += changed;
      if (locked < 100 || changed === 0) break;
    }
    const checked = await repo.stampTokenChecks(this.deps.db, now);
    const pruned = await repo.deleteIntakeFailuresBefore(this.deps.db, new Date(now.getTime() - HEALTH_WINDOW_MS));
    return { expired, checked, pruned };
  }

  /** The `integration.health_changed` event, in the transaction of the change. */
  private async announce(trx: Executor, row: IntegrationRow, previous: string, change: HealthChange, now: Date): Promise<void> {
    await recordEvent<HealthChangedData>(trx, scopeOf(row), HEALTH_CHANGED_EVENT, {
      integration_id: row.id,
      name: row.name,
      platform: row.platform,
      previous_health: previous,
      health: change.health,
      reason: change.reason,
      changed_at: now.toISOString(),
    });
  }
}
