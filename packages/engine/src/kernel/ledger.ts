// The book both traders write to: orders, fills with their charges, round-trip trades and the
// per-day rows. It also keeps cash, so equity is always `cash + open positions at market`
// (a buy pays price x quantity + charges, a sell receives price x quantity - charges). All money
// is integer paise.
//
// Orders, fills, trades and days are rows in typed-array columns (ledger-columns.ts): a trader holds
// an order's id or a fill's row number, never an object, and a run allocates nothing per record.
// `orders`, `fills`, `trades` and `days` give the same rows as plain objects, built when first read
// and kept (an order's object follows its later status and quantity changes).
import { paise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import type { ChargeComponents, TradeSide } from '@vyuha/market';
import type { ChargedInstrument, ChargeModel, FillCharges } from './charges-model';
import { column, DayTable, FillTable, OrderTable, StringTable, TradeTable } from './ledger-columns';
import type { Column } from './ledger-columns';
import type { ExitReason, FillReason } from './trader';

export type OrderStatus = 'working' | 'filled' | 'cancelled';

/** An order's id: 1 for the run's first order, counting up. */
export type OrderId = number;
/** A fill's row: 0 for the run's first fill, counting up (the index into `Ledger.fills`). */
export type FillId = number;

export interface LedgerOrder {
  readonly id: OrderId;
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
  readonly orderId: OrderId;
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

const SIDES: readonly TradeSide[] = ['buy', 'sell'];
const STATUSES: readonly OrderStatus[] = ['working', 'filled', 'cancelled'];
const BUY = 0;
const SELL = 1;
const WORKING = 0;
const FILLED = 1;
const CANCELLED = 2;
const REASONS: readonly FillReason[] = ['entry', 'signal', 'stop', 'target', 'trailing', 'square-off', 'end-of-data', 'daily-limit', 'expiry', 'roll'];
const COMPONENTS = ['brokerage', 'stt', 'exchangeTransaction', 'investorProtection', 'sebiFee', 'stampDuty', 'gst'] as const;

/** A reason's index in REASONS: the list is short and the common reasons come first, so a scan beats a Map's hash lookup. */
function reasonCode(reason: FillReason): number {
  // Nearly every order is an entry or a signal's exit: a comparison each, before the scan.
  if (reason === 'entry') return 0;
  if (reason === 'signal') return 1;
  const code = REASONS.indexOf(reason);
  if (code < 0) throw new RangeError(`reason: unknown fill reason ${JSON.stringify(reason)}`);
  return code;
}

/**
 * The columns of a ledger's orders, fills and trades. A ledger makes its own unless it is given a
 * set: a caller that runs backtests one after another and reads each before the next (a sweep, a
 * backtest thread) hands every run the same set, cleared when the next ledger takes it (without
 * writing the arrays: ledger-columns.ts), so a run allocates no column. A sweep run's ledger
 * otherwise grew about 380 KB of arrays (543 round trips, charges on), which V8 counts as external
 * memory: a 1,000-run sweep made it start about 15 full collections; the kernel benchmark's
 * crossover (27,670 round trips) grows about 11.6 MB of them a run, and its runs took 5-7% less
 * time with one set handed from run to run. The ledger that took the set last owns it; an earlier
 * one refuses to read.
 */
export class LedgerColumns {
  /** The ledger using these columns now. */
  owner: Ledger | undefined;
  readonly orders = new OrderTable();
  readonly fills = new FillTable();
  /** One column per charge component, in COMPONENTS order, by fill row; written only for charged fills. */
  readonly fillComponents: readonly Column[] = COMPONENTS.map(() => column('f64'));
  readonly trades = new TradeTable();
  readonly days = new DayTable();
  /**
   * Orders' instruments and fills' dates by code. Unlike the columns they are not cleared: a code
   * only ever stands for its one string, so a later run reads its own rows the same, and a sweep's
   * runs, which fill on the same days, no longer each build a map of those dates again (about 20
   * KB of new memory a run over a year of minutes).
   */
  readonly instruments = new StringTable();
  readonly dates = new StringTable<IsoDate>();

  /** Hands the columns to `ledger`, every row back to 0 (the arrays are kept). */
  takenBy(ledger: Ledger): void {
    if (this.owner !== undefined) {
      this.orders.clear();
      this.fills.clear();
      this.trades.clear();
      this.days.clear();
      for (const one of this.fillComponents) one.clear();
    }
    this.owner = ledger;
  }
}

export class Ledger {
  /** Cash in paise: starting capital, minus buys and charges, plus sells. */
  cash: number;
  /** Counts fills and settlements: while it is unchanged, no position changed (the kernel reuses a bar's mark to market). */
  changes = 0;
  /** Charges of every fill so far, paise. */
  totalCharges = 0;
  /** Round trips with net > 0, and with net < 0. */
  wins = 0;
  losses = 0;
  private dayCharges = 0;
  private dayOrders = 0;
  private readonly chargeModel: ChargeModel;
  private readonly chargeRequest: { date: IsoDate; side: TradeSide; price: Paise; quantity: number; instrument: ChargedInstrument | undefined } = {
    date: '1970-01-01' as IsoDate, side: 'buy', price: 0 as Paise, quantity: 0, instrument: undefined,
  };
  // The set's tables, each in a field of its own (the per-trade path reads their arrays directly).
  private readonly columns: LedgerColumns;
  private readonly orderTable: OrderTable;
  private readonly fillTable: FillTable;
  private readonly fillComponents: readonly Column[];
  private readonly tradeTable: TradeTable;
  private readonly dayTable: DayTable;
  private readonly instruments: StringTable;
  private readonly dates: StringTable<IsoDate>;
  // Objects of the rows already read through `orders`, `fills`, `trades`, `days`.
  private readonly orderObjects: LedgerOrder[] = [];
  private readonly fillObjects: LedgerFill[] = [];
  private readonly tradeObjects: LedgerTrade[] = [];
  private readonly dayObjects: DayRow[] = [];

  /** `columns`: a set to write into instead of new ones (see LedgerColumns); this ledger then owns it. */
  constructor(options: { capital: Paise; chargeModel: ChargeModel; columns?: LedgerColumns }) {
    this.cash = options.capital;
    this.chargeModel = options.chargeModel;
    const columns = options.columns ?? new LedgerColumns();
    columns.takenBy(this);
    this.columns = columns;
    this.orderTable = columns.orders;
    this.fillTable = columns.fills;
    this.fillComponents = columns.fillComponents;
    this.tradeTable = columns.trades;
    this.dayTable = columns.days;
    this.instruments = columns.instruments;
    this.dates = columns.dates;
  }

  /** Throws when another ledger has taken this one's columns since (its rows are gone). */
  private requireColumns(): void {
    if (this.columns.owner !== this) throw new Error('this ledger\'s columns were handed to a later run: read a run before the next one takes its columns');
  }

  /** Records a new working order; returns its id. */
  place(request: PlaceOrderRequest): OrderId {
    const orders = this.orderTable;
    const row = orders.add();
    orders.instrument[row] = this.instruments.code(request.instrument);
    orders.side[row] = request.side === 'buy' ? BUY : SELL;
    orders.quantity[row] = request.quantity;
    orders.reason[row] = reasonCode(request.reason);
    orders.placedIndex[row] = request.index;
    orders.placedTime[row] = request.time;
    orders.status[row] = WORKING;
    return row + 1;
  }

  /** Fills a working order whole at `price`, charges it on the fill's date and moves cash; returns the fill's row. */
  fill(order: OrderId, request: FillRequest): FillId {
    // One object shape for every request, reused (a charge model reads it and keeps nothing).
    const charge = this.chargeRequest;
    charge.date = request.date;
    charge.side = this.orderSide(order);
    charge.price = request.price;
    charge.quantity = this.orderQuantity(order);
    charge.instrument = request.instrument;
    return this.record(order, request, this.chargeModel(charge));
  }

  /**
   * Settles a working order at expiry: the order closes at `settlementPrice` per unit, charged by
   * the run's charge model for the event (an exercise pays STT on the settlement value plus
   * brokerage and its GST; a worthless expiry costs nothing), and counts in the day's charges
   * and orders like a fill. Returns the settlement's fill row (reason: the order's, normally `expiry`).
   * @example ledger.fillChargesTotal(ledger.settle(order, { event: 'expire-worthless', settlementPrice: paise(0), index, time, date })) // 0
   */
  settle(order: OrderId, request: SettlementRequest): FillId {
    if (request.event === 'expire-worthless' && request.settlementPrice !== 0) {
      throw new RangeError(`settlementPrice: a worthless expiry settles at 0, got ${request.settlementPrice}`);
    }
    return this.record(
      order,
      { index: request.index, time: request.time, date: request.date, price: request.settlementPrice },
      this.chargeModel({
        date: request.date, side: this.orderSide(order), price: request.settlementPrice, quantity: this.orderQuantity(order), instrument: request.instrument,
        event: request.event, settlementPrice: request.settlementPrice,
      }),
    );
  }

  /** Books a working order as filled at `request.price` with `charged`, moving cash and the day's counters. */
  private record(order: OrderId, request: FillRequest, charged: FillCharges): FillId {
    this.requireWorking(order);
    this.setOrderStatus(order, FILLED);
    const fills = this.fillTable;
    const row = fills.add();
    fills.order[row] = order;
    fills.bar[row] = request.index;
    fills.time[row] = request.time;
    fills.date[row] = this.dates.code(request.date);
    fills.price[row] = request.price;
    const total = charged.total;
    fills.charges[row] = total;
    if (total !== 0) this.recordComponents(row, charged.components);
    const orders = this.orderTable;
    const value = request.price * (orders.quantity[order - 1] as number);
    this.cash += orders.side[order - 1] === BUY ? -value - total : value - total;
    this.totalCharges += total;
    this.dayCharges += total;
    this.dayOrders += 1;
    this.changes += 1;
    return row;
  }

  /**
   * A charged fill's components, each into its column (COMPONENTS order). Named reads, not a loop
   * over the names: a read by a name that changes is V8's megamorphic keyed load, seven a fill
   * (about 1.7% of a sweep of charged runs).
   */
  private recordComponents(row: FillId, components: ChargeComponents): void {
    const columns = this.fillComponents;
    (columns[0] as Column).set(row, components.brokerage);
    (columns[1] as Column).set(row, components.stt);
    (columns[2] as Column).set(row, components.exchangeTransaction);
    (columns[3] as Column).set(row, components.investorProtection);
    (columns[4] as Column).set(row, components.sebiFee);
    (columns[5] as Column).set(row, components.stampDuty);
    (columns[6] as Column).set(row, components.gst);
  }

  cancel(order: OrderId): void {
    if (order >= 1 && order <= this.orderTable.count && this.orderTable.status[order - 1] === WORKING) this.setOrderStatus(order, CANCELLED);
  }

  /** Records a round trip from its entry and exit fills. */
  recordTrade(entry: FillId, exit: FillId): void {
    const entryPrice = this.fillPrice(entry);
    const exitPrice = this.fillPrice(exit);
    const quantity = this.fillQuantity(exit);
    const gross = this.fillSide(entry) === 'buy' ? (exitPrice - entryPrice) * quantity : (entryPrice - exitPrice) * quantity;
    // An exit may close part of the entry (an options leg closing one lot); charge the entry pro rata, exactly.
    const entryQuantity = this.fillQuantity(entry);
    const entryCharges = this.fillChargesTotal(entry);
    const charges = (quantity === entryQuantity ? entryCharges : Math.round((entryCharges * quantity) / entryQuantity)) + this.fillChargesTotal(exit);
    const trades = this.tradeTable;
    const row = trades.add();
    trades.entry[row] = entry;
    trades.exit[row] = exit;
    trades.quantity[row] = quantity;
    trades.gross[row] = gross;
    trades.charges[row] = charges;
    const net = gross - charges;
    if (net > 0) this.wins += 1;
    else if (net < 0) this.losses += 1;
  }

  /** Closes the day's row: `net` is the day's change in equity (paise). Throws InvalidMoneyError unless it and the day's gross are whole paise. */
  closeDay(date: IsoDate, net: number): void {
    paise(net + this.dayCharges);
    const days = this.dayTable;
    const row = days.add();
    days.date[row] = this.dates.code(date);
    days.net[row] = paise(net);
    days.charges[row] = this.dayCharges;
    days.orders[row] = this.dayOrders;
    this.dayCharges = 0;
    this.dayOrders = 0;
  }

  // Reading single fields (what traders need while a run is going).

  orderSide(order: OrderId): TradeSide {
    return SIDES[this.orderTable.side[order - 1] as number] as TradeSide;
  }

  orderQuantity(order: OrderId): number {
    return this.orderTable.quantity[order - 1] as number;
  }

  /** Re-sizes a working order (an entry sized at the price it fills at). */
  setOrderQuantity(order: OrderId, quantity: number): void {
    this.requireWorking(order);
    this.orderTable.quantity[order - 1] = quantity;
    // Read only when built (`orders`): a read past an array's end is V8's slow path.
    if (order <= this.orderObjects.length) (this.orderObjects[order - 1] as LedgerOrder).quantity = quantity;
  }

  orderPlacedIndex(order: OrderId): number {
    return this.orderTable.placedIndex[order - 1] as number;
  }

  /** Why `order` was placed. */
  reasonOf(order: OrderId): FillReason {
    return REASONS[this.orderTable.reason[order - 1] as number] as FillReason;
  }

  /** Epoch ms at which `order` was placed. */
  placedTimeOf(order: OrderId): number {
    return this.orderTable.placedTime[order - 1] as number;
  }

  orderStatus(order: OrderId): OrderStatus {
    return STATUSES[this.orderTable.status[order - 1] as number] as OrderStatus;
  }

  fillIndex(fill: FillId): number {
    return this.fillTable.bar[fill] as number;
  }

  fillPrice(fill: FillId): Paise {
    return this.fillTable.price[fill] as Paise;
  }

  fillChargesTotal(fill: FillId): Paise {
    return this.fillTable.charges[fill] as Paise;
  }

  fillQuantity(fill: FillId): number {
    return this.orderQuantity(this.fillTable.order[fill] as number);
  }

  fillSide(fill: FillId): TradeSide {
    return this.orderSide(this.fillTable.order[fill] as number);
  }

  /** Net P&L of round trip `trade` (its row, in the order recorded): gross minus charges, paise. */
  tradeNet(trade: number): number {
    this.requireColumns();
    const trades = this.tradeTable;
    const net = (trades.gross[trade] as number) - (trades.charges[trade] as number);
    // As paise(): a zero is +0.
    return net === 0 ? 0 : net;
  }

  /** The bar of round trip `trade`'s entry fill. */
  tradeEntryIndex(trade: number): number {
    this.requireColumns();
    return this.fillTable.bar[this.tradeTable.entry[trade] as number] as number;
  }

  get orderCount(): number {
    return this.orderTable.count;
  }

  get fillCount(): number {
    return this.fillTable.count;
  }

  get tradeCount(): number {
    return this.tradeTable.count;
  }

  get dayCount(): number {
    return this.dayTable.count;
  }

  /** Day `row`'s date. */
  dayDate(row: number): IsoDate {
    this.requireColumns();
    return this.dates.value(this.dayTable.date[row] as number);
  }

  /** Day `row`'s net, paise. */
  dayNet(row: number): number {
    this.requireColumns();
    return this.dayTable.net[row] as number;
  }

  // The rows as objects.

  /** Every order, by id - 1. */
  get orders(): readonly LedgerOrder[] {
    this.requireColumns();
    const objects = this.orderObjects;
    for (let row = objects.length; row < this.orderTable.count; row += 1) objects.push(this.orderObject(row + 1));
    return objects;
  }

  /** Every fill, by row. */
  get fills(): readonly LedgerFill[] {
    this.requireColumns();
    const objects = this.fillObjects;
    for (let row = objects.length; row < this.fillTable.count; row += 1) objects.push(this.fillObject(row));
    return objects;
  }

  /** Every round trip, in the order recorded. */
  get trades(): readonly LedgerTrade[] {
    this.requireColumns();
    const objects = this.tradeObjects;
    for (let row = objects.length; row < this.tradeTable.count; row += 1) objects.push(this.tradeObject(row));
    return objects;
  }

  /** Every day closed, in order. */
  get days(): readonly DayRow[] {
    this.requireColumns();
    const objects = this.dayObjects;
    const days = this.dayTable;
    for (let row = objects.length; row < days.count; row += 1) {
      const net = days.net[row] as number;
      const charges = days.charges[row] as number;
      objects.push({ date: this.dates.value(days.date[row] as number), gross: paise(net + charges), charges: paise(charges), net: paise(net), orders: days.orders[row] as number });
    }
    return objects;
  }

  private requireWorking(order: OrderId): void {
    if (!Number.isInteger(order) || order < 1 || order > this.orderTable.count) throw new RangeError(`order ${order}: no such order`);
    const status = this.orderTable.status[order - 1] as number;
    if (status !== WORKING) throw new Error(`order ${order} is ${STATUSES[status] ?? status}, not working`);
  }

  private setOrderStatus(order: OrderId, status: number): void {
    this.orderTable.status[order - 1] = status;
    // Read only when built (`orders`): a read past an array's end is V8's slow path.
    if (order <= this.orderObjects.length) (this.orderObjects[order - 1] as LedgerOrder).status = STATUSES[status] as OrderStatus;
  }

  private orderObject(order: OrderId): LedgerOrder {
    const row = order - 1;
    const orders = this.orderTable;
    return {
      id: order,
      instrument: this.instruments.value(orders.instrument[row] as number),
      side: this.orderSide(order),
      quantity: this.orderQuantity(order),
      reason: this.reasonOf(order),
      placedIndex: orders.placedIndex[row] as number,
      placedTime: orders.placedTime[row] as number,
      status: this.orderStatus(order),
    };
  }

  private fillObject(fill: FillId): LedgerFill {
    const fills = this.fillTable;
    const order = fills.order[fill] as number;
    const component = (name: number): Paise => (this.fillComponents[name] as Column).get(fill) as Paise;
    // In COMPONENTS order.
    const charges: ChargeComponents = {
      brokerage: component(0), stt: component(1), exchangeTransaction: component(2), investorProtection: component(3),
      sebiFee: component(4), stampDuty: component(5), gst: component(6),
    };
    return {
      orderId: order,
      instrument: this.instruments.value(this.orderTable.instrument[order - 1] as number),
      index: fills.bar[fill] as number,
      time: fills.time[fill] as number,
      date: this.dates.value(fills.date[fill] as number),
      side: this.orderSide(order),
      quantity: this.orderQuantity(order),
      price: this.fillPrice(fill),
      charges,
      chargesTotal: this.fillChargesTotal(fill),
      reason: this.reasonOf(order),
    };
  }

  private tradeObject(trade: number): LedgerTrade {
    const trades = this.tradeTable;
    const fills = this.fillTable;
    const entry = trades.entry[trade] as number;
    const exit = trades.exit[trade] as number;
    const gross = trades.gross[trade] as number;
    const charges = trades.charges[trade] as number;
    const exitReason = this.reasonOf(fills.order[exit] as number);
    return {
      instrument: this.instruments.value(this.orderTable.instrument[(fills.order[entry] as number) - 1] as number),
      direction: this.fillSide(entry) === 'buy' ? 'long' : 'short',
      quantity: trades.quantity[trade] as number,
      entryIndex: fills.bar[entry] as number,
      entryTime: fills.time[entry] as number,
      entryPrice: this.fillPrice(entry),
      exitIndex: fills.bar[exit] as number,
      exitTime: fills.time[exit] as number,
      exitPrice: this.fillPrice(exit),
      gross: paise(gross),
      charges: paise(charges),
      net: paise(gross - charges),
      exitReason: exitReason === 'entry' ? 'signal' : exitReason,
    };
  }
}
