import type { ApiCallContext, CarrierApiDriver, DriverResult } from '../../carriers/api-driver.js';
import type { CarrierMessage } from '../../carriers/http/errors.js';
import { CarrierTransportError } from '../../carriers/http/errors.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import { CarrierError, type CarrierDefinition, type RateRequest } from '../../carriers/types.js';
import type { Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { AppError, validationError } from '../../platform/errors.js';
import type { CarrierAddressValidator } from '../addresses/index.js';
import { simulatedSource, type RateQuoteMeta, type RateSource, type RateSourceAnswer } from '../rates/index.js';
import { apiDriverCapabilities, type ApiDriverCatalogue } from './carrier-accounts.drivers.js';
import type { CarrierAccountsService } from './carrier-accounts.service.js';
import type { CarrierAccountRow } from './carrier-accounts.tables.js';

/** How long a client should wait after a carrier could not be reached, when the carrier did not say. */
const DEFAULT_RETRY_AFTER_S = 5;

/** One call to an account's api driver: the driver, and the context it needs (credentials opened). */
type DriverCall<T> = (driver: CarrierApiDriver, ctx: ApiCallContext) => Promise<DriverResult<T>>;

/**
 * Where rating, buying, voiding, tracking and address checks meet a carrier account
 * (docs/carriers.md): the simulated driver in process, or the carrier's API with the account's
 * credentials. Maps a driver's outcomes to the platform's errors once, for every caller:
 * a refusal on the merits → 422 `carrier_rejected`, refused credentials → 422
 * `carrier_account_invalid` (and the account's health says so), no answer in time → 503
 * `carrier_unavailable` with Retry-After.
 */
export class CarrierGateway {
  readonly #sources = new WeakMap<readonly CarrierAccountRow[], RateSource[]>();

  constructor(
    private readonly accounts: CarrierAccountsService,
    private readonly carriers: CarrierRegistry,
    private readonly drivers: ApiDriverCatalogue,
    private readonly log: Deps['log'],
  ) {}

  /**
   * The rate-shop's sources: every enabled account of the scope, or the ones `ids` names (400
   * naming `carrier_accounts[i]` for one that is not an enabled account of this scope).
   * Synchronous when the scope's accounts are cached, as the rate query's hot path wants.
   */
  rateSources(scope: Scope, ids?: readonly string[]): RateSource[] | Promise<RateSource[]> {
    const cached = this.accounts.cachedLiveAccounts(scope);
    if (cached) return this.#select(scope, cached, ids);
    return this.accounts.liveAccounts(scope).then((rows) => this.#select(scope, rows, ids));
  }

  #select(scope: Scope, rows: CarrierAccountRow[], ids: readonly string[] | undefined): RateSource[] {
    let all = this.#sources.get(rows);
    if (!all) {
      all = rows.filter((r) => r.enabled).flatMap((r) => {
        const source = this.#source(scope, r);
        return source ? [source] : [];
      });
      this.#sources.set(rows, all);
    }
    if (!ids) return all;
    const byId = new Map(all.map((s) => [s.accountId, s]));
    const problems = ids.flatMap((id, i) => (byId.has(id) ? [] : [{ field: `carrier_accounts[${i}]`, message: `is not an enabled carrier account of this workspace and environment` }]));
    if (problems.length > 0) throw validationError(problems);
    return ids.map((id) => byId.get(id)!);
  }

  #source(scope: Scope, row: CarrierAccountRow): RateSource | null {
    const carrier = this.carriers.get(row.carrier);
    if (!carrier?.capabilities.rate) return null;
    if (row.driver === 'simulated') return carrier.adapter.rate ? simulatedSource(carrier, row.id) : null;
    return {
      accountId: row.id,
      driver: 'api',
      carrier,
      quote: (request, meta) => this.#apiQuote(scope, row, carrier, request, meta),
    };
  }

  async #apiQuote(scope: Scope, row: CarrierAccountRow, carrier: CarrierDefinition, request: RateRequest, meta: RateQuoteMeta = {}): Promise<RateSourceAnswer> {
    try {
      const result = await this.#invoke(row, meta.requestId, (driver, ctx) => driver.rates(ctx, request), meta.startedAt);
      if (result.ok) {
        const wanted = request.service_codes ? new Set(request.service_codes) : null;
        return { ok: true, rates: wanted ? result.value.rates.filter((r) => wanted.has(r.service_code)) : result.value.rates, unavailable: result.value.unavailable };
      }
      const message = describe(result.messages) || `${carrier.name} refused the request`;
      if (result.kind === 'invalid_credentials') {
        await this.#refused(scope, row, message);
        return { ok: false, code: 'carrier_account_invalid', message };
      }
      return { ok: false, code: 'carrier_rejected', message };
    } catch (err) {
      // Whatever went wrong with this one account, the others' options still answer.
      if (!(err instanceof CarrierError)) this.log.error({ err, carrier_account_id: row.id }, 'carrier rating failed unexpectedly');
      return { ok: false, code: 'carrier_unavailable', message: `${carrier.name} is unavailable: ${err instanceof Error ? err.message : 'no answer'}` };
    }
  }

  /**
   * The account a purchase goes through: the one named (an enabled account of the scope, of
   * the service's carrier), else the carrier's default, else its first enabled account.
   */
  async accountForPurchase(scope: Scope, carrier: string, id: string | undefined, field = 'carrier_account_id'): Promise<CarrierAccountRow> {
    const rows = await this.accounts.liveAccounts(scope);
    if (id !== undefined) {
      const row = rows.find((r) => r.id === id);
      if (!row || !row.enabled) throw validationError([{ field, message: 'is not an enabled carrier account of this workspace and environment' }]);
      if (row.carrier !== carrier) throw validationError([{ field, message: `is a ${row.carrier} account; the service is ${carrier}'s` }]);
      return row;
    }
    const enabled = rows.filter((r) => r.carrier === carrier && r.enabled);
    const row = enabled.find((r) => r.is_default) ?? enabled[0];
    if (!row) throw new AppError('unprocessable', `No enabled ${carrier} carrier account in this workspace and environment.`, { details: [{ field, message: `no enabled ${carrier} account` }] });
    return row;
  }

  /**
   * The carrier validator behind an address check (POST /v1/addresses/validate with
   * `carrier_account_id`): the named account must be an enabled `api`
   * account of the scope whose driver validates addresses, else 400 `validation_failed` on
   * `field` saying why (another workspace's account reads as an unknown one). `validate` asks
   * the carrier and throws the gateway's errors (`call`).
   */
  async addressValidator(scope: Scope, id: string, field = 'carrier_account_id'): Promise<CarrierAddressValidator> {
    const row = (await this.accounts.liveAccounts(scope)).find((r) => r.id === id);
    if (!row || !row.enabled) throw validationError([{ field, message: 'is not an enabled carrier account of this workspace and environment' }]);
    const name = this.carriers.get(row.carrier)?.name ?? row.carrier;
    if (row.driver !== 'api') {
      throw validationError([{ field, message: `is a simulated ${name} account, which validates no addresses; leave carrier_account_id out to use the built-in validator, or name an api account` }]);
    }
    if (!apiDriverCapabilities(this.driverOf(row)).address_validation) throw validationError([{ field, message: `${name}'s api driver does not validate addresses` }]);
    return {
      carrier: row.carrier,
      accountId: row.id,
      validate: (address, requestId) => this.call(scope, row, requestId, (driver, ctx) => driver.validateAddress(ctx, address)),
    };
  }

  /** Whether purchases through this account check addresses with its carrier (an api account whose driver validates). */
  validatesAddresses(row: CarrierAccountRow): boolean {
    return row.driver === 'api' && apiDriverCapabilities(this.driverOf(row)).address_validation;
  }

  /** A shipment's account, deleted or disabled ones too (their shipments stay voidable and trackable). */
  async accountOf(scope: Scope, id: string): Promise<CarrierAccountRow | undefined> {
    return this.accounts.findEvenDeleted(scope, id);
  }

  /**
   * One driver call for an `api` account, its outcome as the platform's errors: returns the
   * value or throws `carrier_rejected`, `carrier_account_invalid` or `carrier_unavailable`.
   */
  async call<T>(scope: Scope, row: CarrierAccountRow, requestId: string | undefined, call: DriverCall<T>): Promise<T> {
    let result: DriverResult<T>;
    try {
      result = await this.#invoke(row, requestId, call);
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err;
      const retryAfterMs = err instanceof CarrierTransportError ? err.retryAfterMs : null;
      throw new AppError('carrier_unavailable', `${this.carriers.get(row.carrier)?.name ?? row.carrier} could not be reached: ${err.message}`, {
        cause: err,
        retryable: true,
        retryAfterSeconds: retryAfterMs ? Math.max(1, Math.ceil(retryAfterMs / 1000)) : DEFAULT_RETRY_AFTER_S,
      });
    }
    if (result.ok) return result.value;
    const details = result.messages.map((m) => ({ ...(m.field ? { field: m.field } : {}), message: m.message, carrier_code: m.carrier_code }));
    if (result.kind === 'invalid_credentials') {
      await this.#refused(scope, row, describe(result.messages));
      throw new AppError('carrier_account_invalid', 'The carrier refused this account\'s credentials; update them (PATCH /v1/carrier-accounts/:id) and test the account.', { details });
    }
    throw new AppError('carrier_rejected', describe(result.messages) || 'The carrier refused the request.', { details });
  }

  /** The api driver of an account (a simulated account has none). */
  driverOf(row: CarrierAccountRow): CarrierApiDriver | undefined {
    return row.driver === 'api' ? this.drivers.get(row.carrier) : undefined;
  }

  /** `startedAt` (epoch ms): the deadline counts from then, not from this call (what came before it is spent). */
  async #invoke<T>(row: CarrierAccountRow, requestId: string | undefined, call: DriverCall<T>, startedAt?: number): Promise<DriverResult<T>> {
    const driver = this.driverOf(row);
    if (!driver) throw new AppError('unprocessable', `${row.carrier} has no api driver.`);
    const timeoutMs = await this.accounts.timeoutMs();
    const spentMs = startedAt === undefined ? 0 : Math.max(0, Date.now() - startedAt);
    return call(driver, { account: this.accounts.apiAccount(row), timeoutMs: Math.max(1, timeoutMs - spentMs), requestId });
  }

  async #refused(scope: Scope, row: CarrierAccountRow, message: string): Promise<void> {
    await this.accounts.recordRefusedCredentials(scope, row, message).catch((err: unknown) => this.log.warn({ err, carrier_account_id: row.id }, 'could not record refused credentials'));
  }
}

function describe(messages: readonly CarrierMessage[]): string {
  return messages.map((m) => m.message).join('; ');
}
