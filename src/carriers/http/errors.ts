import { CarrierError } from '../types.js';

/** Why a carrier call failed in transport (not a business rejection). */
export type TransportFailureKind = 'timeout' | 'network' | 'server_error' | 'rate_limited' | 'circuit_open' | 'malformed_response';

/**
 * A transport failure, with what a caller needs to answer 503 with Retry-After or to decide
 * whether a job may try again. Extends the shared `CarrierError` (types.ts stays untouched).
 */
export class CarrierTransportError extends CarrierError {
  readonly kind: TransportFailureKind;
  /** The carrier's HTTP status, when it answered. */
  readonly status: number | null;
  /** How long the carrier (or the open breaker) asked us to wait, when known. */
  readonly retryAfterMs: number | null;

  constructor(
    slug: string,
    kind: TransportFailureKind,
    message: string,
    options: { retryable: boolean; status?: number | null; retryAfterMs?: number | null; carrierCode?: string; cause?: unknown },
  ) {
    super(slug, options.carrierCode ?? kind, message, { retryable: options.retryable, cause: options.cause });
    this.name = 'CarrierTransportError';
    this.kind = kind;
    this.status = options.status ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/**
 * A carrier's refusal normalised for our clients: `code` is ours (`carrier_rejected`,
 * `carrier_account_invalid`), `carrier_code` and `message` are the carrier's own, `field` names
 * our request field when the carrier's error points at one.
 */
export interface CarrierMessage {
  code: 'carrier_rejected' | 'carrier_account_invalid';
  message: string;
  carrier_code: string;
  field?: string;
}
