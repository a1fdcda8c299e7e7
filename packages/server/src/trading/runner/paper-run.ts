// One strategy run on paper, tick by tick: the kernel decides, the OMS and the paper venue execute,
// and every fill the venue makes is checked against the fill the kernel's own matching made.
//
// Per tick of the strategy's instrument (ARCHITECTURE.md, "The life of a live order"):
//   1. The candle builder closes the previous bar -> the kernel's close step (stops inside the
//      bar, the signal, close-moment exits). The protective fills the venue made during the bar
//      must be the ones the kernel's bar form finds; orders the close decides (a signal with
//      fill 'close', the day's square-off, a daily limit, the end of the data) go out as MARKET
//      orders, which fill at the last traded price: the bar's close.
//   2. A tick that opens a bar -> the kernel's open step (orders waiting for this open, the
//      square-off at the open). Protective orders of a position the open closes are cancelled
//      before the venue sees the tick.
//   3. The venue sees the tick (the first of a bar is a jump): working stops and targets fill.
//   4. The open's orders go out as MARKET orders: they fill at this tick, the bar's open, as the
//      backtest's next-open fills do.
//   5. A new or changed position gets its protective orders: a stop (SL-M at the stop in force)
//      and a target (LIMIT); after each later tick that fills neither, the trailing stop follows
//      on a copy of the kernel's levels and the stop order is modified to it. When one fills,
//      the other is cancelled before the next tick.
// Everything is awaited tick by tick, so a replay at full speed is as deterministic as the
// backtest. A venue fill that differs from the kernel's (price, time, side or quantity), or one
// the kernel does not make, is a divergence: the run stops with the reason (paper cannot diverge
// unless the code is wrong).
//
// LIVE (`fills: 'adopt'`, a broker's venue): the broker matches its own market, so the run does
// not feed it ticks, and its fills come when the broker reports them, at the broker's prices and
// times, possibly in parts. The run waits for each market order's fills (real time, bounded),
// adopts them (side and quantity must still be the kernel's; the price difference is the fill's
// slippage, logged), and an order the broker rejects or never resolves ends the run with the
// reason: the account's positions are the broker's, which reconciliation adopts at the next start.
//
// Prices: ticks, orders and fills in paise; the kernel's series in rupees (paise / 100, as the
// backtest's series is built from stored candles).
import { paise, rupeesToPaise } from '@vyuha/core';
import { barWindowOf, CandleBuilder, candleTickPath, TICKS_PER_CANDLE, UnderlyingTrader } from '@vyuha/engine';
import type {
  AdoptedExit, BarSeries, BuiltCandle, FeedTick, GrowingBarSeries, LedgerFill, OrderSide, ProtectiveLevels, SteppedRun, VenueEvent, VenueTrade,
} from '@vyuha/engine';
import type { SessionExchange } from '@vyuha/market';
import type { ManualScheduler } from '../feeds/scheduler';
import type { RunMirror } from '../follow/run-mirror';
import type { Oms } from '../oms/oms';
import type { OmsOrderView } from '../oms/oms-types';
import { PauseBook } from './pause-book';
import type { PauseInterval } from './pause-book';
import { isFinalOrder, storedOrderFills } from './stored-orders';

/** Why a bar ends what it ends, as the caller knows it (StepOptions of the engine). */
export interface BarEndingHint {
  readonly endOfData?: boolean;
  readonly endOfDay?: boolean;
}

/** What every paper run (this one, option legs' LegsPaperRun) is given. */
export interface PaperRunBaseOptions {
  readonly runId: string;
  /** The stepped kernel (engine `startSteppedRun`) over `series`. */
  readonly stepped: SteppedRun;
  readonly series: GrowingBarSeries;
  readonly intervalMinutes: number;
  readonly exchange: SessionExchange;
  /** The instrument whose ticks drive the bars. */
  readonly signalInstrumentId: number;
  /** The instruments row of a ledger instrument key (the series' symbol, a contract's symbol). */
  readonly instrumentIdOf: (symbol: string) => Promise<number>;
  readonly oms: Oms;
  readonly venue: RunVenue;
  /** 'verify' (paper: every fill must be the kernel's) or 'adopt' (live: the broker's fills are taken); default 'verify'. */
  readonly fills?: 'verify' | 'adopt';
  /** Adopt: how long to wait, real time, for a market order's fills before the run gives up on it (default 15 s). */
  readonly fillWaitMs?: number;
  /** Adopt: a real-time pause between looks for fills (default a 25 ms timer). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Adopt: where slippage and waits are reported. */
  readonly log?: (message: string) => void;
  /** Live: true while entries must not be decided (the broker session is lost): read at each bar's open, as a pause. */
  readonly entriesBlocked?: () => boolean;
  /** Live: resolves when orders can reach the broker (after a lost session, a new login and its reconciliation); awaited before each order. */
  readonly brokerReady?: () => Promise<void>;
  /**
   * Live: true for a rejection that says the order was certainly never sent (the session had just
   * died, Kite's rate limit left no slot in time): the decision is placed again as a new order
   * once the broker is ready. Nothing that may exist at the broker is ever sent again.
   */
  readonly notSent?: (statusMessage: string | null) => boolean;
  /** Market time: the OMS's and the venue's clock, moved by the runner to each tick and bar end. */
  readonly clock: ManualScheduler;
  /** The product of every order (MIS intraday, NRML or CNC swing). */
  readonly product: string;
  /** The first decision number to use (the highest stored + 1 after a restart). */
  readonly firstDecision?: number;
  /** What the caller knows about bar `index` beyond the calendar (a replay: its stored day's last bar, the data's last bar). */
  readonly endingOf?: (index: number, barStart: number) => BarEndingHint;
  /** When the strategy was paused before (market time; `toMs` null: still paused), so a resumed run pauses where it did. */
  readonly pauses?: readonly PauseInterval[];
  /** MANUAL mode: the gate the kernel's program passes its signals through (pending-signals.ts), read before and written after each close. */
  readonly signalGate?: {
    beforeClose(index: number, barStart: number): Promise<void>;
    afterClose(): Promise<void>;
  };
  /** A published strategy's followers (follow/follower-desk.ts): told every tick, order, move, cancellation and mark, to copy them. */
  readonly mirror?: RunMirror;
}

/** A run of an instrument or its futures: the stepped kernel's trader is an underlying trader. */
export interface PaperRunOptions extends PaperRunBaseOptions {
  /** The traded prices when they are not the series' own (an index's futures chain): same bar times. */
  readonly tradedPrices?: BarSeries;
  /** With `tradedPrices`: the contract in force at bar `index` (the futures chain's symbolAt). */
  readonly contractAt?: (index: number) => string;
  /**
   * Live (many ticks a bar): the traded price, paise, of a signal tick at `price` paise in bar
   * `index` (the live futures chain's tickPrice). Without it a traded price is the tick at the
   * same place of the traded candle's four-tick path (a replay).
   */
  readonly tradedTickPrice?: (index: number, price: number) => number;
}

export type { PauseInterval } from './pause-book';

/**
 * What a run needs of its venue beyond the OMS: its events, and the market's ticks for a venue
 * that matches on them (the paper venue). A broker's venue ignores ticks: the broker matches its
 * own market (`idle` stays true).
 */
export interface RunVenue {
  subscribe(listener: (event: VenueEvent) => void): () => void;
  onTick(tick: FeedTick, options?: { readonly jump?: boolean }): void;
  readonly idle: boolean;
}

/** How many times one decision is placed again after rejections that say it was never sent. */
const MAX_RESENDS = 20;

/** Adopt mode's default wait for a market order's fills (real time). */
export const FILL_WAIT_MS = 15_000;

/** A venue fill that is not the kernel's, or the other way round. */
export class PaperDivergence extends Error {
  override readonly name = 'PaperDivergence';
}

/** The message a run ends with when a kill switch stops it. */
export const KILL_SWITCH_HALT = 'stopped by the kill switch: no order of this run may leave while it is on';

interface PlacedOrder {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly instrumentId: number;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly role: 'market' | 'stop' | 'target';
  /** A decision stored before a restart whose order had already ended (filled or cancelled): replayed, never sent, modified or cancelled again. */
  storedFinal: boolean;
}

interface VenueFill {
  readonly order: PlacedOrder;
  readonly trade: VenueTrade;
}

/** The stop and target working for the open position. */
interface Protection {
  readonly symbol: string;
  readonly quantity: number;
  readonly direction: number;
  readonly levels: ProtectiveLevels;
  stop: PlacedOrder | undefined;
  stopLevel: number;
  target: PlacedOrder | undefined;
  /** Whether the orders had seen a tick before this bar's first (then its first tick trails them too). */
  armedBeforeBar: boolean;
}

const PROTECTIVE_REASONS = new Set(['stop', 'target', 'trailing']);

export class PaperRun {
  private readonly builder: CandleBuilder;
  private readonly trader: UnderlyingTrader;
  private decision: number;
  private fillCursor = 0;
  private readonly byBrokerId = new Map<string, PlacedOrder>();
  private readonly events: VenueEvent[] = [];
  private readonly unsubscribe: () => void;
  /** Venue fills of protective orders since the bar opened, checked at its close. */
  private protectiveFills: VenueFill[] = [];
  private protection: Protection | undefined;
  private barTicks = 0;
  private barIndex = -1;
  private barEnd = 0;
  private readonly path = new Float64Array(TICKS_PER_CANDLE);
  private readonly instrumentIds = new Map<string, number>();
  /** The last price the venue was given per traded symbol: the reference of a stop's or a target's price band. */
  private readonly lastPrices = new Map<string, number>();
  /** The closed bar's mark of the open position, written after the tick's orders have left (`markClosedBar`). */
  private closeMark: { readonly symbol: string; readonly pricePaise: number } | undefined;
  /** Fills made on paper so far (for the run's summary). */
  fills = 0;
  private readonly pauses: PauseBook;
  private haltedByKillSwitch = false;

  constructor(private readonly options: PaperRunOptions) {
    const trader = options.stepped.kernel.kernel.trader;
    if (!(trader instanceof UnderlyingTrader)) throw new Error('paper runs trade an instrument or its futures; option legs are not run on paper yet');
    this.trader = trader;
    this.builder = new CandleBuilder({ intervalMinutes: options.intervalMinutes, exchange: options.exchange });
    this.decision = options.firstDecision ?? 0;
    this.pauses = new PauseBook(options.pauses);
    this.unsubscribe = options.venue.subscribe((event) => this.events.push(event));
  }

  /** Bars the kernel has processed. */
  get barsProcessed(): number {
    return this.options.stepped.kernel.processed;
  }

  /** The market time of the latest tick the run has fully taken (its orders sent and answered). */
  get lastTickAt(): number {
    return this.lastTick;
  }

  private lastTick = Number.NEGATIVE_INFINITY;

  /** One tick of any instrument; only the signal instrument's drive the run. */
  async onTick(tick: FeedTick): Promise<void> {
    if (tick.instrumentId !== this.options.signalInstrumentId) return;
    // Live: a kill switch stops the run at once (its enforcement cancels and squares off at the broker).
    if (this.options.fills === 'adopt') this.checkKillSwitch();
    await this.takeTick(tick);
    this.lastTick = Math.max(this.lastTick, tick.time);
  }

  private async takeTick(tick: FeedTick): Promise<void> {
    const closed = this.builder.push(tick);
    if (closed !== undefined) await this.closeBar(closed);
    const forming = this.builder.forming(tick.instrumentId);
    // Outside the session there is no bar to open or follow.
    if (forming !== undefined) {
      if (forming.ticks === 1 && forming.start !== this.currentBarStart()) await this.openBar(tick, forming);
      else await this.pathTick(tick);
    }
    if (this.closeMark !== undefined) await this.markClosedBar();
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
      await this.markClosedBar();
      closed = true;
    }
    return closed;
  }

  /** The data ends (a replay ran out: its last bar said so at its open): the bar being built closes now. */
  async finish(): Promise<void> {
    for (const candle of this.builder.closeDue(Number.POSITIVE_INFINITY)) {
      if (candle.instrumentId === this.options.signalInstrumentId) await this.closeBar(candle);
    }
    await this.markClosedBar();
    this.unsubscribe();
  }

  /**
   * A stop mid-run, as a trader stops a live strategy: the kernel decides nothing more; the
   * protective orders are cancelled and, with `squareOff`, the open position is closed at once
   * with a MARKET order (the last traded price). Without it the position stays open, the user's
   * to manage. Returns the units squared off.
   */
  async stop(options: { readonly squareOff: boolean }): Promise<number> {
    const state = this.options.oms.killSwitches.stateFor(this.options.oms.userId);
    if (this.haltedByKillSwitch || state.user || state.global) {
      // The switch's own enforcement cancels and, if chosen, squares off; the run adds nothing.
      this.haltedByKillSwitch = true;
      this.unsubscribe();
      return 0;
    }
    await this.cancelProtection();
    let closed = 0;
    if (options.squareOff) {
      // What the run holds by its recorded fills, not by the kernel's view: a run stopped after a divergence is closed as it truly stands.
      const { rows } = await this.options.oms.pool.query<{ instrument_id: number; net_quantity: number }>(
        'SELECT instrument_id, net_quantity FROM positions WHERE run_id = $1 AND net_quantity <> 0', [this.options.runId]);
      for (const row of rows) {
        const symbol = [...this.instrumentIds].find(([, id]) => id === row.instrument_id)?.[0] ?? String(row.instrument_id);
        this.instrumentIds.set(symbol, row.instrument_id);
        await this.place({ symbol, side: row.net_quantity > 0 ? 'SELL' : 'BUY', quantity: Math.abs(row.net_quantity), role: 'market', orderType: 'MARKET', squareOff: true });
        closed += Math.abs(row.net_quantity);
      }
      await this.options.oms.settled();
      this.takeEvents();
    }
    this.unsubscribe();
    return closed;
  }

  /**
   * Pauses (true) or resumes (false) entries from the next bar's open; exits, stops and
   * square-offs go on. Returns the market time it took effect from (to record, so a resumed run
   * pauses at the same place), or undefined when nothing changed.
   */
  setPaused(paused: boolean): number | undefined {
    return this.pauses.set(paused, this.options.clock.now());
  }

  /** The pauses so far, as `pauses` takes them. */
  get pauseIntervals(): readonly PauseInterval[] {
    return this.pauses.intervals;
  }

  /**
   * True once a kill switch stopped the run: the OMS does what the switch says (working orders
   * cancelled, positions closed if chosen), so the run itself must neither trade nor square off.
   */
  get killSwitchHalted(): boolean {
    return this.haltedByKillSwitch;
  }

  /** Throws (and remembers) when the account's or the global kill switch is on. */
  private checkKillSwitch(): void {
    const { oms } = this.options;
    const state = oms.killSwitches.stateFor(oms.userId);
    if (!state.user && !state.global) return;
    this.haltedByKillSwitch = true;
    throw new PaperDivergence(KILL_SWITCH_HALT);
  }

  /** Stops following the venue (the run ends or fails). */
  detach(): void {
    this.unsubscribe();
  }

  private currentBarStart(): number {
    return this.barIndex < 0 ? Number.NaN : (this.options.series.time[this.barIndex] as number);
  }

  private async openBar(tick: FeedTick, bar: { start: number; end: number }): Promise<void> {
    const { stepped, series } = this.options;
    const index = series.length;
    this.barIndex = index;
    this.barEnd = bar.end;
    this.barTicks = 1;
    this.protectiveFills = [];
    const moving = this.moveClock(tick.time);
    if (moving !== undefined) await moving;
    const hint = this.options.endingOf?.(index, bar.start) ?? {};
    stepped.kernel.kernel.entriesPaused = this.pauses.pausedAt(bar.start) || this.options.entriesBlocked?.() === true;
    stepped.openBar({ time: bar.start, open: tick.price / 100 }, hint);
    // 2. Protective orders of a position the open closed (or changed) go before the tick reaches the venue.
    if (this.protection !== undefined) await this.cancelStaleProtection();
    // 3. The venue sees the tick.
    const armed = this.protection !== undefined;
    await this.tickVenue(tick, 0, true);
    // 4. The open's orders, at this tick.
    if (this.hasKernelFillsToSend()) await this.sendKernelFills();
    // 5. Protection for what is open now; a position held from before trails on this tick too.
    if (armed && this.protection !== undefined && this.protectiveFills.length === 0) await this.trail(this.tradedPrice(tick, 0));
    if (this.needsProtection()) await this.protect();
  }

  private async pathTick(tick: FeedTick): Promise<void> {
    const k = Math.min(this.barTicks, TICKS_PER_CANDLE - 1);
    this.barTicks += 1;
    const moving = this.moveClock(tick.time);
    if (moving !== undefined) await moving;
    const before = this.protectiveFills.length;
    await this.tickVenue(tick, k, false);
    if (this.protectiveFills.length > before) {
      // One of the pair filled: the other goes before the next tick.
      await this.cancelProtection();
      return;
    }
    if (this.protection !== undefined) await this.trail(this.tradedPrice(tick, k));
  }

  private async closeBar(candle: BuiltCandle): Promise<void> {
    const { stepped } = this.options;
    const end = Math.min(this.barEnd, barWindowOf({ start: candle.time, intervalMinutes: this.options.intervalMinutes, exchange: this.options.exchange }).end);
    const moving = this.moveClock(end);
    if (moving !== undefined) await moving;
    const gate = this.options.signalGate;
    if (gate !== undefined) await gate.beforeClose(this.barIndex, candle.time);
    // Live: the kernel takes the bar's stops and targets from the venue (engine kernel/adopted-venue.ts).
    stepped.adopted?.adopt({ exit: this.adoptedExit(), levels: this.protection?.levels });
    stepped.closeBar({ time: candle.time, open: candle.open / 100, high: candle.high / 100, low: candle.low / 100, close: candle.close / 100, volume: candle.volume });
    // Each await below is a turn behind every other run's work at a bar boundary: taken only when there is something to do.
    if (gate !== undefined) await gate.afterClose();
    this.checkProtectiveFills();
    if (this.protection !== undefined) await this.cancelStaleProtection();
    if (this.hasKernelFillsToSend()) await this.sendKernelFills();
    if (this.needsProtection()) await this.protect();
    const position = this.trader.openPosition();
    this.closeMark = position === undefined ? undefined
      : { symbol: position.instrument, pricePaise: rupeesToPaise(((this.options.tradedPrices ?? this.options.series).close[this.barIndex]) as number) };
  }

  /**
   * The open position marked at the closed bar's close (its unrealised and the day's P&L). Written
   * after the orders of the tick that closed the bar (the next bar's open) have left: at a bar
   * boundary every strategy orders at once, and the marks would queue before them. The OMS's
   * daily-loss check of those orders sees the mark of the bar before (the kernel's own daily
   * limit decides on the bar's close).
   */
  private async markClosedBar(): Promise<void> {
    const mark = this.closeMark;
    if (mark === undefined) return;
    this.closeMark = undefined;
    const instrumentId = await this.instrumentId(mark.symbol);
    await this.options.oms.markToMarket({ runId: this.options.runId, instrumentId, pricePaise: mark.pricePaise });
    await this.options.mirror?.marked(instrumentId, mark.pricePaise);
  }

  /** The venue's protective exit of the bar being closed, as the kernel records it. */
  private adoptedExit(): AdoptedExit | undefined {
    const first = this.protectiveFills[0];
    if (first === undefined) return undefined;
    // A broker may fill one order in parts: its trades are one exit at their average price.
    const sameOrder = this.options.fills === 'adopt' && this.protectiveFills.every((venueFill) => venueFill.order === first.order);
    if (this.protectiveFills.length > 1 && !sameOrder) throw new PaperDivergence(`bar ${this.barIndex}: the venue filled ${this.protectiveFills.length} protective orders of one position`);
    const trade = combinedTrade(this.protectiveFills.map((venueFill) => venueFill.trade));
    const kind = first.order.role === 'target' ? 'target' : this.protection?.levels.stopIsTrailing === true ? 'trailing' : 'stop';
    return { kind, price: trade.pricePaise, time: trade.atMs };
  }

  /** The traded instrument's price at tick `k` of the bar: the signal tick itself, or the k-th tick of the traded candle's path. */
  private tradedPrice(tick: FeedTick, k: number): number {
    if (this.options.tradedTickPrice !== undefined) return this.options.tradedTickPrice(this.barIndex, tick.price);
    const prices = this.options.tradedPrices;
    if (prices === undefined) return tick.price;
    const index = this.barIndex;
    candleTickPath({
      open: rupeesToPaise(prices.open[index] as number), high: rupeesToPaise(prices.high[index] as number),
      low: rupeesToPaise(prices.low[index] as number), close: rupeesToPaise(prices.close[index] as number),
    }, this.path);
    return this.path[k] as number;
  }

  private async tickVenue(tick: FeedTick, k: number, jump: boolean): Promise<void> {
    const { venue, oms } = this.options;
    const symbol = this.symbolAt(this.barIndex);
    const instrumentId = this.instrumentIds.get(symbol) ?? await this.instrumentId(symbol);
    const price = this.tradedPrice(tick, k);
    this.lastPrices.set(symbol, price);
    const heard = this.events.length;
    const venueTick = { instrumentId, time: tick.time, price, volume: tick.volume, synthetic: tick.synthetic };
    venue.onTick(venueTick, { jump });
    // The followers' venues see the same tick before any copy of an order it brings (follow/follower-desk.ts).
    const mirrored = this.options.mirror?.tick(venueTick, jump);
    if (mirrored !== undefined) await mirrored;
    // A tick that filled nothing needs no wait (a turn behind every other run's work): the OMS's
    // work still under way (a cancellation's confirmation being written) is waited for before the
    // next order's answer is read, not here.
    if (this.events.length > heard || !venue.idle) await oms.settled();
    this.takeEvents();
    this.deliverStoredFills(tick.time);
  }

  /** The symbol traded at bar `index`: the chain's contract in force, or the series' own instrument. */
  private symbolAt(index: number): string {
    return this.options.contractAt?.(index) ?? this.options.stepped.config.instrument;
  }

  /** Venue events since the last look: protective fills are kept for the bar's check. */
  private takeEvents(): void {
    for (const event of this.events.splice(0)) {
      if (event.kind !== 'fill') continue;
      const order = this.byBrokerId.get(event.brokerOrderId);
      if (order === undefined) {
        // A broker account's venue is shared by its runs (and the user's own orders): not this run's.
        if (this.options.fills === 'adopt') continue;
        // The kill switch's square-off is the OMS's order, not this run's.
        this.checkKillSwitch();
        throw new PaperDivergence(`the venue filled order ${event.brokerOrderId}, which this run did not place`);
      }
      this.fills += 1;
      if (order.role !== 'market') this.protectiveFills.push({ order, trade: event.trade });
      else this.marketFills.push({ order, trade: event.trade });
    }
  }

  private marketFills: VenueFill[] = [];
  /** Fills of decisions stored before a restart, delivered when the replay reaches their time, as the venue delivered them then. */
  private readonly storedFills: VenueFill[] = [];

  private deliverStoredFills(untilMs: number): void {
    while (this.storedFills.length > 0 && (this.storedFills[0] as VenueFill).trade.atMs <= untilMs) {
      const fill = this.storedFills.shift() as VenueFill;
      this.fills += 1;
      if (fill.order.role === 'market') this.marketFills.push(fill);
      else this.protectiveFills.push(fill);
    }
  }

  /** The kernel's fills since the last look: each non-protective one goes out as a MARKET order and must fill at the kernel's price. */
  private async sendKernelFills(): Promise<void> {
    const fills = this.options.stepped.ledger.fills;
    const sent: Array<{ fill: LedgerFill; order: PlacedOrder }> = [];
    for (; this.fillCursor < fills.length; this.fillCursor += 1) {
      const fill = fills[this.fillCursor] as LedgerFill;
      if (PROTECTIVE_REASONS.has(fill.reason)) {
        throw new PaperDivergence(`the kernel's ${fill.reason} exit at ${fill.price} paise (bar ${fill.index}) was not checked against the venue's`);
      }
      const order = await this.place({
        symbol: fill.instrument, side: fill.side === 'buy' ? 'BUY' : 'SELL', quantity: fill.quantity, role: 'market', orderType: 'MARKET',
        squareOff: fill.reason !== 'entry',
      });
      sent.push({ fill, order });
    }
    if (sent.length === 0) return;
    if (this.options.fills === 'adopt') {
      await this.adoptMarketFills(sent);
      return;
    }
    await this.options.oms.settled();
    this.takeEvents();
    for (const { fill, order } of sent) {
      const at = this.marketFills.findIndex((venueFill) => venueFill.order === order);
      const venueFill = at < 0 ? undefined : this.marketFills.splice(at, 1)[0];
      if (venueFill === undefined) throw new PaperDivergence(`the ${fill.reason} order ${order.clientOrderId} did not fill on paper (the kernel filled it at ${fill.price} paise)`);
      expectSameFill(venueFill.trade, fill, order);
    }
  }

  /**
   * Live: waits (real time, up to `fillWaitMs`) until the broker reported every unit of the orders
   * just sent, then takes its fills. Side and quantity must be the kernel's; the price is the
   * broker's (its difference from the kernel's is logged as slippage). A rejected or cancelled
   * order, or one not filled in time, ends the run with the reason.
   */
  private async adoptMarketFills(sent: ReadonlyArray<{ readonly fill: LedgerFill; readonly order: PlacedOrder }>): Promise<void> {
    const { oms } = this.options;
    const waitMs = this.options.fillWaitMs ?? FILL_WAIT_MS;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const started = Date.now();
    for (;;) {
      await oms.settled();
      this.takeEvents();
      const waiting = sent.filter(({ order }) => this.marketFilledQuantity(order) < order.quantity);
      if (waiting.length === 0) break;
      const views = await oms.views(waiting.map(({ order }) => order.clientOrderId));
      const ended = views.find((view) => view.status === 'REJECTED' || view.status === 'CANCELLED');
      if (ended !== undefined) {
        throw new PaperDivergence(`the broker ${ended.status === 'REJECTED' ? 'rejected' : 'cancelled'} order ${ended.clientOrderId}: ${ended.statusMessage ?? 'no reason given'}`);
      }
      if (Date.now() - started >= waitMs) {
        throw new PaperDivergence(`the broker has not reported the fills of ${waiting.map(({ order }) => order.clientOrderId).join(', ')} within ${waitMs / 1000} s`);
      }
      await sleep(25);
    }
    for (const { fill, order } of sent) {
      const trades = this.marketFills.filter((venueFill) => venueFill.order === order);
      this.marketFills = this.marketFills.filter((venueFill) => venueFill.order !== order);
      const adopted = combinedTrade(trades.map((venueFill) => venueFill.trade));
      const side = fill.side === 'buy' ? 'BUY' : 'SELL';
      if (adopted.quantity !== fill.quantity || order.side !== side) {
        throw new PaperDivergence(`${fill.reason} fill of ${fill.instrument} differs: the broker ${order.side} ${adopted.quantity}, the kernel ${side} ${fill.quantity}`);
      }
      const slippage = adopted.pricePaise - paise(fill.price);
      if (slippage !== 0) this.options.log?.(`${order.clientOrderId}: the broker filled ${adopted.quantity} at ${adopted.pricePaise} paise, the kernel's price was ${paise(fill.price)} (slippage ${slippage} paise a unit)`);
    }
  }

  /** Units of `order` the venue reported filled so far among the market fills not yet taken. */
  private marketFilledQuantity(order: PlacedOrder): number {
    let quantity = 0;
    for (const venueFill of this.marketFills) if (venueFill.order === order) quantity += venueFill.trade.quantity;
    return quantity;
  }

  /** At the bar's close: the venue's protective fills of the bar are exactly the kernel's stop, target or trailing exits. */
  private checkProtectiveFills(): void {
    const fills = this.options.stepped.ledger.fills;
    const kernel: LedgerFill[] = [];
    for (; this.fillCursor < fills.length; this.fillCursor += 1) {
      const fill = fills[this.fillCursor] as LedgerFill;
      if (!PROTECTIVE_REASONS.has(fill.reason)) break;
      kernel.push(fill);
    }
    const venue = this.options.fills === 'adopt' && this.protectiveFills.length > 0
      ? [{ order: (this.protectiveFills[0] as VenueFill).order, trade: combinedTrade(this.protectiveFills.map((venueFill) => venueFill.trade)) }]
      : this.protectiveFills;
    this.protectiveFills = [];
    if (kernel.length !== venue.length) {
      throw new PaperDivergence(`bar ${this.barIndex}: the kernel made ${kernel.length} protective exit fill(s), the paper venue ${venue.length}`);
    }
    kernel.forEach((fill, index) => expectSameFill((venue[index] as VenueFill).trade, fill, (venue[index] as VenueFill).order));
    if (venue.length > 0) this.protection = undefined;
  }

  /** Cancels the protective orders when the position they protect is gone or changed. */
  private async cancelStaleProtection(): Promise<void> {
    const protection = this.protection;
    if (protection === undefined) return;
    const position = this.trader.openPosition();
    if (position !== undefined && position.instrument === protection.symbol && position.quantity === protection.quantity && position.direction === protection.direction) return;
    // The exit (or the new position's orders) follows at once: the paper venue took the cancels
    // when they were asked for, and their confirmations are written while the exit goes out.
    await this.cancelProtection({ confirmed: false });
  }

  /**
   * Cancels the position's stop and target. `confirmed` (the default) waits until the venue's
   * cancellations are written too; without it, only until the venue took them (the paper venue
   * takes a cancel as it is asked: no tick can fill the order after that), which is all an order
   * that follows needs.
   */
  private async cancelProtection(options: { readonly confirmed: boolean } = { confirmed: true }): Promise<void> {
    const protection = this.protection;
    this.protection = undefined;
    if (protection === undefined) return;
    const { oms } = this.options;
    const working = [protection.stop, protection.target].filter((order): order is PlacedOrder => order !== undefined);
    // Both at once: they are two orders of the venue, cancelled independently (one that ended is left alone).
    await Promise.all(working.map(async (order) => {
      const cancelled = await oms.cancelIfWorking(order.clientOrderId);
      if (!cancelled.ok) throw new PaperDivergence(`the ${order.role} order ${order.clientOrderId} could not be cancelled: ${cancelled.error.message}`);
    }));
    if (this.options.mirror !== undefined) await this.options.mirror.cancelled(working.map((order) => order.clientOrderId));
    if (options.confirmed) await oms.settled();
    this.takeEvents();
  }

  /**
   * Moves the market clock to `time` (never back): at once, returning undefined, when nothing
   * sleeps until then (awaiting would be a turn behind every other run's work at a bar boundary);
   * else the advance to await, which wakes the sleepers.
   */
  private moveClock(time: number): Promise<void> | undefined {
    const clock = this.options.clock;
    const to = Math.max(clock.now(), time);
    return clock.advanceIfIdle(to) ? undefined : clock.advanceTo(to);
  }

  /** Whether the kernel made fills since the last look (they go out as orders, or are checked). */
  private hasKernelFillsToSend(): boolean {
    return this.fillCursor < this.options.stepped.ledger.fills.length;
  }

  /** Whether the open position has no stop and target at the venue yet, and needs them. */
  private needsProtection(): boolean {
    const position = this.trader.openPosition();
    return position !== undefined && this.protection === undefined && position.levels.active;
  }

  /** Places the stop and target of the open position when it has none. */
  private async protect(): Promise<void> {
    const position = this.trader.openPosition();
    if (position === undefined || this.protection !== undefined || !position.levels.active) return;
    const levels = position.levels.blank();
    levels.copyFrom(position.levels);
    const exitSide: OrderSide = position.direction > 0 ? 'SELL' : 'BUY';
    const protection: Protection = {
      symbol: position.instrument, quantity: position.quantity, direction: position.direction, levels,
      stop: undefined, stopLevel: levels.stop, target: undefined, armedBeforeBar: false,
    };
    this.protection = protection;
    // Placed together (decisions numbered stop first, then target): neither waits for the other.
    const stop = Number.isNaN(levels.stop) ? undefined
      : this.place({ symbol: position.instrument, side: exitSide, quantity: position.quantity, role: 'stop', orderType: 'SL-M', triggerPricePaise: levels.stop, squareOff: true });
    const target = Number.isNaN(levels.targetLevel) ? undefined
      : this.place({ symbol: position.instrument, side: exitSide, quantity: position.quantity, role: 'target', orderType: 'LIMIT', pricePaise: levels.targetLevel, squareOff: true });
    [protection.stop, protection.target] = await Promise.all([stop, target]);
    await this.options.oms.settled();
    this.takeEvents();
  }

  /** A tick that filled neither: the trailing stop follows it, and the stop order with it. */
  private async trail(price: number): Promise<void> {
    const protection = this.protection;
    if (protection === undefined) return;
    protection.levels.trail(price);
    const stop = protection.levels.stop;
    if (stop === protection.stopLevel || protection.stop === undefined) return;
    protection.stopLevel = stop;
    if (protection.stop.storedFinal) return;
    const reference = this.lastPrices.get(protection.symbol);
    const modified = await this.options.oms.modifyOrder({
      clientOrderId: protection.stop.clientOrderId, triggerPricePaise: stop, ...(reference === undefined ? {} : { referencePricePaise: reference }),
    });
    if (!modified.ok) throw new PaperDivergence(`the trailing stop ${protection.stop.clientOrderId} could not move to ${stop} paise: ${issueText(modified.error)}`);
    await this.options.mirror?.modified(protection.stop.clientOrderId, stop);
    await this.options.oms.settled();
    this.takeEvents();
  }

  private async place(request: {
    symbol: string; side: OrderSide; quantity: number; role: PlacedOrder['role']; orderType: 'MARKET' | 'SL-M' | 'LIMIT';
    triggerPricePaise?: number; pricePaise?: number; squareOff: boolean;
  }, attempt = 0): Promise<PlacedOrder> {
    const { oms, runId, product } = this.options;
    this.checkKillSwitch();
    // Live with the broker session lost: the order waits for the next login (it is never dropped).
    if (this.options.brokerReady !== undefined) await this.options.brokerReady();
    // Numbered before any wait: the stop and the target are placed together, in this order.
    const decision = this.decision;
    this.decision += 1;
    const instrumentId = this.instrumentIds.get(request.symbol) ?? await this.instrumentId(request.symbol);
    const placed = await oms.placeOrder({
      runId, decision, instrumentId, side: request.side, quantity: request.quantity, orderType: request.orderType, product, squareOff: request.squareOff,
      ...(request.triggerPricePaise === undefined ? {} : { triggerPricePaise: request.triggerPricePaise }),
      ...(request.pricePaise === undefined ? {} : { pricePaise: request.pricePaise }),
      ...(this.lastPrices.has(request.symbol) ? { referencePricePaise: this.lastPrices.get(request.symbol) as number } : {}),
    });
    if (!placed.ok) throw new PaperDivergence(`the OMS refused the ${request.role} order of decision ${decision}: ${placed.error.map((issue) => issue.message).join('; ')}`);
    const views = placed.value.orders;
    if (views.length !== 1) throw new PaperDivergence(`decision ${decision} was sliced into ${views.length} orders; the kernel sends one order per slice`);
    let view = views[0] as OmsOrderView;
    if (placed.value.existing && view.brokerOrderId === null && view.status === 'UNKNOWN') {
      // Sent before a crash that came before the venue had it: ask the venue now, at the moment it was sent.
      await oms.resolveUnknown(view.clientOrderId);
      await oms.settled();
      view = (await oms.views([view.clientOrderId]))[0] as OmsOrderView;
    }
    const order: PlacedOrder = {
      clientOrderId: view.clientOrderId, symbol: request.symbol, instrumentId, side: request.side, quantity: request.quantity, role: request.role, storedFinal: false,
    };
    if (view.brokerOrderId === null && this.options.fills === 'adopt') view = await this.awaitBrokerAnswer(view);
    if (view.status === 'REJECTED' && this.options.notSent?.(view.statusMessage) === true && attempt < MAX_RESENDS) {
      this.options.log?.(`${view.clientOrderId} was not sent (${view.statusMessage ?? ''}): placed again as a new order once the broker is ready`);
      await (this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))))(1_000);
      return this.place(request, attempt + 1);
    }
    if (view.brokerOrderId === null) throw new PaperDivergence(`order ${view.clientOrderId} has not reached the ${this.options.fills === 'adopt' ? 'broker' : 'paper venue'} (${view.status}${view.statusMessage === null ? '' : `: ${view.statusMessage}`})`);
    this.byBrokerId.set(view.brokerOrderId, order);
    if (placed.value.existing) await this.resumed(order, view, request);
    await this.options.mirror?.placed({
      decision, clientOrderId: order.clientOrderId, instrumentId, side: request.side, role: request.role, orderType: request.orderType,
      squareOff: request.squareOff, product,
      ...(request.triggerPricePaise === undefined ? {} : { triggerPricePaise: request.triggerPricePaise }),
      ...(request.pricePaise === undefined ? {} : { pricePaise: request.pricePaise }),
    });
    return order;
  }

  /**
   * Live: an order without the broker's id yet (waiting in the rate queue, or UNKNOWN after a send
   * that timed out) is waited for, real time, up to `fillWaitMs`: the OMS sends it when the queue
   * lets it and resolves an UNKNOWN from the broker's order book, never by sending it again. A
   * rejection ends the wait with the broker's reason.
   */
  private async awaitBrokerAnswer(first: OmsOrderView): Promise<OmsOrderView> {
    const { oms } = this.options;
    const waitMs = this.options.fillWaitMs ?? FILL_WAIT_MS;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const started = Date.now();
    let view = first;
    let askedAt = Number.NEGATIVE_INFINITY;
    while (view.brokerOrderId === null && view.status !== 'REJECTED' && view.status !== 'CANCELLED' && Date.now() - started < waitMs) {
      // Asked at most once a second: the broker's order book is rate-limited too.
      if (view.status === 'UNKNOWN' && Date.now() - askedAt >= 1_000) {
        askedAt = Date.now();
        await oms.resolveUnknown(view.clientOrderId);
      }
      await oms.settled();
      view = (await oms.views([view.clientOrderId]))[0] as OmsOrderView;
      if (view.brokerOrderId === null) await sleep(25);
    }
    return view;
  }

  /**
   * A decision this run made before a restart: its stored fills count as the venue's (they are
   * not sent again), and a stop still working is set back to the level the run has now (the row
   * holds the last level before the restart, which the replay has not reached yet).
   */
  private async resumed(order: PlacedOrder, view: OmsOrderView, request: { triggerPricePaise?: number }): Promise<void> {
    const stored = await storedOrderFills(this.options.oms.pool, view.orderId);
    order.storedFinal = isFinalOrder(view);
    for (const trade of stored.trades) this.storedFills.push({ order, trade });
    this.storedFills.sort((a, b) => a.trade.atMs - b.trade.atMs);
    this.deliverStoredFills(this.options.clock.now());
    if (!isFinalOrder(view) && request.triggerPricePaise !== undefined && stored.triggerPricePaise !== undefined && stored.triggerPricePaise !== request.triggerPricePaise) {
      const reference = this.lastPrices.get(order.symbol);
      const modified = await this.options.oms.modifyOrder({
        clientOrderId: order.clientOrderId, triggerPricePaise: request.triggerPricePaise, ...(reference === undefined ? {} : { referencePricePaise: reference }),
      });
      if (!modified.ok) throw new PaperDivergence(`the resumed stop ${order.clientOrderId} could not be set back to ${request.triggerPricePaise} paise: ${issueText(modified.error)}`);
    }
  }

  private async instrumentId(symbol: string): Promise<number> {
    const known = this.instrumentIds.get(symbol);
    if (known !== undefined) return known;
    const id = await this.options.instrumentIdOf(symbol);
    // Read into the OMS's cache now, at the first tick of a contract, not at its first order.
    await this.options.oms.instrument(id);
    this.instrumentIds.set(symbol, id);
    return id;
  }
}

function issueText(error: unknown): string {
  if (Array.isArray(error)) return error.map((issue: { message?: string }) => issue.message ?? String(issue)).join('; ');
  return error instanceof Error ? error.message : typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error);
}

/** Trades of one order as one: their total quantity at their value-weighted price (rounded half up), at the last trade's time. */
function combinedTrade(trades: readonly VenueTrade[]): VenueTrade {
  const only = trades[0];
  if (trades.length === 1 && only !== undefined) return only;
  let quantity = 0;
  let value = 0;
  let atMs = 0;
  for (const trade of trades) {
    quantity += trade.quantity;
    value += trade.quantity * trade.pricePaise;
    atMs = Math.max(atMs, trade.atMs);
  }
  return { tradeId: trades.map((trade) => trade.tradeId).join('+'), quantity, pricePaise: paise(quantity === 0 ? 0 : Math.floor(value / quantity + 0.5)), atMs };
}

/** The venue's fill must be the kernel's: price, time, quantity and side. */
function expectSameFill(trade: VenueTrade, fill: LedgerFill, order: PlacedOrder): void {
  const side = fill.side === 'buy' ? 'BUY' : 'SELL';
  if (trade.pricePaise !== paise(fill.price) || trade.atMs !== fill.time || trade.quantity !== fill.quantity || order.side !== side) {
    throw new PaperDivergence(`${fill.reason} fill of ${fill.instrument} differs: paper ${order.side} ${trade.quantity} at ${trade.pricePaise} paise at ${new Date(trade.atMs).toISOString()}, `
      + `kernel ${side} ${fill.quantity} at ${fill.price} paise at ${new Date(fill.time).toISOString()}`);
  }
}
