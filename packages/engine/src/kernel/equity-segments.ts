// A whole run's equity column kept as runs of bars instead of one value per bar, built only when
// somebody reads it. Between two fills the equity of a run on one instrument is either constant
// (flat: the cash) or cash + units x the bar's close in paise (held), so a run of a million bars
// with a few tens of thousands of trades keeps a few tens of thousands of runs: the kernel then
// writes no column the length of the series (whose fresh pages cost more than the run's own work
// on a VM that takes freed pages back), and a consumer that reads only the summary never pays.
import { rupeesToPaise } from '@vyuha/core';

const FIRST_CAPACITY = 4096;

/**
 * Equity with `units` held beside `cash` at a bar whose mark price is `price` rupees: the one sum
 * the kernel marks held bars with and this column is rebuilt with, so both give the same bits.
 */
export function heldEquity(cash: number, units: number, price: number): number {
  return cash + units * rupeesToPaise(price);
}

export class EquitySegments {
  /** Each run's end bar (exclusive); a run starts where the one before it ends. */
  private ends = new Int32Array(FIRST_CAPACITY);
  private cash = new Float64Array(FIRST_CAPACITY);
  /** Units held through the run; NaN: the run's equity is `cash` on every bar. */
  private units = new Float64Array(FIRST_CAPACITY);
  private count = 0;
  /** What is held from now on (`hold`): the cash and the units of the next held bars. */
  private holdCash = 0;
  private holdUnits = 0;

  /** `prices`: the column the held value is marked at (the trader's markPrices). */
  constructor(private prices: Float64Array) {}

  /**
   * Empties these segments for another run marked at `prices`, keeping their buffers: a sweep's
   * runs reuse one set (run-sweep.ts SweepScratch), so a run allocates none. What an earlier run
   * recorded here is gone: its result must have been read before.
   */
  restart(prices: Float64Array): this {
    this.prices = prices;
    this.count = 0;
    this.holdCash = 0;
    this.holdUnits = 0;
    return this;
  }

  /** Bars recorded so far: the next record starts here. */
  get bars(): number {
    return this.count === 0 ? 0 : (this.ends[this.count - 1] as number);
  }

  /** From now on `units` are held (0: flat) with `cash` besides them. */
  hold(cash: number, units: number): void {
    this.holdCash = cash;
    this.holdUnits = units;
  }

  /**
   * Bar `index` (the next bar) closed at `equity`, what `hold` said held after it: kept as part of
   * a held run when cash + units x its close is that equity exactly, else as a constant.
   */
  bar(index: number, equity: number): void {
    const units = this.holdUnits;
    if (units !== 0 && equity === heldEquity(this.holdCash, units, this.prices[index] as number)) this.held(index, index + 1);
    else this.constant(index, index + 1, equity);
  }

  /** Bars from .. to - 1 (the next ones) are all at `value`. */
  constant(from: number, to: number, value: number): void {
    const last = this.count - 1;
    this.requireNext(from);
    if (last >= 0 && this.units[last] !== this.units[last] && Object.is(this.cash[last], value)) this.ends[last] = to;
    else this.push(to, value, Number.NaN);
  }

  /** Bars from .. to - 1 (the next ones) are each at cash + units x their close in paise, as `hold` said. */
  held(from: number, to: number): void {
    const last = this.count - 1;
    const cash = this.holdCash;
    const units = this.holdUnits;
    this.requireNext(from);
    if (last >= 0 && this.units[last] === units && Object.is(this.cash[last], cash)) this.ends[last] = to;
    else this.push(to, cash, units);
  }

  /**
   * The equity column of the bars recorded, each value exactly the one the run computed: in the
   * first values of `into` (at least `bars` long) when given, else a new column.
   */
  column(into?: Float64Array): Float64Array {
    const equity = into === undefined ? new Float64Array(this.bars) : into.subarray(0, this.bars);
    const prices = this.prices;
    let from = 0;
    for (let run = 0; run < this.count; run += 1) {
      const to = this.ends[run] as number;
      const cash = this.cash[run] as number;
      const units = this.units[run] as number;
      if (units !== units) equity.fill(cash, from, to);
      else for (let bar = from; bar < to; bar += 1) equity[bar] = heldEquity(cash, units, prices[bar] as number);
      from = to;
    }
    return equity;
  }

  /**
   * Gives `sink` the equity of bars `range.from` .. `range.to` - 1 (recorded ones) in order, the
   * value of a constant run once: for a sink that follows running extremes (DeepestFall), where a
   * value repeated changes nothing, this is that part of the column read without writing it.
   */
  feedRuns(range: { readonly from: number; readonly to: number }, sink: { add(value: number): void }): void {
    const prices = this.prices;
    const { from, to } = range;
    let start = 0;
    for (let run = 0; run < this.count && start < to; run += 1) {
      const end = Math.min(this.ends[run] as number, to);
      if (end > from) {
        const cash = this.cash[run] as number;
        const units = this.units[run] as number;
        if (units !== units) sink.add(cash);
        else for (let bar = Math.max(start, from); bar < end; bar += 1) sink.add(heldEquity(cash, units, prices[bar] as number));
      }
      start = this.ends[run] as number;
    }
  }

  /** A new run ending at `to`; units NaN: constant. */
  private push(to: number, cash: number, units: number): void {
    if (this.count === this.ends.length) this.grow();
    this.ends[this.count] = to;
    this.cash[this.count] = cash;
    this.units[this.count] = units;
    this.count += 1;
  }

  private requireNext(from: number): void {
    const bars = this.bars;
    if (from !== bars) throw new RangeError(`equity: bar ${from} recorded after bar ${bars - 1} (bars are recorded in order, each once)`);
  }

  private grow(): void {
    const capacity = this.ends.length * 2;
    const ends = new Int32Array(capacity);
    ends.set(this.ends);
    const cash = new Float64Array(capacity);
    cash.set(this.cash);
    const units = new Float64Array(capacity);
    units.set(this.units);
    this.ends = ends;
    this.cash = cash;
    this.units = units;
  }
}
