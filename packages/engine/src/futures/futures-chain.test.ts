// Properties of the futures path (FuturesChain traded by the underlying trader):
// 1. It reuses the underlying trader's rules, it does not fork them: a chain of one contract whose
//    candles are the index's own bars trades exactly as the plain underlying trader with the same
//    lots and futures charges (orders, fills, trades, days, equity), whatever the configuration.
// 2. Across expiries (rolls), skip-ahead still changes nothing, and every fill is whole lots of
//    its contract, at most the freeze quantity, charged, and rolls come as a sell-and-buy pair.
import fc from 'fast-check';
import { isoDate } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { lotSize } from '@vyuha/market';
import { describe, expect, it } from 'vitest';
import { algorithmFromExpressions } from '../algorithm/from-expressions';
import { compileAlgorithm } from '../algorithm/compile';
import type { BarSeries, SignalProgram } from '../algorithm/program';
import type { BacktestConfigInput } from '../backtest/config';
import { runBacktest } from '../backtest/run-backtest';
import type { OptionCandleSource } from '../options-legs/leg-pricing';
import { FuturesChain } from './futures-chain';

const MINUTE = 60_000;
const DAY = 86_400_000;
const FIVE_MINUTE_BARS = 75; // 09:15 to 15:25

/** Five-minute sessions on consecutive calendar days from `first` (IST 09:15), a seeded walk around 24,000. */
function walk(options: { seed: number; first: number; days: number }): BarSeries {
  const length = options.days * FIVE_MINUTE_BARS;
  let state = options.seed >>> 0;
  const uniform = (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  const columns = { time: new Float64Array(length), open: new Float64Array(length), high: new Float64Array(length), low: new Float64Array(length), close: new Float64Array(length) };
  let price = 24_000;
  for (let index = 0; index < length; index += 1) {
    columns.time[index] = options.first + Math.floor(index / FIVE_MINUTE_BARS) * DAY + (index % FIVE_MINUTE_BARS) * 5 * MINUTE;
    const open = price;
    price = Math.round((price + (uniform() - 0.5) * 40) * 20) / 20;
    columns.open[index] = open;
    columns.close[index] = price;
    columns.high[index] = Math.round((Math.max(open, price) + uniform() * 10) * 20) / 20;
    columns.low[index] = Math.round((Math.min(open, price) - uniform() * 10) * 20) / 20;
  }
  return { length, ...columns, volume: new Float64Array(length), oi: new Float64Array(length).fill(Number.NaN) };
}

/** The index's own bars as the candles of `symbol` (paise). */
function indexAsCandles(series: BarSeries, symbol: string): OptionCandleSource {
  const paise = (column: Float64Array, bar: number): number => Math.round((column[bar] as number) * 100);
  return {
    hasContract: (candidate) => candidate === symbol,
    candleAt: (_symbol, bar) => ({ open: paise(series.open, bar), high: paise(series.high, bar), low: paise(series.low, bar), close: paise(series.close, bar) }),
  };
}

function program(rules: { entry: string; exit: string }, series: BarSeries): SignalProgram {
  const compiled = compileAlgorithm(algorithmFromExpressions(rules));
  if (!compiled.ok) throw new Error(compiled.error.map((error) => error.message).join('; '));
  return compiled.value.createProgram(series);
}

const RULES = [
  { entry: 'crossover(sma(close, 5), sma(close, 12))', exit: 'crossunder(sma(close, 5), sma(close, 12))' },
  { entry: 'rsi(close, 7) < 35', exit: 'rsi(close, 7) > 60' },
] as const;

const FUTURES_CHARGES = { kind: 'schedule', exchange: 'NSE', instrument: 'future' } as const;

const configArbitrary = fc.record({
  type: fc.constantFrom('intraday', 'swing'),
  fill: fc.constantFrom('next-open', 'close'),
  direction: fc.constantFrom('long-only', 'short-only', 'both'),
  reverse: fc.boolean(),
  stopLoss: fc.constantFrom(undefined, { kind: 'points', points: 15 }),
  target: fc.constantFrom(undefined, { kind: 'percent', percent: 0.2 }),
  trailingStop: fc.constantFrom(undefined, { kind: 'percent', percent: 0.1 }),
}) as fc.Arbitrary<BacktestConfigInput & { type: 'intraday' | 'swing' }>;

describe('the futures path', () => {
  it('trades a one-contract chain priced as the index exactly as the plain trader with the same lots and charges', () => {
    // 2-Dec-2024 09:15 IST onwards, 12 days: all inside NIFTY24DECFUT (expiry 26-Dec), lot 25.
    const first = Date.UTC(2024, 11, 2, 3, 45);
    fc.assert(fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES), config: configArbitrary, lots: fc.integer({ min: 1, max: 72 }) }),
      ({ seed, rules, config, lots }) => {
        const series = walk({ seed, first, days: 12 });
        const common = { ...config, capital: 100_000_000 as Paise, charges: FUTURES_CHARGES, instrument: 'NIFTY24DECFUT' };
        const chain = new FuturesChain({ underlying: 'NIFTY', index: series, type: config.type, rollTime: '15:15', sizing: { kind: 'lots', lots }, candles: indexAsCandles(series, 'NIFTY24DECFUT') });
        const futures = runBacktest({ series, program: program(rules, series), contracts: chain, config: common });
        const plain = runBacktest({ series, program: program(rules, series), config: { ...common, sizing: { kind: 'lots', lots, lotSize: 25 } } });
        expect(futures.orders).toEqual(plain.orders);
        expect(futures.fills).toEqual(plain.fills);
        expect(futures.trades).toEqual(plain.trades);
        expect(futures.days).toEqual(plain.days);
        expect(futures.equity).toEqual(plain.equity);
      },
    ), { numRuns: 30 });
  }, 60_000);

  it('rolls across expiries with skip-ahead changing nothing, whole lots within the freeze, every fill charged', () => {
    // 16-Dec-2024 to 13-Jan-2025 (29 days): December's contract (lot 25) rolls into January's (lot 75).
    const first = Date.UTC(2024, 11, 16, 3, 45);
    let rolled = 0;
    fc.assert(fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES), capital: fc.integer({ min: 200_000, max: 3_000_000 }) }),
      ({ seed, rules, capital }) => {
        const series = walk({ seed, first, days: 29 });
        const config = { type: 'swing' as const, direction: 'both' as const, reverse: true, capital: (capital * 100) as Paise, charges: FUTURES_CHARGES, instrument: 'NIFTY' };
        const chain = new FuturesChain({ underlying: 'NIFTY', index: series, type: 'swing', rollTime: '15:15' });
        const skipping = program(rules, series);
        const plain = program(rules, series);
        const barByBar: SignalProgram = { warmup: plain.warmup, onBar: (index, position) => plain.onBar(index, position) };
        const skipped = runBacktest({ series, program: skipping, contracts: chain, config });
        const reference = runBacktest({ series, program: barByBar, contracts: chain, config });
        expect(skipped.fills).toEqual(reference.fills);
        expect(skipped.equity).toEqual(reference.equity);
        for (const fill of reference.fills) {
          const lot = lotSize({ symbol: 'NIFTY', tradeDate: fill.date, expiry: isoDate(fill.instrument === 'NIFTY24DECFUT' ? '2024-12-26' : '2025-01-30') });
          expect(fill.quantity % lot).toBe(0);
          expect(fill.quantity).toBeLessThanOrEqual(1800);
          expect(fill.chargesTotal).toBeGreaterThan(0);
          // A fill is in its bar's contract, except the exits of a roll bar, which close the expiring one at its last price.
          const closesExpiring = fill.reason !== 'entry' && chain.endOf(fill.index - 1) === fill.index && chain.symbolAt(fill.index - 1) === fill.instrument;
          expect(chain.symbolAt(fill.index) === fill.instrument || closesExpiring).toBe(true);
        }
        const rolls = reference.fills.filter((fill) => fill.reason === 'roll');
        rolled += rolls.length;
        for (const roll of rolls) {
          const reopened = reference.fills.find((fill) => fill.index === roll.index && fill.reason === 'entry' && fill.instrument !== roll.instrument);
          expect(roll.instrument).toBe('NIFTY24DECFUT');
          expect(reopened === undefined || reopened.instrument === 'NIFTY25JANFUT').toBe(true);
        }
      },
    ), { numRuns: 20 });
    // The walks hold positions over the December expiry often enough for rolls to be exercised.
    expect(rolled).toBeGreaterThan(0);
  }, 60_000);
});
