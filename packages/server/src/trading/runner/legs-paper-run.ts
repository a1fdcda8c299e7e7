// One option-legs strategy run on paper, tick by tick: the stepped kernel with the option-legs
// trader decides, and every leg fill it makes becomes an OMS order on the paper venue for that
// contract, which must fill exactly as the kernel filled it (price, time, side, quantity, charges).
// The counterpart of paper-run.ts (an instrument or its futures) for CE/PE legs on an index.
//
// Per tick of the index (the signal instrument):
//   1. A tick that closes a bar -> the kernel's close step. Its first fills are the legs' stop,
//      target and trailing exits inside the bar (the trader's onBarPath): they must be the
//      protective fills the venue made during the bar. The rest (a signal's close fills, the
//      day's square-off, a daily limit, the end of the data) go out as MARKET orders, which fill
//      at each contract's last tick: the bar's close premium.
//   2. A tick that opens a bar -> the kernel's open step (entries waiting for this open, exits on
//      a signal, the square-off at the open). Protective orders of legs it closed are cancelled
//      before the venue sees the tick.
//   3. The venue sees the tick of every contract in play: its premium at this tick of the index
//      (leg-premium-ticks.ts: the trader's pricer, candles or the synthetic chain, so the
//      contract's four ticks of the bar are the path the kernel matched the leg on).
//   4. The open's fills go out as MARKET orders at this tick (the bar's open premium).
//   5. Each entry fill (one per slice) gets its protective orders at the venue: a stop (SL-M at
//      the leg's stop) and a target (LIMIT), on a copy of the leg's levels opened at the entry
//      fill as the trader opens them; after each later tick that fills neither, the trailing stop
//      follows and the stop order is modified. When one fills, the other is cancelled before the
//      next tick. Placed after the entry's tick, they meet the next tick as a continuous move, as
//      the kernel watches a leg from the tick after its entry.
// A venue fill that differs from the kernel's, or one the kernel does not make, is a
// PaperDivergence (paper-run.ts): the run stops with both fills in words.
//
// Live (the simulated market: legs-market-run.ts), a bar has many ticks, each priced for the venue
// from the index's tick and the bar's VIX. The venue then sees prices the kernel's four-tick path
// does not, so with `adopted` the kernel records the venue's leg exits of each bar (engine
// options-legs/adopted-leg-exits.ts) instead of matching its own, and the check of step 1 holds
// by construction; a bar whose window ended closes on time (`closeDue`).
//
// Swing legs are held from session to session (their stops and targets stay working at the venue,
// met by the next session's opening tick as a jump). A leg still open at its expiry's close is
// settled by the kernel at intrinsic value (engine options-legs/expiry-settlement.ts): there the
// kernel's `expiry` fills are recorded by the OMS as settlements (oms/expiry-settlement.ts: an
// order row never sent, its fill row for an exercise), after the leg's stop and target were
// cancelled, and checked against the kernel's like any fill.
//
// Orders go through legs-order-desk.ts: decisions, the OMS (an option premium's price band), and a
// restart, which replays the range from its first bar with every stored decision answered from
// its rows, never sent twice.
//
// Not run here, each refused before anything is written (legs-paper-levels.ts `legsPaperRefusal`):
// at-cost re-entries, and legs of one side alike in CE/PE and side whose exits differ.
import { istDate, paise } from '@vyuha/core';
import { barWindowOf, CandleBuilder, chargeModelOf, OptionsLegsTrader, TICKS_PER_CANDLE } from '@vyuha/engine';
import type {
  AdoptedLegExit, AdoptedLegExits, AdoptedLegKey, BuiltCandle, ChargeModel, FeedTick, LedgerFill, OptionsLegsConfig, OrderSide, ProtectiveLevels,
} from '@vyuha/engine';
import type { LegPremiumTicks } from './leg-premium-ticks';
import { LegOrderDesk } from './legs-order-desk';
import { legOfEntry, legsPaperRefusal, sliceLevels } from './legs-paper-levels';
import type { LegProtection, LegVenueFill, PlacedLegOrder } from './legs-order-desk';
import { PaperDivergence } from './paper-run';
import type { PaperVenue } from '../paper/paper-venue';
import type { PaperRunBaseOptions } from './paper-run';
import { PauseBook } from './pause-book';
import type { PauseInterval } from './pause-book';

const PROTECTIVE_REASONS = new Set(['stop', 'target', 'trailing']);

/** What the venue did in a bar to the legs of one contract and exit side (engine AdoptedLegExits). */
type VenueLegBar = AdoptedLegKey & { exit?: AdoptedLegExit; levels?: ProtectiveLevels };

/** A run of option legs: the stepped kernel's trader is the option-legs trader. */
export interface LegsPaperRunOptions extends PaperRunBaseOptions {
  /** Option legs run on paper only: the paper venue's matching is checked leg by leg. */
  readonly venue: PaperVenue;
  /** The legs the trader was built with (the run's trade instruments config). */
  readonly legs: OptionsLegsConfig;
  /** Each contract's premium at each tick of the index, from the trader's own pricing inputs. */
  readonly premiums: LegPremiumTicks;
  /** Live: the seam the trader was built with; told the venue's leg exits of each bar before its close. */
  readonly adopted?: AdoptedLegExits;
  /** Live: called at each bar's first tick before the kernel's open step (the bar's VIX is set then). */
  readonly beforeBarOpen?: (index: number, barStart: number) => void;
}

export class LegsPaperRun {
  private readonly builder: CandleBuilder;
  private readonly trader: OptionsLegsTrader;
  private readonly chargeModel: ChargeModel;
  private readonly desk: LegOrderDesk;
  private fillCursor = 0;
  private protections: LegProtection[] = [];
  /** Venue fills of protective orders since the bar opened, checked at its close. */
  private protectiveFills: LegVenueFill[] = [];
  private marketFills: LegVenueFill[] = [];
  private barIndex = -1;
  private barEnd = 0;
  private barTicks = 0;
  /** The index's latest tick: which tick of the bar (0 to 3), its price in rupees, its time. */
  private readonly latest = { tick: 0, spotRupees: 0, time: 0, synthetic: false };
  /** The number of the index's latest tick in the run (0, 1, 2, ...), and per contract the one the venue last saw it at. */
  private tickNumber = -1;
  private readonly seenAt = new Map<string, number>();
  /** Units held per contract by the kernel's fills so far (signed). */
  private readonly held = new Map<string, number>();
  private readonly pauses: PauseBook;

  constructor(private readonly options: LegsPaperRunOptions) {
    const trader = options.stepped.kernel.kernel.trader;
    if (!(trader instanceof OptionsLegsTrader)) throw new Error('a legs paper run needs the option-legs trader; an instrument or its futures run on PaperRun');
    const refusal = legsPaperRefusal(options.legs, options.stepped.config.type);
    if (refusal !== undefined) throw new Error(refusal);
    this.trader = trader;
    this.chargeModel = chargeModelOf(options.stepped.config.charges);
    this.builder = new CandleBuilder({ intervalMinutes: options.intervalMinutes, exchange: options.exchange });
    this.pauses = new PauseBook(options.pauses);
    this.desk = new LegOrderDesk({
      runId: options.runId, oms: options.oms, venue: options.venue, clock: options.clock, product: options.product,
      instrumentIdOf: options.instrumentIdOf, firstDecision: options.firstDecision, onFill: (fill) => this.venueFill(fill),
    });
  }

  /** Fills made on paper so far. */
  get fills(): number {
    return this.desk.fills;
  }

  /** Bars the kernel has processed. */
  get barsProcessed(): number {
    return this.options.stepped.kernel.processed;
  }

  /** One tick of any instrument; only the index's drive the run. */
  async onTick(tick: FeedTick): Promise<void> {
    if (tick.instrumentId !== this.options.signalInstrumentId) return;
    const closed = this.builder.push(tick);
    if (closed !== undefined) await this.closeBar(closed);
    const forming = this.builder.forming(tick.instrumentId);
    if (forming === undefined) return;
    if (forming.ticks === 1 && forming.start !== this.currentBarStart()) await this.openBar(tick, forming);
    else await this.pathTick(tick);
  }

  /**
   * Live: the bar whose window ended by `now` closes without waiting for the next tick (the
   * session's last bar, a quiet market). Returns true when a bar closed.
   */
  async closeDue(now: number): Promise<boolean> {
    let closed = false;
    for (const candle of this.builder.closeDue(now)) {
      if (candle.instrumentId !== this.options.signalInstrumentId) continue;
      await this.closeBar(candle);
      closed = true;
    }
    return closed;
  }

  /** The data ends: the bar being built closes now. */
  async finish(): Promise<void> {
    for (const candle of this.builder.closeDue(Number.POSITIVE_INFINITY)) {
      if (candle.instrumentId === this.options.signalInstrumentId) await this.closeBar(candle);
    }
    this.desk.detach();
  }

  /**
   * A stop mid-run: the kernel decides nothing more, the protective orders are cancelled and, with
   * `squareOff`, every leg the run holds by its recorded fills is closed at once with a MARKET
   * order (its last premium). Returns the units squared off.
   */
  async stop(options: { readonly squareOff: boolean }): Promise<number> {
    if (this.desk.killSwitchOn()) {
      // The switch's own enforcement cancels and, if chosen, squares off; the run adds nothing.
      this.desk.detach();
      return 0;
    }
    await this.cancelProtections(() => true);
    let closed = 0;
    if (options.squareOff) {
      const { rows } = await this.options.oms.pool.query<{ instrument_id: number; net_quantity: number }>(
        'SELECT instrument_id, net_quantity FROM positions WHERE run_id = $1 AND net_quantity <> 0', [this.options.runId]);
      for (const row of rows) {
        const symbol = this.desk.symbolOf(row.instrument_id);
        if (symbol === undefined) throw new PaperDivergence(`the run holds instrument ${row.instrument_id}, which it never traded`);
        await this.desk.place({ symbol, side: row.net_quantity > 0 ? 'SELL' : 'BUY', quantity: Math.abs(row.net_quantity), role: 'market', orderType: 'MARKET', squareOff: true });
        closed += Math.abs(row.net_quantity);
      }
      await this.desk.settle();
    }
    this.desk.detach();
    return closed;
  }

  /** Pauses (true) or resumes (false) entries from the next bar's open; returns the market time it took effect, or undefined. */
  setPaused(paused: boolean): number | undefined {
    return this.pauses.set(paused, this.options.clock.now());
  }

  /** The pauses so far, as `pauses` takes them. */
  get pauseIntervals(): readonly PauseInterval[] {
    return this.pauses.intervals;
  }

  /** True once a kill switch stopped the run (the OMS does what the switch says). */
  get killSwitchHalted(): boolean {
    return this.desk.killSwitchHalted;
  }

  /** Stops following the venue (the run ends or fails). */
  detach(): void {
    this.desk.detach();
  }

  private currentBarStart(): number {
    return this.barIndex < 0 ? Number.NaN : (this.options.series.time[this.barIndex] as number);
  }

  private async openBar(tick: FeedTick, bar: { start: number; end: number }): Promise<void> {
    const { stepped, clock, series } = this.options;
    const index = series.length;
    this.barIndex = index;
    this.barEnd = bar.end;
    this.barTicks = 1;
    this.protectiveFills = [];
    this.setLatest(tick, 0);
    await clock.advanceTo(Math.max(clock.now(), tick.time));
    stepped.kernel.kernel.entriesPaused = this.pauses.pausedAt(bar.start);
    this.options.beforeBarOpen?.(index, bar.start);
    stepped.openBar({ time: bar.start, open: tick.price / 100 }, this.options.endingOf?.(index, bar.start) ?? {});
    const fills = this.newKernelFills();
    const protective = fills.find((fill) => PROTECTIVE_REASONS.has(fill.reason));
    if (protective !== undefined) throw new PaperDivergence(`the kernel made a ${protective.reason} exit at bar ${index}'s open, before any tick of it`);
    // Legs the open closes lose their protective orders before the venue sees the tick.
    await this.cancelExited(fills);
    const armed = [...this.protections];
    await this.tickVenue(true);
    await this.sendMarket(fills);
    // Slices protected before this tick trail on it too; those placed now start at the next.
    await this.trail(armed);
  }

  private async pathTick(tick: FeedTick): Promise<void> {
    const k = Math.min(this.barTicks, TICKS_PER_CANDLE - 1);
    this.barTicks += 1;
    this.setLatest(tick, k);
    await this.options.clock.advanceTo(Math.max(this.options.clock.now(), tick.time));
    const armed = [...this.protections];
    await this.tickVenue(false);
    await this.trail(armed);
  }

  private async closeBar(candle: BuiltCandle): Promise<void> {
    const { stepped, clock, oms, runId } = this.options;
    const end = Math.min(this.barEnd, barWindowOf({ start: candle.time, intervalMinutes: this.options.intervalMinutes, exchange: this.options.exchange }).end);
    await clock.advanceTo(Math.max(clock.now(), end));
    const gate = this.options.signalGate;
    if (gate !== undefined) await gate.beforeClose(this.barIndex, candle.time);
    this.options.adopted?.adopt(this.venueExitsOfBar());
    stepped.closeBar({ time: candle.time, open: candle.open / 100, high: candle.high / 100, low: candle.low / 100, close: candle.close / 100, volume: candle.volume });
    if (gate !== undefined) await gate.afterClose();
    const fills = this.newKernelFills();
    let protectiveCount = 0;
    while (protectiveCount < fills.length && PROTECTIVE_REASONS.has((fills[protectiveCount] as LedgerFill).reason)) protectiveCount += 1;
    this.checkProtectiveFills(fills.slice(0, protectiveCount));
    const rest = fills.slice(protectiveCount);
    await this.cancelExited(rest);
    await this.sendMarket(rest);
    for (const [symbol, quantity] of this.held) {
      const price = this.desk.lastPrices.get(symbol);
      if (quantity !== 0 && price !== undefined) await oms.markToMarket({ runId, instrumentId: await this.desk.instrumentId(symbol), pricePaise: price });
    }
  }

  /**
   * Live: what the venue did to the legs inside the bar, per contract and exit side: the exit its
   * stop or target made (every slice of a leg sees the same premiums, so they fill alike) and the
   * levels of slices still protected, as their orders followed the ticks.
   */
  private venueExitsOfBar(): VenueLegBar[] {
    const legs = new Map<string, VenueLegBar>();
    const legOf = (symbol: string, side: OrderSide): VenueLegBar => {
      const key = `${side} ${symbol}`;
      let leg = legs.get(key);
      if (leg === undefined) {
        leg = { symbol, exitSide: side === 'BUY' ? 'buy' : 'sell' };
        legs.set(key, leg);
      }
      return leg;
    };
    for (const { order, trade } of this.protectiveFills) {
      const kind = order.role === 'target' ? 'target' : order.protection?.levels.stopIsTrailing === true ? 'trailing' : 'stop';
      const exit: AdoptedLegExit = { kind, price: trade.pricePaise, time: trade.atMs };
      const leg = legOf(order.symbol, order.side);
      if (leg.exit !== undefined && (leg.exit.kind !== kind || leg.exit.price !== exit.price || leg.exit.time !== exit.time)) {
        throw new PaperDivergence(`bar ${this.barIndex}: slices of ${order.symbol} left at different prices or times (${leg.exit.price} and ${exit.price} paise)`);
      }
      leg.exit = exit;
    }
    for (const protection of this.protections) {
      const order = protection.stop ?? protection.target;
      if (protection.filled || order === undefined) continue;
      const leg = legOf(protection.symbol, order.side);
      leg.levels ??= protection.levels;
    }
    return [...legs.values()];
  }

  private setLatest(tick: FeedTick, k: number): void {
    this.tickNumber += 1;
    this.latest.tick = k;
    this.latest.spotRupees = tick.price / 100;
    this.latest.time = tick.time;
    this.latest.synthetic = tick.synthetic;
  }

  /** The kernel's fills since the last look. */
  private newKernelFills(): LedgerFill[] {
    const fills = this.options.stepped.ledger.fills;
    const fresh = fills.slice(this.fillCursor) as LedgerFill[];
    this.fillCursor = fills.length;
    return fresh;
  }

  /** Gives the venue this tick of every contract in play: held, or with a stop or target working. */
  private async tickVenue(jump: boolean): Promise<void> {
    const symbols = new Set<string>(this.protections.map((protection) => protection.symbol));
    for (const [symbol, quantity] of this.held) if (quantity !== 0) symbols.add(symbol);
    for (const symbol of symbols) await this.giveTick(symbol, jump);
    await this.desk.settle();
    this.desk.deliverStored(this.latest.time);
    await this.retireFilledProtections();
  }

  /** The venue's tick of `symbol` at the index's latest tick, unless it has it; false when the contract has no price yet. */
  private async giveTick(symbol: string, jump: boolean): Promise<boolean> {
    const at = this.tickNumber;
    const seen = this.seenAt.get(symbol);
    if (seen === at) return true;
    const price = this.options.premiums.premiumAt(symbol, { index: this.barIndex, tick: this.latest.tick, spotRupees: this.latest.spotRupees });
    if (price === undefined) return false;
    const instrumentId = await this.desk.instrumentId(symbol);
    this.seenAt.set(symbol, at);
    this.desk.lastPrices.set(symbol, price);
    // A contract that missed the previous tick of the path got here by a jump as far as its orders know.
    const continuous = !jump && seen === at - 1;
    this.options.venue.onTick({ instrumentId, time: this.latest.time, price, volume: 0, synthetic: this.latest.synthetic }, { jump: !continuous });
    return true;
  }

  /** A venue fill of this run's orders: a market order's is checked where it was sent, a stop's or target's at the bar's close. */
  private venueFill(fill: LegVenueFill): void {
    const { protection } = fill.order;
    if (protection === undefined) {
      this.marketFills.push(fill);
    } else {
      protection.filled = true;
      this.protectiveFills.push(fill);
    }
  }

  /** A slice whose stop or target filled: the other order goes before the next tick. */
  private async retireFilledProtections(): Promise<void> {
    if (!this.protections.some((protection) => protection.filled)) return;
    await this.cancelProtections((protection) => protection.filled);
  }

  /** Cancels the working orders of the protections `which` picks and forgets them. */
  private async cancelProtections(which: (protection: LegProtection) => boolean): Promise<void> {
    const leaving = this.protections.filter(which);
    if (leaving.length === 0) return;
    this.protections = this.protections.filter((protection) => !which(protection));
    for (const protection of leaving) {
      if (protection.stop !== undefined) await this.desk.cancel(protection.stop);
      if (protection.target !== undefined) await this.desk.cancel(protection.target);
    }
    await this.desk.settle();
  }

  /** The kernel's exits that were not the venue's stops close protected slices: one slice of the contract per exit fill. */
  private async cancelExited(fills: readonly LedgerFill[]): Promise<void> {
    const leaving = new Set<LegProtection>();
    for (const fill of fills) {
      if (fill.reason === 'entry') continue;
      const slice = this.protections.find((protection) => !leaving.has(protection) && protection.symbol === fill.instrument && protection.quantity === fill.quantity);
      if (slice !== undefined) leaving.add(slice);
    }
    await this.cancelProtections((protection) => leaving.has(protection));
  }

  /** At the bar's close: the venue's protective fills of the bar are exactly the kernel's stop, target and trailing exits. */
  private checkProtectiveFills(kernel: readonly LedgerFill[]): void {
    const venue = this.protectiveFills;
    this.protectiveFills = [];
    if (kernel.length !== venue.length) {
      throw new PaperDivergence(`bar ${this.barIndex}: the kernel made ${kernel.length} protective exit fill(s) of legs, the paper venue ${venue.length}`);
    }
    const byKernel = [...kernel].sort((a, b) => a.time - b.time || a.instrument.localeCompare(b.instrument));
    const byVenue = [...venue].sort((a, b) => a.trade.atMs - b.trade.atMs || a.order.symbol.localeCompare(b.order.symbol));
    byKernel.forEach((fill, index) => {
      const venueFill = byVenue[index] as LegVenueFill;
      if (venueFill.order.symbol !== fill.instrument) throw new PaperDivergence(`bar ${this.barIndex}: the kernel's ${fill.reason} exit of ${fill.instrument} met the venue's of ${venueFill.order.symbol}`);
      this.expectSameFill(venueFill, fill);
      this.hold(fill);
    });
  }

  /**
   * The kernel's non-protective fills: its expiry settlements recorded by the OMS (no order leaves),
   * the rest as MARKET orders at the contracts' latest ticks; entries then get their stops and targets.
   */
  private async sendMarket(fills: readonly LedgerFill[]): Promise<void> {
    if (fills.length === 0) return;
    for (const fill of fills) if (fill.reason === 'expiry') await this.settleAtExpiry(fill);
    const trades = fills.filter((fill) => fill.reason !== 'expiry');
    if (trades.length === 0) return;
    const sent: Array<{ fill: LedgerFill; order: PlacedLegOrder }> = [];
    for (const fill of trades) {
      if (!(await this.giveTick(fill.instrument, this.latest.tick === 0))) {
        throw new PaperDivergence(`the kernel filled ${fill.instrument} at ${fill.price} paise, but the contract has no premium at this tick`);
      }
      const order = await this.desk.place({
        symbol: fill.instrument, side: fill.side === 'buy' ? 'BUY' : 'SELL', quantity: fill.quantity, role: 'market', orderType: 'MARKET', squareOff: fill.reason !== 'entry',
      });
      sent.push({ fill, order });
    }
    await this.desk.settle();
    for (const { fill, order } of sent) {
      const at = this.marketFills.findIndex((venueFill) => venueFill.order === order);
      const venueFill = at < 0 ? undefined : this.marketFills.splice(at, 1)[0];
      if (venueFill === undefined) throw new PaperDivergence(`the ${fill.reason} order ${order.clientOrderId} of ${fill.instrument} did not fill on paper (the kernel filled it at ${fill.price} paise)`);
      this.expectSameFill(venueFill, fill);
      this.hold(fill);
    }
    for (const fill of trades) if (fill.reason === 'entry') await this.protect(fill);
  }

  /**
   * A slice the kernel settled at its expiry's close: the OMS records the settlement (its stop and
   * target were cancelled first: `cancelExited`), which must be the kernel's to the paisa, charges
   * included; the contract is then no longer held, so the venue is given no more of its ticks.
   */
  private async settleAtExpiry(fill: LedgerFill): Promise<void> {
    const side: OrderSide = fill.side === 'buy' ? 'BUY' : 'SELL';
    const settled = await this.desk.recordExpiry({ symbol: fill.instrument, side, quantity: fill.quantity, pricePaise: fill.price, atMs: fill.time });
    const charges = settled.fill?.chargesPaise ?? 0;
    if (settled.pricePaise !== fill.price || settled.quantity !== fill.quantity || settled.side !== side || settled.atMs !== fill.time || charges !== fill.chargesTotal) {
      throw new PaperDivergence(`the expiry settlement of ${fill.instrument} differs: recorded ${settled.side} ${settled.quantity} at ${settled.pricePaise} paise at `
        + `${new Date(settled.atMs).toISOString()} (charges ${charges}), kernel ${side} ${fill.quantity} at ${fill.price} paise at ${new Date(fill.time).toISOString()} `
        + `(charges ${fill.chargesTotal})`);
    }
    this.hold(fill);
  }

  private hold(fill: LedgerFill): void {
    this.held.set(fill.instrument, (this.held.get(fill.instrument) ?? 0) + (fill.side === 'buy' ? fill.quantity : -fill.quantity));
  }

  /** The stop and target of one entry slice, on a copy of its leg's levels opened at its fill (legs-paper-levels.ts). */
  private async protect(entry: LedgerFill): Promise<void> {
    const leg = legOfEntry(this.options.legs, { instrument: entry.instrument, side: entry.side, position: this.trader.position.position });
    if (leg === undefined) throw new PaperDivergence(`the kernel entered ${entry.instrument} (${entry.side}), which no leg of the configuration trades`);
    const levels = sliceLevels(leg, entry.price);
    if (!levels.active) return;
    const exitSide: OrderSide = leg.side === 'buy' ? 'SELL' : 'BUY';
    const protection: LegProtection = { symbol: entry.instrument, quantity: entry.quantity, levels, stop: undefined, stopLevel: levels.stop, target: undefined, filled: false };
    this.protections.push(protection);
    const common = { symbol: entry.instrument, side: exitSide, quantity: entry.quantity, squareOff: true, protection } as const;
    if (!Number.isNaN(levels.stop)) protection.stop = await this.desk.place({ ...common, role: 'stop', orderType: 'SL-M', triggerPricePaise: levels.stop });
    if (!Number.isNaN(levels.targetLevel)) protection.target = await this.desk.place({ ...common, role: 'target', orderType: 'LIMIT', pricePaise: levels.targetLevel });
    await this.desk.settle();
  }

  /** After a tick that filled neither order of a slice, its trailing stop follows the premium, and the stop order with it. */
  private async trail(armed: readonly LegProtection[]): Promise<void> {
    for (const protection of armed) {
      if (protection.filled || !this.protections.includes(protection)) continue;
      const price = this.desk.lastPrices.get(protection.symbol);
      if (price === undefined || this.seenAt.get(protection.symbol) !== this.tickNumber) continue;
      protection.levels.trail(price);
      const stop = protection.levels.stop;
      if (stop === protection.stopLevel || protection.stop === undefined) continue;
      protection.stopLevel = stop;
      await this.desk.moveStop(protection.stop, stop);
      await this.desk.settle();
    }
  }

  /** The venue's fill must be the kernel's: price, time, quantity, side, and the charges the OMS recorded for it. */
  private expectSameFill(venueFill: LegVenueFill, fill: LedgerFill): void {
    const { trade, order } = venueFill;
    const side = fill.side === 'buy' ? 'BUY' : 'SELL';
    const charges = this.chargeModel({ date: istDate(trade.atMs), side: order.side === 'BUY' ? 'buy' : 'sell', price: paise(trade.pricePaise), quantity: trade.quantity }).total;
    if (trade.pricePaise !== paise(fill.price) || trade.atMs !== fill.time || trade.quantity !== fill.quantity || order.side !== side || charges !== fill.chargesTotal) {
      throw new PaperDivergence(`${fill.reason} fill of ${fill.instrument} differs: paper ${order.side} ${trade.quantity} at ${trade.pricePaise} paise at `
        + `${new Date(trade.atMs).toISOString()} (charges ${charges}), kernel ${side} ${fill.quantity} at ${fill.price} paise at ${new Date(fill.time).toISOString()} (charges ${fill.chargesTotal})`);
    }
  }
}
