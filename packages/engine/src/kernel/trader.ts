/**
 * The trader seam: the kernel decides WHEN, a Trader decides WHAT.
 *
 * The kernel owns time: it walks the bars, knows the session (IST date, minute of day), the
 * intraday entry cut-off and square-off, the daily loss/profit limits, and asks the compiled
 * program for a signal at each bar's close. It never knows what is traded.
 *
 * A Trader owns positions: on a signal it decides which instruments to trade (the bar series
 * itself for `UnderlyingTrader`; CE/PE legs priced from option candles or a synthetic chain for
 * an options-legs trader), sizes them, sends them to the Venue and checks its own stops inside
 * each bar. Every order, fill and round-trip trade goes into the shared Ledger, which keeps cash,
 * charges and the per-day order counts, so results look the same whichever trader ran.
 *
 * Per bar `i` the kernel calls, in this order (kernel.ts has the full rules):
 *   1. `onBarOpen(i)`: fill orders waiting for this bar's open (its first tick).
 *   2. intraday, first bar of the day stamped at or after the square-off time:
 *      `squareOff(i, { reason: 'square-off', moment: 'open' })`, at that same first tick.
 *   2b. `onBarPath(i)`: check stop-loss, target and trailing stops inside the bar, matched as its
 *      tick path (execution/matching-core.ts), after everything the open decided: a position
 *      squared off at the open is not watched, as it could not be live.
 *   3. daily max loss / max profit reached at this close: `squareOff(i, { reason: 'daily-limit', moment: 'close' })`.
 *   4. the program at bar i's close reads `position` (the trader's PositionContext; the kernel
 *      writes `dayPnl`), then `onSignal(i, signal)` unless the signal is NONE. Entries are allowed
 *      only while `session.entriesAllowed`; the trader checks it when the signal comes and again
 *      when a waiting order would fill.
 *   5. last bar of the data: `squareOff(i, { reason: 'end-of-data', moment: 'close' })`; else,
 *      intraday, last bar of the day: `squareOff(i, { reason: 'square-off', moment: 'close' })`.
 *   6. `onBarClose(i)` (optional): the trader's own end-of-bar work, after the square-offs; an
 *      options trader settles legs whose expiry closes with this bar, so the settlement lands in
 *      the expiry day's row.
 *   7. `markToMarket(i)`: the signed market value of open positions at bar i's close, in paise;
 *      equity = ledger cash + markToMarket.
 * At a new IST day (intraday only) the kernel calls `cancelPending()` before `onBarOpen`, so an
 * entry order never survives its session.
 *
 * A Trader allocates nothing per bar: it allocates only when it places an order or fills one.
 */
import type { IsoDate, Paise } from '@vyuha/core';
import type { BarSeries, PositionContext, Signal } from '../algorithm/program';
import type { Ledger } from './ledger';

/**
 * Why a position was closed. `expiry`: an option settled at its expiry (Ledger.settle).
 * `daily-limit`: the strategy's daily max loss or max profit was reached. `roll`: a future was
 * closed on its expiry day to reopen the position in the next month's contract.
 */
export type ExitReason = 'signal' | 'stop' | 'target' | 'trailing' | 'square-off' | 'end-of-data' | 'daily-limit' | 'expiry' | 'roll';

/** Why a fill happened: `entry` opens a position, the others close one. */
export type FillReason = 'entry' | ExitReason;

/** Where in the bar a kernel-initiated exit happens. */
export type BarMoment = 'open' | 'close';

/**
 * What the kernel knows about the current bar's session. One object, mutated in place by the
 * kernel as bars advance (read it, never keep a copy of its fields across bars).
 */
export interface SessionState {
  /** Index of the current bar. */
  index: number;
  /** IST trading date of the current bar. */
  date: IsoDate;
  /** Minutes since IST midnight of the current bar's time stamp (its open). */
  minuteOfDay: number;
  /** Epoch ms at which the current bar ends (a close fill's time). */
  closeTime: number;
  /** False at or after the intraday entry cut-off, on an intraday session's last bar and after a daily limit was hit; a trader opens nothing while false. */
  entriesAllowed: boolean;
}

/** What a trader gets when the kernel builds it. */
export interface TraderContext {
  /** The bars of the signal instrument (the index or the stock the program reads). */
  readonly series: BarSeries;
  readonly ledger: Ledger;
  readonly session: SessionState;
}

export interface Trader {
  /** The position view the program's `position`, `entry_price`, `bars_since_entry` read; `dayPnl` is the kernel's. */
  readonly position: PositionContext;
  /**
   * Fills orders waiting for bar `index`'s open. Stepped live, this runs at the bar's first tick,
   * when only its open is known: it may read `series.open[index]` and `time[index]`, never the
   * bar's high, low or close.
   */
  onBarOpen(index: number): void;
  /** Checks stops, targets and trailing stops inside bar `index` (after `onBarOpen` and the square-off at the open). */
  onBarPath(index: number): void;
  /**
   * Acts on the program's signal at bar `index`'s close (market orders at the next open, or at this
   * close). An entry in the direction already held (BUY while long, SELL while short) changes
   * nothing: no order, no state (there is no pyramiding), so a skipping kernel never stops for one
   * (SignalProgram.nextSignalBar).
   */
  onSignal(index: number, signal: Signal): void;
  /** Closes everything open at bar `index`'s open or close, and drops working orders. */
  squareOff(index: number, options: { reason: ExitReason; moment: BarMoment }): void;
  /** End of bar `index`, after every signal and square-off of the bar and before its equity is marked (e.g. settling options at their expiry's close). */
  onBarClose?(index: number): void;
  /** Drops orders not yet filled (an intraday session ended before they could fill). */
  cancelPending(index: number): void;
  /** Signed market value of open positions at bar `index`'s close, in paise (long +, short -). */
  markToMarket(index: number): Paise;
  /**
   * Optional, with `heldUnits`: while nothing trades, markToMarket(i) is exactly
   * `heldUnits() * rupeesToPaise(markPrices[i])` (0 when flat), so the kernel marks a run of such
   * bars, and keeps it as one run (equity-segments.ts), without a call per bar.
   */
  readonly markPrices?: Float64Array;
  /** Signed units held now (long +, short -), the factor of markPrices in markToMarket. */
  heldUnits?(): number;
  /** True while any position or working order exists. */
  isActive(): boolean;
  /**
   * Optional: true when, until the next non-NONE signal, this trader would do nothing but mark
   * its positions to market (no working order, no stop, target or trailing level to check inside
   * bars, no end-of-bar work). The kernel may then skip ahead to the program's next signal bar.
   */
  isQuiescent?(): boolean;
}

/** Builds a trader for one run. */
export type TraderFactory = (context: TraderContext) => Trader;

/**
 * The trader factory of a run over bars `from` .. `to` - 1 (exclusive) of the series it was made
 * for, whose own series holds those bars only (a walk-forward's windows): whatever the factory
 * reads per bar (INDIA VIX, option candles by bar) is cut to them, so nothing after `to` reaches it.
 */
export type WindowTraders = (bars: { readonly from: number; readonly to: number }) => TraderFactory;
