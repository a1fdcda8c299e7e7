// The simulated venue: the backtest's answers from the bars, every one decided by the one
// matching core (execution/matching-core.ts), which the paper venue uses on live or replayed ticks.
//
// Rules, per bar (prices are the bar's, in paise: @vyuha/core's rupeesToPaise):
// - A market order fills at the bar's open (the next tick after the signal) or at its close,
//   with adverse slippage.
// - Protective levels are matched against the bar as its tick path (execution/tick-path.ts): the
//   open, then the low and the high in the order the candle implies (low first when it closed at
//   or above its open), then the close. The open is a jump: a gap through the stop fills at the
//   open (the worse price), a gap through the target at the open (the better price, as a resting
//   limit order would). Later ticks move continuously: a level crossed on the way fills at the
//   level, and whichever level the path reaches first fills. After each tick that fills nothing
//   the trailing stop moves, so a later tick of the same bar can hit it.
// - Stops become market orders when triggered and take slippage; targets are limit orders and do not.
import { rupeesToPaise, type Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import type { BarSeries } from '../algorithm/program';
import { MatchingCore } from '../execution/matching-core';
import type { ProtectiveCheck, ProtectiveExit, Venue } from './ports';
import type { SlippageModel } from './slippage';

export class SimulatedVenue implements Venue {
  private readonly series: BarSeries;
  private readonly core: MatchingCore;
  /** The bar being matched, in paise, reused for every check. */
  private readonly window = { candle: { open: 0, high: 0, low: 0, close: 0 }, fromTick: 0, start: 0, end: 0 };

  constructor(options: { series: BarSeries; slippage: SlippageModel; tickSize: number }) {
    this.series = options.series;
    this.core = new MatchingCore({ slippage: options.slippage, tickSize: options.tickSize });
  }

  /** Market order at the bar's open or close, slippage applied. */
  marketPrice(request: { readonly side: TradeSide; readonly index: number; readonly moment: 'open' | 'close' }): Paise {
    const column = request.moment === 'open' ? this.series.open : this.series.close;
    return this.core.marketPrice(request.side, rupeesToPaise(column[request.index] as number)) as Paise;
  }

  /** The position's levels against bar `check.index` as its tick path; see the rules at the top of this file. */
  checkProtectiveExit(check: ProtectiveCheck, out: ProtectiveExit): void {
    const index = check.index;
    const series = this.series;
    const window = this.window;
    const candle = window.candle;
    candle.open = rupeesToPaise(series.open[index] as number);
    candle.high = rupeesToPaise(series.high[index] as number);
    candle.low = rupeesToPaise(series.low[index] as number);
    candle.close = rupeesToPaise(series.close[index] as number);
    window.fromTick = check.fromTick;
    window.start = series.time[index] as number;
    window.end = check.end;
    this.core.protectiveBar(check.pair, window, out);
  }
}
