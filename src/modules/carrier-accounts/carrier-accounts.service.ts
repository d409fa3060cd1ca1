import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Deps } from '../../platform/deps.js';
import type { RequestMeta, Scope, ServiceContext } from '../../platform/context.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { mapDbError } from '../../platform/db/pg-errors.js';
import { notFound, validationError, type ErrorDetail } from '../../platform/errors.js';
import { decodeCursor, type Page } from '../../platform/http/pagination.js';
import { newId } from '../../platform/ids.js';
import { createSecretBox, type SecretBox } from '../../platform/secret-box.js';
import { writeAudit } from '../audit/index.js';
import { secretScrubber, type SecretScrubber } from '../../platform/secret-scrubber.js';
import { credentialProblems, maskCredentials, secretFields } from './carrier-accounts.credentials.js';
import type { ApiAccount } from '../../carriers/driver.js';
import { settingsService } from '../settings/index.js';
import { apiDriverCapabilities, type ApiDriverCatalogue } from './carrier-accounts.drivers.js';
import type { HealthStatus } from './carrier-accounts.tables.js';
import {
  clearDefault,
  ensureSeedAccounts,
  findAccountById,
  findAccountEvenDeleted,
  insertAccount,
  listAccounts,
  listExchanges,
  listLiveAccounts,
  updateAccount,
} from './carrier-accounts.repo.js';
import type { CarrierAccount, CarrierType, CreateCarrierAccountInput, UpdateCarrierAccountInput } from './carrier-accounts.schemas.js';
import type { ServiceOptions } from '../../carriers/types.js';
import type { CarrierAccountRow } from './carrier-accounts.tables.js';
import { toCarrierAccount, toExchange } from './carrier-accounts.wire.js';

/** The exchange log keeps this many per account, for this long. */
export const EXCHANGE_LOG_LIMIT = 100;
export const EXCHANGE_RETENTION_MS = 7 * 86_400_000;
/** Live accounts per workspace and environment, cached for the rate and purchase paths. */
const ACCOUNTS_TTL_MS = 60_000;

const topic = (scope: Scope) => `carrier_accounts:${scope.workspaceId}:${scope.environment}`;

export class CarrierAccountsService {
  readonly #deps: Deps;
  readonly #carriers: CarrierRegistry;
  readonly #drivers: ApiDriverCatalogue;
  readonly #box: SecretBox;
  readonly #live = new TtlCache<CarrierAccountRow[]>(ACCOUNTS_TTL_MS, 20_000);

  constructor(deps: Deps, carriers: CarrierRegistry, drivers: ApiDriverCatalogue) {
    this.#deps = deps;
    this.#carriers = carriers;
    this.#drivers = drivers;
    this.#box = createSecretBox(deps.config);
    deps.bus.subscribe((t) => {
      if (t === '*') this.#live.clear();
      else if (t.startsWith('carrier_accounts:')) this.#live.delete(t.slice('carrier_accounts:'.length));
    });
  }

  /** GET /v1/carrier-types: every registered carrier, its drivers, services and credentials schema. */
  types(): CarrierType[] {
    return this.#carriers.carriers.map((c) => {
      const api = this.#drivers.get(c.slug);
      return {
        carrier: c.slug,
        name: c.name,
        drivers: api ? ['simulated', 'api'] : ['simulated'],
        services: c.services.map((s) => ({
          service_code: s.code,
          name: s.name,
          domestic: s.domestic,
          international: s.international,
          options: publishedOptions(s.options),
        })),
        capabilities: {
          rates: c.capabilities.rate,
          labels: c.capabilities.purchase,
          void: c.capabilities.void,
          tracking: c.capabilities.track,
          address_validation: apiDriverCapabilities(api).address_validation,
          // Return labels: how they are billed and the void window come from the carrier's definition.
          returns: (c.return_charges ?? []).length > 0,
          // End of day is the carrier's offer (data in its folder), the same for
          // both drivers: a simulated account books pickups and prints the forms in process, an
          // api account asks the carrier (and prints the form here when its API has none).
          pickups: Boolean(c.end_of_day?.pickup),
          manifests: Boolean(c.end_of_day?.manifest),
          // Customs documents are printed here for every carrier (CN 22 / CN 23 for
          // USPS, a commercial invoice for the others), beside any the carrier issues itself.
          customs_documents: true,
        },
        return_charges: [...(c.return_charges ?? [])],
        void_window_days: c.void_window_days ?? null,
        credentials_schema: api ? { $schema: 'https://json-schema.org/draft/2020-12/schema', ...JSON.parse(JSON.stringify(api.credentialsSchema)) } : null,
      };
    });
  }

  /**
   * The live accounts of a workspace and environment, oldest first, the simulated defaults made
   * on first use. Cached; every change invalidates it on every process.
   */
  async liveAccounts(scope: Scope): Promise<CarrierAccountRow[]> {
    const key = `${scope.workspaceId}:${scope.environment}`;
    const hit = this.#live.get(key);
    if (hit) return hit;
    await ensureSeedAccounts(
      this.#deps.db,
      scope,
      this.#carriers.carriers.map((c) => c.slug),
    );
    const rows = await listLiveAccounts(this.#deps.db, scope);
    this.#live.set(key, rows);
    return rows;
  }

  /** The cached live accounts when there are (no promise on the rate query's hot path). */
  cachedLiveAccounts(scope: Scope): CarrierAccountRow[] | undefined {
    return this.#live.get(`${scope.workspaceId}:${scope.environment}`);
  }

  /** Any account of the scope, deleted ones too (their shipments stay voidable and trackable). */
  async findEvenDeleted(scope: Scope, id: string): Promise<CarrierAccountRow | undefined> {
    return findAccountEvenDeleted(this.#deps.db, scope, id);
  }

  /** The carrier refused the account's credentials during a call: health says so at once. */
  async recordRefusedCredentials(scope: Scope, row: CarrierAccountRow, message: string): Promise<void> {
    await updateAccount(this.#deps.db, scope, row.id, {
      health_status: 'invalid_credentials',
      health_checked_at: this.#deps.now(),
      health_message: message.slice(0, 500) || null,
    });
    await this.#deps.bus.publish(topic(scope));
  }

  async list(ctx: Scope, filter: { limit?: number; cursor?: string; carrier?: string; enabled?: boolean }): Promise<Page<CarrierAccount>> {
    if (filter.cursor) decodeCursor(filter.cursor); // a bad cursor is a 400 before anything is written
    await this.liveAccounts(ctx);
    const page = await listAccounts(this.#deps.db, ctx, filter);
    return { ...page, data: page.data.map((row) => this.#view(row)) };
  }

  async get(ctx: Scope, id: string): Promise<CarrierAccount> {
    return this.#view(await this.#rowOr404(ctx, id));
  }

  async create(ctx: ServiceContext, input: CreateCarrierAccountInput): Promise<CarrierAccount> {
    const problems: ErrorDetail[] = [];
    const carrier = this.#carriers.get(input.carrier);
    if (!carrier) problems.push({ field: 'carrier', message: `is not a known carrier (${this.#carriers.carriers.map((c) => c.slug).join(', ')})` });
    const api = input.driver === 'api' ? this.#drivers.get(input.carrier) : undefined;
    if (carrier && input.driver === 'api' && !api) problems.push({ field: 'driver', message: `${input.carrier} has no api driver yet; use simulated` });
    if (input.driver === 'simulated') {
      if (input.credentials && Object.keys(input.credentials).length > 0)
        problems.push({ field: 'credentials', message: 'the simulated driver takes no credentials' });
      if (input.base_url !== undefined) problems.push({ field: 'base_url', message: 'the simulated driver talks to no host' });
    }
    if (api) {
      if (input.credentials === undefined) problems.push({ field: 'credentials', message: 'is required for the api driver' });
      else problems.push(...credentialProblems(api.credentialsSchema, input.credentials));
    }
    if (input.base_url !== undefined) problems.push(...this.#baseUrlProblems(input.base_url));
    if (problems.length > 0) throw validationError(problems);

    const id = newId('carrierAccount');
    const credentials = api ? (input.credentials as Record<string, unknown>) : null;
    await this.liveAccounts(ctx); // the seeded defaults exist before a new default replaces one
    const row = await this.#writeDefaultSafely(() =>
      this.#deps.db.transaction().execute(async (trx) => {
        if (input.is_default) await clearDefault(trx, ctx, input.carrier, id);
        const inserted = await insertAccount(trx, {
          id,
          workspace_id: ctx.workspaceId,
          environment: ctx.environment,
          carrier: input.carrier,
          driver: input.driver,
          mode: input.mode ?? 'sandbox',
          description: input.description ?? null,
          account_number: input.account_number ?? null,
          credentials_sealed: credentials ? this.#box.seal(JSON.stringify(credentials), id) : null,
          credentials_masked: credentials && api ? JSON.stringify(maskCredentials(api.credentialsSchema, credentials)) : null,
          base_url: input.base_url ?? null,
          is_default: input.is_default ?? false,
          health_status: input.driver === 'simulated' ? 'ok' : 'unknown',
        });
        await writeAudit(trx, ctx.actor, ctx, {
          action: 'carrier_account.created',
          targetType: 'carrier_account',
          targetId: id,
          changes: {
            carrier: inserted.carrier,
            driver: inserted.driver,
            mode: inserted.mode,
            is_default: inserted.is_default,
            credentials: inserted.credentials_masked,
          },
          workspaceId: ctx.workspaceId,
          environment: ctx.environment,
        });
        await this.#deps.bus.publish(topic(ctx), trx);
        return inserted;
      }),
    );
    // A failing test does not refuse the create: health says so.
    return toCarrierAccount(api ? await this.#test(ctx, row, ctx.requestId) : row);
  }

  async update(ctx: ServiceContext, id: string, input: UpdateCarrierAccountInput): Promise<CarrierAccount> {
    const current = await this.#rowOr404(ctx, id);
    const api = current.driver === 'api' ? this.#drivers.get(current.carrier) : undefined;
    if (input.credentials !== undefined) {
      if (!api) throw validationError([{ field: 'credentials', message: 'the simulated driver takes no credentials' }]);
      const problems = credentialProblems(api.credentialsSchema, input.credentials);
      if (problems.length > 0) throw validationError(problems);
    }
    const row = await this.#writeDefaultSafely(() =>
      this.#deps.db.transaction().execute(async (trx) => {
        if (input.is_default) await clearDefault(trx, ctx, current.carrier, id);
        const updated = await updateAccount(trx, ctx, id, {
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.is_default !== undefined ? { is_default: input.is_default } : {}),
          ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
          ...(input.mode !== undefined ? { mode: input.mode } : {}),
          ...(input.credentials !== undefined && api
            ? {
                credentials_sealed: this.#box.seal(JSON.stringify(input.credentials), id),
                credentials_masked: JSON.stringify(maskCredentials(api.credentialsSchema, input.credentials)),
                health_status: 'unknown' as const,
              }
            : {}),
        });
        if (!updated) throw notFound('carrier account');
        await writeAudit(trx, ctx.actor, ctx, {
          action: 'carrier_account.updated',
          targetType: 'carrier_account',
          targetId: id,
          changes: { ...input, ...(input.credentials !== undefined && api ? { credentials: maskCredentials(api.credentialsSchema, input.credentials) } : {}) },
          workspaceId: ctx.workspaceId,
          environment: ctx.environment,
        });
        await this.#deps.bus.publish(topic(ctx), trx);
        return updated;
      }),
    );
    const retest = api && (input.credentials !== undefined || input.mode !== undefined);
    return toCarrierAccount(retest ? await this.#test(ctx, row, ctx.requestId) : row);
  }

  /** Stops rating and buying with the account; its shipments stay readable, trackable and voidable. */
  async remove(ctx: ServiceContext, id: string): Promise<void> {
    await this.#deps.db.transaction().execute(async (trx) => {
      const row = await updateAccount(trx, ctx, id, { deleted_at: new Date(), is_default: false, enabled: false });
      if (!row) throw notFound('carrier account');
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'carrier_account.deleted',
        targetType: 'carrier_account',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
      });
      await this.#deps.bus.publish(topic(ctx), trx);
    });
  }

  /** POST …/test: the account with fresh health; its exchanges are logged under the caller's request id. */
  async test(ctx: Scope & RequestMeta, id: string): Promise<CarrierAccount> {
    return toCarrierAccount(await this.#test(ctx, await this.#rowOr404(ctx, id), ctx.requestId));
  }

  async logs(ctx: Scope, id: string) {
    const account = await this.#rowOr404(ctx, id);
    const since = new Date(this.#deps.now().getTime() - EXCHANGE_RETENTION_MS);
    const rows = await listExchanges(this.#deps.db, ctx, id, EXCHANGE_LOG_LIMIT, since);
    // Exchanges written before the HTTP client scrubbed them (within the 7 days kept) are scrubbed here.
    const scrubber = this.#scrubberOf(account);
    return { data: rows.map((row) => scrubber.scrubValue(toExchange(row))) };
  }

  /** The account as a driver sees it: credentials opened. */
  apiAccount(row: CarrierAccountRow): ApiAccount {
    return {
      id: row.id,
      mode: row.mode,
      account_number: row.account_number,
      credentials: row.credentials_sealed ? (JSON.parse(this.#box.open(row.credentials_sealed, row.id)) as Record<string, unknown>) : {},
      base_url: row.base_url,
    };
  }

  /** Setting `carriers.request_timeout_ms`: the deadline of one carrier call. */
  async timeoutMs(): Promise<number> {
    return settingsService(this.#deps).get('carriers.request_timeout_ms');
  }

  async #test(ctx: Scope, row: CarrierAccountRow, requestId?: string): Promise<CarrierAccountRow> {
    const api = row.driver === 'api' ? this.#drivers.get(row.carrier) : undefined;
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let check: { status: Exclude<HealthStatus, 'unknown'>; latencyMs: number; message: string | null } = { status: 'ok', latencyMs: 0, message: null };
    if (api) {
      try {
        const result = await api.testCredentials({ account: this.apiAccount(row), timeoutMs: await this.timeoutMs(), requestId });
        check = result.ok
          ? { status: 'ok', latencyMs: result.value.latency_ms, message: null }
          : {
              status: 'invalid_credentials',
              latencyMs: elapsed(),
              message:
                result.messages
                  .map((m) => m.message)
                  .join('; ')
                  .slice(0, 500) || null,
            };
      } catch (err) {
        // Refusals come back as results; anything thrown means the carrier could not be reached.
        check = { status: 'unreachable', latencyMs: elapsed(), message: err instanceof Error ? err.message.slice(0, 300) : 'unreachable' };
      }
    }
    const updated = await updateAccount(this.#deps.db, ctx, row.id, {
      health_status: check.status,
      health_checked_at: this.#deps.now(),
      health_latency_ms: check.latencyMs,
      health_message: check.message,
    });
    if (!updated) throw notFound('carrier account');
    await this.#deps.bus.publish(topic(ctx));
    return updated;
  }

  /**
   * The account as read: a health message stored before carrier answers were scrubbed of the
   * account's secrets (carriers/scrubbing-driver.ts) is scrubbed again here, so a quoted secret
   * never comes back out of the database either (tokens of that time are expired and unknown).
   */
  #view(row: CarrierAccountRow): CarrierAccount {
    const account = toCarrierAccount(row);
    if (!row.health_message) return account;
    return { ...account, health: { ...account.health, message: this.#scrubberOf(row).scrub(row.health_message) } };
  }

  /** The account's write-only credentials as a scrubber (the identity for a simulated account). */
  #scrubberOf(row: CarrierAccountRow): SecretScrubber {
    const api = row.driver === 'api' ? this.#drivers.get(row.carrier) : undefined;
    if (!api || !row.credentials_sealed) return secretScrubber([]);
    let credentials: Record<string, unknown>;
    try {
      credentials = this.apiAccount(row).credentials;
    } catch {
      return secretScrubber([]); // credentials that no longer open: nothing to look for
    }
    return secretScrubber(secretFields(api.credentialsSchema).map((f) => (typeof credentials[f] === 'string' ? credentials[f] : null)));
  }

  /** Two requests making two accounts of one carrier the default at once: the loser is a 409. */
  async #writeDefaultSafely<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      throw mapDbError(err, {
        unique: {
          field: 'is_default',
          message: 'Another account of this carrier became the default at the same time; retry.',
          detail: 'another account became the default at the same time',
        },
      });
    }
  }

  #baseUrlProblems(baseUrl: string): ErrorDetail[] {
    if (!this.#deps.config.carrierAllowBaseUrlOverride) {
      return [{ field: 'base_url', message: 'is accepted only when CARRIER_ALLOW_BASE_URL_OVERRIDE=1, outside production' }];
    }
    try {
      const url = new URL(baseUrl);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return [{ field: 'base_url', message: 'must be an http(s) URL' }];
      if (url.username || url.password) return [{ field: 'base_url', message: 'must not contain credentials' }];
      return [];
    } catch {
      return [{ field: 'base_url', message: 'must be an absolute http(s) URL' }];
    }
  }

  async #rowOr404(ctx: Scope, id: string): Promise<CarrierAccountRow> {
    const row = await findAccountById(this.#deps.db, ctx, id);
    if (!row) throw notFound('carrier account');
    return row;
  }
}

/** A service's offer as published (a service without an options table offers none, one parcel). */
function publishedOptions(o: ServiceOptions | undefined): CarrierType['services'][number]['options'] {
  return {
    signature: o?.signature ?? false,
    adult_signature: o?.adult_signature ?? false,
    saturday_delivery: o?.saturday_delivery ?? false,
    insurance_max: o?.insurance_max ? { ...o.insurance_max } : null,
    dangerous_goods: [...(o?.dangerous_goods ?? [])],
    max_parcels: o?.max_parcels ?? 1,
  };
}
