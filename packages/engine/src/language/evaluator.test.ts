import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BarSeries, PositionContext } from '../algorithm/program';
import { checkExpression } from './checker';
import { compileExpression } from './compile-expression';
import { ExpressionPlan } from './expression-plan';
import { flatPosition, randomSeries, seriesFromCloses } from './series-test-support';

function valuesOf(source: string, series: BarSeries, position: PositionContext = flatPosition()): number[] {
  const compiled = compileExpression(source);
  if (!compiled.ok) throw new Error(compiled.error.map((error) => error.message).join('; '));
  const evaluator = compiled.value.createEvaluator(series);
  const values: number[] = [];
  for (let index = 0; index < series.length; index += 1) values.push(evaluator.next(index, position));
  return values;
}

function column(series: BarSeries, name: 'open' | 'high' | 'low' | 'close'): number[] {
  return Array.from(series[name]);
}

/** The mean as the textbook (and the engine's exact SMA) has it: the exact paise sum, divided once. */
function mean(values: readonly number[]): number {
  const paise = values.reduce((sum, value) => sum + Math.round(value * 100), 0);
  return paise / (values.length * 100);
}

describe('compiled expressions against a direct computation', () => {
  it('sma, lookback, arithmetic and comparisons on random series', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const series = randomSeries(seed, 60);
        const close = column(series, 'close');
        const open = column(series, 'open');
        const got = valuesOf('(sma(close, 5) - close[2]) * 2 + (close - open) % 3', series);
        const gotCondition = valuesOf('sma(close, 5) > close[2] or close - open > 1', series);
        close.forEach((_, index) => {
          const sma = index >= 4 ? mean(close.slice(index - 4, index + 1)) : Number.NaN;
          const back = index >= 2 ? (close[index - 2] as number) : Number.NaN;
          const expected = (sma - back) * 2 + (((close[index] as number) - (open[index] as number)) % 3);
          if (Number.isNaN(expected)) expect(got[index]).toBeNaN();
          else expect(got[index]).toBeCloseTo(expected, 9);
          const expectedCondition = sma > back || (close[index] as number) - (open[index] as number) > 1 ? 1 : 0;
          expect(gotCondition[index]).toBe(expectedCondition);
        });
      }),
      { numRuns: 40 },
    );
  });

  it('highest and lowest over a window, and the history of a computed series', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 9 }), (seed, bars) => {
        const series = randomSeries(seed, 50);
        const high = column(series, 'high');
        const low = column(series, 'low');
        const highest = valuesOf(`highest(high, ${bars})`, series);
        const lowest = valuesOf(`lowest(low - high, ${bars})`, series);
        const spreadBack = valuesOf('(high - low)[3]', series);
        high.forEach((_, index) => {
          if (index < bars - 1) {
            expect(highest[index]).toBeNaN();
            expect(lowest[index]).toBeNaN();
          } else {
            expect(highest[index]).toBe(Math.max(...high.slice(index - bars + 1, index + 1)));
            const spreads = low.slice(index - bars + 1, index + 1).map((value, offset) => value - (high[index - bars + 1 + offset] as number));
            expect(lowest[index]).toBe(Math.min(...spreads));
          }
          if (index < 3) expect(spreadBack[index]).toBeNaN();
          else expect(spreadBack[index]).toBe((high[index - 3] as number) - (low[index - 3] as number));
        });
      }),
      { numRuns: 40 },
    );
  });

  it('feeds a series indicator only defined inputs: sma of a lookback starts after both warm-ups', () => {
    const series = seriesFromCloses([1, 2, 3, 4, 5, 6]);
    expect(valuesOf('sma(close[2], 3)', series)).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN, 2, 3]);
    expect(compileExpression('sma(close[2], 3)').ok && (compileExpression('sma(close[2], 3)') as { value: { warmup: number } }).value.warmup).toBe(5);
  });
});

describe('crossover and crossunder', () => {
  const cross = (closes: number[], source = 'crossover(close, 100)') => valuesOf(source, seriesFromCloses(closes));

  it('a plain cross fires once, on the bar where the difference turns positive', () => {
    expect(cross([99, 101, 102, 99, 101])).toEqual([0, 1, 0, 0, 1]);
  });

  it('touch then cross is a cross (the last non-zero difference was negative)', () => {
    expect(cross([99, 100, 100, 101])).toEqual([0, 0, 0, 1]);
  });

  it('touch then retreat is not a cross, nor is touching from above', () => {
    expect(cross([99, 100, 99, 98])).toEqual([0, 0, 0, 0]);
    expect(cross([101, 100, 101])).toEqual([0, 0, 0]);
  });

  it('needs a negative difference first: starting above never fires', () => {
    expect(cross([100, 101, 102])).toEqual([0, 0, 0]);
  });

  it('crossunder mirrors it, touch included', () => {
    expect(cross([101, 100, 99, 100, 101, 99], 'crossunder(close, 100)')).toEqual([0, 0, 1, 0, 0, 1]);
  });

  it('ignores warm-up NaNs: the first defined differences decide', () => {
    expect(cross([1, 5, 3, 1, 9], 'crossover(close, sma(close, 2))')).toEqual([0, 0, 0, 0, 1]);
  });
});

describe('NaN, division by zero, time and position', () => {
  it('division by zero is NaN and every comparison with NaN is false, != included', () => {
    const series = seriesFromCloses([5, 0]);
    const zero = '(close - close)';
    expect(valuesOf(`close / ${zero}`, series)).toEqual([Number.NaN, Number.NaN]);
    expect(valuesOf(`close / ${zero} > 1 or close / ${zero} < 1 or close / ${zero} != 1`, series)).toEqual([0, 0]);
    expect(valuesOf(`not (close / ${zero} > 1)`, series)).toEqual([1, 1]);
  });

  it('a division by a series that is zero on some bars is NaN there, never Infinity (property)', () => {
    // volume is 0 on some bars: close / volume and close % volume are defined exactly where volume is not 0.
    fc.assert(fc.property(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1e6 }), fc.constant(1e-320)), { minLength: 1, maxLength: 40 }), (volumes) => {
      const series = { ...seriesFromCloses(volumes.map((_, index) => 100 + index)), volume: Float64Array.from(volumes) };
      const quotients = valuesOf('close / volume', series);
      const remainders = valuesOf('close % volume', series);
      volumes.forEach((volume, index) => {
        const close = 100 + index;
        const quotient = close / volume;
        expect(quotients[index]).toBe(Number.isFinite(quotient) ? quotient : Number.NaN);
        expect(remainders[index]).toBe(volume === 0 ? Number.NaN : close % volume);
      });
      expect(quotients.some((value) => !Number.isNaN(value) && !Number.isFinite(value))).toBe(false);
      // So a rule on it is simply false there: never true "because infinity is large".
      expect(valuesOf('close / volume > 1000000', series).every((value, index) => value === 0 || volumes[index] !== 0)).toBe(true);
    }));
  });

  it('a product that overflows is NaN, not Infinity', () => {
    expect(valuesOf('close * 1e308', seriesFromCloses([1, 10]))).toEqual([1e308, Number.NaN]);
  });

  it("time() is the bar's close in IST: a 5-minute bar opened at 09:15 closes at 09:20", () => {
    const series = seriesFromCloses([1, 2, 3], { intervalMinutes: 5 });
    expect(valuesOf('time()', series)).toEqual([9 * 60 + 20, 9 * 60 + 25, 9 * 60 + 30]);
    expect(valuesOf('time() >= "09:25"', series)).toEqual([0, 1, 1]);
  });

  it('time() needs the interval when the series cannot tell it', () => {
    const compiled = compileExpression('time() > "09:20"');
    expect(() => compiled.ok && compiled.value.createEvaluator(seriesFromCloses([1]))).toThrow(/intervalMinutes/);
    expect(() => compiled.ok && compiled.value.createEvaluator(seriesFromCloses([1]), { intervalMinutes: 3 })).not.toThrow();
  });

  it('reads position state from the context', () => {
    const position: PositionContext = { position: 1, entryPrice: 100, barsSinceEntry: 3, dayPnl: -250 };
    expect(valuesOf('position * 1000 + entry_price + bars_since_entry - day_pnl', seriesFromCloses([1]), position)).toEqual([1353]);
  });
});

describe('sharing and warm-up', () => {
  it('computes each distinct indicator call once, defaults filled in before comparing', () => {
    const plan = new ExpressionPlan();
    const first = checkExpression('crossover(rsi(close, 14), sma(close, 10))');
    const second = checkExpression('rsi(close, 14) > 70 and sma(close, 10) > close');
    if (!first.ok || !second.ok) throw new Error('check failed');
    plan.add(first.value.root);
    const before = plan.slotCount;
    plan.add(second.value.root);
    // New: the constant 70, close as a value, the two comparisons and the `and`; rsi and sma are shared.
    expect(plan.slotCount - before).toBe(5);
    const viaDefault = checkExpression('atr() > atr(14)');
    if (!viaDefault.ok) throw new Error('check failed');
    const shared = new ExpressionPlan();
    shared.add(viaDefault.value.root);
    expect(shared.slotCount).toBe(2);
  });

  it('reports warm-up in bars: sma 10, crossover of sma 10 and 20, lookbacks, rsi', () => {
    const warmup = (source: string) => {
      const compiled = compileExpression(source);
      if (!compiled.ok) throw new Error(source);
      return compiled.value.warmup;
    };
    expect(warmup('sma(close, 10)')).toBe(10);
    expect(warmup('crossover(sma(close, 10), sma(close, 20))')).toBe(21);
    expect(warmup('close[3] > 1')).toBe(4);
    expect(warmup('sma(close, 10)[2]')).toBe(12);
    expect(warmup('rsi(close, 14) > 70')).toBe(15);
  });

  it('a fresh evaluator starts from scratch: two runs give identical values', () => {
    const series = randomSeries(7, 200);
    const source = 'ema(close, 9) - wma(close, 5) + highest(high, 7)';
    expect(valuesOf(source, series)).toEqual(valuesOf(source, series));
  });
});
