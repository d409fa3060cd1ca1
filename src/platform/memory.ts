import { setFlagsFromString } from 'node:v8';

/**
 * Holds the V8 heap near what is live (the target: RSS under 300 MB under load).
 * Under a high allocation rate V8 lets the old generation grow to several times what the last
 * full GC kept before collecting again: at 32 connections of rate queries the heap reached
 * ~320 MiB of old space with under 100 MiB live. `--heap-growing-percent` fixes that factor
 * (the next full GC when the heap is this much larger than what survived the last one). It is
 * read at every GC, so setting it at start-up takes effect at once; worker threads share it.
 * Unlike a capped old space (`--max-old-space-size`) it never refuses memory the live data
 * needs: a big batch merge still gets its heap, it is only collected sooner.
 */
export function limitHeapGrowth(percent: number): void {
  // 0: leave V8's own heuristics in place.
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * The embedded database is a WASM module: V8 compiles its functions as they are first called and
 * recompiles the hot ones with its optimising compiler in the background, by default on as many
 * tasks as it likes. Each task's compiler memory comes from a malloc arena of its own, which
 * glibc keeps once the peak has passed: one task held a process with only PGlite in it ~20 MiB
 * lower at its peak (README "Memory"). The hot code ends the same, only reached a little later.
 * A function is recompiled once it has run ~100 MB of its code (V8's default: 1.8 MB): the
 * database's own start-up no longer sends hundreds of functions it runs only then to the
 * optimiser, whose work held the start back by ~0.25 s (docs/architecture.md, "Start-up"); the
 * functions queries keep running still get there within moments of load.
 * Read when a compilation starts, so setting them before the database opens is enough.
 */
export function limitWasmCompilation(): void {
  setFlagsFromString('--wasm-num-compilation-tasks=1');
  setFlagsFromString('--wasm-tiering-budget=100000000');
}
