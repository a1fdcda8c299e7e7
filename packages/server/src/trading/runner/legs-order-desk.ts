// The legs' paper run's side of the OMS (legs-paper-run.ts decides, this sends): each order is
// the run's next decision, placed, modified and cancelled through the OMS; the venue's fill
// events come back tied to the order they fill; and a decision already stored before a restart
// is answered from its rows (never sent twice), its stored fills handed over when the replay
// reaches their time, as paper-run.ts does for an instrument.
//
// An option held to its expiry settles without an order leaving: `recordExpiry` writes the
// settlement through the OMS's books (oms/expiry-settlement.ts) under the run's next decision, so
// a restart replaying from the first bar reaches the same decision and is answered from its row.
//
// The price band: the OMS checks each stop and target against the option premium's band (100%
// around the contract's last premium: oms/risk-inputs.ts), wide enough for the stops short
// options are protected with; a level beyond it is refused like any mistyped price.
import type { OrderSide, ProtectiveLevels, VenueEvent, VenueTrade } from '@vyuha/engine';
import type { ManualScheduler } from '../feeds/scheduler';
import { recordExpirySettlement } from '../oms/expiry-settlement';
import type { RecordedExpirySettlement } from '../oms/expiry-settlement';
import type { Oms } from '../oms/oms';
import type { OmsOrderView } from '../oms/oms-types';
import type { PaperVenue } from '../paper/paper-venue';
import { KILL_SWITCH_HALT, PaperDivergence } from './paper-run';
import { isFinalOrder, storedOrderFills } from './stored-orders';

/** The stop and target working for one entry slice of a leg. */
export interface LegProtection {
  readonly symbol: string;
  readonly quantity: number;
  /** A copy of the leg's levels, opened at the slice's entry fill. */
  readonly levels: ProtectiveLevels;
  stop: PlacedLegOrder | undefined;
  stopLevel: number;
  target: PlacedLegOrder | undefined;
  /** Set when the venue filled one of the pair: the other is cancelled before the next tick. */
  filled: boolean;
}

export interface PlacedLegOrder {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly role: 'market' | 'stop' | 'target';
  /** The slice a stop or target protects. */
  readonly protection?: LegProtection;
  /** A decision stored before a restart whose order had already ended: replayed, never modified or cancelled again. */
  storedFinal: boolean;
}

export interface LegVenueFill {
  readonly order: PlacedLegOrder;
  readonly trade: VenueTrade;
}

export interface LegOrderRequest {
  readonly symbol: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly role: PlacedLegOrder['role'];
  readonly orderType: 'MARKET' | 'SL-M' | 'LIMIT';
  readonly triggerPricePaise?: number;
  readonly pricePaise?: number;
  readonly squareOff: boolean;
  readonly protection?: LegProtection;
}

export interface LegOrderDeskOptions {
  readonly runId: string;
  readonly oms: Oms;
  readonly venue: PaperVenue;
  readonly clock: ManualScheduler;
  /** The product of every order (MIS intraday, NRML swing). */
  readonly product: string;
  /** The instruments row of a leg's trading symbol. */
  readonly instrumentIdOf: (symbol: string) => Promise<number>;
  /** The first decision number to use. */
  readonly firstDecision?: number | undefined;
  /** Told each venue fill of this run's orders (stored ones when the replay reaches them). */
  readonly onFill: (fill: LegVenueFill) => void;
}

export class LegOrderDesk {
  /** The last premium the venue was given per contract: the band's reference and the mark. */
  readonly lastPrices = new Map<string, number>();
  /** Fills made on paper so far. */
  fills = 0;
  private decision: number;
  private halted = false;
  private readonly byBrokerId = new Map<string, PlacedLegOrder>();
  private readonly events: VenueEvent[] = [];
  private readonly storedFills: LegVenueFill[] = [];
  private readonly instrumentIds = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: LegOrderDeskOptions) {
    this.decision = options.firstDecision ?? 0;
    this.unsubscribe = options.venue.subscribe((event) => this.events.push(event));
  }

  /** True once a kill switch stopped the run (the OMS does what the switch says). */
  get killSwitchHalted(): boolean {
    return this.halted;
  }

  /** True (and remembered) when the account's or the global kill switch is on. */
  killSwitchOn(): boolean {
    const { oms } = this.options;
    const state = oms.killSwitches.stateFor(oms.userId);
    if (state.user || state.global) this.halted = true;
    return this.halted;
  }

  /** Stops following the venue. */
  detach(): void {
    this.unsubscribe();
  }

  /** Waits for the OMS and the venue, then hands over the fills they made. */
  async settle(): Promise<void> {
    await this.options.oms.settled();
    this.take();
  }

  /** Hands over the stored fills of resumed decisions up to `untilMs` of market time. */
  deliverStored(untilMs: number): void {
    while (this.storedFills.length > 0 && (this.storedFills[0] as LegVenueFill).trade.atMs <= untilMs) this.deliver(this.storedFills.shift() as LegVenueFill);
  }

  async instrumentId(symbol: string): Promise<number> {
    const known = this.instrumentIds.get(symbol);
    if (known !== undefined) return known;
    const id = await this.options.instrumentIdOf(symbol);
    this.instrumentIds.set(symbol, id);
    return id;
  }

  /** The trading symbol of an instrument this run traded, or undefined. */
  symbolOf(instrumentId: number): string | undefined {
    return [...this.instrumentIds].find(([, id]) => id === instrumentId)?.[0];
  }

  /** Places the run's next decision; throws PaperDivergence when the OMS refuses it or it does not reach the venue. */
  async place(request: LegOrderRequest): Promise<PlacedLegOrder> {
    const { oms, runId, product } = this.options;
    if (this.killSwitchOn()) throw new PaperDivergence(KILL_SWITCH_HALT);
    const instrumentId = await this.instrumentId(request.symbol);
    const decision = this.decision;
    this.decision += 1;
    const reference = this.lastPrices.get(request.symbol);
    const placed = await oms.placeOrder({
      runId, decision, instrumentId, side: request.side, quantity: request.quantity, orderType: request.orderType, product, squareOff: request.squareOff,
      ...(request.triggerPricePaise === undefined ? {} : { triggerPricePaise: request.triggerPricePaise }),
      ...(request.pricePaise === undefined ? {} : { pricePaise: request.pricePaise }),
      ...(reference === undefined ? {} : { referencePricePaise: reference }),
    });
    if (!placed.ok) {
      throw new PaperDivergence(`the OMS refused the ${request.role} order of ${request.symbol} (decision ${decision}): ${placed.error.map((issue) => issue.message).join('; ')}`);
    }
    const views = placed.value.orders;
    if (views.length !== 1) throw new PaperDivergence(`decision ${decision} was sliced into ${views.length} orders; the kernel sends one order per slice`);
    let view = views[0] as OmsOrderView;
    if (placed.value.existing && view.brokerOrderId === null && view.status === 'UNKNOWN') {
      // Sent before a crash that came before the venue had it: ask the venue now, at the moment it was sent.
      await oms.resolveUnknown(view.clientOrderId);
      await oms.settled();
      view = (await oms.views([view.clientOrderId]))[0] as OmsOrderView;
    }
    if (view.brokerOrderId === null) {
      throw new PaperDivergence(`order ${view.clientOrderId} has not reached the paper venue (${view.status}${view.statusMessage === null ? '' : `: ${view.statusMessage}`})`);
    }
    const order: PlacedLegOrder = {
      clientOrderId: view.clientOrderId, symbol: request.symbol, side: request.side, quantity: request.quantity, role: request.role, storedFinal: false,
      ...(request.protection === undefined ? {} : { protection: request.protection }),
    };
    this.byBrokerId.set(view.brokerOrderId, order);
    if (placed.value.existing) await this.resumed(order, view, request.triggerPricePaise);
    return order;
  }

  /**
   * Records a leg's slice settled at its expiry (`pricePaise` its intrinsic value, 0 when it
   * expired worthless) as the run's next decision; a decision stored before a restart is answered
   * from its row. Throws PaperDivergence when the OMS's books refuse it.
   */
  async recordExpiry(request: { readonly symbol: string; readonly side: OrderSide; readonly quantity: number; readonly pricePaise: number; readonly atMs: number }): Promise<RecordedExpirySettlement> {
    const { oms, runId, product } = this.options;
    const run = oms.attachedRuns.find((candidate) => candidate.runId === runId);
    if (run === undefined) throw new PaperDivergence(`run ${runId} is not attached to its OMS, which records its expiry settlements`);
    const instrumentId = await this.instrumentId(request.symbol);
    const decision = this.decision;
    this.decision += 1;
    const recorded = await recordExpirySettlement(oms.pool, {
      run, decision, instrumentId, side: request.side, quantity: request.quantity, event: request.pricePaise > 0 ? 'exercise' : 'expire-worthless',
      settlementPricePaise: request.pricePaise, atMs: request.atMs, product,
    });
    if (!recorded.ok) {
      throw new PaperDivergence(`the expiry settlement of ${request.symbol} (decision ${decision}) was not recorded: ${recorded.error.map((issue) => issue.message).join('; ')}`);
    }
    if (recorded.value.fill !== undefined) this.fills += 1;
    return recorded.value;
  }

  /** Cancels an order still working (one that ended, before a restart or since, is left alone). */
  async cancel(order: PlacedLegOrder): Promise<void> {
    const { oms } = this.options;
    if (order.storedFinal) return;
    const cancelled = await oms.cancelIfWorking(order.clientOrderId);
    if (!cancelled.ok) throw new PaperDivergence(`the ${order.role} order ${order.clientOrderId} could not be cancelled: ${cancelled.error.message}`);
  }

  /** Moves a working stop to `triggerPricePaise` (a trailing stop that followed the premium). */
  async moveStop(order: PlacedLegOrder, triggerPricePaise: number): Promise<void> {
    if (order.storedFinal) return;
    const modified = await this.options.oms.modifyOrder({
      clientOrderId: order.clientOrderId, triggerPricePaise, ...(this.referenceOf(order.symbol)),
    });
    if (!modified.ok) {
      throw new PaperDivergence(`the stop ${order.clientOrderId} could not move to ${triggerPricePaise} paise: ${modified.error.map((issue) => issue.message).join('; ')}`);
    }
  }

  /** Venue events since the last look: each fill of this run's orders is handed over. */
  private take(): void {
    for (const event of this.events.splice(0)) {
      if (event.kind !== 'fill') continue;
      const order = this.byBrokerId.get(event.brokerOrderId);
      if (order === undefined) {
        // The kill switch's square-off is the OMS's order, not this run's.
        if (this.killSwitchOn()) throw new PaperDivergence(KILL_SWITCH_HALT);
        throw new PaperDivergence(`the venue filled order ${event.brokerOrderId}, which this run did not place`);
      }
      this.deliver({ order, trade: event.trade });
    }
  }

  private deliver(fill: LegVenueFill): void {
    this.fills += 1;
    this.options.onFill(fill);
  }

  /** The price band's reference for a level: the last premium, or the level itself when the band around the premium would refuse it. */
  /** The contract's last premium as the band's reference, when one is known. */
  private referenceOf(symbol: string): { referencePricePaise?: number } {
    const last = this.lastPrices.get(symbol);
    return last === undefined ? {} : { referencePricePaise: last };
  }

  /**
   * A decision made before a restart: its stored fills count as the venue's when the replay
   * reaches their time, and a stop still working is set back to the level given now (the row
   * holds the last trailed level, which the replay has not reached yet).
   */
  private async resumed(order: PlacedLegOrder, view: OmsOrderView, triggerPricePaise: number | undefined): Promise<void> {
    const stored = await storedOrderFills(this.options.oms.pool, view.orderId);
    order.storedFinal = isFinalOrder(view);
    for (const trade of stored.trades) this.storedFills.push({ order, trade });
    this.storedFills.sort((a, b) => a.trade.atMs - b.trade.atMs);
    this.deliverStored(this.options.clock.now());
    if (triggerPricePaise === undefined || stored.triggerPricePaise === undefined || stored.triggerPricePaise === triggerPricePaise) return;
    await this.moveStop(order, triggerPricePaise);
  }
}
