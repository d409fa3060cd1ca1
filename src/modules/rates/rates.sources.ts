import type { DriverResult } from '../../carriers/driver.js';
import { IN_PROCESS_CONTEXT, simulatedDriver } from '../../carriers/simulation/driver.js';
import { CarrierError, type CarrierDefinition, type CarrierRate, type RateRequest, type RateResponse, type RateUnavailable } from '../../carriers/types.js';

/** Why one account gave no options: a `messages` entry, never a failed query. */
export type RateMessageCode = 'carrier_unavailable' | 'carrier_account_invalid' | 'carrier_rejected';

export interface RateMessage {
  carrier_account_id: string | null;
  carrier: string;
  code: RateMessageCode | 'option_unavailable';
  /** option_unavailable: the service dropped and the option it lacks. */
  service_code?: string;
  option?: string;
  message: string;
}

/** A rate as a source quotes it; a real carrier may promise its own delivery date. */
export interface SourcedRate extends CarrierRate {
  estimated_delivery_date?: string | null;
}

export type RateSourceAnswer = { ok: true; rates: SourcedRate[]; unavailable: RateUnavailable[] } | { ok: false; code: RateMessageCode; message: string };

/**
 * One carrier account the rate-shop asks (the carrier-accounts module makes them): the
 * simulated driver's rate card or the carrier's own API through the account's credentials.
 * The rates module knows accounts only through this.
 */
export interface RateSource {
  /** `ca_…`; null for the bare carrier registry (a caller with no accounts). */
  accountId: string | null;
  /** The rate card its answers are priced on (a simulated driver's); null: the carrier's own prices. */
  rateTableVersion: string | null;
  carrier: CarrierDefinition;
  /**
   * `requestId` goes to the account's exchange log; `startedAt` (epoch ms the query arrived)
   * starts the carriers' deadline, so the answer comes at the deadline, not after it.
   */
  quote(request: RateRequest, meta?: RateQuoteMeta): Promise<RateSourceAnswer>;
}

export interface RateQuoteMeta {
  requestId?: string;
  startedAt?: number;
}

/** The registry's carriers as sources without accounts (simulated only). */
export function registrySources(carriers: readonly CarrierDefinition[]): RateSource[] {
  return carriers.filter((c) => c.capabilities.rate && c.adapter.rate).map((carrier) => simulatedSource(carrier, null));
}

/** A simulated carrier as a source: its in-process driver, asked with no deadline (it has no network to wait for). */
export function simulatedSource(carrier: CarrierDefinition, accountId: string | null): RateSource {
  const driver = simulatedDriver(carrier);
  return {
    accountId,
    rateTableVersion: carrier.rate_table_version,
    carrier,
    quote: (request) => sourceAnswer(carrier, () => driver.rates(IN_PROCESS_CONTEXT, request)),
  };
}

/**
 * One account's quote as the rate-shop takes it, from either driver: its options, or why it has
 * none (a refusal, refused credentials, no answer). Whatever went wrong with this one account,
 * the others' options still answer, so a `CarrierError` is a message, not a failed query.
 */
export async function sourceAnswer(carrier: CarrierDefinition, ask: () => Promise<DriverResult<RateResponse>>): Promise<RateSourceAnswer> {
  try {
    const result = await ask();
    if (result.ok) return { ok: true, rates: result.value.rates, unavailable: result.value.unavailable };
    const message = result.messages.map((m) => m.message).join('; ') || `${carrier.name} refused the request`;
    return { ok: false, code: result.kind === 'invalid_credentials' ? 'carrier_account_invalid' : 'carrier_rejected', message };
  } catch (err) {
    if (!(err instanceof CarrierError)) throw err;
    return { ok: false, code: 'carrier_unavailable', message: `${carrier.name} is unavailable: ${err.message}` };
  }
}
