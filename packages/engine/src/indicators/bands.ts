import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { requirePeriod } from './moving-averages';
import { HighLowWindow } from './rolling-extreme';
import { RollingSum } from './rolling-sum';

/**
 * Bollinger bands: middle = SMA(period) (the exact rolling mean), upper/lower = middle +- k
 * population standard deviations of the window. The variance is kept O(1) from sums of
 * d = x - shift and d^2, with `shift` reset to the window mean (and both sums rebuilt from the
 * window) every `period` values: the shift keeps d small, so E[d^2] - E[d]^2 does not cancel,
 * and the rebuild keeps rounding from accumulating. Outputs: 0 middle, 1 upper, 2 lower.
 * Ready after `period` values.
 */
export class BollingerBands implements Indicator {
  private readonly window: RollingSum;
  private readonly deviations: number;
  private shift = 0;
  private deviationSum = 0;
  private squareSum = 0;
  private sinceRebuild = 0;

  constructor(options: { readonly period: number; readonly deviations: number }) {
    this.window = new RollingSum(requirePeriod('period', options.period));
    if (!Number.isFinite(options.deviations) || options.deviations < 0) throw new RangeError(`deviations must be a finite number >= 0, got ${options.deviations}`);
    this.deviations = options.deviations;
  }

  get ready(): boolean {
    return this.window.full;
  }

  update(input: number, _bar?: IndicatorBar): void {
    if (this.window.full) {
      const leaving = this.window.oldest - this.shift;
      this.deviationSum -= leaving;
      this.squareSum -= leaving * leaving;
    } else if (this.window.count === 0) {
      this.shift = input;
    }
    this.window.push(input);
    const entering = input - this.shift;
    this.deviationSum += entering;
    this.squareSum += entering * entering;
    this.sinceRebuild += 1;
    if (this.sinceRebuild === this.window.capacity) this.rebuild();
  }

  /** `update` then `output(block.output)` bar by bar in one loop: the same steps, no call per bar. */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { values, valuesOffset, out, outOffset, output } = block;
    for (let index = start; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      if (input === input) this.update(input);
      out[index - outOffset] = input === input ? this.output(output) : Number.NaN;
    }
  }

  /** The population standard deviation of the window (NaN until ready). */
  get standardDeviation(): number {
    if (!this.window.full) return Number.NaN;
    const count = this.window.count;
    const meanDeviation = this.deviationSum / count;
    const variance = this.squareSum / count - meanDeviation * meanDeviation;
    return variance > 0 ? Math.sqrt(variance) : 0;
  }

  output(index: number): number {
    if (!this.window.full) return Number.NaN;
    const middle = this.window.mean();
    if (index === 0) return middle;
    if (index === 1) return middle + this.deviations * this.standardDeviation;
    if (index === 2) return middle - this.deviations * this.standardDeviation;
    return Number.NaN;
  }

  private rebuild(): void {
    this.sinceRebuild = 0;
    const ring = this.window.ring;
    const count = this.window.count;
    this.shift = this.window.mean();
    let deviationSum = 0;
    let squareSum = 0;
    for (let index = 0; index < count; index += 1) {
      const deviation = (ring[index] as number) - this.shift;
      deviationSum += deviation;
      squareSum += deviation * deviation;
    }
    this.deviationSum = deviationSum;
    this.squareSum = squareSum;
  }
}

/**
 * Donchian channel: upper = highest high, lower = lowest low of the last `period` bars (this
 * one included), middle = their midpoint. O(1) amortised (monotonic deques). Outputs: 0 upper,
 * 1 lower, 2 middle. Ready after `period` bars.
 */
export class DonchianChannel implements Indicator {
  private readonly window: HighLowWindow;

  constructor(period: number) {
    this.window = new HighLowWindow(requirePeriod('period', period));
  }

  get ready(): boolean {
    return this.window.full;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.window.push(bar.high, bar.low);
  }

  /** The block's highest highs and lowest lows as two passes (HighLowWindow.pushBlock), then the output asked for. */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { out, outOffset, output } = block;
    const { highest, lowest, firstFull } = this.window.pushBlock(block.bars, { from: start, to: end });
    for (let index = start; index < end; index += 1) {
      const upper = highest[index - start] as number;
      const lower = lowest[index - start] as number;
      const value = output === 0 ? upper : output === 1 ? lower : output === 2 ? (upper + lower) / 2 : Number.NaN;
      // Bars before `firstFull` leave the window short of `period` bars: every output NaN.
      out[index - outOffset] = index < firstFull ? Number.NaN : value;
    }
  }

  output(index: number): number {
    if (!this.window.full) return Number.NaN;
    if (index === 0) return this.window.highest;
    if (index === 1) return this.window.lowest;
    if (index === 2) return (this.window.highest + this.window.lowest) / 2;
    return Number.NaN;
  }
}
