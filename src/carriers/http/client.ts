import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { CircuitBreakers } from './breaker.js';
import { CarrierTransportError, type TransportFailureKind } from './errors.js';
import { secretScrubber } from '../../platform/secret-scrubber.js';
import { parseJsonBody, redactBody, redactHeaders, redactValue } from './redact.js';
import { requestSecrets } from './request-secrets.js';
import { TokenCache, type AccessToken } from './token-cache.js';

/**
 * The one carrier HTTP client every real driver shares: keep-alive pools per host, a deadline
 * per call, retries for idempotent calls only, a breaker and an OAuth token cache per account,
 * an exchange log and metrics through injected hooks. It throws `CarrierTransportError` for
 * transport failures (network, deadline, 5xx, 429, open breaker) and returns every other
 * answer (2xx, 4xx) for the driver to parse.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request/response pair as the exchange log keeps it (bodies already redacted). */
export interface CarrierExchange {
  at: string;
  carrier: string;
  account_id: string;
  operation: string;
  method: HttpMethod;
  /** Path and query, never the host (which may carry an egress proxy's credentials). */
  path: string;
  status: number | null;
  duration_ms: number;
  attempt: number;
  request_id: string;
  request_headers: Record<string, string>;
  request_body: unknown;
  response_body: unknown;
  /** Transport failure kind when there was no usable answer. */
  error: TransportFailureKind | null;
}

export type CarrierOutcome = 'success' | 'client_error' | 'unauthorized' | 'rate_limited' | 'server_error' | 'timeout' | 'network_error' | 'circuit_open';

/** Metrics hook: platform code adapts it to prom-client. */
export interface CarrierMetricsObserver {
  /** carrier_requests_total{carrier,operation,outcome} += 1 */
  requestFinished(labels: { carrier: string; operation: string; outcome: CarrierOutcome }): void;
  /** carrier_request_duration_seconds{carrier,operation} observe */
  requestDuration(labels: { carrier: string; operation: string }, seconds: number): void;
}

export interface CarrierHttpClientOptions {
  /** Exchange log sink (the lead stores it per account); must not throw. */
  onExchange?: (exchange: CarrierExchange) => void;
  metrics?: CarrierMetricsObserver;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Retries after the first attempt for idempotent calls. */
  maxRetries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  breakerFailureThreshold?: number;
  breakerOpenMs?: number;
  /** Refresh a cached token this long before it expires. */
  tokenRefreshBeforeMs?: number;
  /** Keep-alive connections per host. */
  connectionsPerHost?: number;
  /** Resolves host names for every connection (a guard that refuses private addresses). */
  lookup?: LookupFunction;
  keepAliveTimeoutMs?: number;
  /** Largest response body read. */
  maxResponseBytes?: number;
}

export interface OAuthSpec {
  /** Cache key (the account id plus anything that changes the token, e.g. a host). */
  key: string;
  fetchToken: () => Promise<AccessToken>;
}

export interface CarrierHttpRequest {
  carrier: string;
  accountId: string;
  operation: string;
  method: HttpMethod;
  /** Absolute URL. */
  url: string;
  headers?: Record<string, string>;
  /** Serialised as JSON with content-type application/json. */
  json?: unknown;
  /** Serialised as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Safe to send again: only then are 429/5xx/network failures retried. */
  idempotent: boolean;
  /** Deadline for the whole call, retries and back-off included. */
  timeoutMs: number;
  /** Bearer token from the account's cache, refetched once on 401. */
  oauth?: OAuthSpec;
  /** Our request id, logged with each exchange (a fresh one when absent). */
  requestId?: string;
  /** The wait a 429/5xx asks for in a header of the platform's own (BigCommerce's `X-Rate-Limit-Time-Reset-Ms`), when `Retry-After` is absent. */
  retryAfterMs?: (headers: Record<string, string>) => number | null;
}

export interface CarrierHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  durationMs: number;
  attempts: number;
  /** The body already parsed as JSON (the exchange log parsed it to redact it); `parseJson` reuses it. */
  json?: { value: unknown };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

interface Attempt {
  response: CarrierHttpResponse | null;
  failure: CarrierTransportError | null;
}

export class CarrierHttpClient {
  private readonly agent: Agent;
  private readonly breakers: CircuitBreakers;
  readonly tokens: TokenCache;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly maxRetries: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: CarrierHttpClientOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.maxRetries = options.maxRetries ?? 2;
    this.backoffBaseMs = options.backoffBaseMs ?? 250;
    this.backoffMaxMs = options.backoffMaxMs ?? 4000;
    this.maxResponseBytes = options.maxResponseBytes ?? 20 * 1024 * 1024;
    this.breakers = new CircuitBreakers({ failureThreshold: options.breakerFailureThreshold ?? 5, openMs: options.breakerOpenMs ?? 30_000 }, this.now);
    this.tokens = new TokenCache(this.now, options.tokenRefreshBeforeMs ?? 60_000);
    // undici's Agent keeps one keep-alive pool per origin.
    this.agent = new Agent({
      connections: options.connectionsPerHost ?? 16,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      keepAliveMaxTimeout: 120_000,
      ...(options.lookup ? { connect: { lookup: options.lookup } } : {}),
    });
  }

  breakerState(carrier: string, accountId: string) {
    return this.breakers.state(`${carrier}:${accountId}`);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * Sends one logical call: at most 1 + maxRetries attempts when idempotent, exactly one
   * otherwise (plus one re-send after a 401 with a freshly fetched token: the carrier refused
   * it before doing anything).
   */
  async request(req: CarrierHttpRequest): Promise<CarrierHttpResponse> {
    const breakerKey = `${req.carrier}:${req.accountId}`;
    const requestId = req.requestId ?? randomUUID();
    const startedAt = this.now();
    const deadline = startedAt + req.timeoutMs;
    let attempt = 0;
    let refetchedToken = false;
    for (;;) {
      attempt += 1;
      // The token first: fetching it is its own breaker-guarded call on the same account.
      let token: string | null = null;
      if (req.oauth) token = await this.tokens.get(req.oauth.key, req.oauth.fetchToken, req.accountId);
      const wait = this.breakers.acquire(breakerKey);
      if (wait !== null) {
        this.count(req, 'circuit_open');
        throw new CarrierTransportError(req.carrier, 'circuit_open', `${req.carrier} is failing; calls are paused for ${Math.ceil(wait / 1000)} s`, {
          retryable: true,
          retryAfterMs: wait,
        });
      }
      const remaining = deadline - this.now();
      const { response, failure } =
        remaining <= 0 ? { response: null, failure: this.timeoutError(req) } : await this.attempt(req, attempt, requestId, token, remaining);

      if (response) {
        if (response.status === 401 && req.oauth && token && !refetchedToken) {
          this.breakers.neutral(breakerKey);
          this.tokens.invalidate(req.oauth.key, token);
          refetchedToken = true;
          attempt -= 1; // the re-send after a refused token is not a retry
          continue;
        }
        if (response.status < 500 && response.status !== 429) {
          if (response.status < 400) this.breakers.success(breakerKey);
          else this.breakers.neutral(breakerKey);
          return { ...response, attempts: attempt, durationMs: this.now() - startedAt };
        }
      }
      // A transport failure: 5xx, 429, network, deadline.
      const error = failure ?? this.statusError(req, response!);
      this.breakers.failure(breakerKey);
      if (!req.idempotent || attempt > this.maxRetries || error.kind === 'timeout') throw error;
      const backoff = this.backoffMs(attempt, error.retryAfterMs);
      if (this.now() + backoff >= deadline) throw error;
      await this.sleep(backoff);
    }
  }

  private backoffMs(attempt: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return retryAfterMs;
    const exp = Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** (attempt - 1));
    // "Equal jitter": half fixed, half random, so retries from many callers spread out.
    return Math.round(exp / 2 + (this.random() * exp) / 2);
  }

  private timeoutError(req: CarrierHttpRequest): CarrierTransportError {
    return new CarrierTransportError(req.carrier, 'timeout', `${req.carrier} did not answer within ${req.timeoutMs} ms`, {
      retryable: true,
    });
  }

  private statusError(req: CarrierHttpRequest, res: CarrierHttpResponse): CarrierTransportError {
    const retryAfterMs = parseRetryAfterMs(res.headers['retry-after'], this.now()) ?? req.retryAfterMs?.(res.headers) ?? null;
    if (res.status === 429) {
      return new CarrierTransportError(req.carrier, 'rate_limited', `${req.carrier} is rate limiting our calls (429)`, {
        retryable: true,
        status: 429,
        retryAfterMs,
      });
    }
    return new CarrierTransportError(req.carrier, 'server_error', `${req.carrier} answered ${res.status}`, {
      retryable: true,
      status: res.status,
      retryAfterMs,
    });
  }

  private async attempt(req: CarrierHttpRequest, attempt: number, requestId: string, token: string | null, remainingMs: number): Promise<Attempt> {
    const url = new URL(req.url);
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (token) headers.authorization = `Bearer ${token}`;
    const path = `${url.pathname}${url.search}`;
    const started = this.now();
    const controller = new AbortController();
    // At the deadline the call is over: undici tears the connection down after that (a
    // millisecond or two here), which the caller does not wait for.
    let expire!: (reason: Error) => void;
    const expired = new Promise<never>((_resolve, reject) => (expire = reject));
    const timer = setTimeout(() => {
      controller.abort();
      expire(new Error('deadline'));
    }, remainingMs);
    let status: number | null = null;
    let responseText: string | null = null;
    let responseHeaders: Record<string, string> = {};
    let failure: CarrierTransportError | null = null;
    try {
      const res = await untilExpired(
        this.agent.request({
          origin: url.origin,
          path,
          method: req.method,
          headers,
          body,
          signal: controller.signal,
        }),
        expired,
      );
      const received: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) received[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      }
      responseText = await untilExpired(this.readBody(res.body), expired);
      // Only a whole answer counts: a body cut off leaves status and headers unset.
      status = res.statusCode;
      responseHeaders = received;
    } catch (err) {
      failure = controller.signal.aborted
        ? new CarrierTransportError(req.carrier, 'timeout', `${req.carrier} did not answer within ${req.timeoutMs} ms`, {
            retryable: true,
            cause: err,
          })
        : new CarrierTransportError(req.carrier, 'network', `${req.carrier} could not be reached`, { retryable: true, cause: err });
    } finally {
      clearTimeout(timer);
    }
    const durationMs = this.now() - started;
    const json = responseText === null ? undefined : parseJsonBody(responseText, responseHeaders['content-type']);
    const outcome: CarrierOutcome =
      failure?.kind === 'timeout'
        ? 'timeout'
        : failure
          ? 'network_error'
          : status === 401
            ? 'unauthorized'
            : status === 429
              ? 'rate_limited'
              : status! >= 500
                ? 'server_error'
                : status! >= 400
                  ? 'client_error'
                  : 'success';
    this.count(req, outcome, durationMs);
    // Redaction by key cannot see a secret the carrier (or a proxy) quotes inside a message:
    // the entry is also scrubbed of every secret value this request carried and of the
    // account's tokens, in any encoding (platform/secret-scrubber.ts).
    const scrubber = secretScrubber([...requestSecrets(headers, req.form, req.json), ...this.tokens.tokensOf(req.accountId)]);
    this.log(
      scrubber.scrubValue({
        at: new Date(started).toISOString(),
        carrier: req.carrier,
        account_id: req.accountId,
        operation: req.operation,
        method: req.method,
        path,
        status,
        duration_ms: durationMs,
        attempt,
        request_id: requestId,
        request_headers: redactHeaders(headers),
        // Redacted from the objects, not from the text: a JSON body is never parsed back, and the
        // answer is parsed once, here, for both the log and the driver.
        request_body: req.json !== undefined ? redactValue(req.json) : redactBody(body, headers['content-type']),
        response_body: json ? redactValue(json.value) : redactBody(responseText, responseHeaders['content-type']),
        error: failure?.kind ?? null,
      }),
    );
    if (failure) return { response: null, failure };
    return {
      response: { status: status!, headers: responseHeaders, body: responseText ?? '', durationMs, attempts: attempt, ...(json ? { json } : {}) },
      failure: null,
    };
  }

  private async readBody(body: AsyncIterable<Buffer>): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.maxResponseBytes) throw new Error(`response larger than ${this.maxResponseBytes} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private count(req: CarrierHttpRequest, outcome: CarrierOutcome, durationMs?: number): void {
    const m = this.options.metrics;
    if (!m) return;
    try {
      m.requestFinished({ carrier: req.carrier, operation: req.operation, outcome });
      if (durationMs !== undefined) m.requestDuration({ carrier: req.carrier, operation: req.operation }, durationMs / 1000);
    } catch {
      // A metrics adapter never breaks a carrier call.
    }
  }

  private log(exchange: CarrierExchange): void {
    try {
      this.options.onExchange?.(exchange);
    } catch {
      // The exchange log is best effort: a failing sink never breaks a carrier call.
    }
  }
}

/**
 * Parses a carrier's JSON answer. A body that is not JSON is a transport failure
 * (`malformed_response`): retryable only for calls that are safe to repeat, since a purchase
 * may have gone through.
 */
export function parseJson(carrier: string, res: CarrierHttpResponse, idempotent: boolean): unknown {
  if (res.json) return res.json.value;
  try {
    return JSON.parse(res.body);
  } catch (err) {
    throw new CarrierTransportError(carrier, 'malformed_response', `${carrier} answered ${res.status} with a body that is not JSON`, {
      retryable: idempotent,
      status: res.status,
      cause: err,
    });
  }
}

/** `work`, or the deadline's rejection if that comes first (`work`'s own late failure is then ignored). */
function untilExpired<T>(work: Promise<T>, expired: Promise<never>): Promise<T> {
  work.catch(() => {});
  return Promise.race([work, expired]);
}
