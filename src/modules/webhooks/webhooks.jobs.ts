import type { LookupFunction } from 'node:net';
import type { Deps } from '../../platform/deps.js';
import { registerEventHook } from '../events/index.js';
import { DELIVER_QUEUE, WebhookDispatcher, webhookFanOut } from './webhooks.dispatcher.js';
import { hasDueDeliveries } from './webhooks.repo.js';

export interface WebhooksRuntimeOptions {
  /** Receiver name resolution (tests); the private-address guard still applies. */
  lookup?: LookupFunction;
}

/** How often the relay looks for due deliveries: bounds the wait of a new event or a due retry. */
const RELAY_INTERVAL_MS = 1_000;
/** Delivery jobs running at once per process (each claims its own batches). */
const CONCURRENCY = 2;
/** A queued job normally starts within the queue's poll interval (1 s); this long means another process took it. */
const WAIT_FOR_START_MS = 5_000;

interface Runtime {
  dispatcher(): WebhookDispatcher;
  relay: DeliveryRelay | null;
}

const runtimes = new WeakMap<Deps, Runtime>();

/**
 * Wire webhooks into an app: the fan-out runs in every process that records events (API and
 * workers), so it is registered at build; the dispatcher and relay only where jobs run
 * (registerWebhookJobs). Returns stopRelay(), for the app's onClose before the job queue stops,
 * and close(), after it stopped.
 */
export function setupWebhooks(deps: Deps, options: WebhooksRuntimeOptions = {}) {
  const unregister = registerEventHook('webhooks', webhookFanOut);
  let dispatcher: WebhookDispatcher | undefined;
  const runtime: Runtime = { dispatcher: () => (dispatcher ??= new WebhookDispatcher(deps, { lookup: options.lookup })), relay: null };
  runtimes.set(deps, runtime);
  return {
    /**
     * Stop the relay: before the job queue stops, which refuses sends from then on. A relay
     * still ticking while the queue waits for its running jobs would fail its send, and log it,
     * once a second for the whole wait.
     */
    stopRelay() {
      runtime.relay?.stop();
    },
    close() {
      unregister();
      runtime.relay?.stop();
      dispatcher?.close();
    },
  };
}

/** The app's dispatcher (made on first use). */
export function webhookDispatcher(deps: Deps): WebhookDispatcher {
  let runtime = runtimes.get(deps);
  if (!runtime) {
    // An app built without setupWebhooks (a tool): a dispatcher without fan-out or relay.
    const dispatcher = new WebhookDispatcher(deps);
    runtime = { dispatcher: () => dispatcher, relay: null };
    runtimes.set(deps, runtime);
  }
  return runtime.dispatcher();
}

/**
 * The outbox relay: once a second, if deliveries are due (new ones, retries whose time came,
 * claims of a crashed worker that ran out) and no delivery job of this process is waiting to
 * start, queue one. The job claims and sends them in batches. One cheap query per second per
 * worker process, and at most one queued job per process however many events arrive.
 */
class DeliveryRelay {
  #timer: NodeJS.Timeout | null = null;
  #ticking = false;
  /**
   * When the job we queued last was sent, until a handler of this process starts one. Another
   * process's worker may take it instead, so the wait counts only for a few seconds.
   */
  #waitingSince = 0;

  constructor(private readonly deps: Deps) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.#tick(), RELAY_INTERVAL_MS);
    this.#timer.unref();
  }

  started(): void {
    this.#waitingSince = 0;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async #tick(): Promise<void> {
    if (this.#ticking || !this.#timer || Date.now() - this.#waitingSince < WAIT_FOR_START_MS) return;
    this.#ticking = true;
    try {
      if (await hasDueDeliveries(this.deps.db)) {
        this.#waitingSince = Date.now();
        await this.deps.jobs.send(DELIVER_QUEUE, {}, { retryLimit: 3, expireInSeconds: 180 });
      }
    } catch (err) {
      this.#waitingSince = 0;
      if (this.#timer) this.deps.log.error({ err }, 'webhook relay could not check or queue due deliveries');
    } finally {
      this.#ticking = false;
    }
  }
}

/** Delivery jobs on the job queue, and the relay that queues them. */
export async function registerWebhookJobs(deps: Deps): Promise<void> {
  const dispatcher = webhookDispatcher(deps);
  const runtime = runtimes.get(deps)!;
  const relay = (runtime.relay ??= new DeliveryRelay(deps));
  await deps.jobs.work(
    DELIVER_QUEUE,
    async (_data, ctx) => {
      relay.started();
      await dispatcher.runDue(ctx.signal);
    },
    { concurrency: CONCURRENCY, batchSize: CONCURRENCY, pollingIntervalSeconds: 1 },
  );
  relay.start();
}
