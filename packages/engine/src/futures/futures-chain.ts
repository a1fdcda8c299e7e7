// An index traded as its near-month futures: the ContractChain (kernel/contract-chain.ts) the
// underlying trader trades instead of the index, built from the index's bars.
// - Contracts and rolls: contract-schedule.ts. Prices: futures-prices.ts (imported candles, else
//   the cost-of-carry model).
// - Lots: the lot in force for the contract on the entry's date (market lots.ts: a contract listed
//   before a revision keeps its lot until it expires).
// - Sizing (`FuturesSizing`): `margin` (default) buys the most whole lots whose estimated margin
//   plus the entry's charges fit `percent` of the capital; the margin is the engine's capital
//   estimate for a future on that date (metrics/capital-requirement.ts: SPAN-like initial plus
//   exposure, 9% of the contract value since 2018), never the exchange's own figure. `lots`
//   trades a fixed number of lots whatever the capital.
// - Slices: an entry above the freeze quantity goes out as several orders (market sliceOrder),
//   at most MAX_ORDER_SLICES of them, so an entry is capped at 10 full slices; before the freeze
//   schedule starts (1-Aug-2024) an entry is one order, as option legs do.
import { addDays, istDate, istEpochMs, istMinuteOfDay, minuteOfDay, paise, paiseToRupees, rupeesToPaise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { buildTradingSymbol, freezeQuantity, lotSize, MAX_ORDER_SLICES, maxOrderQuantity, nextExpiry, nextTradingDay, sessionOf, sliceOrder } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import type { BarSeries } from '../algorithm/program';
import type { ChargeModel } from '../kernel/charges-model';
import type { ContractChain, ContractSizingRequest } from '../kernel/contract-chain';
import { barWindowOf } from '../feeds/bar-window';
import { endsSession } from '../kernel/incremental-kernel';
import { positionsRequirement } from '../metrics/capital-requirement';
import type { OptionCandleSource } from '../options-legs/leg-pricing';
import { futuresContractRuns, FuturesPlanError, nearMonthly } from './contract-schedule';
import { FUTURES_MODEL_RATE, futuresModelGrowth, futuresModelPrice, futuresPrices } from './futures-prices';
import type { PricedContractRun } from './futures-prices';

/** How entries are sized: `margin` = the most lots whose margin + charges fit `percent` of capital; `lots` = always this many. */
export type FuturesSizing = { readonly kind: 'margin'; readonly percent: number } | { readonly kind: 'lots'; readonly lots: number };

export interface FuturesChainOptions {
  readonly underlying: OptionUnderlying;
  /** The index's bars (rupees): the signal series. */
  readonly index: BarSeries;
  readonly type: 'intraday' | 'swing';
  /** IST `HH:mm`: the roll time on an expiry day (the strategy's square-off time). */
  readonly rollTime: string;
  /** Default `{ kind: 'margin', percent: 100 }`. */
  readonly sizing?: FuturesSizing | undefined;
  /**
   * Priced bar by bar as the runtime's series grows (`priceBar`), instead of over a stored range:
   * `index` is then the growing series (its columns at their capacity); model prices.
   */
  readonly live?: boolean;
  /** Live, swing: the bar interval, minutes (the session calendar's last bar of an expiry day rolls). */
  readonly intervalMinutes?: number;
  readonly candles?: OptionCandleSource | undefined;
  /** The model's rate; FUTURES_MODEL_RATE when left out. */
  readonly rate?: number | undefined;
}

/** A live chain's pricing state. */
interface LivePricing {
  readonly index: BarSeries;
  readonly rate: number;
  /** The near monthly expiry of each date seen. */
  readonly nearByDate: Map<IsoDate, IsoDate>;
  readonly swing: boolean;
  readonly rollMinute: number;
  readonly intervalMinutes: number;
}

/** Where the bar after the one starting at `start` starts: when it ends, or at the next session's open. */
function nextBarStart(start: number, intervalMinutes: number): number {
  const window = barWindowOf({ start, intervalMinutes, exchange: 'NSE' });
  if (!endsSession({ start, intervalMinutes, exchange: 'NSE' })) return window.end;
  const next = nextTradingDay('NSE', istDate(start));
  const session = sessionOf('NSE', next);
  return istEpochMs(next, '00:00') + (session?.open ?? 555) * 60_000;
}

/** What one lot costs to open at a bar: paise. */
export interface LotCost {
  readonly tradingSymbol: string;
  readonly lotSize: number;
  /** Paise per unit. */
  readonly price: number;
  readonly margin: number;
  readonly charges: number;
}

/** The estimated margin of one lot long or short at `price` paise on `date`, paise. */
function lotMargin(lot: number, request: { readonly date: IsoDate; readonly price: number }): number {
  return positionsRequirement({ legs: [{ kind: 'future', quantity: lot, price: paiseToRupees(request.price) }], tradeDate: request.date });
}

/**
 * What one lot of `underlying`'s near-month future costs to open on `date` at about `price` paise
 * (the index's price will do: the future trades within a percent of it): the margin estimate and
 * a buy's charges. Throws RangeError for a date with no contract.
 * @example futuresLotCost({ underlying: 'NIFTY', date: isoDate('2024-09-02'), price: 2_500_000, chargeModel }).margin // 5_625_000
 */
export function futuresLotCost(request: { readonly underlying: OptionUnderlying; readonly date: IsoDate; readonly price: number; readonly chargeModel: ChargeModel }): LotCost {
  const expiry = nextExpiry(request.underlying, request.date, 'monthly');
  if (expiry === undefined) throw new RangeError(`no monthly expiry of ${request.underlying} on or after ${request.date}`);
  const lot = lotSize({ symbol: request.underlying, tradeDate: request.date, expiry: expiry.date });
  const charges = request.chargeModel({ date: request.date, side: 'buy', price: paise(request.price), quantity: lot }).total;
  return {
    tradingSymbol: buildTradingSymbol({ kind: 'future', underlying: request.underlying, expiry: expiry.date }), lotSize: lot, price: request.price,
    margin: lotMargin(lot, request), charges,
  };
}

function checkSizing(sizing: FuturesSizing): void {
  if (sizing.kind === 'lots' && (!Number.isSafeInteger(sizing.lots) || sizing.lots < 1)) {
    throw new FuturesPlanError('sizing.lots', `must be a whole number of lots above 0, got ${JSON.stringify(sizing.lots)}`);
  }
  if (sizing.kind === 'margin' && !(Number.isFinite(sizing.percent) && sizing.percent > 0 && sizing.percent <= 100)) {
    throw new FuturesPlanError('sizing.percent', `must be a percentage above 0 and at most 100, got ${JSON.stringify(sizing.percent)}`);
  }
}

export class FuturesChain implements ContractChain {
  readonly prices: BarSeries;
  readonly underlying: OptionUnderlying;
  private readonly sizing: FuturesSizing;
  private readonly runList: PricedContractRun[];
  /** Live: the signal series whose bars `priceBar` prices as they open and close. */
  private readonly live: LivePricing | undefined;

  /**
   * A chain over a stored range: every bar's contract and price at once. Throws FuturesPlanError
   * when the series has a bar no contract can be named for.
   */
  constructor(options: FuturesChainOptions) {
    this.underlying = options.underlying;
    this.sizing = options.sizing ?? { kind: 'margin', percent: 100 };
    checkSizing(this.sizing);
    if (options.live === true) {
      if (options.candles !== undefined) throw new FuturesPlanError('candles', 'a futures chain priced bar by bar uses the model: leave candles out');
      if (options.type === 'swing' && options.intervalMinutes === undefined) throw new FuturesPlanError('intervalMinutes', 'a swing chain priced bar by bar needs the bar interval: an expiry day\'s last bar rolls it');
      const { index } = options;
      const capacity = index.time.length;
      const column = (): Float64Array => new Float64Array(capacity).fill(Number.NaN);
      this.prices = { length: capacity, time: index.time, open: column(), high: column(), low: column(), close: column(), volume: index.volume, oi: index.oi };
      this.runList = [];
      this.live = {
        index, rate: options.rate ?? FUTURES_MODEL_RATE, nearByDate: new Map(), swing: options.type === 'swing',
        rollMinute: minuteOfDay(options.rollTime), intervalMinutes: options.intervalMinutes ?? 1,
      };
      return;
    }
    const runs = futuresContractRuns({ underlying: options.underlying, time: options.index.time, length: options.index.length, type: options.type, rollTime: options.rollTime });
    const priced = futuresPrices({ index: options.index, runs, candles: options.candles, rate: options.rate });
    this.prices = priced.prices;
    this.runList = priced.runs;
    this.live = undefined;
  }

  /** The contract runs, in order, with how each was priced (live: the bars priced so far). */
  get runs(): readonly PricedContractRun[] {
    return this.runList;
  }

  symbolAt(index: number): string {
    const live = this.live;
    const last = this.runList[this.runList.length - 1];
    // Live, an order placed at a close for the next open names the contract of the bar expected
    // next: the one starting when this one ends, or the next session's first.
    if (live !== undefined && last !== undefined && index >= last.to) {
      const next = nextBarStart(live.index.time[last.to - 1] as number, live.intervalMinutes);
      return buildTradingSymbol({ kind: 'future', underlying: this.underlying, expiry: this.liveExpiry(live, next) });
    }
    return this.runAt(index).tradingSymbol;
  }

  endOf(index: number): number {
    const run = this.runAt(index);
    // Live, the last run goes on until a bar of the next contract comes (the trader then rolls: see ContractChain.endOf).
    return this.live !== undefined && run === this.runList[this.runList.length - 1] ? Number.POSITIVE_INFINITY : run.to;
  }

  /**
   * Live: prices bar `index` of the signal series from what it holds now (its open when it has
   * just opened, all four prices once it closed), by the model, and names its contract as
   * `futuresContractRuns` names it: the near month of its date; for a swing strategy on the
   * expiry day, the next month from the first bar at or after the roll time, or from the day's
   * last bar by the session calendar when none is. Bars are priced in order; pricing a bar again
   * (at its close) keeps its contract.
   */
  priceBar(index: number): void {
    const live = this.live;
    if (live === undefined) return;
    const time = live.index.time[index] as number;
    const expiry = this.liveExpiry(live, time);
    const growth = futuresModelGrowth(expiry, time, live.rate);
    const { open, high, low, close } = this.prices as { open: Float64Array; high: Float64Array; low: Float64Array; close: Float64Array };
    open[index] = futuresModelPrice(live.index.open[index] as number, growth);
    high[index] = futuresModelPrice(live.index.high[index] as number, growth);
    low[index] = futuresModelPrice(live.index.low[index] as number, growth);
    close[index] = futuresModelPrice(live.index.close[index] as number, growth);
    const last = this.runList[this.runList.length - 1];
    if (last !== undefined && index < last.to) return;
    if (last !== undefined && last.expiry === expiry && last.to === index) {
      this.runList[this.runList.length - 1] = { ...last, to: index + 1, modelBars: last.modelBars + 1 };
      return;
    }
    this.runList.push({ tradingSymbol: buildTradingSymbol({ kind: 'future', underlying: this.underlying, expiry }), expiry, from: index, to: index + 1, candleBars: 0, modelBars: 1 });
  }

  /**
   * Live: the traded price, paise, of a tick of the signal instrument at `signalPaise` inside bar
   * `index` (priced already): the model on the bar's carry, so the bar's prices are its ticks'.
   */
  tickPrice(index: number, signalPaise: number): number {
    const run = this.runAt(index);
    return rupeesToPaise(futuresModelPrice(signalPaise / 100, futuresModelGrowth(run.expiry, this.prices.time[index] as number, this.live?.rate)));
  }

  /** Live: the expiry of the contract a bar starting at `time` trades. */
  private liveExpiry(live: LivePricing, time: number): IsoDate {
    const date = istDate(time);
    let near = live.nearByDate.get(date);
    if (near === undefined) {
      near = nearMonthly(this.underlying, date);
      live.nearByDate.set(date, near);
    }
    if (!live.swing || near !== date) return near;
    const rolled = istMinuteOfDay(time) >= live.rollMinute || endsSession({ start: time, intervalMinutes: live.intervalMinutes, exchange: 'NSE' });
    return rolled ? nearMonthly(this.underlying, addDays(near, 1)) : near;
  }

  /** Units per lot of bar `index`'s contract traded on `date`. */
  lotSizeAt(index: number, date: IsoDate): number {
    return lotSize({ symbol: this.underlying, tradeDate: date, expiry: this.runAt(index).expiry });
  }

  entryQuantity(request: ContractSizingRequest): number {
    const lot = this.lotSizeAt(request.index, request.date);
    const cap = this.largestEntry(lot, request.date);
    if (this.sizing.kind === 'lots') return Math.min(this.sizing.lots * lot, cap);
    const budget = Math.floor((request.capital * this.sizing.percent) / 100);
    const perLot = lotMargin(lot, request);
    if (budget <= 0 || perLot <= 0) return 0;
    let lots = Math.min(Math.floor(budget / perLot), cap / lot);
    // Charges grow with the lots: step down until margin plus charges fit.
    while (lots > 0 && lots * perLot + this.chargesOf(lots * lot, request) > budget) lots -= 1;
    return lots * lot;
  }

  slicesOf(quantity: number, request: { readonly index: number; readonly date: IsoDate }): readonly number[] {
    const freeze = freezeQuantity(this.underlying, request.date);
    if (freeze === undefined) return [quantity];
    return sliceOrder(quantity, { lotSize: this.lotSizeAt(request.index, request.date), freezeQuantity: freeze });
  }

  /**
   * What one lot of bar `index`'s contract costs to open at that bar's close: the margin estimate
   * and a buy's charges (what the smallest entry needs).
   * @example chain.oneLotCost(0, chargeModel).margin // 9% of the lot's value, paise
   */
  oneLotCost(index: number, chargeModel: ChargeModel): LotCost {
    const date = istDate(this.prices.time[index] as number);
    const lot = this.lotSizeAt(index, date);
    const price = rupeesToPaise(this.prices.close[index] as number);
    const request = { index, date, price, side: 'buy' as const, chargeModel };
    return { tradingSymbol: this.symbolAt(index), lotSize: lot, price, margin: lotMargin(lot, request), charges: this.chargesOf(lot, request) };
  }

  /** The largest entry the exchange takes from one order of the platform: 10 full slices (unbounded before the freeze schedule). */
  private largestEntry(lot: number, date: IsoDate): number {
    const freeze = freezeQuantity(this.underlying, date);
    if (freeze === undefined) return Number.MAX_SAFE_INTEGER - (Number.MAX_SAFE_INTEGER % lot);
    return maxOrderQuantity({ lotSize: lot, freezeQuantity: freeze }) * MAX_ORDER_SLICES;
  }

  /** The charges of an entry of `units`, slice by slice. */
  private chargesOf(units: number, request: { readonly index: number; readonly date: IsoDate; readonly price: number; readonly side: 'buy' | 'sell'; readonly chargeModel: ChargeModel }): number {
    let total = 0;
    for (const slice of this.slicesOf(units, request)) {
      total += request.chargeModel({ date: request.date, side: request.side, price: paise(request.price), quantity: slice }).total;
    }
    return total;
  }

  private runAt(index: number): PricedContractRun {
    const runs = this.runs;
    let low = 0;
    let high = runs.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((runs[middle] as PricedContractRun).from <= index) low = middle;
      else high = middle - 1;
    }
    const run = runs[low];
    if (run === undefined || index < run.from || index >= run.to) throw new RangeError(`bar ${index} is outside the futures chain (${this.prices.length} bars)`);
    return run;
  }
}
