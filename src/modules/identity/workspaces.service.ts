import { AppError, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { randomBase62, sha256Hex } from '../../platform/crypto.js';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/types.js';
import type { Actor, Environment, RequestMeta } from '../../platform/context.js';
import { paginate } from '../../platform/http/pagination.js';
import { writeAudit } from '../audit/index.js';
import type { SettingsService } from '../settings/index.js';
import { checkShippingAddress } from '../addresses/index.js';
import * as repo from './workspaces.repo.js';
import type { AuthCache, VerifiedKey, WorkspaceLimits } from './auth-cache.js';
import { toApiKey, toWorkspace } from './workspaces.wire.js';
import { keyCreationRefusals, keyRoleRefusal, type IssuingKey } from './api-key-policy.js';
import type { WorkspaceRole } from './roles.js';

export interface CreateApiKeyInput {
  name: string;
  environment: Environment;
  expires_at?: string | null;
  /** The key's role in the workspace (admin by default). */
  role?: WorkspaceRole;
}

/**
 * The burst (requests/minute) of an enterprise workspace until a super-admin sets its custom
 * value. Starter and professional have no constant here: their bursts are the settings
 * `plans.<tier>.burst_per_minute`, read through `effectiveBurst` by the limiter and the
 * super-admin views alike, so what is reported is what is enforced.
 */
export const ENTERPRISE_DEFAULT_BURST = 1000;

/** The workspace's origin (default ship-from) address, or null when none is set. */
export async function findWorkspaceOrigin(executor: Executor, workspaceId: string): Promise<Record<string, unknown> | null> {
  const row = await repo.findWorkspace(executor, workspaceId);
  return (row?.origin_address as Record<string, unknown> | null | undefined) ?? null;
}

const API_KEY_FORMAT = /^sk_(test|live)_[0-9A-Za-z]{20,100}$/;

/** The setting that holds a tier's burst per minute. */
function burstSetting(plan: 'starter' | 'professional') {
  return plan === 'professional' ? 'plans.professional.burst_per_minute' : 'plans.starter.burst_per_minute';
}

export class WorkspacesService {
  constructor(
    private readonly deps: Deps,
    private readonly cache: AuthCache,
    private readonly settings: SettingsService,
  ) {}

  async getWorkspace(workspaceId: string) {
    const row = await repo.findWorkspace(this.deps.db, workspaceId);
    if (!row) throw new AppError('not_found', 'No such workspace.');
    return toWorkspace(row);
  }

  /** Plan and burst for rate limiting; cached, invalidated on change. */
  async limits(workspaceId: string): Promise<WorkspaceLimits> {
    const hit = this.cache.workspaces.get(workspaceId);
    if (hit) return hit;
    const ticket = this.cache.workspaces.loading();
    const row = await repo.findWorkspace(this.deps.db, workspaceId);
    const limits: WorkspaceLimits = { plan: row?.plan ?? 'starter', burstPerMinute: row?.burst_per_minute ?? null, mtlsRequired: row?.mtls_required ?? false };
    this.cache.workspaces.fill(workspaceId, limits, ticket);
    return limits;
  }

  /**
   * Requests per minute on /v1 for a workspace: the enterprise custom burst, else the plan's
   * setting. Both are cached and invalidated on change (workspace and settings topics), so a
   * change is in force on every process at once and the hot path does not touch the database.
   */
  async burstLimit(workspaceId: string): Promise<number> {
    const limits = await this.limits(workspaceId);
    return this.effectiveBurst(limits.plan, limits.burstPerMinute);
  }

  /** The burst in force for a plan and custom value: the one rule for the limiter and the reports. */
  async effectiveBurst(plan: WorkspaceLimits['plan'], customBurst: number | null): Promise<number> {
    if (plan === 'enterprise') return customBurst ?? ENTERPRISE_DEFAULT_BURST;
    return this.settings.get(burstSetting(plan));
  }

  /**
   * The hot path's view of `limits` and `burstLimit`: the answers the caches hold right now, or
   * undefined when the database must be asked. They spare a request on /v1 the promise chains
   * of the async accessors; what they return is what those would.
   */
  cachedLimits(workspaceId: string): WorkspaceLimits | undefined {
    return this.cache.workspaces.get(workspaceId);
  }

  cachedBurstLimit(workspaceId: string): number | undefined {
    const limits = this.cache.workspaces.get(workspaceId);
    if (!limits) return undefined;
    if (limits.plan === 'enterprise') return limits.burstPerMinute ?? ENTERPRISE_DEFAULT_BURST;
    return this.settings.cached(burstSetting(limits.plan));
  }

  /**
   * Called in the update's transaction when an owner sets the origin address: the locations
   * module keeps the default location at it (wired in compose.ts; identity imports no module
   * that builds on it).
   */
  onOriginChanged(listener: (trx: Executor, workspaceId: string, origin: Record<string, unknown>) => Promise<void>): void {
    this.originListeners.push(listener);
  }

  private readonly originListeners: ((trx: Executor, workspaceId: string, origin: Record<string, unknown>) => Promise<void>)[] = [];

  async updateWorkspace(workspaceId: string, patch: { name?: string; origin_address?: Record<string, unknown> | null }, actor: Actor, meta: RequestMeta) {
    let origin = patch.origin_address;
    if (origin) {
      // The origin is the default ship-from: it must be a shippable address.
      const details = checkShippingAddress(origin, 'origin_address');
      if (details.length) throw validationError(details);
      origin = Object.fromEntries(Object.entries({ ...origin, country: String(origin.country).toUpperCase() }).filter(([, v]) => v != null));
    }
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await repo.findWorkspace(trx, workspaceId);
      if (!before) throw new AppError('not_found', 'No such workspace.');
      const updated = (await repo.updateWorkspace(trx, workspaceId, {
        name: patch.name?.trim() || undefined,
        origin_address: origin === undefined ? undefined : origin === null ? null : JSON.stringify(origin),
      }))!;
      if (origin) for (const listener of this.originListeners) await listener(trx, workspaceId, origin);
      await writeAudit(trx, actor, meta, {
        action: 'workspace.updated',
        targetType: 'workspace',
        targetId: workspaceId,
        workspaceId,
        changes: patch,
      });
      return toWorkspace(updated);
    });
  }

  /** Super-admin: change plan, (enterprise only) the custom burst, and the mutual-TLS requirement. */
  async setPlan(
    workspaceId: string,
    patch: { plan?: WorkspaceLimits['plan']; burst_per_minute?: number | null; mtls_required?: boolean },
    actor: Actor,
    meta: RequestMeta,
  ) {
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await repo.findWorkspace(trx, workspaceId);
      if (!before) throw new AppError('not_found', 'No such workspace.');
      const plan = patch.plan ?? before.plan;
      if (patch.burst_per_minute != null && plan !== 'enterprise') {
        throw validationError([{ field: 'burst_per_minute', message: 'can only be set on the enterprise plan' }]);
      }
      const updated = (await repo.updateWorkspace(trx, workspaceId, {
        plan,
        burst_per_minute: plan === 'enterprise' ? (patch.burst_per_minute ?? before.burst_per_minute) : null,
        mtls_required: patch.mtls_required,
      }))!;
      await this.deps.bus.publish(`workspace:${workspaceId}`, trx);
      await writeAudit(trx, actor, meta, {
        action: 'workspace.plan_changed',
        targetType: 'workspace',
        targetId: workspaceId,
        workspaceId,
        changes: {
          plan: { from: before.plan, to: updated.plan },
          burst_per_minute: { from: before.burst_per_minute, to: updated.burst_per_minute },
          mtls_required: { from: before.mtls_required, to: updated.mtls_required },
        },
      });
      return toWorkspace(updated);
    });
  }

  /** Super-admin list: plan, burst (custom and in force), member and order counts. */
  async listWorkspaces(filter: { q?: string; limit?: number; cursor?: string }) {
    const page = await paginate(repo.workspaceSummariesQuery(this.deps.db, filter), { ...filter, table: 'w' });
    const data = [];
    for (const row of page.data) data.push(await this.toSummary(row));
    return { ...page, data };
  }

  /** Super-admin detail: the list's entry for one workspace. */
  async getWorkspaceSummary(workspaceId: string) {
    const row = await repo.workspaceSummariesQuery(this.deps.db, {}).where('w.id', '=', workspaceId).executeTakeFirst();
    if (!row) throw new AppError('not_found', 'No such workspace.');
    return this.toSummary(row);
  }

  private async toSummary(row: Awaited<ReturnType<ReturnType<typeof repo.workspaceSummariesQuery>['executeTakeFirstOrThrow']>>) {
    return {
      ...toWorkspace(row),
      effective_burst_per_minute: await this.effectiveBurst(row.plan, row.burst_per_minute),
      member_count: Number(row.member_count),
      order_count: Number(row.order_count),
    };
  }

  // ---- API keys ----

  /**
   * Issue a key; the whole secret is returned here and never again (only its SHA-256 is kept).
   * When an API key asks (the /v1 surface), the new key is bounded by it: same environment, no
   * later expiry (see api-key-policy.ts), else 403 forbidden with the reasons as details. The
   * audit entry names the creator (the account, or the key by id and prefix), never the secret.
   */
  async createApiKey(workspaceId: string, input: CreateApiKeyInput, actor: Actor, meta: RequestMeta & { role?: WorkspaceRole }) {
    const role = input.role ?? 'admin';
    const name = input.name.trim();
    const details = [];
    if (!name) details.push({ field: 'name', message: 'must not be empty' });
    let expiresAt: Date | null = null;
    if (input.expires_at != null) {
      expiresAt = new Date(input.expires_at);
      if (Number.isNaN(expiresAt.getTime())) details.push({ field: 'expires_at', message: 'must be an ISO-8601 date-time' });
      else if (expiresAt.getTime() <= this.deps.now().getTime()) details.push({ field: 'expires_at', message: 'must be in the future' });
    }
    if (details.length) throw validationError(details);

    const secret = `sk_${input.environment}_${randomBase62(43)}`;
    return this.deps.db.transaction().execute(async (trx) => {
      const issuer = actor.type === 'api_key' ? await this.issuingKey(trx, workspaceId, actor.id) : null;
      if (issuer) {
        const refusals = keyCreationRefusals(issuer, { environment: input.environment, expiresAt });
        if (refusals.length) throw new AppError('forbidden', 'This API key may not create that key.', { details: refusals });
      }
      // The creator's role as stored now for a key; the member's role the guard read for a session.
      const refusal = keyRoleRefusal(issuer?.role ?? meta.role, role);
      if (refusal) throw refusal;
      const row = await repo.insertApiKey(trx, {
        id: newId('apiKey'),
        workspace_id: workspaceId,
        environment: input.environment,
        name,
        key_hash: sha256Hex(secret),
        prefix: secret.slice(0, secret.indexOf('_', 3) + 5),
        last4: secret.slice(-4),
        created_by: actor.id,
        role,
        expires_at: expiresAt,
      });
      await writeAudit(trx, actor, meta, {
        action: 'api_key.created',
        targetType: 'api_key',
        targetId: row.id,
        workspaceId,
        environment: input.environment,
        changes: {
          name,
          environment: input.environment,
          expires_at: expiresAt?.toISOString() ?? null,
          role,
          prefix: row.prefix,
          last4: row.last4,
          created_by: issuer ? { type: 'api_key', id: issuer.id, prefix: issuer.prefix } : { type: actor.type, id: actor.id, email: actor.email ?? null },
        },
      });
      return { ...toApiKey(row), secret };
    });
  }

  /**
   * The key a request acts with, read afresh: its bounds are those stored now, not a cached
   * view. Revoked or expired since the guard admitted it is the guard's 401.
   */
  private async issuingKey(executor: Executor, workspaceId: string, keyId: string | null): Promise<IssuingKey> {
    const row = keyId ? await repo.findApiKey(executor, workspaceId, keyId) : undefined;
    const expiresAt = row?.expires_at ? new Date(row.expires_at) : null;
    if (!row || row.revoked_at || (expiresAt && expiresAt.getTime() <= this.deps.now().getTime())) {
      throw new AppError('unauthorized', 'The API key is invalid, revoked or expired.');
    }
    return { id: row.id, prefix: row.prefix, environment: row.environment, expiresAt, role: row.role };
  }

  async listApiKeys(workspaceId: string, filter: { environment?: Environment; limit?: number; cursor?: string }) {
    const page = await paginate(repo.apiKeysQuery(this.deps.db, workspaceId, filter.environment), filter);
    return { ...page, data: page.data.map(toApiKey) };
  }

  /** Revoke at once in every process (the cached verification is invalidated). */
  async revokeApiKey(workspaceId: string, id: string, actor: Actor, meta: RequestMeta, environment?: Environment) {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.revokeApiKey(trx, workspaceId, id, environment);
      if (!row) throw new AppError('not_found', 'No such API key.');
      await this.deps.bus.publish(`api_key:${row.key_hash}`, trx);
      await writeAudit(trx, actor, meta, {
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: row.id,
        workspaceId,
        environment: row.environment,
      });
    });
  }

  /**
   * Resolve a presented key: from the cache (also negatively) without a promise when it is
   * there, else from the database; expiry is checked on every call.
   */
  verifyApiKey(secret: string): VerifiedKey | null | Promise<VerifiedKey | null> {
    if (!API_KEY_FORMAT.test(secret)) return null;
    const hash = sha256Hex(secret);
    const key = this.cache.keys.get(hash);
    return key === undefined ? this.loadApiKey(hash) : this.unexpired(key);
  }

  private async loadApiKey(hash: string): Promise<VerifiedKey | null> {
    const ticket = this.cache.keys.loading();
    const row = await repo.findApiKeyByHash(this.deps.db, hash);
    const key =
      row && !row.revoked_at
        ? {
            id: row.id,
            workspaceId: row.workspace_id,
            environment: row.environment,
            expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
            role: row.role,
            suspended: row.workspace_suspended_at !== null,
          }
        : null;
    this.cache.keys.fill(hash, key, ticket);
    return this.unexpired(key);
  }

  private unexpired(key: VerifiedKey | null): VerifiedKey | null {
    return !key || (key.expiresAt !== null && key.expiresAt <= this.deps.now().getTime()) ? null : key;
  }
}
