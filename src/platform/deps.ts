import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DatabaseHandle } from './db/database.js';
import type { Db } from './db/types.js';
import type { InvalidationBus } from './cache/invalidation-bus.js';
import type { CounterStore } from './cache/counter-store.js';
import type { JobQueue } from './jobs/index.js';
// Type only: the platform holds the registry app.ts hands it and never loads a carrier itself.
import type { CarrierRegistry } from '../carriers/registry.js';

/** The infrastructure every module receives, wired once in app.ts. */
export interface Deps {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  bus: InvalidationBus;
  counters: CounterStore;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** The carriers this app quotes and buys from (discovered at boot; a test may inject its own). */
  carriers: CarrierRegistry;
  /** The clock, replaceable in tests. */
  now: () => Date;
}

/**
 * `create` made into a one-per-app accessor: every route group asking with the same Deps gets
 * the same instance (and so shares its caches and bus subscriptions).
 */
export function onePerApp<T>(create: (deps: Deps) => T): (deps: Deps) => T {
  const made = new WeakMap<Deps, T>();
  return (deps) => {
    let value = made.get(deps);
    if (value === undefined) {
      value = create(deps);
      made.set(deps, value);
    }
    return value;
  };
}
