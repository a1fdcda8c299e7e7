// Builders for the futures examples: an index series, a futures contract's candles by bar, and a
// run of the kernel on the chain (futures charges on NSE, long and short allowed).
import type { Paise } from '@vyuha/core';
import type { BarSeries, PositionContext, Signal } from '../../algorithm/program';
import type { BacktestConfigInput } from '../../backtest/config';
import { runBacktest } from '../../backtest/run-backtest';
import type { BacktestResult } from '../../backtest/run-backtest';
import { scriptedProgram } from '../../backtest/test-support';
import type { OptionCandle, OptionCandleSource } from '../../options-legs/leg-pricing';
import { FuturesChain } from '../futures-chain';
import type { FuturesSizing } from '../futures-chain';

/** Candles (rupees) of contracts by trading symbol and bar index; other contracts have none. */
export function contractCandles(byContract: Readonly<Record<string, Readonly<Record<number, readonly [number, number, number, number]>>>>): OptionCandleSource {
  return {
    hasContract: (symbol) => byContract[symbol] !== undefined,
    candleAt: (symbol, bar): OptionCandle | undefined => {
      const row = byContract[symbol]?.[bar];
      return row === undefined ? undefined : { open: Math.round(row[0] * 100), high: Math.round(row[1] * 100), low: Math.round(row[2] * 100), close: Math.round(row[3] * 100) };
    },
  };
}

export interface FuturesRun {
  readonly chain: FuturesChain;
  readonly result: BacktestResult;
  /** What the program saw at each bar's close. */
  readonly seen: readonly PositionContext[];
}

/** Runs scripted signals on NIFTY's futures over `index`. */
export function runNiftyFutures(request: {
  readonly index: BarSeries;
  readonly signals: ReadonlyArray<readonly [number, Signal]>;
  readonly capitalRupees: number;
  readonly type: 'intraday' | 'swing';
  readonly candles?: OptionCandleSource;
  readonly sizing?: FuturesSizing;
  readonly config?: BacktestConfigInput;
}): FuturesRun {
  const chain = new FuturesChain({ underlying: 'NIFTY', index: request.index, type: request.type, rollTime: '15:15', candles: request.candles, sizing: request.sizing });
  const program = scriptedProgram(new Map(request.signals));
  const result = runBacktest({
    series: request.index,
    program,
    contracts: chain,
    config: {
      capital: (request.capitalRupees * 100) as Paise, type: request.type, instrument: 'NIFTY', direction: 'both',
      charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' }, ...request.config,
    },
  });
  return { chain, result, seen: program.seen };
}
