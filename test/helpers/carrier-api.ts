import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { ApiCallContext, ApiRateRequest } from '../../src/carriers/driver.js';
import { CarrierHttpClient, type CarrierExchange } from '../../src/carriers/http/client.js';
import type { RouteFacts, ShipmentOptions } from '../../src/carriers/types.js';
import { ukRoute } from './driver-customs.js';

/**
 * The set-up every api driver test shares: its carrier's fake (test/helpers/fake-*.ts) started
 * once for the file on the carrier's published documents, a fresh HTTP client per test whose
 * back-offs are recorded instead of waited and whose exchanges are kept, and a fresh account per
 * call context, so tokens and breakers never leak between tests.
 */

/** What the driver tests use of a fake carrier. */
export interface FakeCarrier {
  url: string;
  /** Problems in the requests it received or the answers it gave. */
  violations: string[];
  reset(): void;
  close(): Promise<void>;
}

/** How the driver tests start a carrier's fake and the account they use on it (each fake exports its own). */
export type FakeCarrierSetup<S, F extends FakeCarrier> = Omit<CarrierApiTestOptions<S, F>, 'idPrefix' | 'secrets'>;

export interface CarrierApiTestOptions<S, F extends FakeCarrier> {
  /** The carrier's name and its folder under ../shared/carrier-specs, for the warning when its documents are absent. */
  name: string;
  folder: string;
  loadSpecs(): S | null;
  startFake(specs: S | null): Promise<F>;
  /** The account each `ctx()` makes, under a fresh id `ca_<idPrefix><n>`. */
  idPrefix: string;
  account: Pick<ApiCallContext['account'], 'account_number' | 'credentials'>;
  /** What no exchange may show (secrets, tokens): `expectCleanExchange()` checks. */
  secrets?: ReadonlyArray<string | RegExp>;
}

export interface CarrierApiTest<S, F extends FakeCarrier> {
  readonly specs: S | null;
  readonly fake: F;
  readonly http: CarrierHttpClient;
  /** The back-offs the client asked for in this test (not waited). */
  readonly sleeps: number[];
  readonly exchanges: CarrierExchange[];
  /** How many accounts `ctx()` has made in this file (USPS references are unique per account). */
  readonly accounts: number;
  ctx(over?: Partial<ApiCallContext['account']>, timeoutMs?: number): ApiCallContext;
  /** The fake saw nothing off its documents, and no exchange shows a secret. */
  expectCleanExchange(): void;
}

/** Registers the file's hooks (vitest) and returns the set-up's live state. */
export function useCarrierApiTest<S, F extends FakeCarrier>(options: CarrierApiTestOptions<S, F>): CarrierApiTest<S, F> {
  let specs: S | null = null;
  let fake: F | undefined;
  let http: CarrierHttpClient | undefined;
  let accounts = 0;
  const sleeps: number[] = [];
  const exchanges: CarrierExchange[] = [];

  beforeAll(async () => {
    specs = options.loadSpecs();
    if (!specs)
      console.warn(`../shared/carrier-specs/${options.folder} is absent: the fake ${options.name} skipped the schema check (the scenarios still run)`);
    fake = await options.startFake(specs);
  }, 120_000);
  afterAll(async () => {
    await fake?.close();
    await http?.close();
  });
  beforeEach(async () => {
    fake!.reset();
    await http?.close();
    sleeps.length = 0;
    exchanges.length = 0;
    http = new CarrierHttpClient({
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onExchange: (e) => exchanges.push(e),
    });
  });

  return {
    get specs() {
      return specs;
    },
    get fake() {
      return fake!;
    },
    get http() {
      return http!;
    },
    sleeps,
    exchanges,
    get accounts() {
      return accounts;
    },
    // Generous deadline: under a loaded full-suite run a token fetch plus a call took over 3 s once.
    ctx(over = {}, timeoutMs = 20_000) {
      accounts += 1;
      return {
        account: {
          id: `ca_${options.idPrefix}${accounts}`,
          mode: 'sandbox',
          account_number: options.account.account_number,
          credentials: { ...options.account.credentials },
          base_url: fake!.url,
          ...over,
        },
        timeoutMs,
        requestId: `req_${accounts}`,
      };
    },
    expectCleanExchange() {
      expect(fake!.violations).toEqual([]);
      const text = JSON.stringify(exchanges);
      for (const secret of options.secrets ?? []) {
        if (typeof secret === 'string') expect(text).not.toContain(secret);
        else expect(text).not.toMatch(secret);
      }
    },
  };
}

/** A US domestic lane (Timonium MD → Alpharetta GA), as the route facts give it. */
export const US_ROUTE: RouteFacts = {
  domestic: true,
  origin_country: 'US',
  destination_country: 'US',
  distance_miles: 580,
  ground_zone: 5,
  international_group: null,
  international_zone: null,
  territory: false,
  military: false,
  noncontiguous: false,
};

/** US → Germany, DHL Express's lane in its tests (the London lane's country group and zone). */
export const US_TO_DE_ROUTE: RouteFacts = { ...ukRoute, destination_country: 'DE' };

export const SHIP_FROM = {
  name: 'Dock Lead',
  company: 'Acme Widgets',
  street1: '12 Main St',
  city: 'Timonium',
  state: 'MD',
  postal_code: '21093',
  country: 'US',
  phone: '+1 (410) 555-0100',
};

export const NO_OPTIONS: ShipmentOptions = {
  signature: 'none',
  saturday_delivery: false,
  insurance: null,
  dangerous_goods: null,
  references: [],
  delivery_instructions: null,
};

/** `request` with shipment options, the rest at their defaults. */
export const withOptions = (request: ApiRateRequest, options: Partial<ShipmentOptions>): ApiRateRequest => ({
  ...request,
  options: { ...NO_OPTIONS, ...options },
});
