import type { Indicator, IndicatorBlock } from './indicator';

/**
 * The first bars of a series indicator's `updateBlock`, fed through `update` and read through
 * `output` (a NaN input skipped, its output NaN) until the indicator is `ready`; the bar it
 * stopped at (`end` when it never became ready). The indicator's own block loop takes the rest in
 * a method of its own (see AverageDirectionalIndex.steadyBlock for why the two are kept apart).
 */
export function warmUpSeries(indicator: Indicator, block: IndicatorBlock, range: { readonly start: number; readonly end: number }): number {
  const { values, valuesOffset, out, outOffset, output } = block;
  let index = range.start;
  for (; index < range.end && !indicator.ready; index += 1) {
    const input = values[index - valuesOffset] as number;
    if (input === input) indicator.update(input, NO_BAR);
    out[index - outOffset] = input === input ? indicator.output(output) : Number.NaN;
  }
  return index;
}

/** A series indicator's `update` ignores its bar argument. */
const NO_BAR = { time: Number.NaN, open: Number.NaN, high: Number.NaN, low: Number.NaN, close: Number.NaN, volume: Number.NaN };
