import type { Deps } from './deps.js';

/**
 * A write-behind queue for logs kept in the database (the carrier and channel exchange logs):
 * items wait a moment for others and are written in batches, off the request path. Writing
 * never delays or fails the caller: a failed batch is logged and dropped.
 */
export function batchedSink<T>(options: {
  write: (batch: T[]) => Promise<void>;
  log: Pick<Deps['log'], 'warn'>;
  what: string;
  batchSize?: number;
  delayMs?: number;
}) {
  const { write, log, what, batchSize = 200, delayMs = 250 } = options;
  const pending: T[] = [];
  let flushing: Promise<void> | null = null;
  const flush = async (): Promise<void> => {
    while (pending.length > 0) {
      const batch = pending.splice(0, batchSize);
      try {
        await write(batch);
      } catch (err) {
        log.warn({ err, dropped: batch.length }, `${what} could not be written`);
      }
    }
  };
  return {
    record(item: T): void {
      pending.push(item);
      flushing ??= new Promise<void>((resolve) => setTimeout(resolve, delayMs).unref()).then(flush).finally(() => {
        flushing = null;
      });
    },
    /** Resolves once everything recorded so far is written (tests, shutdown). */
    async drain(): Promise<void> {
      while (flushing) await flushing;
    },
  };
}
