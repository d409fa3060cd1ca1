import type { LookupFunction } from 'node:net';
import type { Deps } from '../../platform/deps.js';
import { registerEventHook } from '../../platform/events/event-hooks.js';
import { DELIVER_QUEUE, WebhookDispatcher, webhookFanOut } from './webhooks.dispatcher.js';

export interface WebhooksRuntimeOptions {
  /** Receiver name resolution (tests); the private-address guard still applies. */
  lookup?: LookupFunction;
}

/**
 * Wire webhooks into an app: the fan-out runs in every process that records events (API and
 * workers), so it is registered at build; the dispatcher only where jobs run. Returns close().
 */
export function setupWebhooks(deps: Deps, options: WebhooksRuntimeOptions = {}) {
  const unregister = registerEventHook('webhooks', webhookFanOut(deps));
  let dispatcher: WebhookDispatcher | undefined;
  runtimes.set(deps, {
    dispatcher: () => (dispatcher ??= new WebhookDispatcher(deps, { lookup: options.lookup })),
  });
  return {
    close() {
      unregister();
      dispatcher?.close();
    },
  };
}

const runtimes = new WeakMap<Deps, { dispatcher: () => WebhookDispatcher }>();

/** The app's dispatcher (made on first use). */
export function webhookDispatcher(deps: Deps): WebhookDispatcher {
  let runtime = runtimes.get(deps);
  if (!runtime) {
    // An app built without setupWebhooks (a tool): a dispatcher without the fan-out hook.
    const dispatcher = new WebhookDispatcher(deps);
    runtime = { dispatcher: () => dispatcher };
    runtimes.set(deps, runtime);
  }
  return runtime.dispatcher();
}

/**
 * Delivery work on the job queue: each job delivers whatever is due (claimed in batches), so
 * many jobs cost little more than one. A minute schedule catches claims of crashed workers
 * once their lease runs out. Polling every second keeps a retry's start close to its due time.
 */
export async function registerWebhookJobs(deps: Deps): Promise<void> {
  const dispatcher = webhookDispatcher(deps);
  await deps.jobs.work(DELIVER_QUEUE, async (_data, ctx) => {
    await dispatcher.runDue(ctx.signal);
  }, { concurrency: 4, batchSize: 4, pollingIntervalSeconds: 1 });
  await deps.jobs.schedule(DELIVER_QUEUE, '* * * * *');
}
