// The options-legs trader: the kernel says WHEN (signals, sessions, cut-off, square-off, daily
// limits), this trader says WHAT: CE/PE legs on the index, priced each bar from option candles
// or the synthetic chain. Decisions (see the report and the files named):
// - BUY opens `onBuy`, SELL opens `onSell`, EXIT closes every leg. A signal of the side already
//   open is ignored; the opposite side closes every leg, then opens its own (a reversal). At most
//   `maxEntriesPerDay` entry signals are acted on per IST day; re-entries do not count.
// - Fills: market orders at the leg's premium (candle price or synthetic mid) with the kernel's
//   slippage model, at the next bar's open (`next-open`) or the signal bar's close (`close`).
//   The contract is chosen when the order is placed (leg-entry.ts).
// - Re-entry (after a stop or trailing stop only, while entries are allowed): `asap` places a new
//   order for the leg at the close of the bar the stop hit, strike chosen again, same expiry, filled
//   at the next open; `at-cost` rests an order for the same contract that fills when the premium
//   comes back to the first entry premium (a stop order: the open if it gaps past). Fills, stops
//   and targets go through the one matching core (leg-matching.ts) on each bar's premium tick
//   path (leg-pricing.ts); a leg's levels watch the ticks after its entry fill (from
//   tick 1 after a fill at the open, from the next tick after an at-cost fill inside a bar).
// - Live (many ticks a bar), a leg's stop, target and trailing exits inside a bar are the venue's,
//   told before the bar's close (`adopted`: adopted-leg-exits.ts), instead of this trader's match.
// - Each slice of a leg is an order and a fill; round trips pair entry and exit slices.
// - The position the program reads: +1 while `onBuy` legs are open or working, -1 for `onSell`;
//   `entryPrice` is the INDEX price at the entry (rules on the index compare with it).
import type { IsoDate, Paise } from '@vyuha/core';
import { paise } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_SELL } from '../algorithm/program';
import type { PositionContext, Signal } from '../algorithm/program';
import type { FillId, Ledger, OrderId } from '../kernel/ledger';
import type { ProtectiveFillKind, ProtectivePair } from '../execution/matching-core';
import type { SlippageModel } from '../kernel/slippage';
import type { BarMoment, ExitReason, SessionState, Trader, TraderContext, TraderFactory, WindowTraders } from '../kernel/trader';
import type { AdoptedLegExits } from './adopted-leg-exits';
import type { OptionsLegsConfig } from './config';
import { settleAtExpiry } from './expiry-settlement';
import type { ExpirySettlement } from './expiry-settlement';
import { legLevels } from './leg-exits';
import { LegMatcher } from './leg-matching';
import { chooseLeg, ContractCache } from './leg-entry';
import type { ChosenLeg, LegTemplate } from './leg-entry';
import { LegPricer } from './leg-pricing';
import type { OptionCandleSource } from './leg-pricing';

/** What the options-legs trader needs besides the kernel's context. */
export interface OptionsLegsTraderOptions {
  readonly config: OptionsLegsConfig;
  /** INDIA VIX in points, per bar of the series or constant: the synthetic chain's level. */
  readonly vix: number | ArrayLike<number>;
  readonly rate?: number;
  readonly candles?: OptionCandleSource;
  readonly fill: 'next-open' | 'close';
  readonly slippage: SlippageModel;
  /**
   * Live (many ticks a bar): the legs' stops, targets and trailing stops inside each bar are the
   * venue's fills, told before the bar's close (adopted-leg-exits.ts), not this trader's match of
   * the bar's four-tick premium path. Left out in backtests and replays.
   */
  readonly adopted?: AdoptedLegExits;
}

/** A leg template's run of entries within one entry signal: its re-entries and first premium. */
interface LegChain {
  readonly template: LegTemplate;
  readonly expiry: IsoDate;
  readonly firstPremium: number;
  reEntries: number;
}

interface OpenLeg {
  readonly chain: LegChain;
  readonly chosen: ChosenLeg;
  readonly direction: 1 | -1;
  /** Entry fills, one per slice. */
  readonly entries: FillId[];
  /** The leg's protective levels as the matching core watches them. */
  readonly pair: ProtectivePair;
  /** First bar whose premium path is matched against the levels, and its first tick (later bars: all four). */
  readonly checkFrom: number;
  readonly firstTick: number;
  /** Exit orders placed for the next open, when closing on a signal with next-open fills. */
  exitOrders: OrderId[] | undefined;
}

/** A working entry: `market` fills at the next open; `at-cost` when the premium returns to `level`. */
interface WorkingEntry {
  readonly kind: 'market' | 'at-cost';
  readonly chain: LegChain | undefined;
  readonly template: LegTemplate;
  readonly chosen: ChosenLeg;
  readonly orders: OrderId[];
  readonly level: number;
}

/** Builds options-legs traders for the kernel. */
export function optionsLegsTraderFactory(options: OptionsLegsTraderOptions): TraderFactory {
  return (context) => new OptionsLegsTrader(context, options);
}

/**
 * Options-legs traders for runs over a part of the series `options` was made for (a walk-forward's
 * windows): a run over bars `from` .. `to` - 1 reads VIX of those bars only, and the option
 * candles with its bar numbers moved back onto the whole series'.
 * @example optionsLegsWindowTraders(options)({ from: 750, to: 1125 }) // a factory for runs over those 375 bars
 */
export function optionsLegsWindowTraders(options: OptionsLegsTraderOptions): WindowTraders {
  return ({ from, to }) => {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) throw new RangeError(`bars: from ${from} and to ${to} must be bar numbers with from <= to`);
    const { vix, candles } = options;
    if (typeof vix !== 'number' && vix.length < to) throw new RangeError(`vix: one reading per bar is needed up to bar ${to - 1}, got ${vix.length}`);
    const windowVix = typeof vix === 'number' ? vix : Float64Array.from({ length: to - from }, (_, bar) => vix[from + bar] as number);
    const windowCandles: OptionCandleSource | undefined = candles === undefined ? undefined : {
      hasContract: (tradingSymbol) => candles.hasContract(tradingSymbol),
      candleAt: (tradingSymbol, barIndex, time) => candles.candleAt(tradingSymbol, barIndex + from, time),
    };
    return optionsLegsTraderFactory({ ...options, vix: windowVix, ...(windowCandles === undefined ? {} : { candles: windowCandles }) });
  };
}

export class OptionsLegsTrader implements Trader {
  readonly position: PositionContext = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
  /** Every expiry settlement, for display beside the ledger's fills. */
  readonly settlements: ExpirySettlement[] = [];
  private readonly ledger: Ledger;
  private readonly session: SessionState;
  private readonly pricer: LegPricer;
  private readonly cache = new ContractCache();
  private readonly options: OptionsLegsTraderOptions;
  private readonly templates: { readonly buy: readonly LegTemplate[]; readonly sell: readonly LegTemplate[] };
  private open: OpenLeg[] = [];
  private working: WorkingEntry[] = [];
  private side: 0 | 1 | -1 = 0;
  private entryIndex = -1;
  private entriesDate = '';
  private entriesToday = 0;
  private readonly matcher: LegMatcher;

  constructor(context: TraderContext, options: OptionsLegsTraderOptions) {
    this.ledger = context.ledger;
    this.session = context.session;
    this.options = options;
    this.pricer = new LegPricer({ bars: context.series, vix: options.vix, ...(options.rate === undefined ? {} : { rate: options.rate }) }, options.candles);
    this.matcher = new LegMatcher({ slippage: options.slippage, bars: context.series, session: context.session });
    this.templates = {
      buy: options.config.onBuy.map((leg, index) => ({ leg, field: `onBuy[${index}]` })),
      sell: options.config.onSell.map((leg, index) => ({ leg, field: `onSell[${index}]` })),
    };
  }

  onBarOpen(index: number): void {
    this.settleExpired(index);
    this.fillWorkingExits(index);
    this.fillMarketEntries(index);
    this.refreshPosition(index);
  }

  onBarPath(index: number): void {
    for (let leg = 0; leg < this.open.length; leg += 1) this.checkLeg(this.open[leg] as OpenLeg, index);
    this.options.adopted?.spend();
    this.dropClosedLegs();
    if (this.working.length > 0) this.triggerAtCost(index);
    this.refreshPosition(index);
  }

  onSignal(index: number, signal: Signal): void {
    if (signal === SIGNAL_EXIT) this.closeAll({ index, reason: 'signal', viaOrders: this.options.fill === 'next-open' });
    else if (signal === SIGNAL_BUY || signal === SIGNAL_SELL) this.enter(index, signal === SIGNAL_BUY ? 1 : -1);
    this.refreshPosition(index);
  }

  squareOff(index: number, options: { reason: ExitReason; moment: BarMoment }): void {
    this.cancelPending(index);
    // The data ends at its expiry's close: the leg settles there rather than trading at a price.
    if (options.reason === 'end-of-data' && options.moment === 'close') {
      const closeTime = this.session.closeTime;
      const expired = this.open.filter((leg) => leg.chosen.contract.expiryCloseMs <= closeTime);
      if (expired.length > 0) this.settle(expired, index);
    }
    for (const leg of this.open) this.closeLeg(leg, { index, reason: options.reason, moment: options.moment });
    this.open = [];
    this.refreshPosition(index);
  }

  /** At the close of the bar that ends at (or after) a leg's expiry close, the leg settles: that day's row has its P&L. */
  onBarClose(index: number): void {
    if (this.open.length === 0) return;
    const closeTime = this.session.closeTime;
    let expired = false;
    for (const leg of this.open) expired ||= leg.chosen.contract.expiryCloseMs <= closeTime;
    if (expired) this.settle(this.open.filter((leg) => leg.chosen.contract.expiryCloseMs <= closeTime), index);
  }

  cancelPending(index: number): void {
    for (const entry of this.working) for (const order of entry.orders) this.ledger.cancel(order);
    this.working = [];
    for (const leg of this.open) {
      for (const order of leg.exitOrders ?? []) this.ledger.cancel(order);
      leg.exitOrders = undefined;
    }
    this.refreshPosition(index);
  }

  markToMarket(_index: number): Paise {
    let value = 0;
    for (const leg of this.open) value += leg.direction * leg.chosen.contract.lastClose * leg.chosen.sizing.quantity;
    return paise(value);
  }

  isActive(): boolean {
    return this.open.length > 0 || this.working.length > 0;
  }

  private enter(index: number, side: 1 | -1): void {
    if (this.side === side) return;
    if (this.side !== 0) this.closeAll({ index, reason: 'signal', viaOrders: this.options.fill === 'next-open' });
    const date = this.session.date;
    if (this.entriesDate !== date) {
      this.entriesDate = date;
      this.entriesToday = 0;
    }
    const templates = side === 1 ? this.templates.buy : this.templates.sell;
    if (!this.session.entriesAllowed || this.entriesToday >= this.options.config.maxEntriesPerDay || templates.length === 0) return;
    this.entriesToday += 1;
    this.side = side;
    this.entryIndex = index;
    for (const template of templates) {
      const chosen = chooseLeg({ config: this.options.config, template, pricer: this.pricer, cache: this.cache }, { barIndex: index, point: 'close', date });
      if (chosen !== undefined) this.placeEntry({ template, chosen, chain: undefined }, index);
    }
  }

  /** Places a leg's entry orders: filled now at the close (close fills) or left working for the next open. */
  private placeEntry(request: { template: LegTemplate; chosen: ChosenLeg; chain: LegChain | undefined }, index: number): void {
    const orders = this.placeOrders({ chosen: request.chosen, side: request.template.leg.side, reason: 'entry' }, index);
    const entry: WorkingEntry = { kind: 'market', chain: request.chain, template: request.template, chosen: request.chosen, orders, level: Number.NaN };
    if (this.options.fill === 'next-open') {
      this.working.push(entry);
      return;
    }
    const premium = this.pricer.premiumAt(request.chosen.contract, { barIndex: index, point: 'close' });
    if (premium === undefined) return this.dropEntry(entry);
    this.openLeg({ entry, index, premium: this.slipped(premium, request.template.leg.side), moment: 'close' });
    request.chosen.contract.lastClose = premium;
  }

  /** Places one order per slice at `request.time` (the bar's start when left out). */
  private placeOrders(request: { chosen: ChosenLeg; side: TradeSide; reason: 'entry' | ExitReason; time?: number }, index: number): OrderId[] {
    const time = request.time ?? (this.pricer.market.bars.time[index] as number);
    return request.chosen.sizing.slices.map((quantity) => this.ledger.place({
      instrument: request.chosen.contract.tradingSymbol, side: request.side, quantity, reason: request.reason, index, time,
    }));
  }

  private fillMarketEntries(index: number): void {
    if (this.working.length === 0) return;
    const waiting = this.working;
    this.working = [];
    for (const entry of waiting) {
      if (entry.kind !== 'market') {
        this.working.push(entry);
        continue;
      }
      const premium = this.pricer.premiumAt(entry.chosen.contract, { barIndex: index, point: 'open' });
      // A contract with candles but none yet at its entry bar cannot be priced: the leg is not opened.
      if (premium === undefined) this.dropEntry(entry);
      else this.openLeg({ entry, index, premium: this.slipped(premium, entry.template.leg.side), moment: 'open' });
    }
  }

  /**
   * Fills a working entry at the open or the close, or (`inside`, with the match's `tick` and
   * `time`) at an at-cost tick inside the bar. Its levels watch the ticks after the fill.
   */
  private openLeg(request: { entry: WorkingEntry; index: number; premium: number; moment: BarMoment } | { entry: WorkingEntry; index: number; premium: number; moment: 'inside'; tick: number; time: number }): OpenLeg {
    const { entry, index, premium } = request;
    const leg = entry.template.leg;
    const inside = request.moment === 'inside';
    const fill = { index, moment: request.moment === 'close' ? 'close' : 'open', price: premium, ...(inside ? { time: request.time } : {}) } as const;
    const entries = entry.orders.map((order) => this.ledger.fill(order, this.fillRequest(fill)));
    const chain = entry.chain ?? { template: entry.template, expiry: entry.chosen.expiry, firstPremium: premium, reEntries: 0 };
    const opened: OpenLeg = {
      chain, chosen: entry.chosen, direction: leg.side === 'buy' ? 1 : -1, entries, pair: { levels: legLevels(leg, premium), last: Number.NaN },
      checkFrom: request.moment === 'close' ? index + 1 : index, firstTick: inside ? request.tick + 1 : request.moment === 'open' ? 1 : 0, exitOrders: undefined,
    };
    this.open.push(opened);
    return opened;
  }

  private dropEntry(entry: WorkingEntry): void {
    for (const order of entry.orders) this.ledger.cancel(order);
  }

  /** Matches the leg's levels against bar `index`'s premium path (from its first tick on its first bar). */
  private checkLeg(leg: OpenLeg, index: number): void {
    const contract = leg.chosen.contract;
    if (!this.pricer.priceBar(contract, index) || index < leg.checkFrom || leg.exitOrders !== undefined || !leg.pair.levels.active) return;
    const adopted = this.options.adopted;
    const exit = adopted === undefined ? this.matcher.exitOf(leg, index)
      : adopted.exitOf({ symbol: contract.tradingSymbol, exitSide: leg.direction === 1 ? 'sell' : 'buy' }, leg.pair.levels);
    if (exit === undefined) return;
    const reason = exit.kind as ProtectiveFillKind;
    this.recordExit(leg, { index, moment: 'open', price: exit.price, reason, time: exit.time });
    if (reason !== 'target') this.scheduleReEntry(leg, index);
  }

  private scheduleReEntry(leg: OpenLeg, index: number): void {
    const { chain } = leg;
    const reEntry = chain.template.leg.reEntry;
    if (reEntry === undefined || chain.reEntries >= reEntry.maxTimes || !this.session.entriesAllowed) return;
    chain.reEntries += 1;
    if (reEntry.mode === 'asap') {
      const chosen = chooseLeg({ config: this.options.config, template: chain.template, pricer: this.pricer, cache: this.cache }, { barIndex: index, point: 'close', date: this.session.date, expiry: chain.expiry });
      if (chosen === undefined) return;
      const orders = this.placeOrders({ chosen, side: chain.template.leg.side, reason: 'entry' }, index);
      this.working.push({ kind: 'market', chain, template: chain.template, chosen, orders, level: Number.NaN });
      return;
    }
    // At cost: the same contract, a fresh pricing state so the closed leg's bar is not shared.
    const chosen = { ...leg.chosen, contract: this.pricer.price(leg.chosen.contract) };
    chosen.contract.lastClose = leg.chosen.contract.lastClose;
    const orders = this.placeOrders({ chosen, side: chain.template.leg.side, reason: 'entry' }, index);
    this.working.push({ kind: 'at-cost', chain, template: chain.template, chosen, orders, level: chain.firstPremium });
  }

  private triggerAtCost(index: number): void {
    const waiting = this.working;
    this.working = [];
    for (const entry of waiting) {
      if (entry.kind !== 'at-cost' || this.ledger.orderPlacedIndex(entry.orders[0] as OrderId) >= index) {
        this.working.push(entry);
        continue;
      }
      const contract = entry.chosen.contract;
      if (!this.session.entriesAllowed) {
        this.dropEntry(entry);
        continue;
      }
      if (!this.pricer.priceBar(contract, index)) {
        this.working.push(entry);
        continue;
      }
      // A stop order: a sell re-enters as the premium falls back to the level, a buy as it rises back to it.
      const fill = this.matcher.atCostFill(entry, index);
      if (fill === undefined) {
        this.working.push(entry);
        continue;
      }
      const opened = this.openLeg({ entry, index, premium: fill.price, moment: 'inside', tick: fill.tick, time: fill.time });
      this.checkLeg(opened, index);
    }
    this.dropClosedLegs();
  }

  private closeAll(request: { index: number; reason: ExitReason; viaOrders: boolean }): void {
    for (const entry of this.working) this.dropEntry(entry);
    this.working = [];
    for (const leg of this.open) {
      if (!request.viaOrders) this.closeLeg(leg, { index: request.index, reason: request.reason, moment: 'close' });
      else if (leg.exitOrders === undefined) leg.exitOrders = this.placeOrders({ chosen: leg.chosen, side: leg.direction === 1 ? 'sell' : 'buy', reason: request.reason }, request.index);
    }
    if (!request.viaOrders) this.open = [];
    this.side = 0;
  }

  private fillWorkingExits(index: number): void {
    let filled = false;
    for (const leg of this.open) {
      if (leg.exitOrders === undefined) continue;
      const premium = this.pricer.premiumAt(leg.chosen.contract, { barIndex: index, point: 'open' }) ?? leg.chosen.contract.lastClose;
      const price = this.slipped(premium, leg.direction === 1 ? 'sell' : 'buy');
      leg.exitOrders.forEach((order, slice) => {
        const exit = this.ledger.fill(order, this.fillRequest({ index, moment: 'open', price }));
        this.ledger.recordTrade(leg.entries[slice] as FillId, exit);
      });
      leg.entries.length = 0;
      filled = true;
    }
    if (filled) this.dropClosedLegs();
  }

  /** Removes legs whose entries were all closed, in place (no allocation on a quiet bar). */
  private dropClosedLegs(): void {
    let kept = 0;
    for (let leg = 0; leg < this.open.length; leg += 1) {
      const candidate = this.open[leg] as OpenLeg;
      if (candidate.entries.length > 0) this.open[kept++] = candidate;
    }
    this.open.length = kept;
  }

  private closeLeg(leg: OpenLeg, request: { index: number; reason: ExitReason; moment: BarMoment }): void {
    const premium = this.pricer.premiumAt(leg.chosen.contract, { barIndex: request.index, point: request.moment }) ?? leg.chosen.contract.lastClose;
    this.recordExit(leg, { ...request, price: this.slipped(premium, leg.direction === 1 ? 'sell' : 'buy') });
  }

  /** Places and fills the exit slices of a leg and records the round trips; the leg is then empty. */
  private recordExit(leg: OpenLeg, request: { index: number; moment: BarMoment; price: number; reason: ExitReason; time?: number }): void {
    const at = request.time === undefined ? {} : { time: request.time };
    const orders = this.placeOrders({ chosen: leg.chosen, side: leg.direction === 1 ? 'sell' : 'buy', reason: request.reason, ...at }, request.index);
    orders.forEach((order, slice) => {
      const exit = this.ledger.fill(order, this.fillRequest({ index: request.index, moment: request.moment, price: request.price, ...at }));
      this.ledger.recordTrade(leg.entries[slice] as FillId, exit);
    });
    leg.entries.length = 0;
  }

  /** A fill at bar `index`'s open or close, or at `time` (a tick inside the bar) when given. */
  private fillRequest(request: { index: number; moment: BarMoment; price: number; time?: number }): { index: number; time: number; date: IsoDate; price: Paise; instrument: 'option' } {
    // The kernel's session knows when the current bar ends (15:30 at the latest).
    const time = request.time ?? (request.moment === 'open' ? (this.pricer.market.bars.time[request.index] as number) : this.session.closeTime);
    return { index: request.index, time, date: this.session.date, price: paise(request.price), instrument: 'option' };
  }

  /** A market order of `side` meeting the premium `premium` (paise): the core's fill price. */
  private slipped(premium: number, side: TradeSide): number {
    return this.matcher.marketPrice(side, premium);
  }

  /**
   * Fallback for data with no bar ending at the expiry close (the expiry day's bars stop early):
   * legs whose expiry close has passed when bar `index` starts settle at the close of the bar
   * before; the fill carries the expiry date and that bar's index. Normally `onBarClose` has
   * settled them already, on the expiry day.
   */
  private settleExpired(index: number): void {
    if (index === 0 || this.open.length === 0) return;
    const start = this.pricer.market.bars.time[index] as number;
    let expired = false;
    for (const leg of this.open) expired ||= leg.chosen.contract.expiryCloseMs <= start;
    if (expired) this.settle(this.open.filter((leg) => leg.chosen.contract.expiryCloseMs <= start), index - 1);
  }

  private settle(legs: readonly OpenLeg[], index: number): void {
    const bars = this.pricer.market.bars;
    for (const leg of legs) {
      this.settlements.push(settleAtExpiry({ ledger: this.ledger }, {
        contract: leg.chosen.contract, direction: leg.direction, entries: leg.entries, index, time: leg.chosen.contract.expiryCloseMs, settlementSpot: bars.close[index] as number, date: leg.chosen.expiry,
      }));
      leg.entries.length = 0;
    }
    this.dropClosedLegs();
    this.refreshPosition(index);
  }

  private refreshPosition(index: number): void {
    if (this.open.length === 0 && this.working.length === 0) this.side = 0;
    const position = this.position;
    position.position = this.side;
    if (this.side === 0) {
      position.entryPrice = Number.NaN;
      position.barsSinceEntry = Number.NaN;
      return;
    }
    const bars = this.pricer.market.bars;
    const fillIndex = this.options.fill === 'close' ? this.entryIndex : this.entryIndex + 1;
    position.entryPrice = fillIndex <= index ? (this.options.fill === 'close' ? bars.close : bars.open)[fillIndex] as number : Number.NaN;
    position.barsSinceEntry = fillIndex <= index ? index - fillIndex : Number.NaN;
  }
}
