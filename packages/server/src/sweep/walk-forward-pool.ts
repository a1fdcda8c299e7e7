// Walk-forward with its in-sample sweeps on a SweepPool: every window's in-sample grid goes through
// the threads in one queue (windows are independent), then the engine's `walkForwardFromSweeps`
// takes those rows, runs each window's choice out of sample and stitches the windows.
//
// Invariants:
// - The result equals `runWalkForward` on the same request exactly: each window's rows are
//   `runSweepChunk` chunks over a copy of its in-sample bars (as `inSampleSweep`), merged by index.
// - Option legs: the in-sample runs on the threads make each window's trader from `options.legs`
//   (as `request.traders` makes it); the out-of-sample runs here use `request.traders`.
// - Errors surface in the serial order: `walkForwardFromSweeps` asks for the windows in order,
//   after the previous window's out-of-sample run, and a window whose sweep failed throws then.
import { walkForwardFromSweeps } from '@vyuha/engine';
import type { WalkForwardRequest, WalkForwardResult } from '@vyuha/engine';
import type { FuturesRecipeData } from '../backtest/prepared-run';
import type { ChunkOptions, SweepPool, WatchOptions } from './run-pool';
import type { LegsJob } from './sweep-legs';

/**
 * `runWalkForward(request)` with the in-sample sweeps on `pool`, whose series must be
 * `request.series`. Throws SweepError, BacktestConfigError, RangeError as the serial run does.
 * @example (await walkForwardInPool(pool, request)).overfitting.gapPercent // as runWalkForward(request).overfitting.gapPercent
 */
export async function walkForwardInPool(pool: SweepPool, request: WalkForwardRequest, options: ChunkOptions & WatchOptions & { futures?: FuturesRecipeData; legs?: LegsJob } = {}): Promise<WalkForwardResult> {
  if (pool.series !== request.series) throw new RangeError('series: the pool was started on another series');
  if (request.contracts !== undefined && options.futures === undefined) throw new RangeError('contracts: the threads build the chain from its recipe; pass options.futures');
  if (request.traders !== undefined && options.legs === undefined) throw new RangeError('traders: the threads make option-legs traders from their data; pass options.legs');
  const { series: _series, windows, contracts: _contracts, traders: _traders, ...rest } = request;
  const job = { ...rest, ...(options.futures === undefined ? {} : { futures: options.futures }), ...(options.legs === undefined ? {} : { legs: options.legs }) };
  const sweeps = await pool.sweepRanges(job, windows.map((window) => window.inSample), options);
  return walkForwardFromSweeps(request, (_window, index) => {
    const rows = sweeps[index];
    if (rows instanceof Error) throw rows;
    if (rows === undefined) throw new Error(`window ${index}: its in-sample sweep was not run (an earlier window's failed)`);
    return rows;
  });
}
