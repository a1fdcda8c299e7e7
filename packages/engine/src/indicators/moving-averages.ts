import { holdsNaN, seriesBarByBar, warmUpSeries } from './block-warm-up';
import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { RollingSum } from './rolling-sum';

/** Throws a RangeError naming `name` unless `value` is a whole number >= 1. */
export function requirePeriod(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number >= 1, got ${value}`);
  return value;
}

/** Simple moving average: the exact rolling sum of the last `period` values, divided once. Ready after `period` values. */
export class SimpleMovingAverage implements Indicator {
  readonly period: number;
  private readonly window: RollingSum;

  constructor(period: number) {
    this.period = requirePeriod('period', period);
    this.window = new RollingSum(this.period);
  }

  get ready(): boolean {
    return this.window.full;
  }

  update(input: number, _bar?: IndicatorBar): void {
    this.window.push(input);
  }

  /** The mean of the last `period` values, or NaN until there are that many. */
  get value(): number {
    return this.window.full ? this.window.mean() : Number.NaN;
  }

  output(index: number): number {
    return index === 0 ? this.value : Number.NaN;
  }
}

/**
 * Exponential moving average with alpha = 2 / (period + 1), seeded the textbook way: the first
 * value is the SMA of the first `period` inputs, then EMA = previous + alpha * (input - previous).
 * Ready after `period` values.
 */
export class ExponentialMovingAverage implements Indicator {
  private readonly period: number;
  /** The smoothing factor: once `ready`, each update is value += alpha * (input - value). */
  readonly alpha: number;
  private seen = 0;
  private seedSum = 0;
  private seedCompensation = 0;
  private current = Number.NaN;

  constructor(period: number) {
    this.period = requirePeriod('period', period);
    this.alpha = 2 / (period + 1);
  }

  get ready(): boolean {
    return this.seen >= this.period;
  }

  update(input: number, _bar?: IndicatorBar): void {
    this.seen += 1;
    if (this.seen < this.period) {
      this.addToSeed(input);
      return;
    }
    if (this.seen === this.period) {
      this.addToSeed(input);
      this.current = (this.seedSum + this.seedCompensation) / this.period;
      return;
    }
    this.current += this.alpha * (input - this.current);
  }

  /** `update` then `output(block.output)` bar by bar: the seed's values one at a time, then the smoothing in locals. */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const from = this.ready ? start : warmUpSeries(this, block, { start, end });
    if (from < end) this.steadyBlock(block, from, end);
  }

  private steadyBlock(block: IndicatorBlock, start: number, end: number): void {
    const { values, valuesOffset, out, outOffset, output } = block;
    let index = start;
    const alpha = this.alpha;
    let current = this.current;
    let updates = 0;
    for (; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      if (input !== input) {
        out[index - outOffset] = Number.NaN;
        continue;
      }
      updates += 1;
      current += alpha * (input - current);
      out[index - outOffset] = output === 0 ? current : Number.NaN;
    }
    this.resume(current, updates);
  }

  /**
   * For a loop that ran `updates` more updates of a `ready` average in its own locals (value +=
   * alpha * (input - value) each, as `update` does): the value it reached. Block loops keep the
   * value in a local, where a field written per bar would cost a store and a load per step.
   */
  resume(value: number, updates: number): void {
    this.current = value;
    this.seen += updates;
  }

  get value(): number {
    return this.current;
  }

  output(index: number): number {
    return index === 0 ? this.current : Number.NaN;
  }

  // The seed is a sum of `period` values: compensated so it matches the SMA of the same values.
  private addToSeed(input: number): void {
    const total = this.seedSum + input;
    if (Math.abs(this.seedSum) >= Math.abs(input)) this.seedCompensation += this.seedSum - total + input;
    else this.seedCompensation += input - total + this.seedSum;
    this.seedSum = total;
  }
}

/**
 * Wilder's smoothing (RMA): seeded with the mean of the first `period` inputs, then
 * average = (previous * (period - 1) + input) / period. Ready after `period` values.
 */
export class WilderAverage {
  /** Once `ready`, each update is value = (value * (period - 1) + input) / period. */
  readonly period: number;
  private seen = 0;
  private seedSum = 0;
  private current = Number.NaN;

  constructor(period: number) {
    this.period = requirePeriod('period', period);
  }

  get ready(): boolean {
    return this.seen >= this.period;
  }

  get value(): number {
    return this.current;
  }

  update(input: number): void {
    this.seen += 1;
    if (this.seen < this.period) {
      this.seedSum += input;
      return;
    }
    if (this.seen === this.period) {
      this.current = (this.seedSum + input) / this.period;
      return;
    }
    this.current = (this.current * (this.period - 1) + input) / this.period;
  }

  /** As ExponentialMovingAverage.resume: the value a block loop reached after `updates` more updates of the `ready` average in its locals. */
  resume(value: number, updates: number): void {
    this.current = value;
    this.seen += updates;
  }
}

/**
 * Weighted moving average: weights 1 (oldest) .. period (latest), divided by period * (period + 1) / 2.
 * O(1) per value: numerator' = numerator - windowSum + period * input. The numerator is rebuilt
 * from the window every `period` values so rounding never accumulates. Ready after `period` values.
 */
export class WeightedMovingAverage implements Indicator {
  private readonly period: number;
  private readonly window: RollingSum;
  private readonly divisor: number;
  /** updateBlock's copy of the window's ring, written as the pushes write (as in BollingerBands). */
  private readonly ring: Float64Array;
  private numerator = 0;
  private sinceRebuild = 0;
  /** updateBlock's window sums, one per bar of the block, grown to the largest block. */
  private sums = new Float64Array(0);

  constructor(period: number) {
    this.period = requirePeriod('period', period);
    this.window = new RollingSum(period);
    this.divisor = (period * (period + 1)) / 2;
    this.ring = new Float64Array(period);
  }

  get ready(): boolean {
    return this.window.full;
  }

  update(input: number, _bar?: IndicatorBar): void {
    const sumBefore = this.window.sum();
    const wasFull = this.window.full;
    const count = this.window.count;
    this.window.push(input);
    // Before the window is full the weights are 1..count; once full the oldest weight drops out.
    this.numerator = wasFull ? this.numerator - sumBefore + this.period * input : this.numerator + (count + 1) * input;
    this.sinceRebuild += 1;
    if (this.sinceRebuild === this.period) this.rebuild();
  }

  /**
   * `update` then `output(block.output)` bar by bar: the block's window sums first, in one pass of
   * the rolling sum (RollingSum.pushColumn), then the numerator in locals, the same steps as
   * `update` (no call per bar). A block with a NaN input (skipped) goes bar by bar.
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
    const period = this.period;
    const divisor = this.divisor;
    const ring = this.ring;
    ring.set(window.ring);
    let next = window.nextSlot;
    let sumBefore = window.sum();
    let count = window.count;
    if (this.sums.length < end - start) this.sums = new Float64Array(end - start);
    const sums = this.sums;
    window.pushColumn(values, { from, to }, { values: sums, offset: from, kind: 'sum' });
    let numerator = this.numerator;
    let sinceRebuild = this.sinceRebuild;
    for (let index = start; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      ring[next] = input;
      next = next + 1 === period ? 0 : next + 1;
      if (count === period) numerator = numerator - sumBefore + period * input;
      else {
        numerator += (count + 1) * input;
        count += 1;
      }
      sumBefore = sums[index - start] as number;
      sinceRebuild += 1;
      if (sinceRebuild === period) {
        // rebuild(), once per `period` bars. A call: an inner loop written here made V8 box a double on every bar.
        sinceRebuild = 0;
        numerator = weightedSum(ring, next, count);
      }
      out[index - outOffset] = count === period && output === 0 ? numerator / divisor : Number.NaN;
    }
    this.numerator = numerator;
    this.sinceRebuild = sinceRebuild;
  }

  get value(): number {
    return this.window.full ? this.numerator / this.divisor : Number.NaN;
  }

  output(index: number): number {
    return index === 0 ? this.value : Number.NaN;
  }

  private rebuild(): void {
    this.sinceRebuild = 0;
    this.numerator = weightedSum(this.window.ring, this.window.nextSlot, this.window.count);
  }
}

/**
 * The WMA's numerator from the last `count` values of a rolling sum's ring whose next push writes
 * slot `next`: the newest (weight `count`) first.
 */
function weightedSum(ring: Float64Array, next: number, count: number): number {
  const period = ring.length;
  let total = 0;
  for (let back = 0, slot = next === 0 ? period - 1 : next - 1; back < count; back += 1, slot = slot === 0 ? period - 1 : slot - 1) {
    total += (count - back) * (ring[slot] as number);
  }
  return total;
}
