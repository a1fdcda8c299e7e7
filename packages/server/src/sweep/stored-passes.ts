// A sweep or walk-forward of stored history on the sweep pool's threads, from the job's side (a
// sweep job, jobs/sweep-run.ts, and `vyuha sweep --symbol`, commands/sweep-stored.ts): what its
// threads are sent beyond the bars, and the passes of an option-legs run. Option legs load stored
// option candles only once a run asks for them (sweep-legs.ts), so the runs are made again, the
// threads sent what was loaded, until a pass asks for none: its rows are then the rows of runs
// that read every candle they asked for. Main side only (it reads the database through
// StoredLegCandles); the threads' side is sweep-legs.ts.
import type pg from 'pg';
import type { IsoDate } from '@vyuha/core';
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

/** The candles a run covers: the range option candles are loaded over. */
export interface CandleRange {
  readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate };
  readonly intervalMinutes: number;
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

/**
 * Runs `pass` (given a callback for the stored contracts its runs asked for that were not loaded)
 * until a pass asks for no stored candle that was not loaded; resolves to that pass's result. One
 * pass without option legs.
 */
export async function passesUntilLoaded<T>(
  db: pg.Pool,
  source: { readonly candles: StoredLegCandles | undefined; readonly range: CandleRange },
  pass: (onWanted: (tradingSymbols: readonly string[]) => void) => Promise<T>,
): Promise<T> {
  const { candles, range } = source;
  for (;;) {
    const wanted = new Set<string>();
    const result = await pass((symbols) => symbols.forEach((symbol) => wanted.add(symbol)));
    if (candles === undefined) return result;
    candles.want(wanted);
    if (!(await candles.loadWanted(db, range))) return result;
  }
}
