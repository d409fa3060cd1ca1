import type { LookupFunction } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/types.js';
import { retryWhileDatabaseUnavailable } from '../../platform/db/connection-errors.js';
import type { Environment } from '../../platform/context.js';
import type { EventHook } from '../events/index.js';
import { createSecretBox, type SecretBox } from '../../platform/secret-box.js';
import { settingsService } from '../settings/index.js';
import { requestsInFlight, type RequestsInFlight } from '../../platform/http/in-flight.js';
import {
  claimDueDeliveries,
  insertSubscribedDeliveries,
  recordRound,
  type AttemptOutcome,
  type ClaimedDelivery,
  type EndpointHealth,
} from './webhooks.repo.js';
import { TEST_EVENT_TYPE } from './webhooks.schemas.js';
import { DELIVERY_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureHeader } from './webhooks.signing.js';
import { ATTEMPT_TIMEOUT_MS, WebhookTransport, type AttemptResult } from './webhooks.transport.js';

/** The job queue of delivery work. A job means "deliveries are due": it delivers whatever is, in batches. */
export const DELIVER_QUEUE = 'webhooks.deliver';
/** Deliveries claimed (and sent concurrently) per round. */
export const CLAIM_BATCH = 100;
/**
 * Per round on the embedded database, which runs in the service's own thread: a round's claim
 * and record of 100 deliveries held it (and every request waiting on it) for 30–70 ms; rounds of
 * 25 let requests in between (docs/architecture.md, "Jobs").
 */
export const EMBEDDED_CLAIM_BATCH = 25;
/** There, each round first waits up to this long for a moment without requests (platform/http/in-flight.ts). */
const ROUND_WAIT_MS = 20;
/** One job delivers for at most this long, then hands over to a fresh job (fairness, expiry). */
const JOB_BUDGET_MS = 60_000;
/**
 * How long the outcomes of sent requests keep trying to reach an unreachable database: at most
 * this, and always ending inside the claim's lease (config.webhookLeaseSeconds) with this margin.
 */
const RECORD_RETRY_MS = 30_000;
const LEASE_MARGIN_MS = 5_000;
const DISABLE_AFTER_SECONDS = 3 * 86_400;
/** Up to this share of a retry delay is added at random, so retries of one outage spread out. */
const JITTER = 0.2;

const KICK_OPTIONS = { retryLimit: 3, retryDelaySeconds: 5, expireInSeconds: 180 } as const;

export interface KickData {
  workspace_id?: string;
  environment?: string;
  event_id?: string;
}

/** Queue delivery work now (in `executor`'s transaction when it is one): API actions use it to skip the relay's wait. */
export async function sendKick(deps: Deps, executor: Executor, data: KickData): Promise<void> {
  await deps.jobs.send(DELIVER_QUEUE, data, { ...KICK_OPTIONS, executor });
}

/**
 * The fan-out (registered with the events module by setupWebhooks): in the transaction that
 * records an event, one pending delivery per enabled endpoint of that workspace and
 * environment subscribed to its type. Plain SQL on the caller's executor, nothing else: the
 * rows are the outbox, and the relay (webhooks.jobs.ts) turns due rows into delivery jobs, so
 * recording an event never waits on the queue nor locks anything other transactions need.
 */
export const webhookFanOut: EventHook = async (executor, event) => {
  if (event.type === TEST_EVENT_TYPE) return; // sent to one endpoint only, by the test route
  const scope = { workspaceId: event.workspaceId, environment: event.environment as Environment };
  await insertSubscribedDeliveries(executor, scope, event);
};

export interface DispatcherOptions {
  /** Name resolution for receivers (tests); always behind the private-address guard unless allowed. */
  lookup?: LookupFunction;
  timeoutMs?: number;
}

/**
 * Sends due deliveries: claims a batch, posts every one concurrently over keep-alive
 * connections, records all outcomes in one statement, schedules retries, repeats while
 * a full batch came back.
 */
export class WebhookDispatcher {
  readonly #deps: Deps;
  readonly #box: SecretBox;
  readonly #transport: WebhookTransport;
  readonly #userAgent: string;
  /** A claim outlives the attempt timeout plus recording; after it a crashed worker's rows are free. */
  readonly #leaseSeconds: number;
  readonly #recordRetryMs: number;
  readonly #claimBatch: number;
  /** The process's requests in flight, on the embedded database only (rounds wait for a moment without them). */
  readonly #inFlight: RequestsInFlight | null;

  constructor(deps: Deps, options: DispatcherOptions = {}) {
    this.#deps = deps;
    const embedded = deps.database.engine === 'pglite';
    this.#inFlight = embedded ? requestsInFlight(deps) : null;
    this.#claimBatch = embedded ? EMBEDDED_CLAIM_BATCH : CLAIM_BATCH;
    this.#box = createSecretBox(deps.config);
    const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.#transport = new WebhookTransport({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets, lookup: options.lookup, timeoutMs });
    this.#userAgent = `shipping-service-webhooks/${deps.config.version}`;
    this.#leaseSeconds = deps.config.webhookLeaseSeconds;
    this.#recordRetryMs = Math.max(0, Math.min(RECORD_RETRY_MS, this.#leaseSeconds * 1000 - timeoutMs - LEASE_MARGIN_MS));
  }

  /** Deliver until nothing is due (or the job's time budget is spent). Returns attempts made. */
  async runDue(signal?: AbortSignal): Promise<number> {
    const started = Date.now();
    let total = 0;
    for (;;) {
      if (signal?.aborted) return total;
      await this.#inFlight?.gap(ROUND_WAIT_MS);
      const sent = await this.runBatch();
      total += sent;
      if (sent < this.#claimBatch) return total;
      // More is due: the relay's next job carries on, so this one ends well before it expires.
      if (Date.now() - started > JOB_BUDGET_MS) return total;
      // Let waiting requests in between rounds: on the embedded database a round's statements
      // can all complete without the event loop turning (docs/architecture.md, "Jobs").
      await setImmediate();
    }
  }

  /** One round: claim, send, record. Returns how many were claimed. */
  async runBatch(limit = this.#claimBatch): Promise<number> {
    const { db } = this.#deps;
    const claimed = await claimDueDeliveries(db, limit, this.#leaseSeconds);
    if (claimed.length === 0) return 0;
    const settings = settingsService(this.#deps);
    const [maxAttempts, schedule] = await Promise.all([settings.get('webhooks.max_attempts'), settings.get('webhooks.retry_schedule_seconds')]);
    // A round's deliveries mostly share a few endpoints: each endpoint's secrets are opened once.
    const secrets = new Map<string, string[] | null>();
    const outcomes = await Promise.all(claimed.map(async (d) => this.#outcome(d, await this.#attempt(d, secrets), maxAttempts, schedule)));

    const health = new Map<string, EndpointHealth>();
    for (const o of outcomes) {
      const h = health.get(o.endpoint_id) ?? { endpoint_id: o.endpoint_id, succeeded: false, failed_at: null, gone: false };
      if (o.status === 'delivered') h.succeeded = true;
      else h.failed_at ??= o.attempted_at;
      if (o.gone) h.gone = true;
      health.set(o.endpoint_id, h);
    }
    // Retries need no job of their own: the relay sees them once next_attempt_at has passed.
    // The requests went out: through a database blip, keep trying to record them (well within
    // the lease), or they would be sent again when it ends.
    await retryWhileDatabaseUnavailable(() => recordRound(db, outcomes, [...health.values()], DISABLE_AFTER_SECONDS), this.#recordRetryMs);
    return claimed.length;
  }

  /** The endpoint's signing secrets (the previous one too while it is valid); null when they cannot be read. */
  #secrets(d: ClaimedDelivery, opened: Map<string, string[] | null>): string[] | null {
    const previous = d.previous_secret_sealed && d.previous_secret_valid ? d.previous_secret_sealed : null;
    const key = `${d.endpoint_id} ${d.secret_sealed} ${previous ?? ''}`;
    let secrets = opened.get(key);
    if (secrets === undefined) {
      try {
        secrets = [this.#box.open(d.secret_sealed, d.endpoint_id)];
        if (previous) secrets.push(this.#box.open(previous, d.endpoint_id));
      } catch {
        secrets = null;
      }
      opened.set(key, secrets);
    }
    return secrets;
  }

  async #attempt(d: ClaimedDelivery, opened: Map<string, string[] | null>): Promise<AttemptResult & { attemptedAt: string }> {
    const attemptedAt = this.#deps.now().toISOString();
    const secrets = this.#secrets(d, opened);
    if (!secrets) {
      // A key change made the secret unreadable: nothing can be signed; logged as the attempt's error.
      return { attemptedAt, statusCode: null, latencyMs: 0, responseBody: null, error: 'signing_failed: the endpoint secret cannot be read; rotate it' };
    }
    const body = JSON.stringify({
      id: d.event_id,
      type: d.event_type,
      created_at: new Date(d.event_created_at).toISOString(),
      workspace_id: d.workspace_id,
      environment: d.environment,
      data: d.event_data,
    });
    const result = await this.#transport.post(d.url, body, {
      'content-type': 'application/json',
      'user-agent': this.#userAgent,
      [SIGNATURE_HEADER]: signatureHeader(body, secrets, Math.floor(Date.now() / 1000)),
      [DELIVERY_ID_HEADER]: d.id,
      [EVENT_TYPE_HEADER]: d.event_type,
      'x-service-event-id': d.event_id,
    });
    return { ...result, attemptedAt };
  }

  #outcome(d: ClaimedDelivery, r: AttemptResult & { attemptedAt: string }, maxAttempts: number, schedule: readonly number[]): AttemptOutcome {
    const number = d.attempt_count + 1;
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const gone = r.statusCode === 410;
    const error =
      r.error ?? (r.statusCode !== null && r.statusCode >= 300 && r.statusCode < 400 ? `redirect: ${r.statusCode} answered; redirects are not followed` : null);
    const limit = d.attempt_limit ?? maxAttempts;
    const status: AttemptOutcome['status'] = ok ? 'delivered' : gone || number >= limit ? 'dead' : 'failed';
    let retry: number | null = null;
    if (status === 'failed') {
      const base = schedule[Math.min(number - 1, schedule.length - 1)] ?? 60;
      retry = base * (1 + Math.random() * JITTER);
    }
    return {
      delivery_id: d.id,
      endpoint_id: d.endpoint_id,
      number,
      attempted_at: r.attemptedAt,
      status_code: r.statusCode,
      latency_ms: r.latencyMs,
      response_body: r.responseBody,
      error,
      status,
      retry_in_seconds: retry,
      gone,
    };
  }

  close(): void {
    this.#transport.close();
  }
}
