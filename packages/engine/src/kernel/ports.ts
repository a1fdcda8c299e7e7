// The three ports that make one kernel serve backtest, paper and live: only their
// implementations differ (simulated or wall clock, history or live feed, simulated matching
// engine or a broker adapter). Nothing in the kernel or a trader asks which mode it runs in.
import type { Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import type { BarSeries } from '../algorithm/program';
import type { MatchOutcome, ProtectiveFillKind, ProtectivePair } from '../execution/matching-core';

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

/** Which protective level closed a position inside a bar. */
export type ProtectiveExitKind = 'none' | ProtectiveFillKind;

/**
 * A position's protective levels, matched against bar `index` as its tick path
 * (execution/matching-core.ts): ticks `fromTick`..3 (1 when the entry filled at this bar's open,
 * tick 0), the trailing stop moving after each tick that fills nothing.
 */
export interface ProtectiveCheck {
  index: number;
  fromTick: number;
  /** When the bar closes, epoch ms (a fill is stamped with its tick's time between start and this). */
  end: number;
  readonly pair: ProtectivePair;
}

/** The answer of a protective check, written into a caller-owned object (no allocation per bar). */
export type ProtectiveExit = MatchOutcome<ProtectiveFillKind>;

/**
 * Where orders execute. The simulated matching engine answers from the bars; a broker adapter
 * (live) implements the same questions by sending the order and reporting the broker's fill.
 */
export interface Venue {
  /** Fill price of a market order of `side` at bar `index`'s open or close, slippage applied. */
  marketPrice(request: { readonly side: TradeSide; readonly index: number; readonly moment: 'open' | 'close' }): Paise;
  /** Matches the protective levels against bar `index`'s tick path; writes the outcome into `out`. */
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
