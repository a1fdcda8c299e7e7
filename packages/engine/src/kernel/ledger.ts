// The book both traders write to: orders, fills with their charges, round-trip trades and the
// per-day rows. It also keeps cash, so equity is always `cash + open positions at market`
// (a buy pays price x quantity + charges, a sell receives price x quantity - charges). All money
// is integer paise; the ledger allocates only when an order, fill or trade is recorded.
import { paise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import type { ChargeComponents, TradeSide } from '@vyuha/market';
import type { ChargedInstrument, ChargeModel, FillCharges } from './charges-model';
import type { ExitReason, FillReason } from './trader';

export type OrderStatus = 'working' | 'filled' | 'cancelled';

export interface LedgerOrder {
  readonly id: number;
  /** The traded contract's key (the series name for the underlying trader, a trading symbol for a leg). */
  readonly instrument: string;
  readonly side: TradeSide;
  /** Units. A working entry sized on capital is re-sized at the price it fills at (a next-open order at the open). */
  quantity: number;
  readonly reason: FillReason;
  /** Bar index and epoch ms at which the order was placed. */
  readonly placedIndex: number;
  readonly placedTime: number;
  status: OrderStatus;
}

export interface LedgerFill {
  readonly orderId: number;
  readonly instrument: string;
  readonly index: number;
  /** Epoch ms of the fill: the bar's time for an open fill, the bar's end for a close fill. */
  readonly time: number;
  readonly date: IsoDate;
  readonly side: TradeSide;
  readonly quantity: number;
  /** Paise per unit, after slippage. */
  readonly price: Paise;
  readonly charges: ChargeComponents;
  readonly chargesTotal: Paise;
  readonly reason: FillReason;
}

export interface LedgerTrade {
  readonly instrument: string;
  readonly direction: 'long' | 'short';
  readonly quantity: number;
  readonly entryIndex: number;
  readonly entryTime: number;
  readonly entryPrice: Paise;
  readonly exitIndex: number;
  readonly exitTime: number;
  readonly exitPrice: Paise;
  /** (exit - entry) x quantity for a long, (entry - exit) x quantity for a short. */
  readonly gross: Paise;
  /** Charges of the entry and the exit fills. */
  readonly charges: Paise;
  readonly net: Paise;
  readonly exitReason: ExitReason;
}

/**
 * One IST trading day. `net` is the change in equity from the previous day's last close (the
 * first day: from the starting capital), so open swing positions are marked to market daily;
 * `gross` is `net + charges`; `orders` counts orders filled that day.
 */
export interface DayRow {
  readonly date: IsoDate;
  readonly gross: Paise;
  readonly charges: Paise;
  readonly net: Paise;
  readonly orders: number;
}

export interface PlaceOrderRequest {
  readonly instrument: string;
  readonly side: TradeSide;
  readonly quantity: number;
  readonly reason: FillReason;
  readonly index: number;
  readonly time: number;
}

/** An option position settled at expiry: no trade, the exchange closes it at `settlementPrice`. */
export interface SettlementRequest {
  readonly event: 'exercise' | 'expire-worthless';
  /** Paise per unit: the intrinsic value for an exercise, 0 for a worthless expiry. */
  readonly settlementPrice: Paise;
  readonly index: number;
  /** Epoch ms of the settlement (the expiry's close). */
  readonly time: number;
  /** The expiry date: the day whose row the settlement counts in. */
  readonly date: IsoDate;
  readonly instrument?: ChargedInstrument;
}

export interface FillRequest {
  readonly index: number;
  readonly time: number;
  readonly date: IsoDate;
  readonly price: Paise;
  readonly instrument?: ChargedInstrument;
}

export class Ledger {
  readonly orders: LedgerOrder[] = [];
  readonly fills: LedgerFill[] = [];
  readonly trades: LedgerTrade[] = [];
  readonly days: DayRow[] = [];
  /** Cash in paise: starting capital, minus buys and charges, plus sells. */
  cash: number;
  /** Counts fills and settlements: while it is unchanged, no position changed (the kernel reuses a bar's mark to market). */
  changes = 0;
  private dayCharges = 0;
  private dayOrders = 0;
  private readonly chargeModel: ChargeModel;

  constructor(options: { capital: Paise; chargeModel: ChargeModel }) {
    this.cash = options.capital;
    this.chargeModel = options.chargeModel;
  }

  /** Records a new working order. */
  place(request: PlaceOrderRequest): LedgerOrder {
    const order: LedgerOrder = {
      id: this.orders.length + 1, instrument: request.instrument, side: request.side, quantity: request.quantity,
      reason: request.reason, placedIndex: request.index, placedTime: request.time, status: 'working',
    };
    this.orders.push(order);
    return order;
  }

  /** Fills a working order whole at `price`, charges it on the fill's date and moves cash. */
  fill(order: LedgerOrder, request: FillRequest): LedgerFill {
    // One object shape for every fill (no spread): `instrument` may be undefined.
    const charged = this.chargeModel({ date: request.date, side: order.side, price: request.price, quantity: order.quantity, instrument: request.instrument });
    return this.record(order, request, charged);
  }

  /** Books a working order as filled at `fill.price` with `charged`, moving cash and the day's counters. */
  private record(order: LedgerOrder, request: FillRequest, charged: FillCharges): LedgerFill {
    if (order.status !== 'working') throw new Error(`order ${order.id} is ${order.status}, not working`);
    const fill: LedgerFill = {
      orderId: order.id, instrument: order.instrument, index: request.index, time: request.time, date: request.date,
      side: order.side, quantity: order.quantity, price: request.price, charges: charged.components,
      chargesTotal: charged.total, reason: order.reason,
    };
    order.status = 'filled';
    const value = request.price * order.quantity;
    this.cash += order.side === 'buy' ? -value - charged.total : value - charged.total;
    this.dayCharges += charged.total;
    this.dayOrders += 1;
    this.fills.push(fill);
    this.changes += 1;
    return fill;
  }

  /**
   * Settles a working order at expiry: the order closes at `settlementPrice` per unit, charged by
   * the run's charge model for the event (an exercise pays STT on the settlement value plus
   * brokerage and its GST; a worthless expiry costs nothing), and counts in the day's charges
   * and orders like a fill. Returns the settlement's fill (reason: the order's, normally `expiry`).
   * @example ledger.settle(order, { event: 'expire-worthless', settlementPrice: paise(0), index, time, date }).chargesTotal // 0
   */
  settle(order: LedgerOrder, request: SettlementRequest): LedgerFill {
    if (request.event === 'expire-worthless' && request.settlementPrice !== 0) {
      throw new RangeError(`settlementPrice: a worthless expiry settles at 0, got ${request.settlementPrice}`);
    }
    return this.record(
      order,
      { index: request.index, time: request.time, date: request.date, price: request.settlementPrice },
      this.chargeModel({
        date: request.date, side: order.side, price: request.settlementPrice, quantity: order.quantity, instrument: request.instrument,
        event: request.event, settlementPrice: request.settlementPrice,
      }),
    );
  }

  cancel(order: LedgerOrder): void {
    if (order.status === 'working') order.status = 'cancelled';
  }

  /** Records a round trip from its entry and exit fills. */
  recordTrade(entry: LedgerFill, exit: LedgerFill): LedgerTrade {
    const direction = entry.side === 'buy' ? 'long' : 'short';
    const perUnit = direction === 'long' ? exit.price - entry.price : entry.price - exit.price;
    const gross = perUnit * exit.quantity;
    // An exit may close part of the entry (an options leg closing one lot); charge the entry pro rata, exactly.
    const entryCharges = exit.quantity === entry.quantity ? entry.chargesTotal : Math.round((entry.chargesTotal * exit.quantity) / entry.quantity);
    const charges = entryCharges + exit.chargesTotal;
    const trade: LedgerTrade = {
      instrument: entry.instrument, direction, quantity: exit.quantity,
      entryIndex: entry.index, entryTime: entry.time, entryPrice: entry.price,
      exitIndex: exit.index, exitTime: exit.time, exitPrice: exit.price,
      gross: paise(gross), charges: paise(charges), net: paise(gross - charges), exitReason: exit.reason === 'entry' ? 'signal' : exit.reason,
    };
    this.trades.push(trade);
    return trade;
  }

  /** Closes the day's row: `net` is the day's change in equity (paise). */
  closeDay(date: IsoDate, net: number): DayRow {
    const row: DayRow = { date, gross: paise(net + this.dayCharges), charges: paise(this.dayCharges), net: paise(net), orders: this.dayOrders };
    this.days.push(row);
    this.dayCharges = 0;
    this.dayOrders = 0;
    return row;
  }
}
