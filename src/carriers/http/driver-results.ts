/**
 * The outcomes every real driver's client.ts builds (api-driver.ts `DriverResult`), shared so
 * each carrier sorts its answers the same way: refused credentials, refused requests, and an
 * answer too broken to use (a transport failure, retryable only when the call was idempotent).
 */
import type { DriverResult } from '../api-driver.js';
import type { CarrierHttpResponse } from './client.js';
import { CarrierTransportError, type CarrierMessage } from './errors.js';

/** Thrown inside a driver when the carrier refuses the credentials; becomes `invalid_credentials`. */
export class CredentialsRefused extends Error {
  constructor(
    carrierName: string,
    readonly messages: CarrierMessage[],
  ) {
    super(`${carrierName} refused the credentials`);
  }
}

export const rejected = <T>(messages: CarrierMessage[]): DriverResult<T> => ({ ok: false, kind: 'rejected', messages });
export const refused = <T>(messages: CarrierMessage[]): DriverResult<T> => ({ ok: false, kind: 'invalid_credentials', messages });

export function malformedAnswer(slug: string, carrierName: string, operation: string, res: CarrierHttpResponse, idempotent: boolean): CarrierTransportError {
  return new CarrierTransportError(slug, 'malformed_response', `${carrierName} answered ${operation} with a body we cannot read`, {
    retryable: idempotent,
    status: res.status,
  });
}

/** A refusal's body as JSON, or null when it is not JSON (an unreadable refusal is still one). */
export function errorBody(res: CarrierHttpResponse): unknown {
  try {
    return JSON.parse(res.body);
  } catch {
    return null;
  }
}
