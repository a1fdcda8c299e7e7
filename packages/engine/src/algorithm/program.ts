/**
 * The seam between a compiled algorithm and the kernel. The kernel owns the bars and the
 * position; the program owns the indicator state and answers, at the close of each bar, which
 * action the rule graph asks for. Backtest, paper and live all drive a program the same way.
 */

/**
 * Bars as columns, prices in rupees (index points), time in epoch milliseconds (bar open time).
 * In a backtest the columns hold the whole history; live, they grow as bars close.
 */
export interface BarSeries {
  readonly length: number;
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  /** Open interest; NaN where unknown. */
  readonly oi: Float64Array;
}

/** Position state the kernel exposes to expressions (`position`, `entry_price`, ...). */
export interface PositionContext {
  /** +1 long, -1 short, 0 flat. */
  position: number;
  /** Average entry price in rupees; NaN when flat. */
  entryPrice: number;
  /** Bars since the entry fill (0 on the bar that filled); NaN when flat. */
  barsSinceEntry: number;
  /** The session's P&L so far in rupees, realised plus open, after charges. */
  dayPnl: number;
}

/** What the rule graph asks for at a bar's close. Numbers, so the hot loop compares integers. */
export const SIGNAL_NONE = 0;
export const SIGNAL_BUY = 1;
export const SIGNAL_SELL = -1;
/** Close whatever is open, open nothing. */
export const SIGNAL_EXIT = 2;
export type Signal = typeof SIGNAL_NONE | typeof SIGNAL_BUY | typeof SIGNAL_SELL | typeof SIGNAL_EXIT;

export interface SignalProgram {
  /** Bars needed before any condition can be true (the largest warm-up among its indicators). */
  readonly warmup: number;
  /**
   * Evaluates the rules at the close of bar `index`. Must be called for every bar in order,
   * exactly once each: indicators advance inside this call.
   */
  onBar(index: number, position: PositionContext): Signal;
  /**
   * Optional, for programs whose signals depend on the bars alone: the first bar at or after
   * `from` whose close could give a signal that acts on a position whose sign stays `position`,
   * or the series length when there is none. A signal acts unless it is NONE or an entry in the
   * direction held (BUY while long, SELL while short), which every trader ignores (Trader.onSignal).
   * A kernel that has nothing else to do
   * until then (no working order, no stop to watch) may skip onBar for the bars before it; the
   * program's answers for the bars it is asked about stay exactly the same. With `before`, the
   * search stops there: `before` when no bar in [from, before) could signal, and the program
   * reads no bar at or after it (the kernel may then ask onBar about any bar from `before` on).
   */
  nextSignalBar?(from: number, position: number, before?: number): number;
}
