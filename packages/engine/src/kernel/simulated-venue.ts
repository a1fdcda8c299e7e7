// The simulated matching engine: the backtest's venue, and paper trading's, unchanged.
//
// Rules, per bar (prices are the bar's, in paise: @vyuha/core's rupeesToPaise):
// - A market order fills at the bar's open or close, with adverse slippage.
// - Protective levels are checked in the order a bar's prices can happen without knowing the path
//   between its high and low: the open comes first, so a gap through the stop fills at the open
//   (the worse price), and a gap through the target fills at the open (the better price, as a
//   resting limit order would). Otherwise, when the bar's range touches both the stop and the
//   target, the stop wins (the conservative reading). A touched stop fills at the stop level, a
//   touched target at the target level.
// - Stops become market orders when triggered and take slippage; targets are limit orders and do not.
import { rupeesToPaise, type Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import type { BarSeries } from '../algorithm/program';
import type { ProtectiveCheck, ProtectiveExit, Venue } from './ports';
import { slippedPrice } from './slippage';
import type { SlippageModel } from './slippage';

export class SimulatedVenue implements Venue {
  private readonly series: BarSeries;
  private readonly buySlippage: { model: SlippageModel; tickSize: number; side: TradeSide };
  private readonly sellSlippage: { model: SlippageModel; tickSize: number; side: TradeSide };

  constructor(options: { series: BarSeries; slippage: SlippageModel; tickSize: number }) {
    this.series = options.series;
    this.buySlippage = { model: options.slippage, tickSize: options.tickSize, side: 'buy' };
    this.sellSlippage = { model: options.slippage, tickSize: options.tickSize, side: 'sell' };
  }

  /** Market order at the bar's open or close, slippage applied. */
  marketPrice(request: { readonly side: TradeSide; readonly index: number; readonly moment: 'open' | 'close' }): Paise {
    const column = request.moment === 'open' ? this.series.open : this.series.close;
    const reference = rupeesToPaise(column[request.index] as number);
    return slippedPrice(request.side === 'buy' ? this.buySlippage : this.sellSlippage, reference) as Paise;
  }

  /** Stop and target inside one bar; see the rules at the top of this file. */
  checkProtectiveExit(check: ProtectiveCheck, out: ProtectiveExit): void {
    const open = rupeesToPaise(this.series.open[check.index] as number);
    const high = rupeesToPaise(this.series.high[check.index] as number);
    const low = rupeesToPaise(this.series.low[check.index] as number);
    // Signed distances: with d = +1 for a long and -1 for a short, a price p is at or beyond the
    // stop when d x (p - stop) <= 0 and at or beyond the target when d x (p - target) >= 0.
    const d = check.direction > 0 ? 1 : -1;
    const favourable = d > 0 ? high : low;
    const adverse = d > 0 ? low : high;
    const stopSet = !Number.isNaN(check.stop);
    const targetSet = !Number.isNaN(check.target);
    if (stopSet && d * (open - check.stop) <= 0) return this.stopExit(check, out, open);
    if (targetSet && d * (open - check.target) >= 0) return this.targetExit(out, open);
    if (stopSet && d * (adverse - check.stop) <= 0) return this.stopExit(check, out, check.stop);
    if (targetSet && d * (favourable - check.target) >= 0) return this.targetExit(out, check.target);
    out.kind = 'none';
    out.price = Number.NaN;
  }

  private stopExit(check: ProtectiveCheck, out: ProtectiveExit, price: number): void {
    // The exit of a long sells; of a short buys.
    out.kind = check.stopIsTrailing ? 'trailing' : 'stop';
    out.price = slippedPrice(check.direction > 0 ? this.sellSlippage : this.buySlippage, price);
  }

  private targetExit(out: ProtectiveExit, price: number): void {
    out.kind = 'target';
    out.price = price;
  }
}
