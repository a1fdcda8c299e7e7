import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { positivePart } from './branchless';
import { WilderAverage, requirePeriod } from './moving-averages';

/**
 * Relative strength index, Wilder's definition: the average gain and average loss of the last
 * `period` changes, each seeded with the plain mean of the first `period` changes and then
 * smoothed as (previous * (period - 1) + change) / period. RSI = 100 - 100 / (1 + gain / loss);
 * 100 when the average loss is 0 (also for a flat series, as TradingView and trading-signals do).
 * Ready after `period + 1` values (period changes need one value more).
 */
export class RelativeStrengthIndex implements Indicator {
  private readonly gains: WilderAverage;
  private readonly losses: WilderAverage;
  private previous = Number.NaN;
  private seen = 0;

  constructor(period: number) {
    requirePeriod('period', period);
    this.gains = new WilderAverage(period);
    this.losses = new WilderAverage(period);
  }

  get ready(): boolean {
    return this.gains.ready;
  }

  update(input: number, _bar?: IndicatorBar): void {
    this.seen += 1;
    if (this.seen > 1) {
      const change = input - this.previous;
      this.gains.update(positivePart(change));
      this.losses.update(positivePart(-change));
    }
    this.previous = input;
  }

  /** `update` then `output(block.output)` bar by bar in one loop: the same steps, no call per bar. */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { values, valuesOffset, out, outOffset, output } = block;
    const gains = this.gains;
    const losses = this.losses;
    let previous = this.previous;
    let seen = this.seen;
    for (let index = start; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      if (input !== input) {
        out[index - outOffset] = Number.NaN;
        continue;
      }
      seen += 1;
      if (seen > 1) {
        const change = input - previous;
        gains.update(positivePart(change));
        losses.update(positivePart(-change));
      }
      previous = input;
      out[index - outOffset] = output === 0 ? this.value : Number.NaN;
    }
    this.previous = previous;
    this.seen = seen;
  }

  get value(): number {
    if (!this.gains.ready) return Number.NaN;
    const gain = this.gains.value;
    const loss = this.losses.value;
    if (loss === 0) return 100;
    return 100 - 100 / (1 + gain / loss);
  }

  output(index: number): number {
    return index === 0 ? this.value : Number.NaN;
  }
}
