// The venue port of a kernel stepped on a live tick stream: the stops and targets inside a bar are
// what the real venue filled, not the kernel's own match of the bar.
//
// Why: in a backtest and in a replay a bar is four ticks (execution/tick-path.ts), so the kernel's
// match of the bar and the venue's match of its ticks are the same matching and give the same
// fill (the paper run checks it). A live stream has many ticks a bar, in an order the bar's OHLC
// cannot tell: a stop the bar's path says was never reached may have been hit at a tick (the high
// came first), and a trailing stop follows every tick, not four. The venue saw the real ticks, so
// the kernel adopts its answer: before each bar's close the runtime tells this venue what the
// venue filled inside the bar (the exit, if any) and where the levels stand after the bar's ticks
// (the trailing stop as the venue's orders followed it); the kernel's close step then records that
// exit at the venue's price and time and goes on from those levels.
//
// Market orders still take the simulated venue's price (the bar's open or close, slippage
// applied): on paper the venue fills them at that same last traded price. A broker's market fill
// at another price is the broker venue's to reconcile (issue 17), not this port's.
import type { Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import type { ProtectiveFillKind } from '../execution/matching-core';
import type { ProtectiveCheck, ProtectiveExit, Venue } from './ports';
import type { ProtectiveLevels } from './protective-levels';

/** A protective exit the venue made inside the bar being closed. */
export interface AdoptedExit {
  readonly kind: ProtectiveFillKind;
  /** Paise. */
  readonly price: number;
  /** Epoch ms of the fill. */
  readonly time: number;
}

export class AdoptedVenue implements Venue {
  private exit: AdoptedExit | undefined;
  private levels: ProtectiveLevels | undefined;

  constructor(private readonly simulated: Venue) {}

  /**
   * What the venue did inside the bar about to close: its protective exit (none: undefined) and
   * the levels after the bar's ticks (undefined: the kernel's own levels stand). Read once, by
   * that bar's close step.
   */
  adopt(bar: { readonly exit: AdoptedExit | undefined; readonly levels: ProtectiveLevels | undefined }): void {
    this.exit = bar.exit;
    this.levels = bar.levels;
  }

  marketPrice(request: { readonly side: TradeSide; readonly index: number; readonly moment: 'open' | 'close' }): Paise {
    return this.simulated.marketPrice(request);
  }

  checkProtectiveExit(check: ProtectiveCheck, out: ProtectiveExit): void {
    const { exit, levels } = this;
    this.exit = undefined;
    this.levels = undefined;
    if (levels !== undefined) check.pair.levels.copyFrom(levels);
    if (exit === undefined) {
      out.kind = 'none';
      out.price = Number.NaN;
      out.tick = -1;
      out.time = Number.NaN;
      return;
    }
    out.kind = exit.kind;
    out.price = exit.price;
    out.tick = 0;
    out.time = exit.time;
  }
}
