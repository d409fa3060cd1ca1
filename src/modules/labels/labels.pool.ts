import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CustomsDocumentData, LabelData, LabelFormat, RenderedLabel } from './labels.types.js';
import type { RenderReply, RenderRequest } from './labels.worker.js';

/**
 * Label rendering off the event loop: the same two calls as the module, run in worker threads
 * (node:worker_threads; the pool is small enough not to need a library). Workers start on first
 * use, take the next task by fewest tasks in flight, and do not keep the process alive while
 * idle. A worker that dies fails its own tasks and is replaced on the next call.
 *
 * Batches: `renderLabelSet` in ZPL is split across the workers (the formats concatenate); a
 * PDF set is one document, rendered by one worker — other workers stay free for single labels.
 */
export interface LabelRenderPool {
  renderLabel(data: LabelData, format: LabelFormat): Promise<RenderedLabel>;
  renderLabelSet(data: LabelData[], format: LabelFormat): Promise<RenderedLabel>;
  /** A multi-piece shipment's label file (labels.render.ts renderPackageLabels). */
  renderPackageLabels(data: LabelData[], format: LabelFormat): Promise<RenderedLabel>;
  /** A customs document (CN 22, CN 23, commercial invoice) as a PDF. */
  renderCustomsDocument(data: CustomsDocumentData): Promise<RenderedLabel>;
  /** Upper bound of worker threads. */
  readonly threads: number;
  /** Stops the workers; tasks still running fail. */
  close(): Promise<void>;
}

export interface LabelRenderPoolOptions {
  /** Worker threads (default: the cores available, at most 4). */
  threads?: number;
}

/**
 * The worker's file, wherever this module runs from: the bundle (scripts/build.mjs writes
 * dist/src/labels.worker.bundle.js beside the chunk holding this code), the plain compiled tree,
 * or the TypeScript sources (tests, tsx), where the worker loads tsx to read TypeScript.
 */
/**
 * A thread's young generation stays resident once a busy stretch (a batch) has filled it: V8's
 * default for a worker is 48 MB, for renders whose objects mostly die within the label. 8 MB
 * keeps them young; the old generation keeps V8's limit (a merged file of a big batch needs it).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * Node's own options that shape how the worker loads its modules (a loader such as tsx, export
 * conditions, warnings), the only part of the process's flags a worker takes. V8's options (the
 * heap sizes `npm start` gives node, docs/architecture.md "Memory") are refused by `new Worker`,
 * and apply to the worker's isolate anyway: they are the process's. Nor `--input-type` (a parent
 * run with -e), which would refuse a file entry.
 */
const WORKER_FLAG =
  /^(--(import|require|loader|experimental-loader|conditions|preserve-symlinks|enable-source-maps|no-warnings|disable-warning|no-deprecation|(no-)?experimental-[\w-]+)|-r|-C)(=|$)/;
const FLAG_WITH_VALUE = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C', '--disable-warning']);

/** The flags of `execArgv` a worker thread takes (above), each with its value when it is the next argument. */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i];
    const takesNext = FLAG_WITH_VALUE.has(flag) && i + 1 < execArgv.length;
    if (WORKER_FLAG.test(flag)) kept.push(flag, ...(takesNext ? [execArgv[i + 1]] : []));
    if (takesNext) i++;
  }
  return kept;
}

function startWorker(): Worker {
  const execArgv = workerExecArgv();
  for (const name of ['./labels.worker.bundle.js', './labels.worker.js']) {
    const file = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(file)) return new Worker(file, { execArgv, resourceLimits: WORKER_LIMITS });
  }
  const ts = new URL('./labels.worker.ts', import.meta.url);
  if (!existsSync(fileURLToPath(ts))) throw new Error('label render worker not found beside labels.pool');
  // `--import tsx` in a worker's execArgv does not reach its entry module on Node 20, so a
  // small script registers tsx's loader first, then imports the TypeScript worker.
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(ts.href)}); });`;
  return new Worker(boot, { eval: true, execArgv, resourceLimits: WORKER_LIMITS });
}

interface Slot {
  worker: Worker;
  tasks: Map<number, { resolve: (r: RenderedLabel) => void; reject: (e: Error) => void }>;
}

export function createLabelRenderPool(options: LabelRenderPoolOptions = {}): LabelRenderPool {
  const threads = Math.max(1, Math.floor(options.threads ?? Math.min(4, availableParallelism())));
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  function failAll(slot: Slot, error: Error): void {
    for (const t of slot.tasks.values()) t.reject(error);
    slot.tasks.clear();
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
  }

  function spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker, tasks: new Map() };
    worker.on('message', (reply: RenderReply) => {
      const task = slot.tasks.get(reply.id);
      if (!task) return;
      slot.tasks.delete(reply.id);
      if (slot.tasks.size === 0) worker.unref();
      if (reply.ok) task.resolve({ body: Buffer.from(reply.body), content_type: reply.content_type, file_extension: reply.file_extension });
      else task.reject(Object.assign(new Error(reply.message), { name: reply.name }));
    });
    worker.on('error', (err) => failAll(slot, err instanceof Error ? err : new Error(String(err))));
    worker.on('exit', (code) => failAll(slot, new Error(`label render worker exited (code ${code})`)));
    worker.unref();
    slots.push(slot);
    return slot;
  }

  function pick(): Slot {
    const idle = slots.find((s) => s.tasks.size === 0);
    if (idle) return idle;
    if (slots.length < threads) return spawn();
    return slots.reduce((a, b) => (b.tasks.size < a.tasks.size ? b : a));
  }

  function send(request: (id: number) => RenderRequest): Promise<RenderedLabel> {
    if (closed) return Promise.reject(new Error('label render pool is closed'));
    const slot = pick();
    const id = nextId++;
    return new Promise<RenderedLabel>((resolve, reject) => {
      slot.tasks.set(id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage(request(id));
    });
  }
  const run = (set: boolean, data: LabelData[], format: LabelFormat) => send((id) => ({ id, set, data, format }));

  return {
    threads,
    renderLabel: (data, format) => run(false, [data], format),
    renderCustomsDocument: (document) => send((id) => ({ id, kind: 'customs', document })),
    renderPackageLabels: (data, format) => send((id) => ({ id, kind: 'packages', data, format })),
    async renderLabelSet(data, format) {
      if (data.length === 0) throw new RangeError('renderLabelSet needs at least one label');
      if (format !== 'zpl_4x6' || data.length < 2 * threads) return run(true, data, format);
      const size = Math.ceil(data.length / threads);
      const parts = await Promise.all(Array.from({ length: threads }, (_, i) => run(true, data.slice(i * size, (i + 1) * size), format)));
      return { ...parts[0]!, body: Buffer.concat(parts.map((p) => p.body)) };
    },
    async close() {
      closed = true;
      await Promise.all(slots.slice().map((s) => s.worker.terminate()));
    },
  };
}
