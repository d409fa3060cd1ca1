import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import { onePerApp } from '../deps.js';

/**
 * The requests this process is serving. Background work on the embedded database, which runs in
 * the service's own thread and takes one statement at a time, waits for a moment with none
 * before each round (docs/architecture.md, "Jobs"), so a request is delayed by at most the round
 * under way, not by a backlog of rounds.
 */
export class RequestsInFlight {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Counts a request until its response closes (sent or cut). */
  opened(response: ServerResponse): void {
    this.#count++;
    response.once('close', () => this.#count--);
  }

  /** Resolves once no request is in flight, or after `maxWaitMs` (background work must still progress under steady load). */
  async gap(maxWaitMs: number): Promise<void> {
    const until = Date.now() + maxWaitMs;
    while (this.#count > 0 && Date.now() < until) await sleep(1);
  }
}

export const requestsInFlight = onePerApp(() => new RequestsInFlight());
