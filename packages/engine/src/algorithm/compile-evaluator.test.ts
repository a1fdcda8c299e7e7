// The compiled program has several ways to reach a signal: rules computed ahead for the whole series
// (no position state read) over column blocks or bar by bar, rules evaluated at each close (position
// state read), each with a generated or an interpreted evaluator. They must all agree, bar for bar.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileAlgorithm } from './compile';
import { algorithmFromExpressions } from './from-expressions';
import type { BarSeries, PositionContext, Signal } from './program';

function seriesOf(closes: readonly number[]): BarSeries {
  const close = Float64Array.from(closes);
  const time = Float64Array.from(closes, (_, index) => Date.UTC(2024, 0, 1, 3, 45) + index * 60_000);
  const high = close.map((value) => value + 1);
  const low = close.map((value) => value - 1);
  return { length: close.length, time, open: close, high, low, close, volume: close.map(() => 1_000), oi: close.map(() => Number.NaN) };
}

/** Signals bar by bar, with a position that follows them (long after BUY, flat after EXIT or SELL). */
function signals(options: { entry: string; exit: string; series: BarSeries; generateCode: boolean; grow: boolean; blocks?: boolean }): Signal[] {
  const compiled = compileAlgorithm(algorithmFromExpressions({ entry: options.entry, exit: options.exit }));
  if (!compiled.ok) throw new Error(compiled.error.map((error) => error.message).join('; '));
  // `grow`: a live series, one more closed bar visible at each call.
  const series = { ...options.series, length: options.grow ? 0 : options.series.length };
  const program = compiled.value.createProgram(series, { generateCode: options.generateCode, intervalMinutes: 1, blocks: options.blocks ?? true });
  const position: PositionContext = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
  const result: Signal[] = [];
  for (let index = 0; index < options.series.length; index += 1) {
    if (options.grow) series.length = index + 1;
    const signal = program.onBar(index, position);
    if (signal === 1) position.position = 1;
    else if (signal !== 0) position.position = 0;
    result.push(signal);
  }
  return result;
}

const RULES: ReadonlyArray<readonly [string, string]> = [
  ['crossover(sma(close, 3), sma(close, 7))', 'crossunder(sma(close, 3), sma(close, 7))'],
  ['close > ema(close, 5) and rsi(close, 4) > 50', 'close < wma(close, 6) or high[2] < low'],
  ['position == 0 and crossover(close, sma(close, 4))', 'position == 1 and close < sma(close, 4)'],
  ['macd(close, 3, 6, 2) > macd_signal(close, 3, 6, 2) and atr(3) > 0.5', 'stoch_k(5, 2) < 30 or cci(4) < -50'],
  ['adx(3) > 20 and close > vwap() and not (close / (high - low) > 100)', 'close < bb_lower(close, 5, 2) or sma(close - open, 3) < 0'],
  ['highest(high, 4) < close[1] + 2 and ema(sma(close, 3), 4) > lowest(low, 6)', 'max(close, open) % 2 > 1 or abs(-close) < min(open, 9000)'],
  ['time() >= "09:20" and rsi(ema(close, 3), 3) > 55', 'time() >= "09:40" or (close - close[2]) * 3 < -5'],
];

describe('compiled program evaluators', () => {
  it('agree (generated or interpreted, whole series or growing live) for random prices', () => {
    fc.assert(fc.property(
      // Paise prices, and some off the paise grid (a tenth of a paisa): the exact grid sums hand over to the indicators.
      fc.array(fc.oneof(fc.integer({ min: 9_000_00, max: 11_000_00 }).map((paise) => paise / 100), fc.integer({ min: 9_000_000, max: 11_000_000 }).map((tenths) => tenths / 1000)), { minLength: 1, maxLength: 200 }),
      fc.constantFrom(...RULES),
      (closes, [entry, exit]) => {
        const series = seriesOf(closes);
        const reference = signals({ entry, exit, series, generateCode: false, grow: true, blocks: false });
        for (const blocks of [true, false]) {
          expect(signals({ entry, exit, series, generateCode: true, grow: false, blocks })).toEqual(reference);
          expect(signals({ entry, exit, series, generateCode: false, grow: false, blocks })).toEqual(reference);
          expect(signals({ entry, exit, series, generateCode: true, grow: true, blocks })).toEqual(reference);
        }
        expect(signals({ entry, exit, series, generateCode: false, grow: true, blocks: true })).toEqual(reference);
      },
    ), { numRuns: 100 });
  });

  it('finds the crosses of a hand-made series', () => {
    const closes = [10, 10, 10, 10, 10, 10, 10, 9, 8, 7, 8, 12, 14, 15, 13, 9, 7, 6, 6, 6];
    const fired = signals({ entry: RULES[0]![0], exit: RULES[0]![1], series: seriesOf(closes), generateCode: true, grow: false });
    // Bar 7: SMA(3) 29/3 = 9.67 < SMA(7) 69/7 = 9.86 (below). Bar 11: 27/3 = 9 < 64/7 = 9.14 (still
    // below). Bar 12: 34/3 = 11.33 > 68/7 = 9.71: BUY. Bar 15: 37/3 = 12.33 > 78/7 = 11.14; bar 16:
    // 29/3 = 9.67 < 78/7 = 11.14: the exit fires, and with the position long it is EXIT (2).
    expect(fired.flatMap((signal, index) => (signal === 0 ? [] : [[index, signal]]))).toEqual([[12, 1], [16, 2]]);
  });
});
