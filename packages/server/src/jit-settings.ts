// V8 settings of every process that runs the engine (the platform, its workers and every CLI
// command go through cli.ts, the benchmarks through scripts/bench.mjs).
import { setFlagsFromString } from 'node:v8';

/**
 * V8's inlining budget per optimised function, in bytecode bytes of everything inlined into it
 * (V8's default: 920). The engine's hot paths are chains of small methods (the kernel's bar
 * steps, the trader's fills, the ledger's columns, each indicator's block loop and its helpers):
 * with the default budget V8 stops inlining part-way down them and leaves calls in the loops.
 * Measured in separate processes, each with and without it between two without (5 such
 * sandwiches, medians of runs after 30 warm-up runs): the kernel benchmark's ten-indicator run
 * 187-198 ms against 191-254 ms, faster than both neighbours in every sandwich; its crossover
 * 40.5-45.2 ms against 41.7-61.2 ms (faster than both in 2 of 4, between them in 2). At 2,000
 * the ten indicators were not faster; 6,000 measured as 3,000.
 */
export const INLINED_BYTECODE_CUMULATIVE = 3000;

/**
 * V8's settings for this process (threads included: V8's flags are per process).
 *
 * Concurrent on-stack replacement off. With it on, Node 20's V8 was seen to lose a function's
 * pending optimisation when a compilation of one of its loops raced it: the engine's block loops
 * (the indicators', the rolling sums') were then left unoptimised for the rest of the process,
 * boxing every double. On the kernel benchmark's ten-indicator run that was 2-5 processes in 10,
 * each about 25% slower and allocating about 250 MB per million bars instead of 2 MB; with it
 * off, none in 18. Loops are then compiled on the thread that runs them: a pause of a few
 * milliseconds, once per loop.
 *
 * The inlining budget: INLINED_BYTECODE_CUMULATIVE.
 */
export function applyJitSettings(): void {
  setFlagsFromString('--no-concurrent-osr');
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_CUMULATIVE}`);
}
