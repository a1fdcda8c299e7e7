// The kernel stepped forward one closed bar at a time (paper, live, a replay, a resume): the same
// Kernel and the same per-bar body (`Kernel.processBar`) as a backtest's `run`, over a
// GrowingBarSeries (growing-series.ts) the runtime appends each closed bar to.
//
// What differs from `run`, and why the results are still `run`'s:
// - No skip-ahead: every bar is processed when it closes. Skipping only ever marks bars to market
//   exactly as processing them would (skip-ahead.test.ts), so nothing changes.
// - The program reads only bars that exist: a program whose rules read no position state
//   evaluates ahead up to `series.length` read at that moment (algorithm/compile.ts, and the
//   indicators' blocks in language/window-steps.ts), which is the bar being stepped; nothing
//   here calls `nextSignalBar`.
// - "Last bar of the day": `run` sees the next bar's date; stepped, the bar ends its day when its
//   window ends at the session's close (feeds/bar-window.ts `barWindowOf` on the market's session
//   calendar; 15:30 on a day the calendar has no session), or when the caller says so. Both give
//   the same bar whenever the day's data runs to the session's close. A day whose data stops
//   before the close (a feed outage, a stored day with missing minutes) differs: the backtest
//   squares off at the last bar it has, at its close; stepped, no bar arrives at the close. A
//   replay knows its stored day and says `endOfDay` on its last bar (the next stored bar is on a
//   later day), which keeps it equal to the backtest for any data. Live, the runtime calls
//   `endDay()` when its clock passes the session's close without the calendar's last bar: the
//   day ends at the last bar's close as in the backtest (intraday square-off at that close, the
//   day row), except that the bar's signal was taken with entries allowed. Had nobody called it,
//   the next day's first bar ends the day first, so no day row is lost and no intraday position
//   is carried overnight.
// - "Last bar of the data": only when the caller says the run ends (`endOfData`: a replay's last
//   bar, a stop). Then what is open is closed at that bar's close as `end-of-data`, as `run` does.
// - Warm-up: bars before `signalsFrom` are history. The program runs on them (indicators warm
//   up), equity and day rows are kept, their signals are dropped, so nothing is traded on them.
//   A resume that must also restore what was traded replays its history with `signalsFrom: 0`
//   through the same simulated venue (deterministic: the same fills as stored) instead.
import { IST_OFFSET_MS, istDate, istEpochDay } from '@vyuha/core';
import { sessionOf } from '@vyuha/market';
import type { SessionExchange } from '@vyuha/market';
import type { SignalProgram } from '../algorithm/program';
import { barWindowOf, DAILY_INTERVAL_MINUTES } from '../feeds/bar-window';
import { Kernel } from './kernel';
import type { SessionRules } from './kernel';
import type { GrowingBarSeries } from './growing-series';
import type { Ledger } from './ledger';
import type { Clock } from './ports';
import { MS_PER_DAY, MS_PER_MINUTE, SESSION_END_MINUTE } from './session-clock';
import type { TraderFactory } from './trader';

/**
 * True when the bar stamped `start` is its session's last: its window (`barWindowOf`) ends at the
 * session's close on `exchange` (15:30 IST when the calendar has no session that day).
 * @example endsSession({ start: istEpochMs('2024-01-05', '15:29'), intervalMinutes: 1, exchange: 'NSE' }) // true
 */
export function endsSession(bar: { readonly start: number; readonly intervalMinutes: number; readonly exchange: SessionExchange }): boolean {
  const day = istEpochDay(bar.start);
  const session = sessionOf(bar.exchange, istDate(bar.start));
  const close = day * MS_PER_DAY - IST_OFFSET_MS + (session?.close ?? SESSION_END_MINUTE) * MS_PER_MINUTE;
  return barWindowOf(bar).end >= close;
}

/**
 * The bar length a backtest infers from a whole series of this interval (session-clock.ts
 * `inferBarMilliseconds`): the interval, or Infinity for one bar per day.
 * @example barMillisecondsOf(5) // 300000
 */
export function barMillisecondsOf(intervalMinutes: number): number {
  return intervalMinutes >= DAILY_INTERVAL_MINUTES ? Number.POSITIVE_INFINITY : intervalMinutes * MS_PER_MINUTE;
}

export interface IncrementalKernelOptions {
  /** The series the runtime appends closed bars to; the program and the trader are built over it. */
  readonly series: GrowingBarSeries;
  readonly clock: Clock;
  readonly program: SignalProgram;
  readonly ledger: Ledger;
  readonly trader: TraderFactory;
  readonly rules: SessionRules;
  /** The strategy's bar interval in minutes (1440: daily). */
  readonly intervalMinutes: number;
  /** Whose session calendar says which bar is a day's last. Default NSE. */
  readonly exchange?: SessionExchange;
  /** Bars before this index are warm-up history: processed, their signals dropped. Default 0. */
  readonly signalsFrom?: number;
}

/** What the caller knows about the bar being stepped beyond the calendar. */
export interface StepOptions {
  /** The run ends with this bar (a replay's last bar, a stop): what is open closes at its close. */
  readonly endOfData?: boolean;
  /** This bar ends its day even though the calendar's last bar has not come (the day's data stops here). */
  readonly endOfDay?: boolean;
}

export class IncrementalKernel {
  readonly kernel: Kernel;
  private readonly series: GrowingBarSeries;
  private readonly intervalMinutes: number;
  private readonly exchange: SessionExchange;

  constructor(options: IncrementalKernelOptions) {
    const { series, intervalMinutes } = options;
    this.series = series;
    this.intervalMinutes = intervalMinutes;
    this.exchange = options.exchange ?? 'NSE';
    this.kernel = new Kernel({
      feed: { series }, clock: options.clock, program: options.program, ledger: options.ledger, trader: options.trader, rules: options.rules,
      stepping: { barMilliseconds: barMillisecondsOf(intervalMinutes), ...(options.signalsFrom === undefined ? {} : { signalsFrom: options.signalsFrom }) },
    });
  }

  /** Bars processed so far (the next `step` processes bar `processed`). */
  get processed(): number {
    return this.kernel.steppedBars;
  }

  /** Processes the next appended bar at its close. Throws when it has not been appended or the run has ended. */
  step(options: StepOptions = {}): void {
    this.open(options);
    this.close();
  }

  /**
   * The next bar's first tick (the series holds it opened: GrowingBarSeries.openBar): fills at
   * its open and the square-off at the open (Kernel.stepOpen). Whether it ends its day comes from
   * the session calendar, known at the open; `options` as `step`'s.
   */
  open(options: StepOptions = {}): void {
    const index = this.kernel.steppedBars;
    if (index >= this.series.length) throw new RangeError(`bar ${index} has not opened yet (the series holds ${this.series.length})`);
    const start = this.series.time[index] as number;
    const lastOfData = options.endOfData === true;
    const lastOfDay = lastOfData || options.endOfDay === true || endsSession({ start, intervalMinutes: this.intervalMinutes, exchange: this.exchange });
    this.kernel.stepOpen({ lastOfDay, lastOfData });
  }

  /** The opened bar's close (the series holds it closed): stops inside it, the signal, square-offs, equity (Kernel.stepClose). */
  close(options: { readonly endOfData?: boolean } = {}): void {
    if (this.series.isForming) throw new RangeError('the bar is still forming: close it in the series (closeBar) first');
    this.kernel.stepClose(options.endOfData === true ? { endsData: true } : {});
  }

  /** Ends the day of the last processed bar if it did not end it (Kernel.endDay): the clock passed the session's close without its last bar. */
  endDay(): void {
    this.kernel.endDay();
  }

  /** Processes every appended bar not processed yet (history at a start or a resume); `options` apply to the last of them. */
  catchUp(options: StepOptions = {}): void {
    while (this.kernel.steppedBars < this.series.length - 1) this.step();
    if (this.kernel.steppedBars < this.series.length) this.step(options);
  }

  /** Equity in paise at each processed bar's close (a copy). */
  equity(): Float64Array {
    return this.kernel.equity.slice(0, this.kernel.steppedBars);
  }
}
