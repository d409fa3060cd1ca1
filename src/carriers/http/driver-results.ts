/**
 * The outcomes every real driver's client.ts builds (driver.ts `DriverResult`), shared so
 * each carrier sorts its answers the same way: refused credentials, refused requests, and an
 * answer too broken to use (a transport failure, retryable only when the call was idempotent).
 */
import type { DriverResult } from '../driver.js';
import { parseJson, type CarrierHttpResponse } from './client.js';
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
  if (res.json) return res.json.value;
  try {
    return JSON.parse(res.body);
  } catch {
    return null;
  }
}

/** A carrier's error body read into our messages, and whether it refuses the credentials. */
export interface CarrierErrors {
  messages: CarrierMessage[];
  credentialsRefused: boolean;
}

export interface SortedCall<T> {
  slug: string;
  carrierName: string;
  operation: string;
  idempotent: boolean;
  /** Reads a 2xx body (already JSON); throws `malformedAnswer` when it is not the expected answer. */
  parse: (body: unknown, res: CarrierHttpResponse) => DriverResult<T>;
  /** Reads a 4xx body (JSON) into messages. */
  readErrors: (status: number, body: unknown) => CarrierErrors;
  /** A refusal that is really an answer (an address the carrier cannot find is a verdict). */
  onRejected?: (messages: CarrierMessage[]) => DriverResult<T> | null;
}

/**
 * Sends one call and sorts the answer the same way for every carrier: 2xx → `parse(body)`;
 * 401/403 or a credentials error → invalid_credentials; other 4xx → rejected with the carrier's
 * messages; a body that is not JSON → `malformed_response`. Transport failures (429, 5xx,
 * network, deadline) are thrown by the HTTP client.
 */
export async function sortAnswer<T>(send: () => Promise<CarrierHttpResponse>, call: SortedCall<T>): Promise<DriverResult<T>> {
  try {
    const res = await send();
    if (res.status >= 200 && res.status < 300) return call.parse(parseJson(call.slug, res, call.idempotent), res);
    const body = errorBody(res);
    if (body === null) throw malformedAnswer(call.slug, call.carrierName, call.operation, res, call.idempotent);
    const errors = call.readErrors(res.status, body);
    if (errors.credentialsRefused) return refused(errors.messages);
    return call.onRejected?.(errors.messages) ?? rejected(errors.messages);
  } catch (err) {
    if (err instanceof CredentialsRefused) return refused(err.messages);
    throw err;
  }
}

/** `testCredentials` for a driver whose cheapest authenticated exchange is a fresh token. */
export async function testByFetchingToken(fetchToken: () => Promise<unknown>): Promise<DriverResult<{ latency_ms: number }>> {
  const started = Date.now();
  try {
    await fetchToken();
    return { ok: true, value: { latency_ms: Date.now() - started } };
  } catch (err) {
    if (err instanceof CredentialsRefused) return refused(err.messages);
    throw err;
  }
}
