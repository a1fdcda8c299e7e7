// The trader that trades the bar series itself (an index, a future or a stock): one position at a
// time, long or short, entered whole and exited whole.
//
// Signals (`direction` limits which sides may be opened; `reverse` allows a flip):
// - BUY: flat -> open long (if longs are allowed); short -> cover, and open long too only when
//   `reverse` is true; long -> nothing (no pyramiding).
// - SELL: the mirror: flat -> open short (if shorts are allowed); long -> sell out, and open short
//   too only when `reverse`; short -> nothing. In long-only mode SELL is just "exit the long".
// - EXIT: close whatever is open.
// Entries need `session.entriesAllowed` both when the signal comes and when the order fills.
// With `fill: 'next-open'` orders wait for the next bar's open (exit first, then entry); with
// `fill: 'close'` they fill at once at this bar's close. Percent and all-in entries are sized at
// the fill price (the next open, or this close) on the cash left after any exit.
import { paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from '../algorithm/program';
import type { PositionContext, Signal } from '../algorithm/program';
import type { ChargeModel } from './charges-model';
import type { LedgerFill, LedgerOrder } from './ledger';
import type { ProtectiveCheck, ProtectiveExit, Venue } from './ports';
import { ProtectiveLevels } from './protective-levels';
import type { ProtectiveConfig } from './protective-levels';
import { entryQuantity } from './sizing';
import type { Sizing } from './sizing';
import { toPaiseValue } from './simulated-venue';
import type { BarMoment, ExitReason, Trader, TraderContext } from './trader';

export type TradeDirection = 'long-only' | 'short-only' | 'both';
export type FillModel = 'next-open' | 'close';

export interface UnderlyingTraderOptions {
  readonly context: TraderContext;
  readonly venue: Venue;
  readonly chargeModel: ChargeModel;
  readonly settings: {
    readonly instrument: string;
    readonly sizing: Sizing;
    readonly direction: TradeDirection;
    readonly reverse: boolean;
    readonly fill: FillModel;
    readonly protective: ProtectiveConfig;
  };
}

export class UnderlyingTrader implements Trader {
  readonly position: PositionContext = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
  private quantity = 0;
  private entryFill: LedgerFill | undefined;
  private pendingExit: LedgerOrder | undefined;
  private pendingEntry: LedgerOrder | undefined;
  private readonly levels: ProtectiveLevels;
  private readonly check: ProtectiveCheck = { direction: 0, index: 0, stop: Number.NaN, stopIsTrailing: false, target: Number.NaN };
  private readonly exit: ProtectiveExit = { kind: 'none', price: Number.NaN };

  constructor(private readonly options: UnderlyingTraderOptions) {
    this.levels = new ProtectiveLevels(options.settings.protective);
  }

  onBarOpen(index: number): void {
    if (this.pendingExit !== undefined) {
      const order = this.pendingExit;
      this.pendingExit = undefined;
      if (this.position.position === 0) this.options.context.ledger.cancel(order);
      else this.closeWith(order, { index, moment: 'open' });
    }
    if (this.pendingEntry !== undefined) {
      const order = this.pendingEntry;
      this.pendingEntry = undefined;
      if (this.options.context.session.entriesAllowed && this.position.position === 0) this.openWith(order, { index, moment: 'open' });
      else this.options.context.ledger.cancel(order);
    }
    if (this.position.position !== 0) {
      this.checkInsideBar(index);
      this.position.barsSinceEntry = index - (this.entryFill?.index ?? index);
    }
  }

  onSignal(index: number, signal: Signal): void {
    if (signal === SIGNAL_NONE) return;
    const held = this.position.position;
    if (signal === SIGNAL_EXIT) {
      if (held !== 0) this.exitNow(index, 'signal');
      return;
    }
    const wanted = signal === SIGNAL_BUY ? 1 : signal === SIGNAL_SELL ? -1 : 0;
    if (held === wanted) return;
    const { direction, reverse } = this.options.settings;
    const allowed = wanted > 0 ? direction !== 'short-only' : direction !== 'long-only';
    if (held !== 0) {
      this.exitNow(index, 'signal');
      if (!reverse) return;
    }
    if (allowed && this.options.context.session.entriesAllowed) this.enterNow(index, wanted);
  }

  squareOff(index: number, options: { reason: ExitReason; moment: BarMoment }): void {
    this.cancelPending(index);
    if (this.position.position === 0) return;
    const order = this.placeExit(index, options.reason, options.moment);
    this.closeWith(order, { index, moment: options.moment });
  }

  cancelPending(_index: number): void {
    const ledger = this.options.context.ledger;
    if (this.pendingExit !== undefined) ledger.cancel(this.pendingExit);
    if (this.pendingEntry !== undefined) ledger.cancel(this.pendingEntry);
    this.pendingExit = undefined;
    this.pendingEntry = undefined;
  }

  markToMarket(index: number): Paise {
    if (this.position.position === 0) return 0 as Paise;
    return (this.position.position * this.quantity * toPaiseValue(this.options.context.series.close[index] as number)) as Paise;
  }

  isActive(): boolean {
    return this.position.position !== 0 || this.pendingExit !== undefined || this.pendingEntry !== undefined;
  }

  private exitNow(index: number, reason: ExitReason): void {
    const order = this.placeExit(index, reason);
    if (this.options.settings.fill === 'close') this.closeWith(order, { index, moment: 'close' });
    else this.pendingExit = order;
  }

  private enterNow(index: number, wanted: number): void {
    const side: TradeSide = wanted > 0 ? 'buy' : 'sell';
    const { ledger, series, session } = this.options.context;
    // The quantity is an estimate at this close; a next-open order is re-sized at the open it fills at.
    const quantity = this.sizeAt(side, { price: toPaiseValue(series.close[index] as number), index });
    if (quantity <= 0) return;
    const order = ledger.place({ instrument: this.options.settings.instrument, side, quantity, reason: 'entry', index, time: session.closeTime });
    if (this.options.settings.fill === 'close') this.openWith(order, { index, moment: 'close' });
    else this.pendingEntry = order;
  }

  /** Units affordable at `price` on current capital (cash + the open position at bar `index`'s close). */
  private sizeAt(side: TradeSide, at: { price: number; index: number }): number {
    const { ledger, session } = this.options.context;
    const capital = ledger.cash + this.markToMarket(at.index);
    return entryQuantity({ sizing: this.options.settings.sizing, capital, price: at.price, side, date: session.date, chargeModel: this.options.chargeModel });
  }

  private placeExit(index: number, reason: ExitReason, moment: BarMoment = 'close'): LedgerOrder {
    const side: TradeSide = this.position.position > 0 ? 'sell' : 'buy';
    const time = this.fillTime(index, moment);
    return this.options.context.ledger.place({ instrument: this.options.settings.instrument, side, quantity: this.quantity, reason, index, time });
  }

  private fillTime(index: number, moment: BarMoment): number {
    return moment === 'open' ? (this.options.context.series.time[index] as number) : this.options.context.session.closeTime;
  }

  private openWith(order: LedgerOrder, at: { index: number; moment: BarMoment }): void {
    const { ledger, session } = this.options.context;
    const price = this.options.venue.marketPrice({ side: order.side, index: at.index, moment: at.moment });
    const quantity = this.sizeAt(order.side, { price, index: at.index });
    if (quantity <= 0) {
      ledger.cancel(order);
      return;
    }
    order.quantity = quantity;
    const fill = ledger.fill(order, { index: at.index, time: this.fillTime(at.index, at.moment), date: session.date, price });
    const direction = order.side === 'buy' ? 1 : -1;
    this.entryFill = fill;
    this.quantity = quantity;
    this.position.position = direction;
    this.position.entryPrice = price / 100;
    this.position.barsSinceEntry = 0;
    this.levels.open(direction, price);
  }

  private closeWith(order: LedgerOrder, at: { index: number; moment: BarMoment; price?: number }): void {
    const { ledger, session } = this.options.context;
    const price = at.price ?? this.options.venue.marketPrice({ side: order.side, index: at.index, moment: at.moment });
    const fill = ledger.fill(order, { index: at.index, time: this.fillTime(at.index, at.moment), date: session.date, price: paise(price) });
    if (this.entryFill !== undefined) ledger.recordTrade(this.entryFill, fill);
    this.entryFill = undefined;
    this.quantity = 0;
    this.position.position = 0;
    this.position.entryPrice = Number.NaN;
    this.position.barsSinceEntry = Number.NaN;
    this.levels.close();
  }

  /** Stops and targets inside bar `index` against the levels as they stood at its open; then the trailing ratchet. */
  private checkInsideBar(index: number): void {
    if (!this.levels.active) return;
    this.levels.describe(this.check, index);
    this.options.venue.checkProtectiveExit(this.check, this.exit);
    if (this.exit.kind !== 'none') {
      const order = this.placeExit(index, this.exit.kind, 'open');
      this.closeWith(order, { index, moment: 'open', price: this.exit.price });
      return;
    }
    const { high, low } = this.options.context.series;
    this.levels.ratchet(toPaiseValue(high[index] as number), toPaiseValue(low[index] as number));
  }
}
