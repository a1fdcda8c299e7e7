import { EXACT_BELOW, TO_INTEGER } from '@vyuha/core';
import type { BarSeries } from '../algorithm/program';
import type { Indicator } from '../indicators/indicator';
import { SimpleMovingAverage } from '../indicators/moving-averages';
import type { BarField } from './checked';
import type { MutableBar, Step, StepTarget } from './steps';

/**
 * highest(x, n) / lowest(x, n) in O(1) amortised per value: a monotonic deque of the window's
 * candidates (each value enters and leaves it once). Lowest runs the same code on -x. The result
 * is NaN until n values have been seen and while any NaN is inside the window. One per step, fed
 * bar by bar (extremeStep) or a block at a time (block-steps.ts).
 */
export class WindowExtreme {
  private readonly window: Float64Array;
  private readonly dequeValues: Float64Array;
  private readonly dequeBars: Float64Array;
  private head = 0;
  private length = 0;
  private seen = 0;
  private nanInWindow = 0;
  /** pushBlock's scratch: the window before the block and the block, signed; running extremes over it. */
  private scratch = new Float64Array(0);
  private prefix = new Float64Array(0);
  private suffix = new Float64Array(0);

  constructor(
    private readonly bars: number,
    private readonly direction: 1 | -1,
  ) {
    this.window = new Float64Array(bars);
    this.dequeValues = new Float64Array(bars);
    this.dequeBars = new Float64Array(bars);
  }

  /** Feeds the next value; returns the extreme of the window ending with it. */
  push(input: number): number {
    const { bars, direction, window, dequeValues, dequeBars } = this;
    const value = direction * input;
    const seen = this.seen;
    const ringIndex = seen % bars;
    if (seen >= bars && window[ringIndex] !== window[ringIndex]) this.nanInWindow -= 1;
    window[ringIndex] = value;
    // Evict first, so the deque never holds more than `bars` entries.
    while (this.length > 0 && (dequeBars[this.head] as number) <= seen - bars) {
      this.head = (this.head + 1) % bars;
      this.length -= 1;
    }
    if (value !== value) {
      this.nanInWindow += 1;
    } else {
      // Drop candidates that can never again be the extreme: older and not larger.
      while (this.length > 0 && (dequeValues[(this.head + this.length - 1) % bars] as number) <= value) this.length -= 1;
      const tail = (this.head + this.length) % bars;
      dequeValues[tail] = value;
      dequeBars[tail] = seen;
      this.length += 1;
    }
    this.seen = seen + 1;
    return this.seen < bars || this.nanInWindow > 0 || this.length === 0 ? Number.NaN : direction * (dequeValues[this.head] as number);
  }

  /**
   * `push` for input[from .. to) (a block's column), each result written to `out` at the same
   * index: the same values and the same state after. Once the window can be full, and when no
   * value of the block or of the window before it is NaN or zero (whose sign the deque's tie rule
   * would pick), the extremes come from running extremes over stretches of `bars` values (van Herk
   * / Gil-Werman, as RollingExtreme.pushColumn): no modulo and no data-dependent loop per value.
   */
  pushBlock(input: Float64Array, range: { readonly from: number; readonly to: number }, out: Float64Array): void {
    const { from, to } = range;
    let index = from;
    const windowed = Math.min(to, from + Math.max(0, this.bars - 1 - this.seen));
    for (; index < windowed; index += 1) out[index] = this.push(input[index] as number);
    if (index < to && this.nanInWindow === 0 && this.windowExtremes(input, { from: index, to }, out)) return;
    for (; index < to; index += 1) out[index] = this.push(input[index] as number);
  }

  /**
   * The fast path of pushBlock from `from` (the window full from its first bar): the window's
   * last bars - 1 values and the block, signed, in one scratch column; false, nothing changed,
   * when one of them is NaN or zero. On success the ring, the count and the deque are what
   * pushing the block value by value leaves (the deque holds only the last `bars` values).
   */
  private windowExtremes(input: Float64Array, range: { readonly from: number; readonly to: number }, out: Float64Array): boolean {
    const { from, to } = range;
    const { bars, direction, window } = this;
    const seen = this.seen;
    const history = bars - 1;
    const length = history + to - from;
    if (this.scratch.length < length) {
      this.scratch = new Float64Array(Math.max(length, this.scratch.length * 2));
      this.prefix = new Float64Array(this.scratch.length);
      this.suffix = new Float64Array(this.scratch.length);
    }
    const { scratch, prefix, suffix } = this;
    let ring = (seen - history) % bars;
    for (let k = 0; k < history; k += 1) {
      const value = window[ring] as number;
      if (!(value > 0 || value < 0)) return false;
      scratch[k] = value;
      ring = ring + 1 === bars ? 0 : ring + 1;
    }
    for (let k = history; k < length; k += 1) {
      const value = direction * (input[from + k - history] as number);
      if (!(value > 0 || value < 0)) return false;
      scratch[k] = value;
    }
    let running = 0;
    let phase = 0;
    for (let k = 0; k < length; k += 1) {
      const value = scratch[k] as number;
      running = phase === 0 || value >= running ? value : running;
      prefix[k] = running;
      phase = phase + 1 === bars ? 0 : phase + 1;
    }
    phase = (length - 1) % bars;
    running = scratch[length - 1] as number;
    for (let k = length - 1; k >= 0; k -= 1) {
      const value = scratch[k] as number;
      running = phase === bars - 1 || value >= running ? value : running;
      suffix[k] = running;
      phase = phase === 0 ? bars - 1 : phase - 1;
    }
    for (let k = history; k < length; k += 1) {
      const head = prefix[k] as number;
      const tail = suffix[k - history] as number;
      out[from + k - history] = direction * (head >= tail ? head : tail);
    }
    this.refill(scratch, { length, seen: seen + to - from });
    return true;
  }

  /** Ring, count and deque as pushing values ending with scratch[length - 1] (the `seen`-th push) leaves them. */
  private refill(scratch: Float64Array, last: { readonly length: number; readonly seen: number }): void {
    const { bars, window, dequeValues, dequeBars } = this;
    const { length, seen } = last;
    this.head = 0;
    let size = 0;
    for (let k = length - bars; k < length; k += 1) {
      const value = scratch[k] as number;
      const position = seen - length + k;
      window[position % bars] = value;
      while (size > 0 && (dequeValues[size - 1] as number) <= value) size -= 1;
      dequeValues[size] = value;
      dequeBars[size] = position;
      size += 1;
    }
    this.length = size;
    this.seen = seen;
  }
}

/** highest / lowest as a per-bar step (WindowExtreme). */
export function extremeStep(target: StepTarget, options: { source: number; bars: number; direction: 1 | -1 }): Step {
  const { slots, slot } = target;
  const { source } = options;
  const extreme = new WindowExtreme(options.bars, options.direction);
  return () => {
    slots[slot] = extreme.push(slots[source] as number);
  };
}

/** Writes each used output of one indicator after feeding it the bar. */
export interface IndicatorOutputs {
  /** [output index, slot] pairs: several functions (macd, macd_signal) share one indicator. */
  readonly outputs: ReadonlyArray<readonly [number, number]>;
}

/**
 * Feeds a series indicator its input: `values[source]` (a slot), or with `source` -1 the bar
 * field column `values[index]`. Outputs go to slots. A NaN input (the input still warming up, or
 * a division by zero) is not fed: the indicator keeps its state and its outputs are NaN that bar.
 */
export function seriesIndicatorStep(target: { values: Float64Array; source: number; slots?: Float64Array }, indicator: Indicator, plan: IndicatorOutputs): Step {
  const { values, source } = target;
  const slots = target.slots ?? values;
  const outputs = plan.outputs;
  const bar: MutableBar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
  const fromColumn = source < 0;
  if (outputs.length === 1) {
    const [output, slot] = outputs[0] as readonly [number, number];
    return (index) => {
      const input = values[fromColumn ? index : source] as number;
      if (input !== input) {
        slots[slot] = Number.NaN;
        return;
      }
      indicator.update(input, bar);
      slots[slot] = indicator.output(output);
    };
  }
  return (index) => {
    const input = values[fromColumn ? index : source] as number;
    const fed = input === input;
    if (fed) indicator.update(input, bar);
    for (let k = 0; k < outputs.length; k += 1) {
      const [output, slot] = outputs[k] as readonly [number, number];
      slots[slot] = fed ? indicator.output(output) : Number.NaN;
    }
  };
}

/** Feeds a bar indicator (atr, supertrend, vwap, ...) the current bar. */
export function barIndicatorStep(target: { slots: Float64Array; bar: MutableBar }, indicator: Indicator, plan: IndicatorOutputs): Step {
  const { slots, bar } = target;
  const outputs = plan.outputs;
  return () => {
    indicator.update(Number.NaN, bar);
    for (let k = 0; k < outputs.length; k += 1) {
      const [output, slot] = outputs[k] as readonly [number, number];
      slots[slot] = indicator.output(output);
    }
  };
}

/** Bars an indicator over a column computes per run: enough to amortise the call, small enough to stay in cache. */
const BLOCK_BARS = 4096;

/**
 * A series indicator over a bar column, computed ahead in blocks: when bar `index` is asked for
 * and not yet computed, the next bars the series holds now (`series.length`, read at that moment,
 * at most BLOCK_BARS of them) are fed in one tight loop into output buffers, and the step only
 * copies `buffer[index - blockStart]` into its slots. Values are identical to feeding bar by bar:
 * an indicator's value at bar j depends only on bars 0..j (never on position state) and the bars
 * go in in the same order. A backtest's series holds its whole history; a live series grows one
 * closed bar at a time, so there it streams. Invariant: outputs of bars blockStart..computed - 1
 * are in the buffers and final.
 */
export function columnIndicatorStep(target: { series: BarSeries; column: BarField; slots: Float64Array }, indicator: Indicator, plan: IndicatorOutputs): Step {
  const { series, column, slots } = target;
  const outputs = plan.outputs;
  const outputIndex = Int32Array.from(outputs, ([output]) => output);
  const outputSlot = Int32Array.from(outputs, ([, slot]) => slot);
  const count = outputs.length;
  const block = Math.max(1, Math.min(BLOCK_BARS, series.length));
  const buffers = outputs.map(() => new Float64Array(block));
  const first = buffers[0] as Float64Array;
  const bar: MutableBar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
  // sma over prices: the exact grid sum inline while every value so far is on the paise grid.
  let gridSma = indicator instanceof SimpleMovingAverage && count === 1 ? new GridSma(indicator.period) : undefined;
  let blockStart = 0;
  let computed = 0;
  const feed = (values: Float64Array, range: { start: number; end: number }): void => {
    for (let index = range.start; index < range.end; index += 1) {
      const input = values[index] as number;
      const fed = input === input;
      if (fed) indicator.update(input, bar);
      for (let k = 0; k < count; k += 1) (buffers[k] as Float64Array)[index - blockStart] = fed ? indicator.output(outputIndex[k] as number) : Number.NaN;
    }
  };
  const computeBlock = (): void => {
    blockStart = computed;
    const end = Math.max(blockStart + 1, Math.min(series.length, blockStart + block));
    const values = series[column];
    let start = blockStart;
    if (gridSma !== undefined) {
      start = gridSma.run(values, { out: first, blockStart, end });
      if (start < end) {
        // An off-grid value at `start`: from here the indicator itself runs. Feeding it the last
        // period + (start mod period) values leaves it in exactly the state a bar-by-bar run
        // would have (same window, same ring position, all on the grid).
        const tail = Math.min(start, gridSma.period + (start % gridSma.period));
        for (let index = start - tail; index < start; index += 1) indicator.update(values[index] as number, bar);
        gridSma = undefined;
      }
    }
    feed(values, { start, end });
    computed = end;
  };
  if (count === 1) {
    const slot = outputSlot[0] as number;
    return (index) => {
      while (index >= computed) computeBlock();
      slots[slot] = first[index - blockStart] as number;
    };
  }
  return (index) => {
    while (index >= computed) computeBlock();
    for (let k = 0; k < count; k += 1) slots[outputSlot[k] as number] = (buffers[k] as Float64Array)[index - blockStart] as number;
  };
}

/**
 * A block of a column's values as whole paise: bar i at `paise[i - start]`, valid before
 * `onGridEnd` (the first bar off the grid, or NaN; the block's end when none is); `largest` is the
 * largest |paise| before it.
 */
export interface PaiseBlock {
  readonly paise: Float64Array;
  readonly onGridEnd: number;
  readonly largest: number;
}

/** Where a grid SMA reads a column's paise block by block (BlockPaise, SeriesPaise). */
export interface PaiseBlocks {
  /** The block start .. end - 1 of `values` as paise. */
  of(values: Float64Array, range: { readonly start: number; readonly end: number }): PaiseBlock;
}

/** Writes the paise of `values` start .. end - 1 into `block` (its paise at least end - start long) up to the first bar off the grid. */
function convertBlock(values: Float64Array, range: { readonly start: number; readonly end: number }, block: { paise: Float64Array; onGridEnd: number; largest: number }): void {
  const { start, end } = range;
  const paise = block.paise;
  let largest = 0;
  let index = start;
  for (; index < end; index += 1) {
    const value = values[index] as number;
    // The nearest whole number of paise, ties to even (core TO_INTEGER): a value on the grid is no tie,
    // so this keeps exactly what Math.round would, without its mispredicted jump.
    const scaled = value * 100;
    const cents = Math.abs(scaled) < EXACT_BELOW ? scaled + TO_INTEGER - TO_INTEGER : Math.round(scaled);
    if (cents / 100 !== value) break;
    paise[index - start] = cents;
    const size = Math.abs(cents);
    if (size > largest) largest = size;
  }
  block.onGridEnd = index;
  block.largest = largest;
}

/**
 * The paise of one column's values over the block being computed, shared by every grid SMA of
 * that column in a program (`sma(close, 10)` and `sma(close, 20)` convert and check each close
 * once, not once each). Valid for one (start, end) at a time; recomputed when asked for another.
 */
export class BlockPaise implements PaiseBlocks {
  private values: Float64Array | undefined;
  private start = -1;
  private end = -1;
  private readonly block = { paise: new Float64Array(0), onGridEnd: 0, largest: 0 };

  of(values: Float64Array, range: { readonly start: number; readonly end: number }): PaiseBlock {
    if (values !== this.values || range.start !== this.start || range.end !== this.end) {
      if (this.block.paise.length < range.end - range.start) this.block.paise = new Float64Array(Math.max(range.end - range.start, BLOCK_BARS));
      convertBlock(values, range, this.block);
      this.values = values;
      this.start = range.start;
      this.end = range.end;
    }
    return this.block;
  }
}

/**
 * Every block of one column's paise, each converted once and kept: what the whole-series SMAs of a
 * sweep's IndicatorCache share (each computes over the whole series, block after block, so a
 * BlockPaise would convert every block again for each of them: 65 conversions of the closes for
 * the 65 periods of a crossover sweep, against one). The same blocks a BlockPaise gives; blocks of
 * another column are a BlockPaise's.
 */
export class SeriesPaise implements PaiseBlocks {
  private readonly blocks = new Map<number, PaiseBlock & { readonly end: number }>();
  private readonly other = new BlockPaise();

  constructor(readonly values: Float64Array) {}

  of(values: Float64Array, range: { readonly start: number; readonly end: number }): PaiseBlock {
    if (values !== this.values) return this.other.of(values, range);
    const kept = this.blocks.get(range.start);
    if (kept !== undefined && kept.end === range.end) return kept;
    const block = { paise: new Float64Array(range.end - range.start), onGridEnd: 0, largest: 0, end: range.end };
    convertBlock(values, range, block);
    this.blocks.set(range.start, block);
    return block;
  }
}

/**
 * sma(column, period) while every value is on the paise grid: the integer rolling sum of paise
 * divided once by period x 100, exactly what RollingSum's grid path computes (SimpleMovingAverage
 * is NaN until `period` values), kept across blocks. The paise of the last `period` bars are kept
 * in a ring, so the one leaving the window is subtracted without converting it again; bars are
 * fed from bar 0 on, so bar i's slot is i mod period and, before the window fills, holds 0.
 */
export class GridSma {
  readonly period: number;
  private readonly largestPaise: number;
  private readonly divisor: number;
  private readonly ring: Float64Array;
  private slot = 0;
  private sumPaise = 0;

  constructor(period: number) {
    this.period = period;
    this.largestPaise = Math.floor(Number.MAX_SAFE_INTEGER / period);
    this.divisor = period * 100;
    this.ring = new Float64Array(period);
  }

  /**
   * Writes bars blockStart..end - 1 into `out` from `outOffset` (default 0); returns the first bar
   * it could not take (off the grid, NaN, or too large), or `end`. With `shared`, the block's paise
   * come from it (converted once for every SMA of the column).
   */
  run(values: Float64Array, range: { out: Float64Array; blockStart: number; end: number; outOffset?: number; shared?: PaiseBlocks | undefined }): number {
    const { out, blockStart, end, shared } = range;
    const shift = (range.outOffset ?? 0) - blockStart;
    // Fields in locals: the loop then reads no object.
    const period = this.period;
    const largestPaise = this.largestPaise;
    const divisor = this.divisor;
    const ring = this.ring;
    let slot = this.slot;
    let sumPaise = this.sumPaise;
    let index = blockStart;
    const block = shared?.of(values, { start: blockStart, end });
    if (block !== undefined && block.largest <= largestPaise) {
      const paise = block.paise;
      const stop = block.onGridEnd;
      // The block's first `period` bars take the value leaving the window from the ring (bars of
      // the block before); the rest read it in the block itself, `period` bars back, with no ring.
      const ringEnd = Math.min(stop, blockStart + period);
      for (; index < ringEnd; index += 1) {
        const entering = paise[index - blockStart] as number;
        // Whole numbers below 2^53: exact in any order, so the sum waits on one addition per bar, not two.
        sumPaise += entering - (ring[slot] as number);
        ring[slot] = entering;
        slot = slot + 1 === period ? 0 : slot + 1;
        out[index + shift] = index >= period - 1 ? sumPaise / divisor : Number.NaN;
      }
      if (index < stop) {
        // Every bar here is past the warm-up (index >= blockStart + period).
        for (let k = index - blockStart; k < stop - blockStart; k += 1) {
          sumPaise += (paise[k] as number) - (paise[k - period] as number);
          out[k + blockStart + shift] = sumPaise / divisor;
        }
        // The ring as the loop above would have left it: the last `period` bars, the oldest at `slot`.
        slot = (slot + (stop - index)) % period;
        for (let bar = stop - period; bar < stop; bar += 1) ring[(slot + bar - (stop - period)) % period] = paise[bar - blockStart] as number;
        index = stop;
      }
    }
    for (; index < end; index += 1) {
      const value = values[index] as number;
      // As convertBlock: the nearest whole number of paise, ties to even.
      const scaled = value * 100;
      const paise = Math.abs(scaled) < EXACT_BELOW ? scaled + TO_INTEGER - TO_INTEGER : Math.round(scaled);
      if (paise / 100 !== value || Math.abs(paise) > largestPaise) break;
      sumPaise += paise - (ring[slot] as number);
      ring[slot] = paise;
      slot = slot + 1 === period ? 0 : slot + 1;
      out[index + shift] = index >= period - 1 ? sumPaise / divisor : Number.NaN;
    }
    this.slot = slot;
    this.sumPaise = sumPaise;
    return index;
  }
}
