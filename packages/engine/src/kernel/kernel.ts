// The event loop: one pass over the bars, the same for backtest, paper and live. `run` walks a
// whole series (skipping ahead where nothing can happen); `step` processes one closed bar of a
// growing series (incremental-kernel.ts); both go through the same `processBar`.
//
// Per bar i (see trader.ts for the trader's half):
//   a. new IST day: the previous day's row is closed; intraday, orders still waiting are dropped.
//   b. `entriesAllowed` for this bar: swing always (unless a daily limit was hit); intraday only
//      before the entry cut-off (bar stamped before it), and not on the session's last bar.
//   c. trader.onBarOpen(i): pending fills at the open.
//   d. intraday square-off: on the first bar of the day stamped at or after the square-off time
//      (15:15 by default), everything is closed at that bar's OPEN, i.e. at the first price at or
//      after 15:15 (a gap in the data makes it the first bar after the gap). If the session has no
//      such bar (a shortened session, or data that stops early), its last bar closes everything
//      at its close.
//   d2. trader.onBarPath(i): stops, targets and trailing stops inside the bar. After the
//      square-off at the open, never before it: at the open nobody knows the rest of the bar, so
//      a stop later in that bar cannot pre-empt the square-off (a live run could not do it).
//   Steps a-d are the bar's first tick (`openBar`, stepped live: only its open is known); d2-h
//   its close (`closeBar`). "Last bar of the day" is read from the next bar's date, a look at the time
//      stamp only, never at a price. Stepped (`step`, incremental-kernel.ts) there is no next
//      bar yet: the caller says whether the bar ends its day (the session calendar) or the data.
//   e. daily limits (optional): if the day's P&L at this close (realised + open, after charges)
//      is at or beyond -maxLoss or +maxProfit, everything is closed at this close and no entry
//      is allowed for the rest of the day. Checked at bar closes only.
//   f. program.onBar(i) at the close (every bar, warm-up included), then trader.onSignal.
//   g. intraday last bar of the day: square off at its close; last bar of the data: close what is
//      open at the close as `end-of-data` (that reason wins on the data's last bar).
//   g2. trader.onBarClose(i) when the trader has one (options settle at their expiry's close).
//   h. equity[i] = cash + open positions at this close (a column, or runs of bars: equity-segments.ts), and the deepest fall below its running peak so far
//      (the drawdown curve itself is derived from equity when read: `drawdownCurve`).
import { paiseToRupees, type IsoDate } from '@vyuha/core';
import type { SignalProgram } from '../algorithm/program';
import { SIGNAL_NONE } from '../algorithm/program';
import { DeepestFall } from '../metrics/drawdown';
import type { FallDepth } from '../metrics/drawdown';
import { EquitySegments, heldEquity } from './equity-segments';
import { firstAtOrAfter } from './sorted-search';
import type { Ledger } from './ledger';
import type { Clock, Feed } from './ports';
import { IST_OFFSET_MS } from '@vyuha/core';
import { barCloseTime, inferBarMilliseconds, istEpochDay, MS_PER_DAY, MS_PER_MINUTE, SESSION_END_MINUTE, sessionDate } from './session-clock';
import type { BarMoment, ExitReason, SessionState, Trader, TraderFactory } from './trader';

// The kernel's own exits, allocated once (no allocation per bar).
const SQUARE_OFF_AT_OPEN: { reason: ExitReason; moment: BarMoment } = { reason: 'square-off', moment: 'open' };
const SQUARE_OFF_AT_CLOSE: { reason: ExitReason; moment: BarMoment } = { reason: 'square-off', moment: 'close' };
const END_OF_DATA: { reason: ExitReason; moment: BarMoment } = { reason: 'end-of-data', moment: 'close' };
const DAILY_LIMIT: { reason: ExitReason; moment: BarMoment } = { reason: 'daily-limit', moment: 'close' };
// Module-local copies of imported constants read on every bar: a transpiled import can be a
// getter call per read, a local const is not.
const NO_SIGNAL = SIGNAL_NONE;
const MINUTE_MS = MS_PER_MINUTE;
/** Bars whose time and open a skipping run reads ahead in one pass (`warm`), and the doubles in a 64-byte cache line. */
const WARM_BARS = 2048;
const DOUBLES_PER_LINE = 8;

/** When a strategy may hold positions. Times are IST minutes of the day; money limits in paise (positive). */
export interface SessionRules {
  readonly type: 'intraday' | 'swing';
  readonly entryCutoffMinute: number;
  readonly squareOffMinute: number;
  readonly dailyMaxLoss?: number;
  readonly dailyMaxProfit?: number;
}

export interface KernelOptions {
  readonly feed: Feed;
  readonly clock: Clock;
  readonly program: SignalProgram;
  readonly ledger: Ledger;
  readonly trader: TraderFactory;
  readonly rules: SessionRules;
  /** A whole run: the bar length `inferBarMilliseconds` gives for the series, when the caller has it already (`scanBarTimes`). */
  readonly barMilliseconds?: number;
  /** Incremental mode: bars are given one at a time to `step` as they close; `run` is refused. */
  readonly stepping?: KernelStepping;
  /**
   * A whole run: its equity column is the first `series.length` values of this buffer (every one of
   * them written, bar by bar or when the column is built from its runs, so old values never show)
   * instead of a new column.
   */
  readonly equity?: Float64Array;
  /**
   * A whole run kept as runs of bars (equity-segments.ts): these segments, emptied and written by
   * this run (`restart`), instead of new ones; its equity reads them until another run takes them.
   */
  readonly segments?: EquitySegments;
}

/** What a stepped kernel needs that a whole series would tell it (incremental-kernel.ts). */
export interface KernelStepping {
  /** The bar length in ms that `inferBarMilliseconds` gives for the whole series (Infinity: one bar per day). */
  readonly barMilliseconds: number;
  /** Bars before this index are history: the program runs on them (warm-up), their signals are dropped. Default 0. */
  readonly signalsFrom?: number;
}

/** How a stepped bar ends: its session's last bar, the data's last bar (the run stops after it). */
export interface BarEnding {
  readonly lastOfDay: boolean;
  readonly lastOfData: boolean;
}

/**
 * The kernel's SessionState. `closeTime` is set with `barTime` (openBar): a bar inside the session
 * ends at start + bar length, never after 15:30 (see barCloseTime). A field, not a getter: a
 * trader reads it for every order and fill, and a double returned by a call that is not inlined
 * is a heap allocation.
 */
class KernelSession implements SessionState {
  index = 0;
  date = '1970-01-01' as IsoDate;
  minuteOfDay = 0;
  entriesAllowed = true;
  barTime = 0;
  closeTime = 0;
  sessionEnd = 0;

  constructor(readonly barMilliseconds: number) {}
}

/**
 * Equity minus its running peak at each bar, paise (<= 0), from the equity column.
 * @example drawdownCurve(Float64Array.of(100, 120, 90, 130)) // [0, 0, -30, 0]
 */
export function drawdownCurve(equity: Float64Array): Float64Array {
  const drawdown = new Float64Array(equity.length);
  let peak = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < equity.length; index += 1) {
    const value = equity[index] as number;
    if (value > peak) peak = value;
    drawdown[index] = value - peak;
  }
  return drawdown;
}

/** The caller's buffer cut to `length` bars. Throws RangeError for a buffer too short. */
function equityColumn(buffer: Float64Array, length: number): Float64Array {
  if (buffer.length < length) throw new RangeError(`equity: the buffer holds ${buffer.length} values, the series ${length} bars`);
  return buffer.length === length ? buffer : buffer.subarray(0, length);
}

export class Kernel {
  /**
   * Equity in paise at each bar's close, written bar by bar: stepped runs, a caller's buffer, a
   * trader without a linear mark (`markPrices`), a run that cannot skip. Otherwise undefined and
   * `segments` keep it (the column is built when `equity` is read).
   */
  private readonly column: Float64Array | undefined;
  private readonly segments: EquitySegments | undefined;
  private built: Float64Array | undefined;
  /** Equity at the close of the last bar processed or marked (the next day's start equity). */
  private lastEquity: number;
  /** The trader's linear mark (trader.ts `markPrices`), when it has one. */
  private readonly markPrices: Float64Array | undefined;
  /**
   * The deepest fall of the equity below its running peak over the bars so far, bar 0's equity the
   * first peak: its depth is the summary's drawdown, and with its percentage what a sweep measures
   * (`fallFrom`), so a sweep run does not feed its bars a second time.
   */
  private fall = new DeepestFall(Number.NEGATIVE_INFINITY);
  /** Bars whose equity `fall` has taken. */
  private fallBars = 0;
  /** Equity at the close of bar 0 (NaN before it). */
  private firstEquity = Number.NaN;
  readonly trader: Trader;
  /** Bars whose close found a position open. */
  barsInMarket = 0;
  private readonly session: KernelSession;
  private readonly barMilliseconds: number;
  // Hoisted from the options so the per-bar path reads own fields only.
  private readonly time: Float64Array;
  private readonly open: Float64Array;
  /** What `warm` read, summed (never used). */
  private warmth = 0;
  /** dayEndIn's range, reused. */
  private readonly dayRange = { from: 0, to: 0, target: Number.NaN };
  private readonly length: number;
  private readonly program: SignalProgram;
  private readonly ledger: Ledger;
  private readonly clock: Clock;
  private readonly intraday: boolean;
  private readonly entryCutoffMinute: number;
  private readonly squareOffMinute: number;
  // The current IST day as epoch ms bounds: [dayStart, nextDayStart), and its 15:30 close.
  private dayStart = Number.NaN;
  private nextDayStart = Number.NEGATIVE_INFINITY;
  private dayStartEquity: number;
  private limitHit = false;
  private readonly hasDailyLimits: boolean;
  /** The trader's optional end-of-bar hook, looked up once. */
  private readonly barClose: ((index: number) => void) | undefined;
  private squaredOff = false;
  /**
   * Intraday, found when a held position first skips in the day (findDayEnds; -1 until then): the
   * first bar of a later day (the series' length when none), and the day's first bar stamped at
   * or after the square-off time (dayEndBar when none).
   */
  private dayEndBar = -1;
  private squareOffBar = -1;
  // Stepped mode (`step`): the current bar's ending comes from the caller, not the next bar.
  private readonly stepped: boolean;
  private readonly signalsFrom: number;
  private endsDay = false;
  private endsData = false;
  /** The bar between `openBar` and `closeBar`: whether it ends its day, and the data. */
  private lastOfDay = false;
  private lastOfData = false;
  /** Stepped: the last stepped bar did not end its day (its row is not written yet). */
  private dayOpen = false;
  /** Stepped: a bar was opened (`stepOpen`) and not closed yet. */
  private barOpen = false;
  /** Bars processed by `step` so far. */
  steppedBars = 0;
  /**
   * A paused strategy (live): no entry while true, from the next bar's open on; exits, stops and
   * square-offs go on. A backtest never sets it.
   */
  entriesPaused = false;

  constructor(private readonly options: KernelOptions) {
    const { series } = options.feed;
    const stepping = options.stepping;
    this.stepped = stepping !== undefined;
    this.signalsFrom = stepping?.signalsFrom ?? 0;
    this.barMilliseconds = stepping === undefined ? options.barMilliseconds ?? inferBarMilliseconds(series) : stepping.barMilliseconds;
    this.time = series.time;
    this.open = series.open;
    this.length = series.length;
    this.program = options.program;
    this.ledger = options.ledger;
    this.clock = options.clock;
    this.intraday = options.rules.type === 'intraday';
    this.entryCutoffMinute = options.rules.entryCutoffMinute;
    this.squareOffMinute = options.rules.squareOffMinute;
    this.dayStartEquity = options.ledger.cash;
    this.lastEquity = options.ledger.cash;
    this.hasDailyLimits = options.rules.dailyMaxLoss !== undefined || options.rules.dailyMaxProfit !== undefined;
    this.session = new KernelSession(this.barMilliseconds);
    this.trader = options.trader({ series, ledger: options.ledger, session: this.session });
    // Called with the trader as `this`.
    this.barClose = this.trader.onBarClose;
    this.markPrices = this.trader.heldUnits === undefined ? undefined : this.trader.markPrices;
    const segmented = stepping === undefined && this.markPrices !== undefined && this.canSkip();
    this.segments = !segmented ? undefined : options.segments?.restart(this.markPrices as Float64Array) ?? new EquitySegments(this.markPrices as Float64Array);
    // A caller's buffer is checked now, whether it is written bar by bar or when the column is built.
    const buffer = options.equity === undefined ? undefined : equityColumn(options.equity, series.length);
    // Stepped, the series grows inside columns of a fixed capacity: equity is sized to it.
    this.column = segmented ? undefined : stepping === undefined ? buffer ?? new Float64Array(series.length) : new Float64Array(series.time.length);
  }

  /**
   * Equity in paise at each bar's close: a whole run's bars (stepped: the column's capacity, of
   * which the first `steppedBars` are written). Kept as runs of bars, it is built on first read.
   */
  get equity(): Float64Array {
    if (this.column !== undefined) return this.column;
    this.built ??= (this.segments as EquitySegments).column(this.options.equity);
    return this.built;
  }

  /**
   * Gives `sink` the equity of bars `range.from` .. `range.to` - 1 in order, as
   * EquitySegments.feedRuns does: a sink of running extremes (a sweep's DeepestFall) reads a run
   * kept as runs of bars without its column being built.
   */
  feedEquity(range: { readonly from: number; readonly to: number }, sink: { add(value: number): void }): void {
    if (this.column === undefined && this.built === undefined) {
      (this.segments as EquitySegments).feedRuns(range, sink);
      return;
    }
    const equity = this.equity;
    for (let bar = range.from; bar < Math.min(range.to, equity.length); bar += 1) sink.add(equity[bar] as number);
  }

  /** The most negative drawdown so far (0 when equity never fell below a peak). */
  get deepestDrawdown(): number {
    // 0 - depth, not -depth: no drawdown is 0, not -0.
    return 0 - this.fall.depth;
  }

  /**
   * What `new DeepestFall(start)` fed the equity of bars 0 .. bars - 1 would read, from the
   * kernel's own fall: when those are the bars so far and bar 0's equity is at or above `start`
   * (from bar 0 on, the two falls are then the same); undefined otherwise (feed `feedEquity`).
   */
  fallFrom(start: number, bars: number): FallDepth | undefined {
    if (bars !== this.fallBars || !(this.firstEquity >= start)) return undefined;
    return { depth: this.fall.depth, depthPercent: this.fall.depthPercent };
  }

  /** Equity at the close of the last bar processed (the starting cash before any). */
  get endingEquity(): number {
    return this.lastEquity;
  }

  /**
   * Runs every bar of the feed in order. When the program can say where its next signal is and
   * the trader has nothing to watch (see `canSkip`), the bars up to that signal are only marked
   * to market (`markBars`): every step a-h would do nothing else on them. The last bar of the
   * data is always processed in full; intraday with a position open, so are the day's square-off
   * bar and its last bar (`intradayHoldEnd`).
   */
  run(): void {
    if (this.stepped) throw new Error('a stepped kernel is driven by step(), one closed bar at a time');
    const length = this.length;
    const skipping = this.canSkip();
    let index = 0;
    let warmed = 0;
    while (index < length) {
      if (skipping && index >= warmed) warmed = this.warm(index);
      this.processBar(index);
      index += 1;
      if (!skipping || index >= length - 1 || !this.quiescent()) continue;
      const position = this.trader.position.position;
      // The bar the skip must stop at whatever the signals: the data's last, or intraday with a position open its day's square-off.
      const limit = this.intraday && position !== 0 ? this.intradayHoldEnd(index, length - 1) : length - 1;
      if (limit <= index) continue;
      const target = (this.program.nextSignalBar as (from: number, position: number, before: number) => number)(index, position, limit);
      if (target > index) {
        this.markBars(index, target);
        index = target;
      }
    }
  }

  /**
   * Reads the time and open columns over the WARM_BARS bars from `from`, one value per 64-byte
   * line, and returns the bar after them. A skipping run reads these columns only at scattered
   * bars (where a skip ends, and the fill at the next open): read there first, each is a miss to
   * memory, where a pass in order is streamed in ahead by the processor. The crossover's 1 M bars,
   * 80 runs alternating with and without in one process, three processes: 1.3-1.6 ms a run less
   * (of 36-38) on a quiet machine.
   */
  private warm(from: number): number {
    const to = Math.min(this.length, from + WARM_BARS);
    const time = this.time;
    const open = this.open;
    let sum = 0;
    for (let bar = from; bar < to; bar += DOUBLES_PER_LINE) sum += (time[bar] as number) + (open[bar] as number);
    // Kept, so that the reads are not optimised away.
    this.warmth = sum;
    return to;
  }

  /**
   * Skipping is allowed when the program offers nextSignalBar and the trader isQuiescent, and no
   * per-bar rule other than the signal can act: no daily limits (they read every close) and no
   * end-of-bar trader hook.
   */
  private canSkip(): boolean {
    return this.program.nextSignalBar !== undefined && this.trader.isQuiescent !== undefined
      && !this.hasDailyLimits && this.barClose === undefined;
  }

  /** Whether the bars after the current one may be skipped: the trader waits (intraday with a position open, only up to `intradayHoldEnd`). */
  private quiescent(): boolean {
    const trader = this.trader;
    return (trader.isQuiescent as () => boolean).call(trader);
  }

  /**
   * Intraday with a position open from bar `from` (a bar of the current day: a position never
   * outlives its day's last bar), the bar up to which the skip may go, at most `to`: the day's
   * first bar stamped at or after the square-off time (step d closes the position at its open),
   * or the day's last bar (step g closes it at its close), whichever comes first. Both are then
   * processed in full, so every square-off happens exactly as bar by bar.
   */
  private intradayHoldEnd(from: number, to: number): number {
    if (this.dayEndBar < 0) this.findDayEnds(from);
    // The bar before the first of a later day is the day's last.
    const laterDay = this.dayEndBar;
    const limit = laterDay <= to ? laterDay - 1 : to;
    if (this.squaredOff) return limit;
    // The square-off bar's test holds on a suffix of the day's bars: from it on, so from max(from, it).
    const squareOff = this.squareOffBar;
    return squareOff <= limit ? Math.max(from, squareOff) : limit;
  }

  /**
   * The current day's `dayEndBar` and `squareOffBar`, searched from bar `from` (a bar of the day)
   * once a day: a held position's skips then each read them, instead of searching the times
   * again (a search's reads are far apart, each a cache miss). Times increase strictly, so the
   * bars of later days, and the day's bars at or after the square-off time (step d's test), are
   * suffixes: the first of each by binary search.
   */
  private findDayEnds(from: number): void {
    const time = this.time;
    const dayEnd = this.dayEndIn(from, this.length);
    let low = from;
    let high = dayEnd;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (Math.floor(((time[middle] as number) - this.dayStart) / MINUTE_MS) >= this.squareOffMinute) high = middle;
      else low = middle + 1;
    }
    this.dayEndBar = dayEnd;
    this.squareOffBar = low;
  }

  /**
   * Bars `from` .. `to` - 1 where nothing can happen: steps a and h only (day rows, equity,
   * drawdown), exactly as processBar computes them. Intraday, a skipped bar at or after the
   * square-off time counts as the day's square-off (nothing was open to close).
   */
  private markBars(from: number, to: number): void {
    const time = this.time;
    const trader = this.trader;
    const ledger = this.ledger;
    const column = this.column;
    const segments = this.segments;
    const prices = this.markPrices;
    const cash = ledger.cash;
    const inMarket = trader.position.position !== 0;
    const units = inMarket && prices !== undefined ? (trader.heldUnits as () => number).call(trader) : 0;
    // Nothing trades in the range: it is one run of bars, or its marks are written in one pass.
    if (segments !== undefined) {
      if (inMarket) {
        segments.hold(cash, units);
        segments.held(from, to);
      } else segments.constant(from, to, cash);
    } else if (inMarket) {
      const equity = column as Float64Array;
      if (prices !== undefined) for (let bar = from; bar < to; bar += 1) equity[bar] = heldEquity(cash, units, prices[bar] as number);
      else for (let bar = from; bar < to; bar += 1) equity[bar] = cash + trader.markToMarket(bar);
    }
    const fall = this.fall;
    let last = this.lastEquity;
    let index = from;
    // One day's bars at a time: [index, dayEnd) share a day, so its rules are read once.
    while (index < to) {
      const barTime = time[index] as number;
      if (barTime >= this.nextDayStart) {
        this.lastEquity = last;
        this.startDay(index);
      }
      const dayEnd = this.dayEndIn(index + 1, to);
      // Times increase, so the day's last skipped bar is at or after the square-off when any is.
      if (this.intraday && !this.squaredOff && ((time[dayEnd - 1] as number) - this.dayStart) / MINUTE_MS >= this.squareOffMinute) this.squaredOff = true;
      if (!inMarket) {
        // A loop, not TypedArray fill: over a few dozen values the builtin's call costs more.
        if (column !== undefined) for (let bar = index; bar < dayEnd; bar += 1) column[bar] = cash;
        // A run of equal values: taking it once is taking every bar of it.
        fall.add(cash);
        last = cash;
      } else {
        for (let bar = index; bar < dayEnd; bar += 1) {
          // The same sum the column holds (or will be built with) for this bar.
          const equity = column === undefined ? heldEquity(cash, units, (prices as Float64Array)[bar] as number) : column[bar] as number;
          fall.add(equity);
          last = equity;
        }
      }
      // `to` is at most the data's last bar, so bar `dayEnd` exists.
      if ((time[dayEnd] as number) >= this.nextDayStart) ledger.closeDay(this.session.date, last - this.dayStartEquity);
      index = dayEnd;
    }
    this.lastEquity = last;
    this.fallBars += to - from;
    if (inMarket) this.barsInMarket += to - from;
  }

  /** The first bar in [from, to) of a later day than the current one (times increase strictly: a galloping search); `to` when none is. */
  private dayEndIn(from: number, to: number): number {
    const time = this.time;
    const target = this.nextDayStart;
    // Most skips end inside the day they start in: one comparison instead of a search.
    if ((time[to - 1] as number) < target) return to;
    const range = this.dayRange;
    range.from = from;
    range.to = to;
    range.target = target;
    return firstAtOrAfter(time, range);
  }

  /**
   * Stepped mode: processes the next bar (`steppedBars`), which the series must already hold,
   * exactly as `run` would, with no skipping; `ending` says what `run` reads from the next bar.
   * After a bar that ends the data nothing more may be stepped. A bar of a later day while the
   * previous day is still open (its data stopped before the close and nobody said so) first ends
   * that day (`endDay`), so no day row is lost and no intraday position is carried overnight.
   */
  step(ending: BarEnding): void {
    this.stepOpen(ending);
    this.stepClose();
  }

  /**
   * Stepped mode, a bar's first tick: steps a-d of the next bar (`steppedBars`), which the series
   * must hold with at least its time and open (GrowingBarSeries.openBar). `stepClose` finishes it.
   */
  stepOpen(ending: BarEnding): void {
    const index = this.steppedBars;
    if (!this.stepped) throw new Error('step() needs a kernel built with `stepping`');
    if (this.barOpen) throw new Error(`bar ${index - 1} is open: close it (stepClose) first`);
    if (this.endsData) throw new Error('the run has ended: its last bar was stepped');
    if (index >= this.options.feed.series.length) throw new RangeError(`bar ${index} has not opened yet (the series holds ${this.options.feed.series.length})`);
    if (this.dayOpen && (this.time[index] as number) >= this.nextDayStart) this.endDay();
    this.endsDay = ending.lastOfDay;
    this.endsData = ending.lastOfData;
    this.steppedBars = index + 1;
    this.barOpen = true;
    this.openBar(index);
  }

  /**
   * Stepped mode, the bar's close: steps d2-h of the bar `stepOpen` opened, whose high, low and
   * close the series now holds. `endsData` (a stop asked for during the bar) makes it the data's
   * last bar from here on: what is open closes at its close.
   */
  stepClose(options: { readonly endsData?: boolean } = {}): void {
    if (!this.barOpen) throw new Error('no bar is open: stepOpen first');
    this.barOpen = false;
    if (options.endsData === true) {
      this.endsData = true;
      this.lastOfData = true;
      this.lastOfDay = true;
    }
    this.closeBar(this.steppedBars - 1);
    this.dayOpen = !this.endsDay && !this.endsData;
  }

  /** Stepped: true between `stepOpen` and `stepClose`. */
  get isBarOpen(): boolean {
    return this.barOpen;
  }

  /**
   * Stepped: ends the day of the last stepped bar when that bar did not end it (the day's data
   * stopped before the session's close; the runtime calls this when its clock passes the close).
   * As a backtest does at a day's last bar: intraday, what is open is squared off at that bar's
   * close; the day row is written; that bar's equity, exposure and the drawdown include it. One
   * difference remains: the bar's signal was taken with entries allowed (a backtest, seeing the
   * next bar on a later day, allows none on an intraday day's last bar). Nothing when the day has
   * ended already.
   */
  endDay(): void {
    if (this.barOpen) throw new Error('a bar is open: close it (stepClose) before ending its day');
    if (!this.dayOpen) return;
    this.dayOpen = false;
    const index = this.steppedBars - 1;
    const ledger = this.ledger;
    const trader = this.trader;
    if (this.intraday) {
      const wasOpen = trader.position.position !== 0;
      const changes = ledger.changes;
      this.session.entriesAllowed = false;
      trader.squareOff(index, SQUARE_OFF_AT_CLOSE);
      if (wasOpen && trader.position.position === 0) this.barsInMarket -= 1;
      if (ledger.changes !== changes) {
        // Stepped, so the column is written bar by bar.
        const column = this.column as Float64Array;
        column[index] = ledger.cash + trader.markToMarket(index);
        this.lastEquity = column[index] as number;
        // The deepest fall so far, again over bars 0 .. index (a rare path).
        const fall = new DeepestFall(Number.NEGATIVE_INFINITY);
        for (const value of column.subarray(0, index + 1)) fall.add(value);
        this.fall = fall;
        if (index === 0) this.firstEquity = this.lastEquity;
      }
    }
    ledger.closeDay(this.session.date, this.lastEquity - this.dayStartEquity);
  }

  /** One bar, steps a-h above. */
  processBar(index: number): void {
    this.openBar(index);
    this.closeBar(index);
  }

  /** Steps a-d of bar `index` (its first tick): a new day, entries allowed, fills at the open, the square-off at the open. */
  openBar(index: number): void {
    const barTime = this.time[index] as number;
    if (barTime >= this.nextDayStart) this.startDay(index);
    const stepped = this.stepped;
    const lastOfData = stepped ? this.endsData : index === this.length - 1;
    const lastOfDay = lastOfData || (stepped ? this.endsDay : (this.time[index + 1] as number) >= this.nextDayStart);
    this.lastOfDay = lastOfDay;
    this.lastOfData = lastOfData;
    const session = this.session;
    session.index = index;
    session.minuteOfDay = Math.floor((barTime - this.dayStart) / MINUTE_MS);
    session.barTime = barTime;
    const barEnd = barTime + session.barMilliseconds;
    session.closeTime = barTime >= session.sessionEnd ? barCloseTime(barTime, session.barMilliseconds) : barEnd < session.sessionEnd ? barEnd : session.sessionEnd;
    this.clock.advanceTo(barTime);
    const trader = this.trader;
    if (this.intraday) {
      session.entriesAllowed = !this.limitHit && !this.entriesPaused && session.minuteOfDay < this.entryCutoffMinute && !lastOfDay;
      trader.onBarOpen(index);
      this.squareOffAtOpen(index);
    } else {
      session.entriesAllowed = !this.limitHit && !this.entriesPaused;
      trader.onBarOpen(index);
    }
  }

  /** Steps d2-h of bar `index` (its close), after `openBar(index)`. */
  closeBar(index: number): void {
    const trader = this.trader;
    const session = this.session;
    const lastOfDay = this.lastOfDay;
    const lastOfData = this.lastOfData;
    trader.onBarPath(index);
    if (this.hasDailyLimits) this.checkDailyLimits(index);
    const ledger = this.ledger;
    const position = trader.position;
    // The mark to market at this close changes only through a fill, so it is computed once per
    // bar and again only when the signal or a square-off filled something.
    const changesBefore = ledger.changes;
    const openValue = trader.markToMarket(index);
    position.dayPnl = paiseToRupees(ledger.cash + openValue - this.dayStartEquity);
    const signal = this.program.onBar(index, position);
    if (signal !== NO_SIGNAL && index >= this.signalsFrom) trader.onSignal(index, signal);
    if (lastOfDay) this.squareOffAtClose(index, lastOfData);
    if (this.barClose !== undefined) this.barClose.call(trader, index);
    if (position.position !== 0) this.barsInMarket += 1;
    const equity = ledger.cash + (ledger.changes === changesBefore ? openValue : trader.markToMarket(index));
    const segments = this.segments;
    if (segments === undefined) (this.column as Float64Array)[index] = equity;
    else {
      segments.hold(ledger.cash, (trader.heldUnits as () => number).call(trader));
      segments.bar(index, equity);
    }
    this.lastEquity = equity;
    if (index === 0) this.firstEquity = equity;
    this.fall.add(equity);
    this.fallBars += 1;
    if (lastOfDay) ledger.closeDay(session.date, equity - this.dayStartEquity);
  }

  /** Step d: the intraday square-off on the first bar at or after the square-off time. */
  private squareOffAtOpen(index: number): void {
    if (this.squaredOff || this.session.minuteOfDay < this.squareOffMinute) return;
    this.squaredOff = true;
    this.session.entriesAllowed = false;
    this.trader.squareOff(index, SQUARE_OFF_AT_OPEN);
  }

  /** Step g on the day's last bar: end of data wins; otherwise an intraday session closes everything. */
  private squareOffAtClose(index: number, lastOfData: boolean): void {
    if (lastOfData) this.trader.squareOff(index, END_OF_DATA);
    else if (this.intraday) this.trader.squareOff(index, SQUARE_OFF_AT_CLOSE);
  }

  /** Bar `index` starts a day. Its time is read here, not passed: a double passed to a call V8 does not inline is a new heap number. */
  private startDay(index: number): void {
    const day = istEpochDay(this.time[index] as number);
    this.dayStart = day * MS_PER_DAY - IST_OFFSET_MS;
    this.nextDayStart = this.dayStart + MS_PER_DAY;
    this.session.sessionEnd = this.dayStart + SESSION_END_MINUTE * MS_PER_MINUTE;
    this.session.date = sessionDate(day);
    this.dayStartEquity = index === 0 ? this.ledger.cash : this.lastEquity;
    this.limitHit = false;
    this.squaredOff = false;
    this.dayEndBar = -1;
    this.squareOffBar = -1;
    if (this.intraday) this.trader.cancelPending(index);
  }

  private checkDailyLimits(index: number): void {
    const { dailyMaxLoss, dailyMaxProfit } = this.options.rules;
    if (this.limitHit || (dailyMaxLoss === undefined && dailyMaxProfit === undefined)) return;
    const dayPnl = this.ledger.cash + this.trader.markToMarket(index) - this.dayStartEquity;
    const lossHit = dailyMaxLoss !== undefined && dayPnl <= -dailyMaxLoss;
    const profitHit = dailyMaxProfit !== undefined && dayPnl >= dailyMaxProfit;
    if (!lossHit && !profitHit) return;
    this.limitHit = true;
    this.session.entriesAllowed = false;
    this.trader.squareOff(index, DAILY_LIMIT);
  }
}
