import { holdsNaN, seriesBarByBar } from './block-warm-up';
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
  /**
   * updateBlock's copy of the window's ring, taken before the block and written as the pushes
   * write: the value each push evicts and the values a rebuild sums, while the rolling sum has
   * already taken the whole block.
   */
  private readonly ring: Float64Array;
  private shift = 0;
  private deviationSum = 0;
  private squareSum = 0;
  private sinceRebuild = 0;
  /** updateBlock's means, one per bar of the block, grown to the largest block. */
  private means = new Float64Array(0);

  constructor(options: { readonly period: number; readonly deviations: number }) {
    this.window = new RollingSum(requirePeriod('period', options.period));
    if (!Number.isFinite(options.deviations) || options.deviations < 0) throw new RangeError(`deviations must be a finite number >= 0, got ${options.deviations}`);
    this.deviations = options.deviations;
    this.ring = new Float64Array(options.period);
  }

  get ready(): boolean {
    return this.window.full;
  }

  update(input: number, _bar?: IndicatorBar): void {
    const window = this.window;
    if (window.full) {
      const leaving = window.oldest - this.shift;
      this.deviationSum -= leaving;
      this.squareSum -= leaving * leaving;
    } else if (window.count === 0) {
      this.shift = input;
    }
    window.push(input);
    const entering = input - this.shift;
    this.deviationSum += entering;
    this.squareSum += entering * entering;
    this.sinceRebuild += 1;
    if (this.sinceRebuild === window.capacity) this.rebuild();
  }

  /**
   * `update` then `output(block.output)` bar by bar: the block's means first, in one pass of the
   * rolling sum (RollingSum.pushColumn), then the deviation sums and the bands in locals, the same
   * steps as `update` and `output` (no call per bar, so no double boxed per bar). A block with a
   * NaN input (skipped, as the per-bar feed skips it) goes bar by bar.
   */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { values, valuesOffset, out, outOffset, output } = block;
    const from = start - valuesOffset;
    const to = end - valuesOffset;
    if (holdsNaN(values, { from, to })) {
      seriesBarByBar(this, block, { start, end });
      return;
    }
    const window = this.window;
    const capacity = window.capacity;
    let count = window.count;
    if (this.means.length < end - start) this.means = new Float64Array(end - start);
    const means = this.means;
    const ring = this.ring;
    ring.set(window.ring);
    let next = window.nextSlot;
    window.pushColumn(values, { from, to }, { values: means, offset: from, kind: 'mean' });
    const deviations = this.deviations;
    let shift = this.shift;
    let deviationSum = this.deviationSum;
    let squareSum = this.squareSum;
    let sinceRebuild = this.sinceRebuild;
    for (let index = start; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      if (count === capacity) {
        const leaving = (ring[next] as number) - shift;
        deviationSum -= leaving;
        squareSum -= leaving * leaving;
      } else {
        if (count === 0) shift = input;
        count += 1;
      }
      ring[next] = input;
      next = next + 1 === capacity ? 0 : next + 1;
      const entering = input - shift;
      deviationSum += entering;
      squareSum += entering * entering;
      sinceRebuild += 1;
      const middle = means[index - start] as number;
      if (sinceRebuild === capacity) {
        // rebuild(), on the window as the rolling sum held it after this push.
        sinceRebuild = 0;
        shift = middle;
        deviationSum = 0;
        squareSum = 0;
        for (let slot = 0; slot < count; slot += 1) {
          const deviation = (ring[slot] as number) - shift;
          deviationSum += deviation;
          squareSum += deviation * deviation;
        }
      }
      if (count !== capacity || output < 0 || output > 2) {
        out[index - outOffset] = Number.NaN;
        continue;
      }
      const meanDeviation = deviationSum / count;
      const variance = squareSum / count - meanDeviation * meanDeviation;
      const spread = deviations * (variance > 0 ? Math.sqrt(variance) : 0);
      out[index - outOffset] = output === 0 ? middle : output === 1 ? middle + spread : middle - spread;
    }
    this.shift = shift;
    this.deviationSum = deviationSum;
    this.squareSum = squareSum;
    this.sinceRebuild = sinceRebuild;
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
