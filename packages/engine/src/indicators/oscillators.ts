import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { requirePeriod } from './moving-averages';
import { RollingExtreme } from './rolling-extreme';
import { RollingSum } from './rolling-sum';

/**
 * Stochastic oscillator. Raw %K = 100 * (close - lowest low) / (highest high - lowest low) over
 * `period` bars (50 when the range is flat: the close is then both the high and the low);
 * %K = SMA(smooth) of raw %K; %D = SMA(signal) of %K. Outputs: 0 %K, 1 %D, NaN until ready after
 * period + smooth + signal - 2 bars. Without `signal` only %K is kept (the `stoch_k` indicator):
 * ready after period + smooth - 1 bars.
 */
export class StochasticOscillator implements Indicator {
  private readonly highs: RollingExtreme;
  private readonly lows: RollingExtreme;
  private readonly smoothK: RollingSum;
  private readonly smoothD: RollingSum | undefined;

  constructor(options: { readonly period: number; readonly smooth: number; readonly signal?: number }) {
    const period = requirePeriod('period', options.period);
    this.highs = new RollingExtreme({ capacity: period, kind: 'maximum' });
    this.lows = new RollingExtreme({ capacity: period, kind: 'minimum' });
    this.smoothK = new RollingSum(requirePeriod('smooth', options.smooth));
    this.smoothD = options.signal === undefined ? undefined : new RollingSum(requirePeriod('signal', options.signal));
  }

  get ready(): boolean {
    return this.smoothD === undefined ? this.smoothK.full : this.smoothD.full;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.add(bar);
  }

  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { high, low, close } = block.bars;
    const { out, outOffset, output } = block;
    // One object, refilled: no double crosses a call boundary, so nothing is boxed per bar.
    const bar = { high: Number.NaN, low: Number.NaN, close: Number.NaN };
    for (let index = start; index < end; index += 1) {
      bar.high = high[index] as number;
      bar.low = low[index] as number;
      bar.close = close[index] as number;
      this.add(bar);
      out[index - outOffset] = this.output(output);
    }
  }

  output(index: number): number {
    if (!this.ready) return Number.NaN;
    if (index === 0) return this.smoothK.mean();
    if (index === 1 && this.smoothD !== undefined) return this.smoothD.mean();
    return Number.NaN;
  }

  private add(bar: Pick<IndicatorBar, 'high' | 'low' | 'close'>): void {
    const { high, low, close } = bar;
    this.highs.push(high);
    this.lows.push(low);
    if (!this.highs.full) return;
    const highest = this.highs.value;
    const lowest = this.lows.value;
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

  constructor(period: number) {
    this.window = new RollingSum(requirePeriod('period', period));
  }

  get ready(): boolean {
    return this.window.full;
  }

  update(_input: number, bar: IndicatorBar): void {
    const typical = (bar.high + bar.low + bar.close) / 3;
    this.window.push(typical);
    if (!this.window.full) return;
    const mean = this.window.mean();
    const ring = this.window.ring;
    const count = this.window.count;
    let deviation = 0;
    for (let index = 0; index < count; index += 1) deviation += Math.abs((ring[index] as number) - mean);
    deviation /= count;
    this.current = deviation === 0 ? 0 : (typical - mean) / (0.015 * deviation);
  }

  output(index: number): number {
    return index === 0 ? this.current : Number.NaN;
  }
}
