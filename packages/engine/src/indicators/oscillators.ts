import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { requirePeriod } from './moving-averages';
import { HighLowWindow } from './rolling-extreme';
import { RollingSum } from './rolling-sum';

/**
 * Stochastic oscillator. Raw %K = 100 * (close - lowest low) / (highest high - lowest low) over
 * `period` bars (50 when the range is flat: the close is then both the high and the low);
 * %K = SMA(smooth) of raw %K; %D = SMA(signal) of %K. Outputs: 0 %K, 1 %D, NaN until ready after
 * period + smooth + signal - 2 bars. Without `signal` only %K is kept (the `stoch_k` indicator):
 * ready after period + smooth - 1 bars.
 */
export class StochasticOscillator implements Indicator {
  private readonly window: HighLowWindow;
  private readonly smoothK: RollingSum;
  private readonly smoothD: RollingSum | undefined;
  /** updateBlock's raw %K column, grown to the largest block. */
  private raw = new Float64Array(0);

  constructor(options: { readonly period: number; readonly smooth: number; readonly signal?: number }) {
    const period = requirePeriod('period', options.period);
    this.window = new HighLowWindow(period);
    this.smoothK = new RollingSum(requirePeriod('smooth', options.smooth));
    this.smoothD = options.signal === undefined ? undefined : new RollingSum(requirePeriod('signal', options.signal));
  }

  get ready(): boolean {
    return this.smoothD === undefined ? this.smoothK.full : this.smoothD.full;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.add(bar);
  }

  /**
   * The window's highest highs and lowest lows first, each a pass over the block
   * (HighLowWindow.pushBlock), then %K and %D bar by bar from them: the same values `add` takes.
   */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { close } = block.bars;
    const { out, outOffset, output } = block;
    const { highest, lowest, firstFull } = this.window.pushBlock(block.bars, { from: start, to: end });
    if (this.smoothD !== undefined) {
      for (let index = start; index < end; index += 1) {
        if (index >= firstFull) this.addFromExtremes(close[index] as number, highest[index - start] as number, lowest[index - start] as number);
        out[index - outOffset] = this.output(output);
      }
      return;
    }
    // %K alone: raw %K of the block's full windows as a column, then %K's average over it in one
    // pass (RollingSum.pushColumn), both the operations addFromExtremes and output take.
    const from = Math.max(start, firstFull);
    const raw = this.rawScratch(end - start);
    for (let index = from; index < end; index += 1) {
      const high = highest[index - start] as number;
      const low = lowest[index - start] as number;
      const range = high - low;
      raw[index - start] = range === 0 ? 50 : (100 * ((close[index] as number) - low)) / range;
    }
    // %K is defined from the push that fills its window: before it the outputs are NaN.
    const smoothK = this.smoothK;
    const firstReady = from + Math.max(0, smoothK.capacity - smoothK.count - 1);
    smoothK.pushColumn(raw, { from: from - start, to: end - start }, { values: out, offset: outOffset - start, kind: 'mean' });
    const last = Math.min(end, output === 0 ? firstReady : end);
    for (let index = start; index < last; index += 1) out[index - outOffset] = Number.NaN;
  }

  output(index: number): number {
    if (!this.ready) return Number.NaN;
    if (index === 0) return this.smoothK.mean();
    if (index === 1 && this.smoothD !== undefined) return this.smoothD.mean();
    return Number.NaN;
  }

  private add(bar: Pick<IndicatorBar, 'high' | 'low' | 'close'>): void {
    const { high, low, close } = bar;
    this.window.push(high, low);
    if (!this.window.full) return;
    this.addFromExtremes(close, this.window.highest, this.window.lowest);
  }

  private rawScratch(length: number): Float64Array {
    if (this.raw.length < length) this.raw = new Float64Array(length);
    return this.raw;
  }

  /** Raw %K of a full window from its extremes, into %K's and %D's averages. */
  private addFromExtremes(close: number, highest: number, lowest: number): void {
    const range = highest - lowest;
    this.smoothK.push(range === 0 ? 50 : (100 * (close - lowest)) / range);
    if (this.smoothK.full && this.smoothD !== undefined) this.smoothD.push(this.smoothK.mean());
  }
}

/**
 * Commodity channel index: typical price tp = (high + low + close) / 3, CCI = (tp - SMA(tp)) /
 * (0.015 * mean absolute deviation of tp from that SMA), over `period` bars; 0 when the deviation
 * is 0 (a flat window). The mean absolute deviation needs every value against the current mean,
 * so this one is O(period) per bar. Ready after `period` bars.
 */
export class CommodityChannelIndex implements Indicator {
  private readonly window: RollingSum;
  private current = Number.NaN;
  /** steadyBlock's scratch: the window's ring as each bar's push left it, and the block's typical prices and means. */
  private readonly ring: Float64Array;
  private typicals = new Float64Array(0);
  private means = new Float64Array(0);

  constructor(period: number) {
    this.window = new RollingSum(requirePeriod('period', period));
    this.ring = new Float64Array(period);
  }

  get ready(): boolean {
    return this.window.full;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.addTypical((bar.high + bar.low + bar.close) / 3);
  }

  private addTypical(typical: number): void {
    this.window.push(typical);
    if (!this.window.full) return;
    const mean = this.window.mean();
    const ring = this.window.ring;
    const count = this.window.count;
    let deviation = 0;
    for (let index = 0; index < count; index += 1) deviation += Math.abs((ring[index] as number) - mean);
    this.current = this.index(typical, mean, deviation);
  }

  /** `update` then `output(block.output)` bar by bar: until the window is full through addTypical, then steadyBlock. */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { high, low, close } = block.bars;
    const { out, outOffset, output } = block;
    let index = start;
    for (; index < end && !this.window.full; index += 1) {
      this.addTypical(((high[index] as number) + (low[index] as number) + (close[index] as number)) / 3);
      out[index - outOffset] = output === 0 ? this.current : Number.NaN;
    }
    if (index < end) this.steadyBlock(block, index, end);
  }

  /**
   * A full window's bars: the typical prices and their means first (one pass of the rolling sum,
   * RollingSum.pushColumn), then each bar's deviation sum over the window as the ring held it after
   * its push (`ring`: a copy taken before the block, then written as the pushes wrote), summed
   * slot 0 first as addTypical sums. Bars two at a time: both sums in one pass over the ring. A
   * sum is a chain of dependent additions that waits on each one; two independent chains keep
   * the processor twice as busy. The first bar's ring is the second's with the slot the second
   * push took holding the value it evicted. No call per bar carries a double (see
   * AverageDirectionalIndex.steadyBlock).
   */
  private steadyBlock(block: IndicatorBlock, start: number, end: number): void {
    const { high, low, close } = block.bars;
    const { out, outOffset, output } = block;
    const window = this.window;
    const count = window.capacity;
    const length = end - start;
    if (this.typicals.length < length) {
      this.typicals = new Float64Array(length);
      this.means = new Float64Array(length);
    }
    const { typicals, means, ring } = this;
    for (let index = start; index < end; index += 1) typicals[index - start] = ((high[index] as number) + (low[index] as number) + (close[index] as number)) / 3;
    ring.set(window.ring);
    let next = window.nextSlot;
    window.pushColumn(typicals, { from: 0, to: length }, { values: means, offset: 0, kind: 'mean' });
    let current = this.current;
    let bar = 0;
    for (; bar + 1 < length; bar += 2) {
      const typical = typicals[bar] as number;
      const second = typicals[bar + 1] as number;
      const firstMean = means[bar] as number;
      const secondMean = means[bar + 1] as number;
      ring[next] = typical;
      const replaced = next + 1 === count ? 0 : next + 1;
      const evicted = ring[replaced] as number;
      ring[replaced] = second;
      next = replaced + 1 === count ? 0 : replaced + 1;
      let firstDeviation = 0;
      let secondDeviation = 0;
      for (let slot = 0; slot < replaced; slot += 1) {
        const value = ring[slot] as number;
        firstDeviation += Math.abs(value - firstMean);
        secondDeviation += Math.abs(value - secondMean);
      }
      firstDeviation += Math.abs(evicted - firstMean);
      secondDeviation += Math.abs(second - secondMean);
      for (let slot = replaced + 1; slot < count; slot += 1) {
        const value = ring[slot] as number;
        firstDeviation += Math.abs(value - firstMean);
        secondDeviation += Math.abs(value - secondMean);
      }
      // index(), written out for both bars.
      const firstSpread = firstDeviation / count;
      const secondSpread = secondDeviation / count;
      const first = firstSpread === 0 ? 0 : (typical - firstMean) / (0.015 * firstSpread);
      current = secondSpread === 0 ? 0 : (second - secondMean) / (0.015 * secondSpread);
      out[start + bar - outOffset] = output === 0 ? first : Number.NaN;
      out[start + bar + 1 - outOffset] = output === 0 ? current : Number.NaN;
    }
    if (bar < length) {
      const typical = typicals[bar] as number;
      const mean = means[bar] as number;
      ring[next] = typical;
      let deviation = 0;
      for (let slot = 0; slot < count; slot += 1) deviation += Math.abs((ring[slot] as number) - mean);
      const spread = deviation / count;
      current = spread === 0 ? 0 : (typical - mean) / (0.015 * spread);
      out[start + bar - outOffset] = output === 0 ? current : Number.NaN;
    }
    this.current = current;
  }

  /** CCI from the typical price, its window's mean and the sum of absolute deviations from it. */
  private index(typical: number, mean: number, deviationSum: number): number {
    const deviation = deviationSum / this.window.count;
    return deviation === 0 ? 0 : (typical - mean) / (0.015 * deviation);
  }

  output(index: number): number {
    return index === 0 ? this.current : Number.NaN;
  }
}
