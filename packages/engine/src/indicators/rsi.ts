import { warmUpSeries } from './block-warm-up';
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

  /**
   * `update` then `output(block.output)` bar by bar: until the averages are ready through `update`
   * (warmUpSeries), then the same steps with both Wilder smoothings in locals and positivePart
   * written out (steadyBlock: no call that V8 might not inline, so no double boxed per bar).
   */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const from = this.ready ? start : warmUpSeries(this, block, { start, end });
    if (from < end) this.steadyBlock(block, from, end);
  }

  private steadyBlock(block: IndicatorBlock, start: number, end: number): void {
    const { values, valuesOffset, out, outOffset, output } = block;
    const { gains, losses } = this;
    let index = start;
    const period = gains.period;
    let gain = gains.value;
    let loss = losses.value;
    let previous = this.previous;
    let updates = 0;
    for (; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      if (input !== input) {
        out[index - outOffset] = Number.NaN;
        continue;
      }
      updates += 1;
      const change = input - previous;
      const up = change * +(change > 0) + 0;
      const down = -change * +(-change > 0) + 0;
      gain = (gain * (period - 1) + (up === up ? up : 0)) / period;
      loss = (loss * (period - 1) + (down === down ? down : 0)) / period;
      previous = input;
      out[index - outOffset] = output !== 0 ? Number.NaN : loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
    }
    this.seen += updates;
    gains.resume(gain, updates);
    losses.resume(loss, updates);
    this.previous = previous;
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
