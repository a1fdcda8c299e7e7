// The three ports that make one kernel serve backtest, paper and live: only their
// implementations differ (simulated or wall clock, history or live feed, simulated matching
// engine or a broker adapter). Nothing in the kernel or a trader asks which mode it runs in.
import type { Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import type { BarSeries } from '../algorithm/program';

/** Time as the kernel sees it. Backtest: the current bar's time; live: the wall clock. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** The kernel reports each bar's time: a simulated clock moves to it, a wall clock ignores it. */
  advanceTo(epochMs: number): void;
}

/** Bars of the signal instrument. Backtest: the whole history; live: grows as bars close. */
export interface Feed {
  readonly series: BarSeries;
}

/** Which stop-like level closed a position inside a bar. */
export type ProtectiveExitKind = 'none' | 'stop' | 'trailing' | 'target';

/**
 * A position's protective levels, checked inside one bar. Levels are paise per unit; NaN means
 * "not set". `stop` is the effective stop (the tighter of the fixed and the trailing stop) and
 * `stopIsTrailing` says which one it came from.
 */
export interface ProtectiveCheck {
  /** +1 long, -1 short. */
  direction: number;
  index: number;
  stop: number;
  stopIsTrailing: boolean;
  target: number;
}

/** The answer of a protective check, written into a caller-owned object (no allocation per bar). */
export interface ProtectiveExit {
  kind: ProtectiveExitKind;
  /** Fill price in paise per unit (slippage applied to stops); NaN when `kind` is `none`. */
  price: number;
}

/**
 * Where orders execute. The simulated matching engine answers from the bars; a broker adapter
 * (live) implements the same questions by sending the order and reporting the broker's fill.
 */
export interface Venue {
  /** Fill price of a market order of `side` at bar `index`'s open or close, slippage applied. */
  marketPrice(request: { readonly side: TradeSide; readonly index: number; readonly moment: 'open' | 'close' }): Paise;
  /** Checks stop and target inside bar `index`; writes the outcome into `out`. */
  checkProtectiveExit(check: ProtectiveCheck, out: ProtectiveExit): void;
}

/** The backtest's clock: set by the kernel to each bar's time. */
export class SimulatedClock implements Clock {
  private time = 0;
  now(): number {
    return this.time;
  }
  advanceTo(epochMs: number): void {
    this.time = epochMs;
  }
}

/** A feed over a whole history. */
export class HistoryFeed implements Feed {
  constructor(readonly series: BarSeries) {}
}
