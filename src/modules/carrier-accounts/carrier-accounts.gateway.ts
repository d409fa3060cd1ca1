import type { ApiCallContext, CarrierDriver, DriverResult } from '../../carriers/driver.js';
import { IN_PROCESS_CONTEXT, simulatedDriver } from '../../carriers/simulation/driver.js';
import type { CarrierMessage } from '../../carriers/http/errors.js';
import { CarrierTransportError } from '../../carriers/http/errors.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import { CarrierError, type CarrierDefinition, type RateRequest } from '../../carriers/types.js';
import type { Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { AppError, validationError } from '../../platform/errors.js';
import type { CarrierAddressValidator } from '../addresses/index.js';
import { simulatedSource, sourceAnswer, type RateQuoteMeta, type RateSource, type RateSourceAnswer } from '../rates/index.js';
import { apiDriverCapabilities, type ApiDriverCatalogue } from './carrier-accounts.drivers.js';
import type { CarrierAccountsService } from './carrier-accounts.service.js';
import type { AccountDriver, CarrierAccountRow } from './carrier-accounts.tables.js';

/** How long a client should wait after a carrier could not be reached, when the carrier did not say. */
const DEFAULT_RETRY_AFTER_S = 5;

/** An account a driver call goes through, or a simulated carrier with none (a label bought before accounts existed). */
export type CallTarget = CarrierAccountRow | { id: null; driver: AccountDriver; carrier: string };

/** One call to an account's api driver: the driver, and the context it needs (credentials opened). */
type DriverCall<T> = (driver: CarrierDriver, ctx: ApiCallContext) => Promise<DriverResult<T>>;

/**
 * Where rating, buying, voiding, tracking, pickups and address checks meet a carrier account,
 * and the only way to a carrier (docs/carriers.md, "One contract, two drivers"): the account's
 * driver, simulated in process or the carrier's API with the account's credentials, both one
 * `CarrierDriver`. Maps a driver's outcomes to the platform's errors once, for every caller:
 * a refusal on the merits → 422 `carrier_rejected`, refused credentials → 422
 * `carrier_account_invalid` (and the account's health says so), no answer in time → 503
 * `carrier_unavailable` with Retry-After.
 */
export class CarrierGateway {
  readonly #sources = new WeakMap<readonly CarrierAccountRow[], RateSource[]>();
  readonly #simulated = new Map<string, CarrierDriver>();

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
      all = rows
        .filter((r) => r.enabled)
        .flatMap((r) => {
          const source = this.#source(scope, r);
          return source ? [source] : [];
        });
      this.#sources.set(rows, all);
    }
    if (!ids) return all;
    const byId = new Map(all.map((s) => [s.accountId, s]));
    const problems = ids.flatMap((id, i) =>
      byId.has(id) ? [] : [{ field: `carrier_accounts[${i}]`, message: `is not an enabled carrier account of this workspace and environment` }],
    );
    if (problems.length > 0) throw validationError(problems);
    return ids.map((id) => byId.get(id)!);
  }

  #source(scope: Scope, row: CarrierAccountRow): RateSource | null {
    const carrier = this.carriers.get(row.carrier);
    if (!carrier?.capabilities.rate) return null;
    // A driver in process is asked with no deadline or credentials: the rate query's hot path.
    if (this.driverOf(row)?.inProcess) return carrier.adapter.rate ? simulatedSource(carrier, row.id) : null;
    return {
      accountId: row.id,
      rateTableVersion: null,
      carrier,
      quote: (request, meta) => this.#apiQuote(scope, row, carrier, request, meta),
    };
  }

  async #apiQuote(scope: Scope, row: CarrierAccountRow, carrier: CarrierDefinition, request: RateRequest, meta: RateQuoteMeta = {}): Promise<RateSourceAnswer> {
    try {
      const answer = await sourceAnswer(carrier, () => this.#invoke(row, meta.requestId, (driver, ctx) => driver.rates(ctx, request), meta.startedAt));
      if (!answer.ok) {
        if (answer.code === 'carrier_account_invalid') await this.#refused(scope, row, answer.message);
        return answer;
      }
      const wanted = request.service_codes ? new Set(request.service_codes) : null;
      return wanted ? { ...answer, rates: answer.rates.filter((r) => wanted.has(r.service_code)) } : answer;
    } catch (err) {
      // Whatever went wrong with this one account, the others' options still answer.
      this.log.error({ err, carrier_account_id: row.id }, 'carrier rating failed unexpectedly');
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
    if (!row)
      throw new AppError('unprocessable', `No enabled ${carrier} carrier account in this workspace and environment.`, {
        details: [{ field, message: `no enabled ${carrier} account` }],
      });
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
    const driver = this.driverOf(row);
    if (driver?.inProcess) {
      throw validationError([
        {
          field,
          message: `is a simulated ${name} account, which validates no addresses; leave carrier_account_id out to use the built-in validator, or name an api account`,
        },
      ]);
    }
    if (!apiDriverCapabilities(driver).address_validation) throw validationError([{ field, message: `${name}'s api driver does not validate addresses` }]);
    return {
      carrier: row.carrier,
      accountId: row.id,
      validate: (address, requestId) => this.call(scope, row, requestId, (driver, ctx) => driver.validateAddress!(ctx, address)),
    };
  }

  /** Whether purchases through this account check addresses with its carrier (its driver validates: a real carrier's may). */
  validatesAddresses(row: CarrierAccountRow): boolean {
    return apiDriverCapabilities(this.driverOf(row)).address_validation;
  }

  /** A shipment's account, deleted or disabled ones too (their shipments stay voidable and trackable). */
  async accountOf(scope: Scope, id: string): Promise<CarrierAccountRow | undefined> {
    return this.accounts.findEvenDeleted(scope, id);
  }

  /**
   * The target of a label, pickup or tracker whose driver answers in process (a simulated one),
   * found without the database (a caller may hold a transaction); undefined for a real carrier's.
   */
  inProcessTarget(ref: { carrier_account_id: string | null; carrier: string; carrier_driver: AccountDriver }): CallTarget | undefined {
    const driver = this.driverOf({ driver: ref.carrier_driver, carrier: ref.carrier });
    return driver?.inProcess ? { id: null, driver: ref.carrier_driver, carrier: ref.carrier } : undefined;
  }

  /**
   * What a label, pickup or tracker bought through an account is asked through: that account
   * (deleted or disabled ones too), or, for one made before accounts existed, its carrier's
   * in-process driver alone. Undefined: an api account that no longer exists.
   */
  async targetOf(scope: Scope, ref: { carrier_account_id: string | null; carrier: string; carrier_driver: AccountDriver }): Promise<CallTarget | undefined> {
    const account = ref.carrier_account_id ? await this.accountOf(scope, ref.carrier_account_id) : undefined;
    return account ?? this.inProcessTarget(ref);
  }

  /**
   * One driver call for an account, simulated or api, its outcome as the platform's errors:
   * returns the value or throws `carrier_rejected`, `carrier_account_invalid`, `no_rates` (the
   * service cannot carry it), `invalid_state` (too late: `tooLate` makes the caller's own) or
   * `carrier_unavailable`.
   */
  async call<T>(
    scope: Scope,
    row: CallTarget,
    requestId: string | undefined,
    call: DriverCall<T>,
    opts: { tooLate?: (message: string) => Error } = {},
  ): Promise<T> {
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
    const message = describe(result.messages);
    switch (result.kind) {
      case 'invalid_credentials':
        if (row.id !== null) await this.#refused(scope, row, message);
        throw new AppError(
          'carrier_account_invalid',
          "The carrier refused this account's credentials; update them (PATCH /v1/carrier-accounts/:id) and test the account.",
          { details },
        );
      case 'not_offered':
        throw new AppError('no_rates', message, { details: details.map((d) => ({ field: 'service_code', ...d })) });
      case 'too_late':
        throw opts.tooLate?.(message) ?? new AppError('invalid_state', message, { details });
      default:
        throw new AppError('carrier_rejected', message || 'The carrier refused the request.', { details });
    }
  }

  /**
   * The driver of an account: its carrier's api driver for an `api` account, else its simulated
   * one (docs/carriers.md, "One contract, two drivers"). The one place that reads the kind.
   */
  driverOf(row: Pick<CarrierAccountRow, 'driver' | 'carrier'>): CarrierDriver | undefined {
    if (row.driver === 'api') return this.drivers.get(row.carrier);
    let driver = this.#simulated.get(row.carrier);
    const carrier = this.carriers.get(row.carrier);
    if (!driver && carrier) this.#simulated.set(row.carrier, (driver = simulatedDriver(carrier)));
    return driver;
  }

  /** `startedAt` (epoch ms): the deadline counts from then, not from this call (what came before it is spent). */
  async #invoke<T>(row: CallTarget, requestId: string | undefined, call: DriverCall<T>, startedAt?: number): Promise<DriverResult<T>> {
    const driver = this.driverOf(row);
    if (!driver) throw new AppError('unprocessable', `${row.carrier} has no ${row.driver} driver.`);
    // In process there is no network to wait for and no credentials to open.
    if (driver.inProcess) return call(driver, { ...IN_PROCESS_CONTEXT, account: { ...IN_PROCESS_CONTEXT.account, id: row.id ?? '' }, requestId });
    if (row.id === null) throw new AppError('unprocessable', `${row.carrier} has no account to call.`);
    const timeoutMs = await this.accounts.timeoutMs();
    const spentMs = startedAt === undefined ? 0 : Math.max(0, Date.now() - startedAt);
    return call(driver, { account: this.accounts.apiAccount(row), timeoutMs: Math.max(1, timeoutMs - spentMs), requestId });
  }

  async #refused(scope: Scope, row: CarrierAccountRow, message: string): Promise<void> {
    await this.accounts
      .recordRefusedCredentials(scope, row, message)
      .catch((err: unknown) => this.log.warn({ err, carrier_account_id: row.id }, 'could not record refused credentials'));
  }
}

function describe(messages: readonly CarrierMessage[]): string {
  return messages.map((m) => m.message).join('; ');
}
