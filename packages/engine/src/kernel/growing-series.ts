// A bar series that grows one closed bar at a time: what the incremental kernel
// (incremental-kernel.ts) steps over live, in paper and in a replay.
//
// Why a fixed capacity: everything built over a series keeps references to its columns. The
// compiled program's steps capture `series.close` and friends when the program is created
// (language/expression-plan.ts: field and lookback steps), the underlying trader keeps
// `series.time`, the simulated venue and the option-legs pricer read the columns they were
// given. Replacing a column by a larger copy would leave them reading the old one. So the
// columns are allocated once at the capacity the caller states (warm-up bars + the bars until
// the run's end: a session of 1-minute bars is 375) and only `length` moves; a runner that
// outgrows it starts a new series, program and trader from its stored candles (a resume).
//
// Invariants: bars 0 .. length - 1 are final (never rewritten), except a bar opened with
// `openBar` until its `closeBar`: between the two it holds its open as high, low and close, and
// only the kernel's open step reads it (its time and open); times increase strictly; columns hold
// NaN beyond `length` (nothing may read there).
import type { BarSeries } from '../algorithm/program';

/** One closed bar: prices in rupees, `time` its open in epoch ms. */
export interface ClosedBar {
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume?: number;
  /** Open interest; NaN (unknown) when left out. */
  readonly oi?: number;
}

type Columns = Omit<BarSeries, 'length'>;

function nanColumn(capacity: number): Float64Array {
  return new Float64Array(capacity).fill(Number.NaN);
}

export class GrowingBarSeries implements BarSeries {
  /** Bars appended so far. */
  length = 0;
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  readonly oi: Float64Array;

  /**
   * Empty columns of `capacity` bars.
   * @example new GrowingBarSeries(375).capacity // 375
   */
  constructor(capacity: number | Columns) {
    if (typeof capacity !== 'number') {
      ({ time: this.time, open: this.open, high: this.high, low: this.low, close: this.close, volume: this.volume, oi: this.oi } = capacity);
      return;
    }
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`capacity: a whole number of bars above 0, got ${capacity}`);
    this.time = nanColumn(capacity);
    this.open = nanColumn(capacity);
    this.high = nanColumn(capacity);
    this.low = nanColumn(capacity);
    this.close = nanColumn(capacity);
    this.volume = nanColumn(capacity);
    this.oi = nanColumn(capacity);
  }

  /**
   * A series that grows inside columns already holding a stored range (a replay): appending bar
   * k writes it at k, as a fresh series would. Lets something precomputed over the whole range
   * share the series' time column (a futures chain: run-stepped.ts).
   */
  static over(stored: BarSeries): GrowingBarSeries {
    return new GrowingBarSeries({ time: stored.time, open: stored.open, high: stored.high, low: stored.low, close: stored.close, volume: stored.volume, oi: stored.oi });
  }

  /** Bars the columns hold. */
  get capacity(): number {
    return this.time.length;
  }

  /**
   * Appends a closed bar and returns its index. Throws RangeError when the series is full or the
   * bar does not start after the last one (a broken invariant of the candle builder, not input).
   * @example series.append({ time, open: 100, high: 101, low: 99, close: 100.5 }) // 0
   */
  append(bar: ClosedBar): number {
    if (this.forming) throw new RangeError(`bar ${this.length - 1} is still forming: close it (closeBar) first`);
    const index = this.length;
    if (index >= this.time.length) throw new RangeError(`the series is full (${this.time.length} bars): start a new one from the stored candles`);
    if (index > 0 && !(bar.time > (this.time[index - 1] as number))) throw new RangeError(`bar ${index} at ${bar.time} does not start after bar ${index - 1}`);
    this.time[index] = bar.time;
    this.open[index] = bar.open;
    this.high[index] = bar.high;
    this.low[index] = bar.low;
    this.close[index] = bar.close;
    this.volume[index] = bar.volume ?? 0;
    this.oi[index] = bar.oi ?? Number.NaN;
    this.length = index + 1;
    return index;
  }

  /**
   * A bar's first tick: appends the bar with its open as high, low and close, to be finished by
   * `closeBar`. Returns its index.
   * @example series.openBar({ time, open: 100 }) // 0; then series.closeBar({ time, open: 100, high: 101, low: 99, close: 100.5 })
   */
  openBar(bar: { readonly time: number; readonly open: number }): number {
    const index = this.append({ time: bar.time, open: bar.open, high: bar.open, low: bar.open, close: bar.open });
    this.forming = true;
    return index;
  }

  /** Finishes the bar `openBar` appended: the same time and open, its high, low, close and volume. */
  closeBar(bar: ClosedBar): number {
    const index = this.length - 1;
    if (!this.forming) throw new RangeError('no bar is forming: openBar first');
    if (bar.time !== this.time[index] || bar.open !== this.open[index]) {
      throw new RangeError(`the closing bar (${bar.time}, open ${bar.open}) is not the one opened (${this.time[index]}, open ${this.open[index]})`);
    }
    this.high[index] = bar.high;
    this.low[index] = bar.low;
    this.close[index] = bar.close;
    this.volume[index] = bar.volume ?? 0;
    this.oi[index] = bar.oi ?? Number.NaN;
    this.forming = false;
    return index;
  }

  /** True between `openBar` and `closeBar`. */
  get isForming(): boolean {
    return this.forming;
  }

  private forming = false;
}
