// The option legs' side of the one matching core (execution/matching-core.ts): every premium a
// leg fills at comes from here. Market orders meet a premium with the slippage model; a leg's
// stop, target and trailing stop, and an at-cost re-entry (a stop order at the first entry
// premium), are matched against the bar's premium tick path (leg-pricing.ts), exactly as the
// underlying trader's levels are matched against its bars. The outcome objects and the path
// window are reused: nothing is allocated per bar.
import type { TradeSide } from '@vyuha/market';
import type { BarSeries } from '../algorithm/program';
import { emptyOutcome, MatchingCore } from '../execution/matching-core';
import type { MatchOutcome, OrderType, ProtectiveFillKind, ProtectivePair, WorkingOrder } from '../execution/matching-core';
import type { SlippageModel } from '../kernel/slippage';
import type { SessionState } from '../kernel/trader';
import { OPTION_TICK_PAISE } from './leg-exits';
import type { PricedContract } from './leg-pricing';

/** What the matcher reads of an open leg: its levels, the contract priced this bar, and where its watch starts. */
export interface WatchedLeg {
  readonly pair: ProtectivePair;
  readonly chosen: { readonly contract: PricedContract };
  /** The first bar matched, from tick `firstTick` (later bars: all four ticks). */
  readonly checkFrom: number;
  readonly firstTick: number;
}

/** What the matcher reads of a resting at-cost entry. */
export interface RestingEntry {
  readonly template: { readonly leg: { readonly side: TradeSide } };
  readonly chosen: { readonly contract: PricedContract };
  /** The premium (paise) it re-enters at. */
  readonly level: number;
}

export class LegMatcher {
  private readonly core: MatchingCore;
  private readonly exit: MatchOutcome<ProtectiveFillKind> = emptyOutcome();
  private readonly fill: MatchOutcome<OrderType> = emptyOutcome();
  private readonly order: WorkingOrder = { type: 'stop', side: 'sell', level: 0, last: Number.NaN };
  private readonly window: { path: ArrayLike<number>; fromTick: number; start: number; end: number } = { path: [], fromTick: 0, start: 0, end: 0 };

  constructor(private readonly market: { readonly slippage: SlippageModel; readonly bars: BarSeries; readonly session: SessionState }) {
    this.core = new MatchingCore({ slippage: market.slippage, tickSize: OPTION_TICK_PAISE });
  }

  /** A market order of `side` meeting the premium `premium` (paise): the fill price. */
  marketPrice(side: TradeSide, premium: number): number {
    return this.core.marketPrice(side, premium);
  }

  /** The leg's levels against its contract's premium path of bar `index` (priced already); the exit, or undefined. */
  exitOf(leg: WatchedLeg, index: number): Readonly<MatchOutcome<ProtectiveFillKind>> | undefined {
    const window = this.windowAt(leg.chosen.contract, index);
    window.fromTick = index === leg.checkFrom ? leg.firstTick : 0;
    return this.core.protectivePath(leg.pair, window, this.exit) ? this.exit : undefined;
  }

  /** A resting at-cost entry against its contract's premium path of bar `index` (priced already); the fill, or undefined. */
  atCostFill(entry: RestingEntry, index: number): Readonly<MatchOutcome<OrderType>> | undefined {
    const order = this.order;
    order.side = entry.template.leg.side;
    order.level = entry.level;
    order.last = Number.NaN;
    const window = this.windowAt(entry.chosen.contract, index);
    window.fromTick = 0;
    return this.core.orderPath(order, window, this.fill) ? this.fill : undefined;
  }

  private windowAt(contract: PricedContract, index: number): typeof this.window {
    const window = this.window;
    window.path = contract.path;
    window.start = this.market.bars.time[index] as number;
    window.end = this.market.session.closeTime;
    return window;
  }
}
