// V8 settings of every process that runs the engine (the platform, its workers and every CLI
// command go through cli.ts, the benchmarks through scripts/bench.mjs).
import { setFlagsFromString } from 'node:v8';

/**
 * Turns V8's concurrent on-stack replacement off for this process (threads included: V8's flags
 * are per process). With it on, Node 20's V8 was seen to lose a function's pending optimisation
 * when a compilation of one of its loops raced it: the engine's block loops (the indicators',
 * the rolling sums') were then left unoptimised for the rest of the process, boxing every double.
 * On the kernel benchmark's ten-indicator run that was 2-5 processes in 10, each about 25% slower
 * and allocating about 250 MB per million bars instead of 2 MB; with it off, none in 18. Loops
 * are then compiled on the thread that runs them: a pause of a few milliseconds, once per loop.
 */
export function keepHotLoopsOptimised(): void {
  setFlagsFromString('--no-concurrent-osr');
}
