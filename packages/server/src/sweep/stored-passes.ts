// A sweep or walk-forward of stored history on the sweep pool's threads, from the job's side (a
// sweep job, jobs/sweep-run.ts, and `vyuha sweep --symbol`, commands/sweep-stored.ts): whether its
// runs can go to threads and what the threads are sent beyond the bars. Option legs are run pass
// after pass (passesUntilLoaded, ../backtest/stored-candles.ts) until no run asked for a stored
// candle that was not loaded. Main side only; the threads' side is sweep-legs.ts.
import { recipeData } from '../backtest/prepared-run';
import type { FuturesRecipe, FuturesRecipeData, LegsTraderData } from '../backtest/prepared-run';
import type { StoredLegCandles } from '../backtest/stored-candles';
import type { ContractChain, TraderFactory } from '@vyuha/engine';
import type { LegsJob } from './sweep-legs';

/** What a run of stored history trades beyond its bars (PreparedRun's fields of the same names). */
export interface StoredRunParts {
  /** An index's futures chain, and the recipe it was built from. */
  readonly contracts?: ContractChain;
  readonly futures?: FuturesRecipe;
  /** Option legs: the trader, what it was made from, and the stored candles it reads. */
  readonly trader?: TraderFactory;
  readonly legsTrader?: LegsTraderData;
  readonly legCandles?: StoredLegCandles;
}

/**
 * Whether the runs can go to worker threads: everything they read can be sent (a futures chain as
 * its recipe; option legs as their traders' data and the candles loaded so far, a pass at a time).
 */
export function threadable(parts: StoredRunParts): boolean {
  if (parts.legCandles !== undefined || parts.trader !== undefined) return parts.legCandles !== undefined && parts.legsTrader !== undefined && parts.contracts === undefined;
  return parts.contracts === undefined || parts.futures !== undefined;
}

/** What a pool job carries beyond the sweep: the futures recipe as plain data, option legs as their traders' data and candle store. */
export function threadParts(parts: StoredRunParts): { futures?: FuturesRecipeData; legs?: LegsJob } {
  return {
    ...(parts.futures === undefined ? {} : { futures: recipeData(parts.futures) }),
    ...(parts.legsTrader === undefined || parts.legCandles === undefined ? {} : { legs: { ...parts.legsTrader, candles: parts.legCandles } }),
  };
}
