import type { Indicator, IndicatorBlock } from './indicator';

/**
 * Bars range.start .. range.end - 1 of a series indicator's `updateBlock` fed through `update` and
 * read through `output` (a NaN input skipped, its output NaN), until the indicator is `ready`
 * when `range.untilReady`; the bar it stopped at. The warm-up before an indicator's own block
 * loop, which takes the rest in a method of its own (see AverageDirectionalIndex.steadyBlock for
 * why the two are kept apart), and the way through a block that loop does not take.
 */
export function seriesBarByBar(indicator: Indicator, block: IndicatorBlock, range: { readonly start: number; readonly end: number; readonly untilReady?: boolean }): number {
  const { values, valuesOffset, out, outOffset, output } = block;
  const untilReady = range.untilReady === true;
  let index = range.start;
  for (; index < range.end && !(untilReady && indicator.ready); index += 1) {
    const input = values[index - valuesOffset] as number;
    if (input === input) indicator.update(input, NO_BAR);
    out[index - outOffset] = input === input ? indicator.output(output) : Number.NaN;
  }
  return index;
}

/** seriesBarByBar until the indicator is ready. */
export function warmUpSeries(indicator: Indicator, block: IndicatorBlock, range: { readonly start: number; readonly end: number }): number {
  return seriesBarByBar(indicator, block, { start: range.start, end: range.end, untilReady: true });
}

/** True when a block's input (values[from .. to)) holds a NaN: a block loop that assumes none hands the block to seriesBarByBar. */
export function holdsNaN(values: Float64Array, range: { readonly from: number; readonly to: number }): boolean {
  let clean = true;
  for (let index = range.from; index < range.to; index += 1) clean &&= (values[index] as number) === (values[index] as number);
  return !clean;
}

/** A series indicator's `update` ignores its bar argument. */
const NO_BAR = { time: Number.NaN, open: Number.NaN, high: Number.NaN, low: Number.NaN, close: Number.NaN, volume: Number.NaN };
