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
import type { IsoDate, Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from '../algorithm/program';
import type { PositionContext, Signal } from '../algorithm/program';
import type { ChargeModel } from './charges-model';
import type { FillId, Ledger, OrderId } from './ledger';
import type { ProtectiveCheck, ProtectiveExit, Venue } from './ports';
import { ProtectiveLevels } from './protective-levels';
import type { ProtectiveConfig } from './protective-levels';
import { entryQuantity } from './sizing';
import type { Sizing } from './sizing';
import type { BarMoment, ExitReason, FillReason, SessionState, Trader, TraderContext } from './trader';

/** Rupees (index points) of a bar column to paise; local, so the per-bar mark to market makes no imported call. */
function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

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
  /** The open position's entry fill, or -1 when flat. */
  private entryFill: FillId = -1;
  private entryIndex = 0;
  private pendingExit: OrderId | undefined;
  private pendingEntry: OrderId | undefined;
  private readonly levels: ProtectiveLevels;
  private readonly check: ProtectiveCheck = { direction: 0, index: 0, stop: Number.NaN, stopIsTrailing: false, target: Number.NaN };
  private readonly exit: ProtectiveExit = { kind: 'none', price: Number.NaN };
  // Hoisted from the options so the per-bar path reads own fields only.
  private readonly ledger: Ledger;
  private readonly session: SessionState;
  private readonly venue: Venue;
  private readonly time: Float64Array;
  private readonly close: Float64Array;
  private readonly fillAtClose: boolean;
  // Request objects reused for every order and fill: the ledger and the venue copy their fields
  // and never keep the object, so one mutable instance each saves allocations per round trip.
  private readonly placeRequest: { instrument: string; side: TradeSide; quantity: number; reason: FillReason; index: number; time: number };
  private readonly fillRequest: { index: number; time: number; date: IsoDate; price: Paise } = { index: 0, time: 0, date: '1970-01-01' as IsoDate, price: 0 as Paise };
  private readonly priceRequest: { side: TradeSide; index: number; moment: BarMoment } = { side: 'buy', index: 0, moment: 'open' };

  constructor(private readonly options: UnderlyingTraderOptions) {
    this.levels = new ProtectiveLevels(options.settings.protective);
    const { context, settings } = options;
    this.ledger = context.ledger;
    this.session = context.session;
    this.venue = options.venue;
    this.time = context.series.time;
    this.close = context.series.close;
    this.fillAtClose = settings.fill === 'close';
    this.placeRequest = { instrument: settings.instrument, side: 'buy', quantity: 0, reason: 'entry', index: 0, time: 0 };
  }

  onBarOpen(index: number): void {
    if (this.pendingExit !== undefined) {
      const order = this.pendingExit;
      this.pendingExit = undefined;
      if (this.position.position === 0) this.ledger.cancel(order);
      else this.closeWith(order, index, 'open');
    }
    if (this.pendingEntry !== undefined) {
      const order = this.pendingEntry;
      this.pendingEntry = undefined;
      if (this.session.entriesAllowed && this.position.position === 0) this.openWith(order, index, 'open');
      else this.ledger.cancel(order);
    }
    if (this.position.position !== 0) {
      this.checkInsideBar(index);
      this.position.barsSinceEntry = index - this.entryIndex;
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
    if (allowed && this.session.entriesAllowed) this.enterNow(index, wanted);
  }

  squareOff(index: number, options: { reason: ExitReason; moment: BarMoment }): void {
    this.cancelPending(index);
    if (this.position.position === 0) return;
    const order = this.placeExit(index, options.reason, options.moment);
    this.closeWith(order, index, options.moment);
  }

  cancelPending(_index: number): void {
    const ledger = this.ledger;
    if (this.pendingExit !== undefined) ledger.cancel(this.pendingExit);
    if (this.pendingEntry !== undefined) ledger.cancel(this.pendingEntry);
    this.pendingExit = undefined;
    this.pendingEntry = undefined;
  }

  markToMarket(index: number): Paise {
    if (this.position.position === 0) return 0 as Paise;
    return (this.position.position * this.quantity * toPaise(this.close[index] as number)) as Paise;
  }

  isActive(): boolean {
    return this.position.position !== 0 || this.pendingExit !== undefined || this.pendingEntry !== undefined;
  }

  isQuiescent(): boolean {
    return this.pendingExit === undefined && this.pendingEntry === undefined && !this.levels.active;
  }

  private exitNow(index: number, reason: ExitReason): void {
    const order = this.placeExit(index, reason);
    if (this.fillAtClose) this.closeWith(order, index, 'close');
    else this.pendingExit = order;
  }

  private enterNow(index: number, wanted: number): void {
    const side: TradeSide = wanted > 0 ? 'buy' : 'sell';
    // The quantity is an estimate at this close; a next-open order is re-sized at the open it fills at.
    const quantity = this.sizeAt(side, toPaise(this.close[index] as number), index);
    if (quantity <= 0) return;
    const order = this.place({ side, quantity, reason: 'entry' }, index, this.session.closeTime);
    if (this.fillAtClose) this.openWith(order, index, 'close');
    else this.pendingEntry = order;
  }

  /** Places an order through the reused request object. */
  private place(order: { side: TradeSide; quantity: number; reason: FillReason }, index: number, time: number): OrderId {
    const request = this.placeRequest;
    request.side = order.side;
    request.quantity = order.quantity;
    request.reason = order.reason;
    request.index = index;
    request.time = time;
    return this.ledger.place(request);
  }

  /** Units affordable at `price` on current capital (cash + the open position at bar `index`'s close). */
  private sizeAt(side: TradeSide, price: number, index: number): number {
    const sizing = this.options.settings.sizing;
    // A fixed quantity needs no capital (entryQuantity returns it whatever the price and capital).
    if (sizing.kind === 'quantity') return sizing.quantity;
    const capital = this.ledger.cash + this.markToMarket(index);
    return entryQuantity({ sizing, capital, price, side, date: this.session.date, chargeModel: this.options.chargeModel });
  }

  private placeExit(index: number, reason: ExitReason, moment: BarMoment = 'close'): OrderId {
    const side: TradeSide = this.position.position > 0 ? 'sell' : 'buy';
    return this.place({ side, quantity: this.quantity, reason }, index, this.fillTime(index, moment));
  }

  private fillTime(index: number, moment: BarMoment): number {
    return moment === 'open' ? (this.time[index] as number) : this.session.closeTime;
  }

  private marketPrice(side: TradeSide, index: number, moment: BarMoment): Paise {
    const request = this.priceRequest;
    request.side = side;
    request.index = index;
    request.moment = moment;
    return this.venue.marketPrice(request);
  }

  /** Fills `order` at `price` through the reused request object. */
  private fill(order: OrderId, index: number, at: { time: number; price: Paise }): FillId {
    const request = this.fillRequest;
    request.index = index;
    request.time = at.time;
    request.date = this.session.date;
    request.price = at.price;
    return this.ledger.fill(order, request);
  }

  private openWith(order: OrderId, index: number, moment: BarMoment): void {
    const side = this.ledger.orderSide(order);
    const price = this.marketPrice(side, index, moment);
    const quantity = this.sizeAt(side, price, index);
    if (quantity <= 0) {
      this.ledger.cancel(order);
      return;
    }
    this.ledger.setOrderQuantity(order, quantity);
    const fill = this.fill(order, index, { time: this.fillTime(index, moment), price });
    const direction = side === 'buy' ? 1 : -1;
    this.entryFill = fill;
    this.entryIndex = index;
    this.quantity = quantity;
    this.position.position = direction;
    this.position.entryPrice = price / 100;
    this.position.barsSinceEntry = 0;
    this.levels.open(direction, price);
  }

  private closeWith(order: OrderId, index: number, moment: BarMoment): void {
    this.closeAt(order, index, { time: this.fillTime(index, moment), price: this.marketPrice(this.ledger.orderSide(order), index, moment) });
  }

  private closeAt(order: OrderId, index: number, at: { time: number; price: number }): void {
    const fill = this.fill(order, index, { time: at.time, price: paise(at.price) });
    if (this.entryFill >= 0) this.ledger.recordTrade(this.entryFill, fill);
    this.entryFill = -1;
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
    this.venue.checkProtectiveExit(this.check, this.exit);
    if (this.exit.kind !== 'none') {
      const order = this.placeExit(index, this.exit.kind, 'open');
      this.closeAt(order, index, { time: this.fillTime(index, 'open'), price: this.exit.price });
      return;
    }
    const { high, low } = this.options.context.series;
    this.levels.ratchet(toPaise(high[index] as number), toPaise(low[index] as number));
  }
}
