// Test helpers for the indicator caches (indicator-cache.test.ts, shared-columns.test.ts): seeded
// bars, and each expression's value at every bar, per bar or block by block over a cache.
import type { BarSeries } from '../algorithm/program';
import { randomBars } from '../indicators/indicator-test-support';
import { checkExpression } from './checker';
import { ExpressionPlan } from './expression-plan';
import type { IndicatorCache } from './indicator-cache';

const NO_POSITION = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };

/** Seeded bars; from `offGridFrom` on, closes leave the paise grid, and the closes at `nanAt` are NaN. */
export function seriesOf(seed: number, options: { count: number; offGridFrom?: number; nanAt?: readonly number[] }): BarSeries {
  const bars = randomBars({ count: options.count, seed: String(seed) });
  const column = (read: (bar: (typeof bars)[number]) => number): Float64Array => Float64Array.from(bars, read);
  const close = column((bar) => bar.close);
  for (let index = options.offGridFrom ?? close.length; index < close.length; index += 1) close[index] = (close[index] as number) + 0.003;
  for (const index of options.nanAt ?? []) close[index] = Number.NaN;
  return {
    length: bars.length, time: column((bar) => bar.time), open: column((bar) => bar.open), high: column((bar) => bar.high),
    low: column((bar) => bar.low), close, volume: column((bar) => bar.volume), oi: column(() => Number.NaN),
  };
}

function planOf(sources: readonly string[]): { plan: ExpressionPlan; roots: number[] } {
  const plan = new ExpressionPlan();
  const roots = sources.map((source) => {
    const checked = checkExpression(source);
    if (!checked.ok) throw new Error(checked.error.map((error) => error.message).join('; '));
    return plan.add(checked.value.root);
  });
  return { plan, roots };
}

/** NaN as one value, so arrays compare equal when every bar holds the same double. */
function comparable(values: Float64Array): number[] {
  return Array.from(values, (value) => (value !== value ? Number.NaN : value));
}

/** Each expression's value at every bar: per-bar steps, or blocks of the given sizes in turn (reading `indicators` when given). */
export function evaluate(sources: readonly string[], series: BarSeries, mode: { blocks?: readonly number[]; indicators?: IndicatorCache }): number[][] {
  const { plan, roots } = planOf(sources);
  const values = roots.map(() => new Float64Array(series.length));
  if (mode.blocks === undefined) {
    const { slots, expressionSteps } = plan.instantiate(series, { intervalMinutes: 1 });
    for (let index = 0; index < series.length; index += 1) {
      for (const step of expressionSteps) step(index, NO_POSITION);
      roots.forEach((root, k) => { (values[k] as Float64Array)[index] = slots[root] as number; });
    }
    return values.map(comparable);
  }
  const program = plan.instantiateBlocks(series, { intervalMinutes: 1, ...(mode.indicators === undefined ? {} : { indicators: mode.indicators }) });
  if (program === undefined) throw new Error('no block form');
  const sizes = mode.blocks;
  let start = 0;
  for (let block = 0; start < series.length; block += 1) {
    const end = Math.min(series.length, start + (sizes[block % sizes.length] as number));
    for (const step of program.expressionSteps) step(start, end, start);
    roots.forEach((root, k) => {
      for (let index = start; index < end; index += 1) (values[k] as Float64Array)[index] = (program.columns[root] as Float64Array)[index - start] as number;
    });
    start = end;
  }
  return values.map(comparable);
}
