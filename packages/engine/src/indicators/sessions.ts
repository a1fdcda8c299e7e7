import { istEpochDay } from '@vyuha/core';
import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { requirePeriod } from './moving-averages';

const MS_PER_MINUTE = 60_000;

/**
 * Volume-weighted average price of the IST session: sum(typical price * volume) / sum(volume)
 * since the session's first bar, typical price = (high + low + close) / 3; a new IST date starts
 * a new session. While the session's volume is still 0 (index bars carry none) every bar weighs
 * the same, so the value is the mean typical price rather than 0 / 0. Ready after 1 bar.
 */
export class VolumeWeightedAveragePrice implements Indicator {
  private day = Number.NaN;
  private weightedSum = 0;
  private volumeSum = 0;
  private typicalSum = 0;
  private bars = 0;

  get ready(): boolean {
    return this.bars > 0;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.add(bar.time, bar, bar.volume);
  }

  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { time, high, low, close, volume } = block.bars;
    const { out, outOffset, output } = block;
    // One object, refilled: no double crosses a call boundary, so nothing is boxed per bar.
    const prices = { high: Number.NaN, low: Number.NaN, close: Number.NaN };
    for (let index = start; index < end; index += 1) {
      prices.high = high[index] as number;
      prices.low = low[index] as number;
      prices.close = close[index] as number;
      this.add(time[index] as number, prices, volume[index] as number);
      out[index - outOffset] = this.output(output);
    }
  }

  output(index: number): number {
    if (index !== 0 || this.bars === 0) return Number.NaN;
    return this.volumeSum > 0 ? this.weightedSum / this.volumeSum : this.typicalSum / this.bars;
  }

  private add(time: number, prices: Pick<IndicatorBar, 'high' | 'low' | 'close'>, volume: number): void {
    const day = istEpochDay(time);
    if (day !== this.day) {
      this.day = day;
      this.weightedSum = 0;
      this.volumeSum = 0;
      this.typicalSum = 0;
      this.bars = 0;
    }
    const typical = (prices.high + prices.low + prices.close) / 3;
    this.weightedSum += typical * volume;
    this.volumeSum += volume;
    this.typicalSum += typical;
    this.bars += 1;
  }
}

/**
 * The open, high, low and close of the previous IST day seen in the data (the last trading day,
 * not the calendar day before). Outputs: 0 open, 1 high, 2 low, 3 close. Ready from the first bar
 * of the second day.
 */
export class PreviousDayOhlc implements Indicator {
  private day = Number.NaN;
  private open = Number.NaN;
  private high = Number.NaN;
  private low = Number.NaN;
  private close = Number.NaN;
  private readonly previous = { open: Number.NaN, high: Number.NaN, low: Number.NaN, close: Number.NaN };

  get ready(): boolean {
    return this.previous.close === this.previous.close;
  }

  update(_input: number, bar: IndicatorBar): void {
    const day = istEpochDay(bar.time);
    if (day !== this.day) {
      if (this.day === this.day) this.closeDay();
      this.day = day;
      this.open = bar.open;
      this.high = bar.high;
      this.low = bar.low;
    } else {
      if (bar.high > this.high) this.high = bar.high;
      if (bar.low < this.low) this.low = bar.low;
    }
    this.close = bar.close;
  }

  output(index: number): number {
    if (index === 0) return this.previous.open;
    if (index === 1) return this.previous.high;
    if (index === 2) return this.previous.low;
    if (index === 3) return this.previous.close;
    return Number.NaN;
  }

  private closeDay(): void {
    this.previous.open = this.open;
    this.previous.high = this.high;
    this.previous.low = this.low;
    this.previous.close = this.close;
  }
}

/**
 * Classic floor pivots from the previous IST day's high H, low L and close C: P = (H + L + C) / 3,
 * R1 = 2P - L, S1 = 2P - H, R2 = P + (H - L), S2 = P - (H - L), R3 = H + 2(P - L), S3 = L - 2(H - P).
 * Outputs: 0 P, 1 R1, 2 R2, 3 R3, 4 S1, 5 S2, 6 S3. Ready from the first bar of the second day.
 */
export class PivotPoints implements Indicator {
  private readonly previousDay = new PreviousDayOhlc();

  get ready(): boolean {
    return this.previousDay.ready;
  }

  update(input: number, bar: IndicatorBar): void {
    this.previousDay.update(input, bar);
  }

  output(index: number): number {
    const high = this.previousDay.output(1);
    const low = this.previousDay.output(2);
    const pivot = (high + low + this.previousDay.output(3)) / 3;
    switch (index) {
      case 0: return pivot;
      case 1: return 2 * pivot - low;
      case 2: return pivot + (high - low);
      case 3: return high + 2 * (pivot - low);
      case 4: return 2 * pivot - high;
      case 5: return pivot - (high - low);
      case 6: return low - 2 * (high - pivot);
      default: return Number.NaN;
    }
  }
}

/**
 * Opening range: the high and low of the bars that open within the first `minutes` minutes of
 * each IST session, counted from the session's first bar (09:15 on a normal NSE day). The range
 * is complete, and the indicator ready, from the first bar that opens at or after first bar +
 * `minutes` (that bar is not part of the range); it turns not-ready again at the next session.
 * Outputs: 0 high, 1 low.
 */
export class OpeningRange implements Indicator {
  private readonly durationMs: number;
  private day = Number.NaN;
  private rangeEnd = Number.NaN;
  private high = Number.NaN;
  private low = Number.NaN;
  private complete = false;

  constructor(minutes: number) {
    this.durationMs = requirePeriod('minutes', minutes) * MS_PER_MINUTE;
  }

  get ready(): boolean {
    return this.complete;
  }

  update(_input: number, bar: IndicatorBar): void {
    const day = istEpochDay(bar.time);
    if (day !== this.day) {
      this.day = day;
      this.rangeEnd = bar.time + this.durationMs;
      this.high = bar.high;
      this.low = bar.low;
      this.complete = false;
      return;
    }
    if (this.complete) return;
    if (bar.time >= this.rangeEnd) {
      this.complete = true;
      return;
    }
    if (bar.high > this.high) this.high = bar.high;
    if (bar.low < this.low) this.low = bar.low;
  }

  output(index: number): number {
    if (!this.complete) return Number.NaN;
    if (index === 0) return this.high;
    if (index === 1) return this.low;
    return Number.NaN;
  }
}
