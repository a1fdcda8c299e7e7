import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { larger, positivePartIf } from './branchless';
import { WilderAverage, requirePeriod } from './moving-averages';

/** True range of a bar: high - low on the first bar, then the largest of that and the gaps from the previous close. */
export function trueRange(bar: IndicatorBar, previousClose: number): number {
  return trueRangeOf(bar.high, bar.low, previousClose);
}

/** trueRange from the bar's high and low. */
function trueRangeOf(high: number, low: number, previousClose: number): number {
  const range = high - low;
  if (previousClose !== previousClose) return range;
  return larger(larger(range, Math.abs(high - previousClose)), Math.abs(low - previousClose));
}

/**
 * Average true range, Wilder: the first value is the mean of the first `period` true ranges (the
 * first bar's is high - low), then (previous * (period - 1) + TR) / period. Ready after `period` bars.
 */
export class AverageTrueRange implements Indicator {
  private readonly average: WilderAverage;
  private previousClose = Number.NaN;

  constructor(period: number) {
    this.average = new WilderAverage(requirePeriod('period', period));
  }

  get ready(): boolean {
    return this.average.ready;
  }

  get value(): number {
    return this.average.value;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.average.update(trueRange(bar, this.previousClose));
    this.previousClose = bar.close;
  }

  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { high, low, close } = block.bars;
    const { out, outOffset, output } = block;
    const average = this.average;
    for (let index = start; index < end; index += 1) {
      average.update(trueRangeOf(high[index] as number, low[index] as number, this.previousClose));
      this.previousClose = close[index] as number;
      out[index - outOffset] = output === 0 ? average.value : Number.NaN;
    }
  }

  output(index: number): number {
    return index === 0 ? this.average.value : Number.NaN;
  }
}

/**
 * SuperTrend on ATR(period) (Wilder) and hl2 = (high + low) / 2. Basic bands hl2 +- multiplier * ATR;
 * the final upper band only moves down (it takes the basic band when that is lower, or when the
 * previous close broke above the previous final band), the final lower band only moves up
 * (mirror rule). Direction: on the first ready bar +1 only if the close is above the upper band
 * (so almost always -1, as TradingView and trading-signals start); after that an uptrend stays up
 * while close >= final lower band, a downtrend turns up when close > final upper band.
 * Outputs: 0 the line (the lower band in an uptrend, the upper band in a downtrend), 1 the
 * direction, +1 up or -1 down. Ready after `period` bars.
 */
export class SuperTrend implements Indicator {
  private readonly atr: AverageTrueRange;
  private readonly multiplier: number;
  private upperBand = Number.NaN;
  private lowerBand = Number.NaN;
  private previousClose = Number.NaN;
  private direction = Number.NaN;

  constructor(options: { readonly period: number; readonly multiplier: number }) {
    this.atr = new AverageTrueRange(options.period);
    if (!Number.isFinite(options.multiplier) || options.multiplier <= 0) throw new RangeError(`multiplier must be a finite number > 0, got ${options.multiplier}`);
    this.multiplier = options.multiplier;
  }

  get ready(): boolean {
    return this.atr.ready;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.atr.update(0, bar);
    if (!this.atr.ready) return;
    const middle = (bar.high + bar.low) / 2;
    const basicUpper = middle + this.multiplier * this.atr.value;
    const basicLower = middle - this.multiplier * this.atr.value;
    if (this.direction !== this.direction) {
      this.upperBand = basicUpper;
      this.lowerBand = basicLower;
      this.direction = bar.close > basicUpper ? 1 : -1;
    } else {
      if (basicUpper < this.upperBand || this.previousClose > this.upperBand) this.upperBand = basicUpper;
      if (basicLower > this.lowerBand || this.previousClose < this.lowerBand) this.lowerBand = basicLower;
      if (this.direction === 1) this.direction = bar.close >= this.lowerBand ? 1 : -1;
      else this.direction = bar.close > this.upperBand ? 1 : -1;
    }
    this.previousClose = bar.close;
  }

  output(index: number): number {
    if (index === 0) return this.direction === 1 ? this.lowerBand : this.direction === -1 ? this.upperBand : Number.NaN;
    if (index === 1) return this.direction;
    return Number.NaN;
  }
}

/**
 * Wilder's directional movement. From the second bar: up = high - previous high, down = previous
 * low - low; +DM = up when up > down and up > 0 (else 0), -DM mirror (a tie gives 0 to both).
 * TR, +DM and -DM are Wilder-smoothed over `period` (seeded with their mean); +DI = 100 * +DM / TR,
 * -DI likewise; DX = 100 * |+DI - -DI| / (+DI + -DI) (0 when both are 0); ADX = Wilder average of DX.
 * Outputs: 0 ADX, 1 +DI, 2 -DI, all NaN until ready after 2 * period bars (the DIs are computed
 * from bar period + 1 but, by the contract, shown only once every output is defined).
 */
export class AverageDirectionalIndex implements Indicator {
  private readonly trueRanges: WilderAverage;
  private readonly plusMoves: WilderAverage;
  private readonly minusMoves: WilderAverage;
  private readonly adx: WilderAverage;
  private previous: { high: number; low: number; close: number } = { high: Number.NaN, low: Number.NaN, close: Number.NaN };
  private seen = 0;
  private plusIndicator = Number.NaN;
  private minusIndicator = Number.NaN;

  constructor(period: number) {
    requirePeriod('period', period);
    this.trueRanges = new WilderAverage(period);
    this.plusMoves = new WilderAverage(period);
    this.minusMoves = new WilderAverage(period);
    this.adx = new WilderAverage(period);
  }

  get ready(): boolean {
    return this.adx.ready;
  }

  update(_input: number, bar: IndicatorBar): void {
    this.add(bar);
  }

  /**
   * `add` then `output(block.output)` bar by bar: until ADX is ready through `addMove`
   * (warmUpBlock), then the same steps with the four Wilder averages, the previous bar and
   * +DI/-DI in locals (steadyBlock).
   */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const from = this.adx.ready ? start : this.warmUpBlock(block, start, end);
    if (from < end) this.steadyBlock(block, from, end);
  }

  /**
   * updateBlock's bars once ADX is ready. A method of its own, apart from the warm-up that every
   * run takes only once: optimised code that meets a path without type feedback is thrown away
   * (only a NaN true range, which real bars never give, still calls out here).
   */
  private steadyBlock(block: IndicatorBlock, start: number, end: number): void {
    const { high, low, close } = block.bars;
    const { out, outOffset, output } = block;
    const { previous, plusMoves, minusMoves, trueRanges, adx } = this;
    let index = start;
    // Every average has the same period; a ready ADX means the other three are ready too.
    const period = adx.period;
    let previousHigh = previous.high;
    let previousLow = previous.low;
    let previousClose = previous.close;
    let plusMove = plusMoves.value;
    let minusMove = minusMoves.value;
    let range = trueRanges.value;
    let average = adx.value;
    let plusIndicator = this.plusIndicator;
    let minusIndicator = this.minusIndicator;
    const updates = end - index;
    // No call in this loop: a call V8 does not inline (its inlining budget spent elsewhere in the
    // function) boxes each double it is passed or returns, an allocation per bar. So the helpers'
    // arithmetic is written out: positivePartIf for the moves, larger (twice) for the true range.
    for (; index < end; index += 1) {
      const barHigh = high[index] as number;
      const barLow = low[index] as number;
      const up = barHigh - previousHigh;
      const down = previousLow - barLow;
      const keptUp = up * (+(up > 0) & +(up > down)) + 0;
      const keptDown = down * (+(down > 0) & +(down > up)) + 0;
      plusMove = (plusMove * (period - 1) + (keptUp === keptUp ? keptUp : 0)) / period;
      minusMove = (minusMove * (period - 1) + (keptDown === keptDown ? keptDown : 0)) / period;
      const barRange = barHigh - barLow;
      const highGap = Math.abs(barHigh - previousClose);
      const lowGap = Math.abs(barLow - previousClose);
      const wider = barRange * +(barRange >= highGap) + highGap * +(highGap > barRange);
      const widest = wider * +(wider >= lowGap) + lowGap * +(lowGap > wider);
      // The NaN of an infinite price or of a first bar's missing close takes the helper's way.
      const trueRange = widest === widest ? widest : trueRangeOf(barHigh, barLow, previousClose);
      range = (range * (period - 1) + trueRange) / period;
      plusIndicator = range === 0 ? 0 : (100 * plusMove) / range;
      minusIndicator = range === 0 ? 0 : (100 * minusMove) / range;
      const total = plusIndicator + minusIndicator;
      average = (average * (period - 1) + (total === 0 ? 0 : (100 * Math.abs(plusIndicator - minusIndicator)) / total)) / period;
      previousHigh = barHigh;
      previousLow = barLow;
      previousClose = close[index] as number;
      out[index - outOffset] = output === 0 ? average : output === 1 ? plusIndicator : output === 2 ? minusIndicator : Number.NaN;
    }
    this.seen += updates;
    plusMoves.resume(plusMove, updates);
    minusMoves.resume(minusMove, updates);
    trueRanges.resume(range, updates);
    adx.resume(average, updates);
    this.plusIndicator = plusIndicator;
    this.minusIndicator = minusIndicator;
    previous.high = previousHigh;
    previous.low = previousLow;
    previous.close = previousClose;
  }

  /**
   * updateBlock's bars until ADX is ready, through `add`'s steps; the bar it stopped at. A method
   * of its own, so the inlining that the steady loop's calls need is not spent on these bars.
   */
  private warmUpBlock(block: IndicatorBlock, start: number, end: number): number {
    const { high, low, close } = block.bars;
    const { out, outOffset, output } = block;
    const previous = this.previous;
    let index = start;
    for (; index < end && !this.adx.ready; index += 1) {
      const barHigh = high[index] as number;
      const barLow = low[index] as number;
      this.seen += 1;
      if (this.seen > 1) this.addMove(barHigh, barLow);
      previous.high = barHigh;
      previous.low = barLow;
      previous.close = close[index] as number;
      out[index - outOffset] = this.output(output);
    }
    return index;
  }

  output(index: number): number {
    if (!this.adx.ready) return Number.NaN;
    if (index === 0) return this.adx.value;
    if (index === 1) return this.plusIndicator;
    if (index === 2) return this.minusIndicator;
    return Number.NaN;
  }

  private add(bar: Pick<IndicatorBar, 'high' | 'low' | 'close'>): void {
    this.seen += 1;
    if (this.seen > 1) this.addMove(bar.high, bar.low);
    // Mutated in place: no allocation per bar.
    this.previous.high = bar.high;
    this.previous.low = bar.low;
    this.previous.close = bar.close;
  }

  /** The directional moves and true range from the previous bar to this one (its high and low), into the averages. */
  private addMove(high: number, low: number): void {
    const previous = this.previous;
    const up = high - previous.high;
    const down = previous.low - low;
    this.plusMoves.update(positivePartIf(up, up > down));
    this.minusMoves.update(positivePartIf(down, down > up));
    this.trueRanges.update(trueRangeOf(high, low, previous.close));
    if (!this.trueRanges.ready) return;
    const range = this.trueRanges.value;
    this.plusIndicator = range === 0 ? 0 : (100 * this.plusMoves.value) / range;
    this.minusIndicator = range === 0 ? 0 : (100 * this.minusMoves.value) / range;
    const total = this.plusIndicator + this.minusIndicator;
    this.adx.update(total === 0 ? 0 : (100 * Math.abs(this.plusIndicator - this.minusIndicator)) / total);
  }
}
