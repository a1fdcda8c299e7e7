// Credits a sweep or walk-forward will use, estimated before it starts. The unit is a backtest's:
// candles processed (BACKTEST/CANDLES credits; jobs/backtest-run.ts charges a run's
// `candlesProcessed`), and a sweep costs the runs it contains.
//
// Invariants:
// - A sweep: combinations x the series' candles, exactly what its rows will report.
// - A walk-forward: per window, combinations x its in-sample candles, plus its out-of-sample
//   candles and the warm-up bars read before them. The warm-up depends on the combination the
//   in-sample sweep will choose, unknown before: the largest warm-up of any combination is used, so
//   the estimate is an upper bound that the run's own count never exceeds.
import { combinationCompiler } from '@vyuha/engine';
import type { ParameterBindings, WalkForwardWindow } from '@vyuha/engine';

export interface CreditEstimate {
  readonly credits: number;
  /** How the figure was made, for the user. */
  readonly detail: string;
}

const count = (value: number): string => value.toLocaleString('en-US');

/**
 * @example sweepCredits(1000, 93_750) // { credits: 93_750_000, detail: '1,000 combinations x 93,750 candles' }
 */
export function sweepCredits(combinations: number, candles: number): CreditEstimate {
  return { credits: combinations * candles, detail: `${count(combinations)} combinations x ${count(candles)} candles` };
}

/** The largest warm-up (bars) among the combinations' programs. Throws SweepError for a combination the document refuses. */
export function largestWarmup(document: unknown, combinations: readonly ParameterBindings[]): number {
  let largest = 0;
  const compile = combinationCompiler(document);
  combinations.forEach((bindings, index) => {
    largest = Math.max(largest, compile(bindings, index).warmup);
  });
  return largest;
}

/**
 * @example walkForwardCredits(windows, { combinations: 10, warmup: 50 }).credits // sum of 10 x in-sample + out-of-sample + 50 per window
 */
export function walkForwardCredits(windows: readonly WalkForwardWindow[], grid: { combinations: number; warmup: number }): CreditEstimate {
  let inSample = 0;
  let outOfSample = 0;
  for (const window of windows) {
    inSample += grid.combinations * (window.inSample.toBar - window.inSample.fromBar);
    outOfSample += window.outOfSample.toBar - window.outOfSample.fromBar + Math.min(grid.warmup, window.outOfSample.fromBar);
  }
  return {
    credits: inSample + outOfSample,
    detail: `${count(windows.length)} windows: ${count(grid.combinations)} combinations x in-sample candles (${count(inSample)}) + out-of-sample candles with up to ${count(grid.warmup)} warm-up bars each (${count(outOfSample)})`,
  };
}
