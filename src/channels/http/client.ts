import type { LookupFunction } from 'node:net';
/**
 * The one store-platform HTTP client every channel shares. The transport (keep-alive pools, a
 * deadline per call, retries of idempotent calls on 429/5xx/network honouring Retry-After,
 * redaction of the logged bodies) is the carriers' client, reused rather than written twice;
 * this layer speaks in channel words: `ChannelError` instead of carrier transport errors, an
 * exchange log keyed by integration, `channel_requests_total{platform,operation,outcome}`, and
 * the cost buckets of GraphQL platforms (cost-bucket.ts).
 *
 * The carriers' circuit breaker is left out (its threshold is never reached): a store's
 * unreachability is the integration's health (`down`, docs/channels.md), judged by the module over
 * ten minutes, and write-backs have their own backoff ladder.
 */
import { CarrierHttpClient, type CarrierExchange, type CarrierHttpResponse, type HttpMethod } from '../../carriers/http/client.js';
import { CarrierTransportError } from '../../carriers/http/errors.js';
import { isSecretKey, redactValue } from '../../carriers/http/redact.js';
import { ChannelError } from '../types.js';
import { CostBuckets } from './cost-bucket.js';

export type { HttpMethod };

/** One request/response pair as the integration's exchange log keeps it (already redacted). */
export interface ChannelExchange {
  at: string;
  platform: string;
  integration_id: string;
  operation: string;
  method: HttpMethod;
  /** Path and query, never the origin. */
  path: string;
  status: number | null;
  /** What the attempt came to, as `channel_requests_total` counts it. */
  outcome: ChannelOutcome;
  duration_ms: number;
  attempt: number;
  request_id: string;
  request_headers: Record<string, string>;
  request_body: unknown;
  response_body: unknown;
  /** Transport failure kind when there was no usable answer. */
  error: 'timeout' | 'network' | null;
}

export type ChannelOutcome = 'success' | 'client_error' | 'unauthorized' | 'throttled' | 'server_error' | 'timeout' | 'network_error';

/** Metrics hook: platform code adapts it to prom-client. */
export interface ChannelMetricsObserver {
  /** channel_requests_total{platform,operation,outcome} += 1, once per attempt. */
  requestFinished(labels: { platform: string; operation: string; outcome: ChannelOutcome }): void;
}

export interface ChannelHttpClientOptions {
  /** Exchange log sink (the module stores it per integration); must not throw. */
  onExchange?: (exchange: ChannelExchange) => void;
  metrics?: ChannelMetricsObserver;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Retries after the first attempt for idempotent calls. */
  maxRetries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Deadline of an operation when its caller gives none. */
  defaultTimeoutMs?: number;
  /** THROTTLED answers waited out and re-sent within one operation. */
  maxThrottleRetries?: number;
  /** Resolves store host names at connect time (production: a guard refusing private addresses). */
  lookup?: LookupFunction;
}

export interface ChannelHttpRequest {
  platform: string;
  integrationId: string;
  operation: string;
  method: HttpMethod;
  /** Absolute URL. */
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** Safe to send again: only then are 429/5xx/network failures retried. */
  idempotent: boolean;
  timeoutMs: number;
  requestId?: string;
  /** Logged in place of `json` (a GraphQL call logs its operation and variables, not the document). */
  logBody?: unknown;
  /** Keys masked in the logged bodies beyond the usual secret-looking ones (an OAuth `code`). */
  secretKeys?: readonly string[];
  /** Tells a throttled answer that came back 200 (Shopify's THROTTLED) for the metrics. */
  isThrottled?: (responseBody: unknown) => boolean;
  /** The wait a 429/5xx asks for in the platform's own header when `Retry-After` is absent (BigCommerce). */
  retryAfterMs?: (headers: Record<string, string>) => number | null;
}

export type ChannelHttpResponse = CarrierHttpResponse;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ChannelHttpClient {
  private readonly transport: CarrierHttpClient;
  readonly costBuckets: CostBuckets;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly defaultTimeoutMs: number;
  readonly maxThrottleRetries: number;
  /** The request each exchange belongs to, by our request id (the transport logs by its own fields). */
  private readonly pending = new Map<string, ChannelHttpRequest>();
  private seq = 0;

  constructor(private readonly options: ChannelHttpClientOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 20_000;
    this.maxThrottleRetries = options.maxThrottleRetries ?? 2;
    this.costBuckets = new CostBuckets(this.now);
    this.transport = new CarrierHttpClient({
      now: this.now,
      sleep: this.sleep,
      random: options.random,
      maxRetries: options.maxRetries,
      backoffBaseMs: options.backoffBaseMs,
      backoffMaxMs: options.backoffMaxMs,
      breakerFailureThreshold: Number.MAX_SAFE_INTEGER,
      lookup: options.lookup,
      onExchange: (e) => this.exchanged(e),
    });
  }

  /** When an operation must be over: the caller's deadline, else the client's default. */
  deadlineFor(ctx?: { timeoutMs?: number }): number {
    return this.now() + (ctx?.timeoutMs ?? this.defaultTimeoutMs);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  /**
   * Sends one logical call and returns every answer the platform gave (2xx, 4xx); throws
   * `ChannelError` when there was none worth reading: timeout, network, 5xx or 429 (after the
   * retries an idempotent call is allowed).
   */
  async request(req: ChannelHttpRequest): Promise<ChannelHttpResponse> {
    // The transport's own request id field carries a key back to this request in `exchanged`.
    const key = `${req.requestId ?? 'chreq'}#${++this.seq}`;
    this.pending.set(key, req);
    try {
      return await this.transport.request({
        carrier: req.platform,
        accountId: req.integrationId,
        operation: req.operation,
        method: req.method,
        url: req.url,
        headers: req.headers,
        json: req.json,
        form: req.form,
        idempotent: req.idempotent,
        timeoutMs: req.timeoutMs,
        requestId: key,
        retryAfterMs: req.retryAfterMs,
      });
    } catch (err) {
      throw toChannelError(req.platform, err);
    } finally {
      this.pending.delete(key);
    }
  }

  private exchanged(e: CarrierExchange): void {
    const req = this.pending.get(e.request_id);
    if (!req) return;
    const extra = new Set(req.secretKeys ?? []);
    const mask = (v: unknown) => (extra.size ? maskKeys(v, extra) : v);
    const throttled = e.status === 429 || (e.status !== null && e.status < 300 && !!req.isThrottled?.(e.response_body));
    const outcome: ChannelOutcome =
      e.error === 'timeout'
        ? 'timeout'
        : e.error
          ? 'network_error'
          : throttled
            ? 'throttled'
            : e.status === 401 || e.status === 403
              ? 'unauthorized'
              : e.status! >= 500
                ? 'server_error'
                : e.status! >= 400
                  ? 'client_error'
                  : 'success';
    try {
      this.options.metrics?.requestFinished({ platform: req.platform, operation: req.operation, outcome });
    } catch {
      // A metrics adapter never breaks a platform call.
    }
    try {
      this.options.onExchange?.({
        at: e.at,
        platform: req.platform,
        integration_id: req.integrationId,
        operation: req.operation,
        method: e.method,
        path: e.path,
        status: e.status,
        outcome,
        duration_ms: e.duration_ms,
        attempt: e.attempt,
        // Our request's id when a request caused the call; a job's call has none (the transport's own key is not ours to show).
        request_id: req.requestId ?? '',
        request_headers: e.request_headers,
        request_body: mask(req.logBody !== undefined ? redactValue(req.logBody) : e.request_body),
        response_body: mask(e.response_body),
        error: e.error === 'timeout' ? 'timeout' : e.error ? 'network' : null,
      });
    } catch {
      // The exchange log is best effort: a failing sink never breaks a platform call.
    }
  }
}

/** A redacted body with `keys` masked too (redact.ts already masks every secret-looking key). */
function maskKeys(value: unknown, keys: ReadonlySet<string>, depth = 0): unknown {
  if (depth > 32) return '[DEPTH]';
  if (Array.isArray(value)) return value.map((v) => maskKeys(v, keys, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = keys.has(k) || isSecretKey(k) ? '[REDACTED]' : maskKeys(v, keys, depth + 1);
    return out;
  }
  return value;
}

/** The transport's failures in channel words; anything else passes through. */
export function toChannelError(platform: string, err: unknown): unknown {
  if (err instanceof ChannelError || !(err instanceof CarrierTransportError)) return err;
  const options = { retryAfterMs: err.retryAfterMs, platformStatus: err.status, cause: err };
  switch (err.kind) {
    case 'timeout':
      return new ChannelError(platform, 'timeout', err.message, options);
    case 'network':
      return new ChannelError(platform, 'network', err.message, options);
    case 'rate_limited':
      return new ChannelError(platform, 'throttled', err.message, options);
    default:
      return new ChannelError(platform, 'server_error', err.message, options);
  }
}

/**
 * A platform's answer parsed as JSON, or `server_error` (a body we cannot read is the
 * platform's fault; retryable, since the caller decides whether to send again).
 */
export function readJson(platform: string, platformName: string, res: ChannelHttpResponse): unknown {
  if (res.json) return res.json.value;
  try {
    return JSON.parse(res.body);
  } catch (err) {
    throw new ChannelError(platform, 'server_error', `${platformName} answered ${res.status} with a body that is not JSON`, {
      platformStatus: res.status,
      cause: err,
    });
  }
}
