// The book both traders write to: orders, fills with their charges, round-trip trades and the
// per-day rows. It also keeps cash, so equity is always `cash + open positions at market`
// (a buy pays price x quantity + charges, a sell receives price x quantity - charges). All money
// is integer paise.
//
// Orders, fills and trades are rows in typed-array columns (ledger-columns.ts): a trader holds an
// order's id or a fill's row number, never an object, and a run allocates nothing per record.
// `orders`, `fills` and `trades` give the same rows as plain objects, built when first read and
// kept (an order's object follows its later status and quantity changes).
import { paise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import type { ChargeComponents, TradeSide } from '@vyuha/market';
import type { ChargedInstrument, ChargeModel, FillCharges } from './charges-model';
import { column, StringTable } from './ledger-columns';
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
  readonly orderInstrument = column('i32');
  readonly orderSideCode = column('u8');
  readonly orderQuantity = column('f64');
  readonly orderReason = column('u8');
  readonly orderPlaced = column('i32');
  readonly orderPlacedTime = column('f64');
  readonly orderStatusCode = column('u8');
  readonly fillOrder = column('i32');
  readonly fillBar = column('i32');
  readonly fillTime = column('f64');
  readonly fillDate = column('i32');
  readonly fillPrice = column('f64');
  readonly fillCharges = column('f64');
  /** One column per charge component, in COMPONENTS order; written only for charged fills. */
  readonly fillComponents: readonly Column[] = COMPONENTS.map(() => column('f64'));
  readonly tradeEntry = column('i32');
  readonly tradeExit = column('i32');
  readonly tradeQuantity = column('f64');
  readonly tradeGross = column('f64');
  readonly tradeCharges = column('f64');
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
    const all = [
      this.orderInstrument, this.orderSideCode, this.orderQuantity, this.orderReason, this.orderPlaced, this.orderPlacedTime, this.orderStatusCode,
      this.fillOrder, this.fillBar, this.fillTime, this.fillDate, this.fillPrice, this.fillCharges, ...this.fillComponents,
      this.tradeEntry, this.tradeExit, this.tradeQuantity, this.tradeGross, this.tradeCharges,
    ];
    if (this.owner !== undefined) for (const one of all) one.clear();
    this.owner = ledger;
  }
}

export class Ledger {
  readonly days: DayRow[] = [];
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
  // Each column of the set, in a field of its own (the per-trade path reads them directly).
  private readonly columns: LedgerColumns;
  // Orders (row = id - 1).
  private orderRows = 0;
  private readonly orderInstrument: Column;
  private readonly orderSideCode: Column;
  private readonly orderQuantityColumn: Column;
  private readonly orderReason: Column;
  private readonly orderPlaced: Column;
  private readonly orderPlacedTime: Column;
  private readonly orderStatusCode: Column;
  // Fills (side, quantity, instrument and reason are their order's).
  private fillRows = 0;
  private readonly fillOrderColumn: Column;
  private readonly fillBar: Column;
  private readonly fillTime: Column;
  private readonly fillDate: Column;
  private readonly fillPriceColumn: Column;
  private readonly fillCharges: Column;
  private readonly fillComponents: readonly Column[];
  // Trades (everything else comes from their two fills).
  private tradeRows = 0;
  private readonly tradeEntry: Column;
  private readonly tradeExit: Column;
  private readonly tradeQuantity: Column;
  private readonly tradeGross: Column;
  private readonly tradeCharges: Column;
  private readonly instruments: StringTable;
  private readonly dates: StringTable<IsoDate>;
  // Objects of the rows already read through `orders`, `fills`, `trades`.
  private readonly orderObjects: LedgerOrder[] = [];
  private readonly fillObjects: LedgerFill[] = [];
  private readonly tradeObjects: LedgerTrade[] = [];

  /** `columns`: a set to write into instead of new ones (see LedgerColumns); this ledger then owns it. */
  constructor(options: { capital: Paise; chargeModel: ChargeModel; columns?: LedgerColumns }) {
    this.cash = options.capital;
    this.chargeModel = options.chargeModel;
    const columns = options.columns ?? new LedgerColumns();
    columns.takenBy(this);
    this.columns = columns;
    this.orderInstrument = columns.orderInstrument;
    this.orderSideCode = columns.orderSideCode;
    this.orderQuantityColumn = columns.orderQuantity;
    this.orderReason = columns.orderReason;
    this.orderPlaced = columns.orderPlaced;
    this.orderPlacedTime = columns.orderPlacedTime;
    this.orderStatusCode = columns.orderStatusCode;
    this.fillOrderColumn = columns.fillOrder;
    this.fillBar = columns.fillBar;
    this.fillTime = columns.fillTime;
    this.fillDate = columns.fillDate;
    this.fillPriceColumn = columns.fillPrice;
    this.fillCharges = columns.fillCharges;
    this.fillComponents = columns.fillComponents;
    this.tradeEntry = columns.tradeEntry;
    this.tradeExit = columns.tradeExit;
    this.tradeQuantity = columns.tradeQuantity;
    this.tradeGross = columns.tradeGross;
    this.tradeCharges = columns.tradeCharges;
    this.instruments = columns.instruments;
    this.dates = columns.dates;
  }

  /** Throws when another ledger has taken this one's columns since (its rows are gone). */
  private requireColumns(): void {
    if (this.columns.owner !== this) throw new Error('this ledger\'s columns were handed to a later run: read a run before the next one takes its columns');
  }

  /** Records a new working order; returns its id. */
  place(request: PlaceOrderRequest): OrderId {
    const row = this.orderRows;
    this.orderRows += 1;
    this.orderInstrument.set(row, this.instruments.code(request.instrument));
    this.orderSideCode.set(row, request.side === 'buy' ? BUY : SELL);
    this.orderQuantityColumn.set(row, request.quantity);
    this.orderReason.set(row, reasonCode(request.reason));
    this.orderPlaced.set(row, request.index);
    this.orderPlacedTime.set(row, request.time);
    this.orderStatusCode.set(row, WORKING);
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
    const row = this.fillRows;
    this.fillRows += 1;
    this.fillOrderColumn.set(row, order);
    this.fillBar.set(row, request.index);
    this.fillTime.set(row, request.time);
    this.fillDate.set(row, this.dates.code(request.date));
    this.fillPriceColumn.set(row, request.price);
    const total = charged.total;
    this.fillCharges.set(row, total);
    if (total !== 0) {
      const components = charged.components;
      for (let component = 0; component < COMPONENTS.length; component += 1) {
        (this.fillComponents[component] as Column).set(row, components[COMPONENTS[component] as keyof ChargeComponents]);
      }
    }
    const value = request.price * this.orderQuantity(order);
    this.cash += this.orderSideCode.get(order - 1) === BUY ? -value - total : value - total;
    this.totalCharges += total;
    this.dayCharges += total;
    this.dayOrders += 1;
    this.changes += 1;
    return row;
  }

  cancel(order: OrderId): void {
    if (this.orderStatusCode.get(order - 1) === WORKING) this.setOrderStatus(order, CANCELLED);
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
    const row = this.tradeRows;
    this.tradeRows += 1;
    this.tradeEntry.set(row, entry);
    this.tradeExit.set(row, exit);
    this.tradeQuantity.set(row, quantity);
    this.tradeGross.set(row, gross);
    this.tradeCharges.set(row, charges);
    const net = gross - charges;
    if (net > 0) this.wins += 1;
    else if (net < 0) this.losses += 1;
  }

  /** Closes the day's row: `net` is the day's change in equity (paise). */
  closeDay(date: IsoDate, net: number): DayRow {
    const row: DayRow = { date, gross: paise(net + this.dayCharges), charges: paise(this.dayCharges), net: paise(net), orders: this.dayOrders };
    this.days.push(row);
    this.dayCharges = 0;
    this.dayOrders = 0;
    return row;
  }

  // Reading single fields (what traders need while a run is going).

  orderSide(order: OrderId): TradeSide {
    return SIDES[this.orderSideCode.get(order - 1)] as TradeSide;
  }

  orderQuantity(order: OrderId): number {
    return this.orderQuantityColumn.get(order - 1);
  }

  /** Re-sizes a working order (an entry sized at the price it fills at). */
  setOrderQuantity(order: OrderId, quantity: number): void {
    this.requireWorking(order);
    this.orderQuantityColumn.set(order - 1, quantity);
    const object = this.orderObjects[order - 1];
    if (object !== undefined) object.quantity = quantity;
  }

  orderPlacedIndex(order: OrderId): number {
    return this.orderPlaced.get(order - 1);
  }

  /** Why `order` was placed. */
  reasonOf(order: OrderId): FillReason {
    return REASONS[this.orderReason.get(order - 1)] as FillReason;
  }

  /** Epoch ms at which `order` was placed. */
  placedTimeOf(order: OrderId): number {
    return this.orderPlacedTime.get(order - 1);
  }

  orderStatus(order: OrderId): OrderStatus {
    return STATUSES[this.orderStatusCode.get(order - 1)] as OrderStatus;
  }

  fillIndex(fill: FillId): number {
    return this.fillBar.get(fill);
  }

  fillPrice(fill: FillId): Paise {
    return this.fillPriceColumn.get(fill) as Paise;
  }

  fillChargesTotal(fill: FillId): Paise {
    return this.fillCharges.get(fill) as Paise;
  }

  fillQuantity(fill: FillId): number {
    return this.orderQuantity(this.fillOrderColumn.get(fill));
  }

  fillSide(fill: FillId): TradeSide {
    return this.orderSide(this.fillOrderColumn.get(fill));
  }

  /** Net P&L of round trip `trade` (its row, in the order recorded): gross minus charges, paise. */
  tradeNet(trade: number): number {
    this.requireColumns();
    const net = this.tradeGross.get(trade) - this.tradeCharges.get(trade);
    // As paise(): a zero is +0.
    return net === 0 ? 0 : net;
  }

  /** The bar of round trip `trade`'s entry fill. */
  tradeEntryIndex(trade: number): number {
    this.requireColumns();
    return this.fillBar.get(this.tradeEntry.get(trade));
  }

  get orderCount(): number {
    return this.orderRows;
  }

  get fillCount(): number {
    return this.fillRows;
  }

  get tradeCount(): number {
    return this.tradeRows;
  }

  // The rows as objects.

  /** Every order, by id - 1. */
  get orders(): readonly LedgerOrder[] {
    this.requireColumns();
    const objects = this.orderObjects;
    for (let row = objects.length; row < this.orderRows; row += 1) objects.push(this.orderObject(row + 1));
    return objects;
  }

  /** Every fill, by row. */
  get fills(): readonly LedgerFill[] {
    this.requireColumns();
    const objects = this.fillObjects;
    for (let row = objects.length; row < this.fillRows; row += 1) objects.push(this.fillObject(row));
    return objects;
  }

  /** Every round trip, in the order recorded. */
  get trades(): readonly LedgerTrade[] {
    this.requireColumns();
    const objects = this.tradeObjects;
    for (let row = objects.length; row < this.tradeRows; row += 1) objects.push(this.tradeObject(row));
    return objects;
  }

  private requireWorking(order: OrderId): void {
    if (!Number.isInteger(order) || order < 1 || order > this.orderRows) throw new RangeError(`order ${order}: no such order`);
    const status = this.orderStatusCode.get(order - 1);
    if (status !== WORKING) throw new Error(`order ${order} is ${STATUSES[status] ?? status}, not working`);
  }

  private setOrderStatus(order: OrderId, status: number): void {
    this.orderStatusCode.set(order - 1, status);
    const object = this.orderObjects[order - 1];
    if (object !== undefined) object.status = STATUSES[status] as OrderStatus;
  }

  private orderObject(order: OrderId): LedgerOrder {
    const row = order - 1;
    return {
      id: order,
      instrument: this.instruments.value(this.orderInstrument.get(row)),
      side: this.orderSide(order),
      quantity: this.orderQuantity(order),
      reason: REASONS[this.orderReason.get(row)] as FillReason,
      placedIndex: this.orderPlaced.get(row),
      placedTime: this.orderPlacedTime.get(row),
      status: this.orderStatus(order),
    };
  }

  private fillObject(fill: FillId): LedgerFill {
    const order = this.fillOrderColumn.get(fill);
    const component = (name: number): Paise => (this.fillComponents[name] as Column).get(fill) as Paise;
    // In COMPONENTS order.
    const charges: ChargeComponents = {
      brokerage: component(0), stt: component(1), exchangeTransaction: component(2), investorProtection: component(3),
      sebiFee: component(4), stampDuty: component(5), gst: component(6),
    };
    return {
      orderId: order,
      instrument: this.instruments.value(this.orderInstrument.get(order - 1)),
      index: this.fillBar.get(fill),
      time: this.fillTime.get(fill),
      date: this.dates.value(this.fillDate.get(fill)),
      side: this.orderSide(order),
      quantity: this.orderQuantity(order),
      price: this.fillPrice(fill),
      charges,
      chargesTotal: this.fillChargesTotal(fill),
      reason: REASONS[this.orderReason.get(order - 1)] as FillReason,
    };
  }

  private tradeObject(trade: number): LedgerTrade {
    const entry = this.tradeEntry.get(trade);
    const exit = this.tradeExit.get(trade);
    const gross = this.tradeGross.get(trade);
    const charges = this.tradeCharges.get(trade);
    const exitReason = REASONS[this.orderReason.get(this.fillOrderColumn.get(exit) - 1)] as FillReason;
    return {
      instrument: this.instruments.value(this.orderInstrument.get(this.fillOrderColumn.get(entry) - 1)),
      direction: this.fillSide(entry) === 'buy' ? 'long' : 'short',
      quantity: this.tradeQuantity.get(trade),
      entryIndex: this.fillBar.get(entry),
      entryTime: this.fillTime.get(entry),
      entryPrice: this.fillPrice(entry),
      exitIndex: this.fillBar.get(exit),
      exitTime: this.fillTime.get(exit),
      exitPrice: this.fillPrice(exit),
      gross: paise(gross),
      charges: paise(charges),
      net: paise(gross - charges),
      exitReason: exitReason === 'entry' ? 'signal' : exitReason,
    };
  }
}
