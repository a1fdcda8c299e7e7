// Hand-written fixtures for the worked examples: a few bars of an index written as a table, option
// candles written as a table, a one-line signal program, and the real kernel to run them.
import { istEpochMs, isoDate, paise } from '@vyuha/core';
import type { BarSeries, Signal, SignalProgram } from '../../algorithm/program';
import { SIGNAL_NONE } from '../../algorithm/program';
import { chargeModelOf } from '../../kernel/charges-model';
import type { ChargesConfig } from '../../kernel/charges-model';
import { Kernel } from '../../kernel/kernel';
import type { SessionRules } from '../../kernel/kernel';
import { Ledger } from '../../kernel/ledger';
import { HistoryFeed, SimulatedClock } from '../../kernel/ports';
import type { SlippageModel } from '../../kernel/slippage';
import type { OptionsLegsConfig } from '../config';
import type { OptionCandle, OptionCandleSource } from '../leg-pricing';
import { optionsLegsTraderFactory } from '../options-legs-trader';
import type { OptionsLegsTrader } from '../options-legs-trader';

/** `YYYY-MM-DD HH:mm`, open, high, low, close in rupees. */
export type BarRow = readonly [string, number, number, number, number];

/** Bars from rows, in rupees as the kernel reads them. */
export function barSeriesOf(rows: readonly BarRow[]): BarSeries {
  const column = (pick: (row: BarRow) => number): Float64Array => Float64Array.from(rows.map(pick));
  return {
    length: rows.length,
    time: column((row) => timeOf(row[0])),
    open: column((row) => row[1]),
    high: column((row) => row[2]),
    low: column((row) => row[3]),
    close: column((row) => row[4]),
    volume: new Float64Array(rows.length),
    oi: new Float64Array(rows.length).fill(Number.NaN),
  };
}

/** Epoch ms of `YYYY-MM-DD HH:mm` IST. */
export function timeOf(text: string): number {
  const [date, time] = text.split(' ') as [string, string];
  return istEpochMs(isoDate(date), time);
}

/** Option candles by trading symbol and `YYYY-MM-DD HH:mm`, OHLC in rupees. */
export function candleSourceOf(table: Readonly<Record<string, Readonly<Record<string, readonly [number, number, number, number]>>>>): OptionCandleSource {
  const byTime = new Map<string, Map<number, OptionCandle>>();
  for (const [symbol, rows] of Object.entries(table)) {
    byTime.set(symbol, new Map(Object.entries(rows).map(([time, [open, high, low, close]]) => [timeOf(time), {
      open: Math.round(open * 100), high: Math.round(high * 100), low: Math.round(low * 100), close: Math.round(close * 100),
    }])));
  }
  return {
    hasContract: (symbol) => byTime.has(symbol),
    candleAt: (symbol, _barIndex, time) => byTime.get(symbol)?.get(time),
  };
}

/** A program that says `signal` on the bars listed, nothing elsewhere. */
export function scriptedProgram(signals: ReadonlyMap<number, Signal>): SignalProgram {
  return { warmup: 0, onBar: (index) => signals.get(index) ?? SIGNAL_NONE };
}

export interface ExampleRun {
  readonly ledger: Ledger;
  readonly kernel: Kernel;
  readonly trader: OptionsLegsTrader;
}

/** Runs the real kernel with the options-legs trader over `series`. */
export function runExample(request: {
  readonly series: BarSeries;
  readonly config: OptionsLegsConfig;
  readonly signals: ReadonlyMap<number, Signal>;
  readonly rules: SessionRules;
  readonly candles?: OptionCandleSource;
  readonly vix?: number;
  readonly charges?: ChargesConfig;
  readonly slippage?: SlippageModel;
}): ExampleRun {
  const charges = request.charges ?? { kind: 'schedule', exchange: 'NSE', instrument: 'option' };
  const ledger = new Ledger({ capital: paise(100_000_000), chargeModel: chargeModelOf(charges) });
  const kernel = new Kernel({
    feed: new HistoryFeed(request.series),
    clock: new SimulatedClock(),
    program: scriptedProgram(request.signals),
    ledger,
    rules: request.rules,
    trader: optionsLegsTraderFactory({
      config: request.config, vix: request.vix ?? 14, fill: 'next-open', slippage: request.slippage ?? { kind: 'none' },
      ...(request.candles === undefined ? {} : { candles: request.candles }),
    }),
  });
  kernel.run();
  return { ledger, kernel, trader: kernel.trader as OptionsLegsTrader };
}

/** 09:15 IST and friends as minutes of the day, for SessionRules. */
export const INTRADAY_RULES: SessionRules = { type: 'intraday', entryCutoffMinute: 15 * 60, squareOffMinute: 15 * 60 + 15 };
export const SWING_RULES: SessionRules = { type: 'swing', entryCutoffMinute: 15 * 60, squareOffMinute: 15 * 60 + 15 };
