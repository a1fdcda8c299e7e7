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
// Stops, targets and the trailing stop are matched by the venue against each bar's tick path
// (execution/matching-core.ts), from the tick after the entry fill (tick 1 after a fill at the
// open); an exit there is placed and filled at its tick's time.
//
// With a ContractChain (an index's futures: contract-chain.ts) the trader trades the chain's
// contracts instead of the series: fills, stops and the mark to market read the chain's prices;
// entries are whole lots sized by the chain, sent as the chain's slices (each slice an order and
// a fill, each exit slice closing one entry slice, so round trips pair slice by slice); a
// position still open when its contract's run ends is rolled at the next bar's open: the old
// contract is sold at its last price (the close of the bar before, fill reason `roll`), the next
// one bought at this open, sized anew, with the stops moved by the difference (a roll is not a new
// entry for the program: `entry_price` and `bars_since_entry` carry on). A signal exit waiting
// for that open fills at the old contract's last price instead, and nothing is reopened.
// `entry_price` is the signal series' price at the entry fill, so rules compare like with like.
import { paise, rupeesToPaise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from '../algorithm/program';
import type { PositionContext, Signal } from '../algorithm/program';
import type { ChargeModel } from './charges-model';
import type { ContractChain } from './contract-chain';
import type { FillId, Ledger, OrderId } from './ledger';
import { emptyOutcome } from '../execution/matching-core';
import type { ProtectiveFillKind } from '../execution/matching-core';
import type { ProtectiveCheck, ProtectiveExit, Venue } from './ports';
import { ProtectiveLevels } from './protective-levels';
import type { ProtectiveConfig } from './protective-levels';
import { entryQuantity } from './sizing';
import type { Sizing } from './sizing';
import type { BarMoment, ExitReason, FillReason, SessionState, Trader, TraderContext } from './trader';

export type TradeDirection = 'long-only' | 'short-only' | 'both';

/** An open position as `UnderlyingTrader.openPosition` reports it. */
export interface OpenPositionView {
  readonly instrument: string;
  readonly direction: number;
  readonly quantity: number;
  readonly levels: ProtectiveLevels;
}
export type FillModel = 'next-open' | 'close';

/** An order to place: what `place` copies into the ledger's request (placed at `time`, epoch ms). */
interface OrderDraft {
  side: TradeSide;
  quantity: number;
  reason: FillReason;
  instrument: string;
  time: number;
}

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
  /** Trade this chain of contracts (priced by its own bars) instead of the bar series itself. */
  readonly contracts?: ContractChain;
}

export class UnderlyingTrader implements Trader {
  readonly position: PositionContext = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
  private quantity = 0;
  /** The open position's entry fills, one per slice (one without a contract chain); empty when flat. */
  private readonly entryFills: FillId[] = [];
  private entryIndex = 0;
  /** The instrument of the open position: the series' key, or the chain's contract. */
  private held: string;
  /** First bar of the next contract while a chain's contract is held; never reached otherwise. */
  private heldUntil = Number.POSITIVE_INFINITY;
  private pendingExit: OrderId | undefined;
  private pendingEntry: OrderId | undefined;
  private readonly levels: ProtectiveLevels;
  /** The bar whose open filled the position's entry: its levels watch that bar from tick 1 (the tick after the fill). */
  private enteredAtOpen = -1;
  private readonly check: ProtectiveCheck;
  private readonly exit: ProtectiveExit = emptyOutcome<ProtectiveFillKind>();
  // Hoisted from the options so the per-bar path reads own fields only.
  private readonly ledger: Ledger;
  private readonly session: SessionState;
  private readonly venue: Venue;
  private readonly time: Float64Array;
  /** The traded prices' columns: the series', or the contract chain's. */
  private readonly close: Float64Array;
  private readonly contracts: ContractChain | undefined;
  private readonly fillAtClose: boolean;
  // Request objects reused for every order and fill: the ledger and the venue copy their fields
  // and never keep the object, so one mutable instance each saves allocations per round trip.
  private readonly placeRequest: { instrument: string; side: TradeSide; quantity: number; reason: FillReason; index: number; time: number };
  private readonly fillRequest: { index: number; time: number; date: IsoDate; price: Paise } = { index: 0, time: 0, date: '1970-01-01' as IsoDate, price: 0 as Paise };
  private readonly priceRequest: { side: TradeSide; index: number; moment: BarMoment } = { side: 'buy', index: 0, moment: 'open' };
  // Arguments of the private steps of a round trip, reused the same way (each is read at once, never
  // kept). Times and prices go in these, not as arguments: a time is a double beyond V8's small
  // integers, and a double passed to (or returned by) a call V8 does not inline is a new heap number.
  private readonly draft: OrderDraft = { side: 'buy', quantity: 0, reason: 'entry', instrument: '', time: Number.NaN };
  private readonly fillPoint: { time: number; price: Paise } = { time: 0, price: 0 as Paise };
  private readonly exitPoint: { time: number; price: number } = { time: 0, price: 0 };
  private readonly entryPoint: { moment: BarMoment; price: number } = { moment: 'open', price: 0 };

  constructor(private readonly options: UnderlyingTraderOptions) {
    this.levels = new ProtectiveLevels(options.settings.protective);
    this.check = { index: 0, fromTick: 0, end: 0, pair: { levels: this.levels, last: Number.NaN } };
    const { context, settings } = options;
    this.ledger = context.ledger;
    this.session = context.session;
    this.venue = options.venue;
    this.time = context.series.time;
    this.contracts = options.contracts;
    const traded = options.contracts?.prices ?? context.series;
    this.close = traded.close;
    this.fillAtClose = settings.fill === 'close';
    this.held = settings.instrument;
    this.placeRequest = { instrument: settings.instrument, side: 'buy', quantity: 0, reason: 'entry', index: 0, time: 0 };
  }

  onBarOpen(index: number): void {
    if (this.position.position !== 0 && this.contracts !== undefined && this.rollsAt(index)) this.roll(index);
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
  }

  onBarPath(index: number): void {
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
    const at = this.exitPoint;
    at.time = options.moment === 'open' ? (this.time[index] as number) : this.session.closeTime;
    const order = this.placeExit(index, options.reason, at);
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
    return (this.position.position * this.quantity * rupeesToPaise(this.close[index] as number)) as Paise;
  }

  get markPrices(): Float64Array {
    return this.close;
  }

  heldUnits(): number {
    return this.position.position * this.quantity;
  }

  isActive(): boolean {
    return this.position.position !== 0 || this.pendingExit !== undefined || this.pendingEntry !== undefined;
  }

  /**
   * The open position as a venue must protect it: the instrument held, its direction (+1 long,
   * -1 short), the units and the levels (live: updated at each bar's close; copy them to follow a
   * bar tick by tick). Undefined when flat.
   */
  openPosition(): OpenPositionView | undefined {
    if (this.position.position === 0) return undefined;
    return { instrument: this.held, direction: this.position.position, quantity: this.quantity, levels: this.levels };
  }

  isQuiescent(): boolean {
    // A held contract must be watched for its roll.
    return this.pendingExit === undefined && this.pendingEntry === undefined && !this.levels.active
      && (this.contracts === undefined || this.position.position === 0);
  }

  private exitNow(index: number, reason: ExitReason): void {
    const at = this.exitPoint;
    at.time = this.session.closeTime;
    const order = this.placeExit(index, reason, at);
    if (this.fillAtClose) this.closeWith(order, index, 'close');
    else this.pendingExit = order;
  }

  private enterNow(index: number, wanted: number): void {
    const side: TradeSide = wanted > 0 ? 'buy' : 'sell';
    // The quantity is an estimate at this close; a next-open order is re-sized at the open it fills at.
    const quantity = this.sizeAt(side, rupeesToPaise(this.close[index] as number), index);
    if (quantity <= 0) return;
    // A next-open order fills at the next bar: with a chain, that bar's contract.
    const fillIndex = this.fillAtClose || index + 1 >= this.time.length ? index : index + 1;
    const instrument = this.contracts === undefined ? this.held : this.contracts.symbolAt(fillIndex);
    const order = this.place(this.drafted(side, quantity, instrument), index);
    if (this.fillAtClose) this.openWith(order, index, 'close');
    else this.pendingEntry = order;
  }

  /** The reused draft of an entry order placed at this bar's close. */
  private drafted(side: TradeSide, quantity: number, instrument: string): OrderDraft {
    const draft = this.draft;
    draft.side = side;
    draft.quantity = quantity;
    draft.reason = 'entry';
    draft.instrument = instrument;
    draft.time = this.session.closeTime;
    return draft;
  }

  /** Places an order (placed at `order.time`, at bar `index`) through the reused request object. */
  private place(order: OrderDraft, index: number): OrderId {
    const request = this.placeRequest;
    request.instrument = order.instrument;
    request.side = order.side;
    request.quantity = order.quantity;
    request.reason = order.reason;
    request.index = index;
    request.time = order.time;
    return this.ledger.place(request);
  }

  /** Units affordable at `price` on current capital (cash + the open position at bar `index`'s close). */
  private sizeAt(side: TradeSide, price: number, index: number): number {
    const sizing = this.options.settings.sizing;
    // A fixed quantity needs no capital (entryQuantity returns it whatever the price and capital).
    if (this.contracts !== undefined) {
      const capital = this.ledger.cash + this.markToMarket(index);
      return this.contracts.entryQuantity({ index, date: this.session.date, capital, price, side, chargeModel: this.options.chargeModel });
    }
    if (sizing.kind === 'quantity') return sizing.quantity;
    const capital = this.ledger.cash + this.markToMarket(index);
    return entryQuantity({ sizing, capital, price, side, date: this.session.date, chargeModel: this.options.chargeModel });
  }

  /** Places the exit of the whole position at `at.time` (epoch ms). */
  private placeExit(index: number, reason: ExitReason, at: { readonly time: number }): OrderId {
    const draft = this.draft;
    draft.side = this.position.position > 0 ? 'sell' : 'buy';
    draft.quantity = this.quantity;
    draft.reason = reason;
    draft.instrument = this.held;
    draft.time = at.time;
    return this.place(draft, index);
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
    const at = this.entryPoint;
    at.moment = moment;
    at.price = price;
    const quantity = this.fillEntry(order, index, at);
    if (quantity === 0) return;
    const direction = side === 'buy' ? 1 : -1;
    this.entryIndex = index;
    this.position.position = direction;
    const series = this.options.context.series;
    this.position.entryPrice = this.contracts === undefined ? price / 100 : (moment === 'open' ? series.open : series.close)[index] as number;
    this.position.barsSinceEntry = 0;
    this.levels.open(direction, price);
    if (moment === 'open') this.enteredAtOpen = index;
  }

  /**
   * Sizes `order` at `price` and fills it (as the chain's slices, with a chain); 0 (order
   * cancelled) when not one unit or lot fits. Sets the held quantity, instrument and run end.
   */
  private fillEntry(order: OrderId, index: number, at: { moment: BarMoment; price: number }): number {
    const side = this.ledger.orderSide(order);
    const quantity = this.sizeAt(side, at.price, index);
    if (quantity <= 0) {
      this.ledger.cancel(order);
      return 0;
    }
    // Computed here, not by a call: a double a call returned, were it not inlined, would be a heap allocation per fill.
    const time = at.moment === 'open' ? (this.time[index] as number) : this.session.closeTime;
    const contracts = this.contracts;
    if (contracts === undefined) {
      this.ledger.setOrderQuantity(order, quantity);
      const point = this.fillPoint;
      point.time = time;
      point.price = at.price as Paise;
      this.entryFills.push(this.fill(order, index, point));
    } else {
      this.held = contracts.symbolAt(index);
      this.heldUntil = contracts.endOf(index);
      const slices = contracts.slicesOf(quantity, { index, date: this.session.date });
      this.fillSlices(order, index, { time, price: at.price, slices, reason: 'entry' });
    }
    this.quantity = quantity;
    return quantity;
  }

  /**
   * Fills `order` as the first of `slices` and places and fills one more order (same side, reason,
   * placing bar and time) per further slice; entries keep their fills, exits close entry slice k
   * with exit slice k.
   */
  private fillSlices(order: OrderId, index: number, at: { time: number; price: number; slices: readonly number[]; reason: FillReason }): void {
    const ledger = this.ledger;
    const side = ledger.orderSide(order);
    const placedIndex = ledger.orderPlacedIndex(order);
    const placedTime = ledger.placedTimeOf(order);
    const entering = at.reason === 'entry';
    const closing = entering ? [] : this.entryFills.slice();
    if (!entering) this.entryFills.length = 0;
    at.slices.forEach((quantity, slice) => {
      const sliceOrder = slice === 0 ? order : this.place({ side, quantity, reason: at.reason, instrument: this.held, time: placedTime }, placedIndex);
      ledger.setOrderQuantity(sliceOrder, quantity);
      const fill = this.fill(sliceOrder, index, { time: at.time, price: at.price as Paise });
      if (entering) this.entryFills.push(fill);
      else ledger.recordTrade(closing[slice] as FillId, fill);
    });
  }

  private closeWith(order: OrderId, index: number, moment: BarMoment): void {
    const at = this.exitPoint;
    at.time = moment === 'open' ? (this.time[index] as number) : this.session.closeTime;
    at.price = this.marketPrice(this.ledger.orderSide(order), index, moment);
    this.closeAt(order, index, at);
  }

  private closeAt(order: OrderId, index: number, at: { time: number; price: number }): void {
    this.exitAt(order, index, at);
    this.flatten();
  }

  /** Fills the exit `order` (one exit slice per entry slice) and records the round trips. */
  private exitAt(order: OrderId, index: number, at: { time: number; price: number }): void {
    const entries = this.entryFills;
    if (entries.length <= 1) {
      const point = this.fillPoint;
      point.time = at.time;
      point.price = paise(at.price);
      const fill = this.fill(order, index, point);
      // pop, not `length = 0`: setting an array's length is a call into the runtime.
      if (entries.length === 1) this.ledger.recordTrade(entries.pop() as FillId, fill);
      return;
    }
    const slices = entries.map((entry) => this.ledger.fillQuantity(entry));
    this.fillSlices(order, index, { time: at.time, price: paise(at.price), slices, reason: this.ledger.reasonOf(order) });
  }

  private flatten(): void {
    // Usually emptied already by exitAt.
    if (this.entryFills.length !== 0) this.entryFills.length = 0;
    this.quantity = 0;
    this.heldUntil = Number.POSITIVE_INFINITY;
    this.position.position = 0;
    this.position.entryPrice = Number.NaN;
    this.position.barsSinceEntry = Number.NaN;
    this.levels.close();
  }

  /**
   * Whether bar `index` is past the held contract's run: its known end, or, for a chain priced bar
   * by bar whose run's end is not known yet (endOf: Infinity), a bar naming another contract.
   */
  private rollsAt(index: number): boolean {
    if (index >= this.heldUntil) return true;
    return this.heldUntil === Number.POSITIVE_INFINITY && (this.contracts as ContractChain).symbolAt(index) !== this.held;
  }

  /**
   * Bar `index` starts the next contract while the old one is held: sells the old contract at its
   * last price (the close of bar index - 1) and, unless a signal exit was waiting for this open,
   * buys the same side of the new contract at this open, sized anew, stops moved by the spread.
   */
  private roll(index: number): void {
    const previous = index - 1;
    const direction = this.position.position;
    const time = this.time[index] as number;
    const exitSide: TradeSide = direction > 0 ? 'sell' : 'buy';
    const exitPrice = this.marketPrice(exitSide, previous, 'close');
    if (this.pendingExit !== undefined) {
      const order = this.pendingExit;
      this.pendingExit = undefined;
      this.closeAt(order, index, { time, price: exitPrice });
      return;
    }
    const at = { time, price: exitPrice };
    this.exitAt(this.placeExit(index, 'roll', at), index, at);
    this.quantity = 0;
    const entrySide: TradeSide = direction > 0 ? 'buy' : 'sell';
    const entryPrice = this.marketPrice(entrySide, index, 'open');
    const quantity = this.session.entriesAllowed ? this.sizeAt(entrySide, entryPrice, index) : 0;
    if (quantity <= 0) {
      this.flatten();
      return;
    }
    const instrument = (this.contracts as ContractChain).symbolAt(index);
    const order = this.place({ side: entrySide, quantity, reason: 'entry', instrument, time }, index);
    this.fillEntry(order, index, { moment: 'open', price: entryPrice });
    this.enteredAtOpen = index;
    const prices = (this.contracts as ContractChain).prices;
    this.levels.shift(rupeesToPaise(prices.open[index] as number) - rupeesToPaise(prices.close[previous] as number));
  }

  /**
   * Stops and targets inside bar `index`, matched as its tick path by the venue (the trailing stop
   * moves tick by tick); a position entered at this bar's open is watched from the tick after.
   */
  private checkInsideBar(index: number): void {
    if (!this.levels.active) return;
    const check = this.check;
    check.index = index;
    check.fromTick = index === this.enteredAtOpen ? 1 : 0;
    check.end = this.session.closeTime;
    const exit = this.exit;
    this.venue.checkProtectiveExit(check, exit);
    if (exit.kind === 'none') return;
    const order = this.placeExit(index, exit.kind, exit);
    const at = this.exitPoint;
    at.time = exit.time;
    at.price = exit.price;
    this.closeAt(order, index, at);
  }
}
