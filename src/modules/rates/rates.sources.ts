import { CarrierError, type CarrierDefinition, type CarrierRate, type RateRequest, type RateUnavailable } from '../../carriers/types.js';

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

export type RateSourceAnswer =
  | { ok: true; rates: SourcedRate[]; unavailable: RateUnavailable[] }
  | { ok: false; code: RateMessageCode; message: string };

/**
 * One carrier account the rate-shop asks (the carrier-accounts module makes them): the
 * simulated driver's rate card or the carrier's own API through the account's credentials.
 * The rates module knows accounts only through this.
 */
export interface RateSource {
  /** `ca_…`; null for the bare carrier registry (a caller with no accounts). */
  accountId: string | null;
  driver: 'simulated' | 'api';
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

/** A simulated carrier as a source: its in-process adapter; a CarrierError (a failing double) is a message. */
export function simulatedSource(carrier: CarrierDefinition, accountId: string | null): RateSource {
  return {
    accountId,
    driver: 'simulated',
    carrier,
    async quote(request) {
      try {
        return { ok: true, ...(await carrier.adapter.rate!(request)) };
      } catch (err) {
        if (!(err instanceof CarrierError)) throw err;
        return { ok: false, code: 'carrier_unavailable', message: `${carrier.name} is unavailable: ${err.message}` };
      }
    },
  };
}
