// What every row of the suite gets: the running service on one engine, the demo tenant, and
// where to put its rows and notes.
import type { Row } from './report.js';
import { QUICK } from './measure.js';
import type { Engine, Service, Tenant } from './service.js';

export interface Context {
  engine: Engine;
  service: Service;
  tenant: Tenant;
  /** Scratch directory of this run (payload files, data dirs). */
  work: string;
  add(row: Omit<Row, 'engine'>): void;
  note(text: string): void;
}

/** Sizes: BENCH_QUICK=1 makes everything small (the smoke test); each has an env override. */
export const SIZES = {
  purchases: Number(process.env.BENCH_LABELS ?? (QUICK ? 12 : 200)),
  purchaseWarmup: QUICK ? 3 : 20,
  batchItems: Number(process.env.BENCH_ITEMS ?? (QUICK ? 30 : 10_000)),
  /** Each of the batch-rules row's two batches (BENCH_RULES_ITEMS, else BENCH_ITEMS's size). */
  rulesBatchItems: Number(process.env.BENCH_RULES_ITEMS ?? process.env.BENCH_ITEMS ?? (QUICK ? 30 : 10_000)),
  webhookEvents: Number(process.env.BENCH_EVENTS ?? (QUICK ? 100 : 5000)),
  /** Orders in the list at each measured size (ascending); per engine, see listSizes(). */
  list: process.env.BENCH_LIST_SIZES?.split(',').map(Number),
  labelFormat: process.env.BENCH_FORMAT ?? 'pdf_4x6',
};

/** true/false against a target; null in a QUICK run, whose sizes are too small to judge. */
export const judge = (met: boolean): boolean | null => (QUICK ? null : met);

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
