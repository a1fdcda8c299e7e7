// The order management system of one trading account: every order of the account's runs goes
// through here, to one venue (the paper venue, later a broker's), and every answer and event from
// the venue comes back through here. ARCHITECTURE.md "The life of a live order" tells the path.
//
// Invariants:
// - An order's rows exist (PENDING_SUBMIT, client order id, algo id, run, user, broker account)
//   before the venue hears of it, and `submitted_at` is written before `venue.place` is called.
// - An order with `submitted_at` is never placed again: a timeout or an unclear answer makes it
//   UNKNOWN, resolved by asking the venue (`orderByTag`), never by resending.
// - Every event is one transaction on the locked row: the order rebuilt from its row and fills,
//   the engine's `applyOrderEvent`, the new row, its fills with their position and daily_pnl
//   changes, and an audit_log row. A fill's trade id already stored changes nothing.
// - At most 10 orders per second leave per user and exchange segment; the rest wait in the queue,
//   their rows saying so (`queued_until`, status message), and none is dropped.
// - No order leaves while the user's or the global kill switch is on, except a square-off.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { ABSENCE_GRACE_MS, applyOrderEvent, isFinalStatus, orderEventOf, OrderRateQueue, orderRateKey, venueTagOf } from '@vyuha/engine';
import type { OmsOrder, OrderEffect, OrderEvent, OrderEventError, PlaceOutcome, VenueEvent, VenuePort } from '@vyuha/engine';
import type pg from 'pg';
import type { Scheduler } from '../feeds/scheduler';
import { chaosPoint } from '../chaos';
import type { KillSwitchWatch } from '../kill-switch-watch';
import { markPosition, recordFill } from './fill-ledger';
import { KeyedLock } from './keyed-lock';
import { decisionIds, mismatchOf, requestIssues, viewOf, writeDecisionRows } from './order-intake';
import { modifyWorkingOrder } from './order-modify';
import { auditOrder, auditView, clientOrderIdForVenue, inTransaction, lockOrder, ordersByIds, writeOrder } from './order-rows';
import type { OrderAuditEntry, StoredOrder } from './order-rows';
import { KILL_SWITCH_WITHDRAWN, QUEUED_MESSAGE } from './oms-types';
import type { ModifyOrderRequest, OmsIssue, OmsModifyIssue, OmsOrderView, PlacedDecision, PlaceOrderRequest, RunContext } from './oms-types';
import { checkRisk, readInstrument } from './risk-inputs';
import type { OmsInstrument } from './risk-inputs';

/** How long `venue.place` may take before the order is UNKNOWN. */
export const SEND_TIMEOUT_MS = 5_000;

export interface OmsOptions {
  readonly pool: pg.Pool;
  /** The account this OMS trades for: every run attached must be this user's. */
  readonly userId: string;
  readonly venue: VenuePort;
  readonly scheduler: Scheduler;
  readonly killSwitches: KillSwitchWatch;
  readonly sendTimeoutMs?: number;
  readonly log?: (message: string) => void;
  /**
   * What the venue's positions cover: the whole account (a broker; default), or only the attached
   * runs (a paper venue kept to its runs: a replay is a market of its own). Recovery compares the
   * venue with the stored positions of the same scope.
   */
  readonly venueScope?: 'account' | 'attached-runs';
}

interface QueuedSlice {
  readonly clientOrderId: string;
  readonly squareOff: boolean;
}

/** How long after a failed lookup an UNKNOWN order is asked about again. */
const LOOKUP_RETRY_MS = 2_000;

export class Oms {
  readonly pool: pg.Pool;
  readonly userId: string;
  readonly venue: VenuePort;
  readonly scheduler: Scheduler;
  readonly killSwitches: KillSwitchWatch;
  readonly venueScope: 'account' | 'attached-runs';
  private readonly runs = new Map<string, RunContext>();
  private readonly instruments = new Map<number, OmsInstrument>();
  private readonly locks = new KeyedLock();
  private readonly queue = new OrderRateQueue<QueuedSlice>();
  private readonly queued = new Set<string>();
  private readonly rateKeys = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();
  /** Broker order id -> client order id of the orders this OMS sent that are still working: a venue event is matched without a query. */
  private readonly sentByBrokerId = new Map<string, string>();
  private venueChain: Promise<void> = Promise.resolve();
  private timer: { due: number; abort: AbortController } | undefined;
  private readonly unsubscribe: () => void;
  private readonly sendTimeoutMs: number;
  readonly log: (message: string) => void;
  private closed = false;
  private readonly closers: Array<() => void> = [];

  constructor(options: OmsOptions) {
    this.pool = options.pool;
    this.userId = options.userId;
    this.venue = options.venue;
    this.scheduler = options.scheduler;
    this.killSwitches = options.killSwitches;
    this.venueScope = options.venueScope ?? 'account';
    this.sendTimeoutMs = options.sendTimeoutMs ?? SEND_TIMEOUT_MS;
    this.log = options.log ?? (() => undefined);
    this.unsubscribe = this.venue.subscribe((event) => this.onVenueEvent(event));
  }

  /** Runs `closer` when the OMS closes (a subscription of its own). */
  onClose(closer: () => void): void {
    this.closers.push(closer);
  }

  /** Makes a run's orders this OMS's to place, follow and recover. */
  attachRun(run: RunContext): void {
    if (run.userId !== this.userId) throw new RangeError(`run ${run.runId} belongs to user ${run.userId}, this OMS trades for ${this.userId}`);
    this.runs.set(run.runId, run);
  }

  get attachedRuns(): readonly RunContext[] {
    return [...this.runs.values()];
  }

  /**
   * Checks, writes and sends one decided order (sliced at the freeze quantity). Resolves once the
   * slices that may leave now were handed to the venue; the rest wait in the rate queue.
   * @example await oms.placeOrder({ runId, decision: 0, instrumentId, side: 'BUY', quantity: 75, orderType: 'MARKET', product: 'NRML' })
   */
  async placeOrder(request: PlaceOrderRequest): Promise<Result<PlacedDecision, readonly OmsIssue[]>> {
    const issues = requestIssues(request);
    if (issues.length > 0) return err(issues);
    const run = this.runs.get(request.runId);
    if (run === undefined) return err([{ field: 'runId', code: 'unknown-run', message: `run ${String(request.runId)} is not attached to this OMS` }]);
    const instrument = this.instruments.get(request.instrumentId) ?? await this.instrument(request.instrumentId);
    if (instrument === undefined) return err([{ field: 'instrumentId', code: 'unknown-instrument', message: `no instrument has id ${request.instrumentId}` }]);
    const ids = decisionIds(request);
    const now = this.scheduler.now();
    // The risk reads and the look for the decision's rows are one statement: a decision asked again
    // (rare: a restart) discards the risk answer and reads its rows.
    const { decided, risk } = await checkRisk(this.pool, { run, request, instrument, nowMs: now, killSwitch: this.killSwitches.stateFor(run.userId), decisionIds: ids });
    if (decided) return this.continueDecision(request, await ordersByIds(this.pool, ids));
    if (!risk.ok) {
      await inTransaction(this.pool, (client) => auditOrder(client, {
        action: 'order.refused', clientOrderId: ids[0] as string, actorUserId: run.userId, after: { request, refusals: risk.error },
      }));
      return err(risk.error.map((refusal) => ({ code: refusal.code, message: refusal.message })));
    }
    chaosPoint('before-write');
    const departure = risk.value.slices.length === 1 ? this.departNow({ clientOrderId: ids[0] as string, instrument, squareOff: request.squareOff === true, nowMs: now }) : undefined;
    const written = await writeDecisionRows(this.pool, {
      run, order: request, slices: risk.value.slices, nowMs: now, ...(departure?.leaves === true ? { sendingAtMs: now } : {}),
    });
    if (departure !== undefined && departure.others.length > 0) void this.track(this.sendInOrder(departure.others));
    if (written !== undefined && request.squareOff === true) chaosPoint('mid-square-off');
    // A decision written before (a restart): its slot in the rate window stays spent, which only slows the account.
    if (written === undefined) return this.continueDecision(request, await ordersByIds(this.pool, ids));
    if (departure?.leaves === true) await this.sendWritten(written[0] as StoredOrder);
    else await this.enqueue(written, instrument);
    return ok({ existing: false, orders: await this.views(ids) });
  }

  /** Asks the venue to cancel a working order; the venue's event confirms it. */
  async cancelOrder(clientOrderId: string): Promise<Result<OmsOrderView, OrderEventError>> {
    const applied = await this.apply(clientOrderId, { type: 'cancel-requested' });
    if (!applied.ok) return applied;
    const view = (await this.views([clientOrderId]))[0];
    if (view === undefined) throw new Error(`order ${clientOrderId} vanished`);
    return ok(view);
  }

  /**
   * Asks the venue to cancel an order that is still working; one that has ended (filled, cancelled,
   * rejected) is left as it is. One read of the row, then the event as `apply` writes it: the
   * caller needs no look at the order first. False when the order had ended.
   */
  cancelIfWorking(clientOrderId: string): Promise<Result<boolean, OrderEventError>> {
    return this.locks.run(clientOrderId, async () => {
      const [stored] = await ordersByIds(this.pool, [clientOrderId]);
      if (stored === undefined) throw new Error(`no order ${clientOrderId}`);
      if (isFinalStatus(stored.order.status)) return ok(false);
      const applied = (await this.applyWithoutFill(clientOrderId, { type: 'cancel-requested' }, stored)) ?? await this.applyLocked(clientOrderId, { type: 'cancel-requested' });
      return applied.ok ? ok(true) : applied;
    });
  }

  /**
   * Moves a working order's price and/or trigger at the venue, then on its row (order-modify.ts):
   * the order as stored afterwards, or every reason it was not modified.
   * @example await oms.modifyOrder({ clientOrderId, triggerPricePaise: 2_598_000 })
   */
  modifyOrder(request: ModifyOrderRequest): Promise<Result<OmsOrderView, readonly OmsModifyIssue[]>> {
    const context = {
      pool: this.pool, userId: this.userId, venue: this.venue, scheduler: this.scheduler, timeoutMs: this.sendTimeoutMs,
      instrument: (instrumentId: number) => this.instrument(instrumentId),
    };
    return this.locks.run(String(request.clientOrderId), async () => {
      const modified = await modifyWorkingOrder(context, request);
      return modified.ok ? ok(viewOf(modified.value)) : modified;
    });
  }

  /** Marks a run's position at a price (the runner calls it at bar closes): unrealised and day P&L follow. */
  async markToMarket(request: { readonly runId: string; readonly instrumentId: number; readonly pricePaise: number }): Promise<void> {
    await markPosition(this.pool, { ...request, atMs: this.scheduler.now() });
  }

  /** The orders with these client order ids, as stored now. */
  async views(clientOrderIds: readonly string[]): Promise<OmsOrderView[]> {
    return (await ordersByIds(this.pool, clientOrderIds)).map(viewOf);
  }

  /**
   * Applies one event to an order: one transaction on its locked row (fills with their position
   * and daily_pnl, the row, an audit row), then the effects that reach out (asking the venue).
   */
  apply(clientOrderId: string, event: OrderEvent): Promise<Result<readonly OrderEffect[], OrderEventError>> {
    return this.locks.run(clientOrderId, async () => (await this.applyWithoutFill(clientOrderId, event)) ?? this.applyLocked(clientOrderId, event));
  }

  /**
   * An event that records no fill (a cancel asked for or confirmed, an acknowledgement), applied
   * by reading the row and writing it back only if it did not move meanwhile (a compare-and-set,
   * as `applyToSent`): two statements where the locked transaction takes four, which is what an
   * exit waits for when it cancels its stop and target first. Undefined when the locked
   * transaction must decide: a fill, an event the order refuses (audited there), the row moved.
   */
  private async applyWithoutFill(clientOrderId: string, event: OrderEvent, read?: StoredOrder): Promise<Result<readonly OrderEffect[], OrderEventError> | undefined> {
    if (event.type === 'fill' || event.type === 'venue-report') return undefined;
    const stored = read ?? (await ordersByIds(this.pool, [clientOrderId]))[0];
    if (stored === undefined) return undefined;
    const result = applyOrderEvent(stored.order, event);
    if (!result.ok || result.value.effects.some((effect) => effect.kind === 'record-fill')) return undefined;
    const next = result.value.order;
    if (result.value.changed) {
      const written = await writeOrder(this.pool, {
        orderId: stored.orderId, order: next, onlyIfStill: stored.order, audit: this.auditOf(stored, next, `order.${event.type}`),
      });
      if (!written) return undefined;
    }
    this.afterEffects(next, { effects: result.value.effects, squareOff: stored.squareOff });
    this.forgetIfFinished(next);
    return ok(result.value.effects);
  }

  /** True when nothing this OMS started is still running (a venue's undelivered events aside: ask the venue). */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  /**
   * Resolves when nothing this OMS started (sends, events, lookups) is still running, and the
   * venue has handed over every event it already decided (the paper venue's immediate market fills).
   */
  async settled(): Promise<void> {
    for (;;) {
      await this.venue.settled?.();
      // A delivered event is tracked at once, so nothing pending here means nothing left to wait for.
      if (this.pending.size === 0) return;
      while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
      await this.venueChain;
    }
  }

  /** Stops listening to the venue and the queue's timer; waits for work in progress. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    for (const closer of this.closers.splice(0)) closer();
    this.timer?.abort.abort();
    await this.settled();
  }

  /** Puts sent-never orders (rows written, no `submitted_at`) in the rate queue and sends those that may leave now. */
  async enqueue(rows: readonly StoredOrder[], instrument?: OmsInstrument): Promise<void> {
    const now = this.scheduler.now();
    const waiting: string[] = [];
    for (const row of rows) {
      const id = row.order.clientOrderId;
      if (row.order.status !== 'PENDING_SUBMIT' || row.order.submittedAtMs !== undefined || this.queued.has(id)) continue;
      const contract = instrument ?? await this.instrument(row.instrumentId);
      if (contract === undefined) throw new Error(`order ${id} names instrument ${row.instrumentId}, which does not exist`);
      const key = orderRateKey({ userId: this.userId, segment: contract.exchange });
      this.rateKeys.add(key);
      const queued = this.queue.enqueue({ key, item: { clientOrderId: id, squareOff: row.squareOff }, atMs: now });
      if (!queued.ok) throw new Error(queued.error);
      this.queued.add(id);
      waiting.push(id);
    }
    const leaving = this.release(now);
    const stillWaiting = waiting.filter((id) => !leaving.includes(id));
    if (stillWaiting.length > 0) await this.markQueued(stillWaiting);
    const known = new Map(rows.map((row) => [row.order.clientOrderId as string, row]));
    await this.sendInOrder(leaving, known);
    this.armTimer();
  }

  /**
   * Whether a decision's one slice may leave as soon as its row is written (`leaves`): no kill
   * switch holds it and the rate queue lets it go now, counted as departed. Otherwise it is taken
   * back out of the queue, to be written unsent and queued behind the account's waiting orders.
   * `others`: orders of the account that fell due meanwhile, to be sent now either way.
   */
  private departNow(request: { readonly clientOrderId: string; readonly instrument: OmsInstrument; readonly squareOff: boolean; readonly nowMs: number }): { leaves: boolean; others: string[] } {
    const { clientOrderId, squareOff, nowMs } = request;
    const kill = this.killSwitches.stateFor(this.userId);
    const key = orderRateKey({ userId: this.userId, segment: request.instrument.exchange });
    this.rateKeys.add(key);
    if ((kill.user || kill.global) && !squareOff) return { leaves: false, others: [] };
    const queued = this.queue.enqueue({ key, item: { clientOrderId, squareOff }, atMs: nowMs });
    if (!queued.ok) throw new Error(queued.error);
    this.queued.add(clientOrderId);
    const leaving = this.release(nowMs);
    const leaves = leaving.includes(clientOrderId);
    if (!leaves) {
      this.queue.withdraw(key, (entry) => entry.clientOrderId === clientOrderId);
      this.queued.delete(clientOrderId);
    }
    return { leaves, others: leaving.filter((id) => id !== clientOrderId) };
  }

  /** Places an order whose row was written with its send started (`departNow`); resolves once the venue's answer is applied. */
  private async sendWritten(stored: StoredOrder): Promise<void> {
    let markCalled: () => void = () => undefined;
    const called = new Promise<void>((resolve) => {
      markCalled = resolve;
    });
    const sending = this.track(this.locks.run(stored.order.clientOrderId, () => this.placeAndAnswer({ stored, order: stored.order }, markCalled)));
    await Promise.race([called, sending.catch(() => undefined)]);
    this.armTimer();
    await sending;
  }

  /** Takes every waiting order of this account that is not a square-off out of the queue. */
  withdrawQueued(): string[] {
    const taken: string[] = [];
    for (const key of this.rateKeys) {
      for (const item of this.queue.withdraw(key, (entry) => !entry.squareOff)) {
        this.queued.delete(item.clientOrderId);
        taken.push(item.clientOrderId);
      }
    }
    return taken;
  }

  /** Keeps a promise in `pending` until it settles (`settled()` waits for it); failures are logged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.then(() => this.pending.delete(work), (error: unknown) => {
      this.pending.delete(work);
      this.log(`oms: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    });
    return work;
  }

  async instrument(instrumentId: number): Promise<OmsInstrument | undefined> {
    const known = this.instruments.get(instrumentId);
    if (known !== undefined) return known;
    const read = await readInstrument(this.pool, instrumentId);
    if (read !== undefined) this.instruments.set(instrumentId, read);
    return read;
  }

  private async continueDecision(request: PlaceOrderRequest, found: readonly StoredOrder[]): Promise<Result<PlacedDecision, readonly OmsIssue[]>> {
    const mismatch = mismatchOf(found, request);
    if (mismatch !== undefined) return err([mismatch]);
    await this.enqueue(found);
    return ok({ existing: true, orders: await this.views(found.map((row) => row.order.clientOrderId)) });
  }

  private release(now: number): string[] {
    return this.queue.releaseDue(now).map((departure) => {
      this.queued.delete(departure.item.clientOrderId);
      return departure.item.clientOrderId;
    });
  }

  private async markQueued(ids: readonly string[]): Promise<void> {
    const expected = new Map<string, number>();
    for (const key of this.rateKeys) for (const entry of this.queue.waiting(key)) expected.set(entry.item.clientOrderId, entry.expectedDepartureMs);
    await this.pool.query(
      `UPDATE orders o SET queued_until = to_timestamp(t.due / 1000), status_message = $3
       FROM unnest($1::text[], $2::float8[]) AS t(id, due)
       WHERE o.client_order_id = t.id AND o.status = 'PENDING_SUBMIT' AND o.submitted_at IS NULL`,
      [ids, ids.map((id) => expected.get(id) ?? this.scheduler.now()), QUEUED_MESSAGE]);
  }

  /** One timer for the queue: at its next due time, release and send. */
  private armTimer(): void {
    const due = this.queue.nextDueMs();
    if (due === undefined || this.closed) return;
    if (this.timer !== undefined && this.timer.due <= due) return;
    this.timer?.abort.abort();
    const abort = new AbortController();
    this.timer = { due, abort };
    void this.scheduler.sleepUntil(due, abort.signal).then(() => {
      if (abort.signal.aborted) return;
      this.timer = undefined;
      const leaving = this.release(this.scheduler.now());
      void this.track(this.sendInOrder(leaving));
      this.armTimer();
    });
  }

  /**
   * Sends orders in queue order: each `venue.place` is called after the previous one was called
   * (not answered), so the venue receives them first-in-first-out; resolves when all are answered.
   */
  private async sendInOrder(ids: readonly string[], known?: ReadonlyMap<string, StoredOrder>): Promise<void> {
    const sending: Promise<void>[] = [];
    for (const id of ids) {
      let markCalled: () => void = () => undefined;
      const called = new Promise<void>((resolve) => {
        markCalled = resolve;
      });
      const one = this.track(this.send(id, markCalled, known?.get(id)));
      sending.push(one);
      await Promise.race([called, one.catch(() => undefined)]);
    }
    await Promise.all(sending);
  }

  /**
   * Sends one order: `submitted_at` written, then `venue.place`, then its answer through the state
   * machine. `known` is the row as this OMS just wrote or read it: then `submitted_at` is written by
   * one compare-and-set statement instead of a transaction on the locked row.
   */
  private send(clientOrderId: string, called: () => void, known?: StoredOrder): Promise<void> {
    return this.locks.run(clientOrderId, async () => {
      const started = (known === undefined ? undefined : await this.startKnownSend(known)) ?? await this.startLockedSend(clientOrderId);
      if (started === undefined) return;
      await this.placeAndAnswer(started, called);
    });
  }

  /** `venue.place` of an order whose send started (`submitted_at` written), then its answer through the state machine; the caller holds the order's lock. */
  private async placeAndAnswer(started: { stored: StoredOrder; order: OmsOrder }, called: () => void): Promise<void> {
    const clientOrderId = started.order.clientOrderId;
    chaosPoint('after-write-before-send');
    const outcome = await this.placeWithTimeout(started.stored, started.order, called);
    chaosPoint('after-send-before-ack');
    if (outcome.kind === 'accepted') this.sentByBrokerId.set(outcome.brokerOrderId, clientOrderId);
    const event: OrderEvent = outcome.kind === 'accepted' ? { type: 'accepted', brokerOrderId: outcome.brokerOrderId, status: outcome.status }
      : outcome.kind === 'rejected' ? { type: 'rejected', reason: outcome.reason }
        : outcome.kind === 'timeout' ? { type: 'send-timeout' } : { type: 'send-failed-unknown', reason: outcome.reason };
    if (await this.applyToSent(started, event)) return;
    await this.applyLocked(clientOrderId, event);
  }

  /**
   * The venue's answer to a send, written by one compare-and-set statement on the row as the send
   * left it (this process holds the order's lock, so only another process could have moved it):
   * false when the row moved or the answer records a fill, and the locked transaction decides.
   */
  private async applyToSent(sent: { stored: StoredOrder; order: OmsOrder }, event: OrderEvent): Promise<boolean> {
    const result = applyOrderEvent(sent.order, event);
    if (!result.ok || result.value.effects.some((effect) => effect.kind === 'record-fill')) return false;
    const next = result.value.order;
    if (result.value.changed) {
      const written = await writeOrder(this.pool, {
        orderId: sent.stored.orderId, order: next, onlyIfStill: sent.order,
        audit: this.auditOf({ ...sent.stored, order: sent.order }, next, `order.${event.type}`),
      });
      if (!written) return false;
    }
    this.afterEffects(next, { effects: result.value.effects, squareOff: sent.stored.squareOff });
    this.forgetIfFinished(next);
    return true;
  }

  /**
   * `submitted_at` of an order whose row this OMS holds, written only while the row is still
   * unsent (PENDING_SUBMIT, no `submitted_at`): the guard in the UPDATE is what the row lock gives
   * the locked path, so an order is still sent at most once. Undefined when that path must decide
   * instead: the row moved meanwhile (sent, cancelled), or a kill switch is on.
   */
  private async startKnownSend(known: StoredOrder): Promise<{ stored: StoredOrder; order: OmsOrder } | undefined> {
    if (known.order.status !== 'PENDING_SUBMIT' || known.order.submittedAtMs !== undefined) return undefined;
    const kill = this.killSwitches.stateFor(known.userId);
    if ((kill.user || kill.global) && !known.squareOff) return undefined;
    const { statusMessage: _queued, ...order } = known.order;
    const result = applyOrderEvent(order, { type: 'send-started', atMs: this.scheduler.now() });
    if (!result.ok) return undefined;
    const written = await writeOrder(this.pool, {
      orderId: known.orderId, order: result.value.order, onlyIfUnsent: true, audit: this.auditOf(known, result.value.order, 'order.send-started'),
    });
    return written ? { stored: known, order: result.value.order } : undefined;
  }

  /** `submitted_at` written on the locked row, or the order withdrawn when a kill switch holds it; undefined when it must not leave. */
  private startLockedSend(clientOrderId: string): Promise<{ stored: StoredOrder; order: OmsOrder } | undefined> {
    return inTransaction(this.pool, async (client) => {
      const stored = await lockOrder(client, clientOrderId);
      // Sent already, or ended: never sent twice.
      if (stored === undefined || stored.order.status !== 'PENDING_SUBMIT' || stored.order.submittedAtMs !== undefined) return undefined;
      const { statusMessage: _queued, ...order } = stored.order;
      const kill = this.killSwitches.stateFor(stored.userId);
      if ((kill.user || kill.global) && !stored.squareOff) {
        const withdrawn = applyOrderEvent(order, { type: 'cancel-requested' });
        if (!withdrawn.ok) throw new Error(withdrawn.error.message);
        await this.writeEvent(client, stored, { order: { ...withdrawn.value.order, statusMessage: KILL_SWITCH_WITHDRAWN }, action: 'order.withdrawn' });
        return undefined;
      }
      const result = applyOrderEvent(order, { type: 'send-started', atMs: this.scheduler.now() });
      if (!result.ok) throw new Error(result.error.message);
      await this.writeEvent(client, stored, { order: result.value.order, action: 'order.send-started' });
      return { stored, order: result.value.order };
    });
  }

  private async placeWithTimeout(stored: StoredOrder, order: OmsOrder, called: () => void): Promise<PlaceOutcome> {
    const instrument = this.instruments.get(stored.instrumentId) ?? await this.instrument(stored.instrumentId);
    if (instrument === undefined) throw new Error(`instrument ${stored.instrumentId} vanished`);
    const abort = new AbortController();
    const timeout = this.scheduler.sleepUntil(this.scheduler.now() + this.sendTimeoutMs, abort.signal)
      .then((): PlaceOutcome => ({ kind: 'timeout' }));
    const placed = this.venue.place({
      clientOrderId: order.clientOrderId, tag: venueTagOf(order), instrumentKey: order.instrumentKey, exchange: instrument.exchange,
      tradingSymbol: instrument.tradingSymbol, side: order.side, quantity: order.quantity, orderType: order.orderType, product: stored.product,
      ...(order.pricePaise === undefined ? {} : { pricePaise: order.pricePaise }),
      ...(order.triggerPricePaise === undefined ? {} : { triggerPricePaise: order.triggerPricePaise }),
      ...(stored.algoId === null ? {} : { algoId: stored.algoId }),
    }).catch((error: unknown): PlaceOutcome => ({ kind: 'unknown', reason: error instanceof Error ? error.message : String(error) }));
    called();
    try {
      return await Promise.race([placed, timeout]);
    } finally {
      abort.abort();
    }
  }

  private async applyLocked(clientOrderId: string, event: OrderEvent): Promise<Result<readonly OrderEffect[], OrderEventError>> {
    const outcome = await inTransaction(this.pool, async (client) => {
      const stored = await lockOrder(client, clientOrderId);
      if (stored === undefined) throw new Error(`no order ${clientOrderId}`);
      const result = applyOrderEvent(stored.order, event);
      if (!result.ok) {
        if (result.error.code !== 'absence-too-early') {
          await auditOrder(client, { action: 'order.event-refused', clientOrderId, actorUserId: null, after: { event, error: result.error } });
        }
        return { result: err(result.error), stored, next: stored.order };
      }
      if (!result.value.changed) return { result: ok(result.value.effects), stored, next: stored.order };
      const run = this.runs.get(stored.runId);
      for (const effect of result.value.effects) {
        if (effect.kind !== 'record-fill') continue;
        if (run === undefined) throw new Error(`a fill of order ${clientOrderId} arrived for run ${stored.runId}, which is not attached to this OMS`);
        await recordFill(client, {
          orderId: stored.orderId, runId: stored.runId, instrumentId: stored.instrumentId, side: stored.order.side, fill: effect.fill,
          charges: run.chargesByInstrument?.get(stored.instrumentId) ?? run.charges,
        });
      }
      await this.writeEvent(client, stored, { order: result.value.order, action: `order.${event.type}` });
      return { result: ok(result.value.effects), stored, next: result.value.order };
    });
    if (outcome.result.ok) this.afterEffects(outcome.next, { effects: outcome.result.value, squareOff: outcome.stored.squareOff });
    this.forgetIfFinished(outcome.next);
    return outcome.result;
  }

  /** A finished order's broker id leaves the map of working orders (a late event of it is looked up). */
  private forgetIfFinished(order: OmsOrder): void {
    if (order.brokerOrderId !== undefined && isFinalStatus(order.status)) this.sentByBrokerId.delete(order.brokerOrderId);
  }

  private async writeEvent(client: pg.PoolClient, stored: StoredOrder, change: { readonly order: OmsOrder; readonly action: string }): Promise<void> {
    await writeOrder(client, { orderId: stored.orderId, order: change.order, audit: this.auditOf(stored, change.order, change.action) });
  }

  /** The audit row of an order's change. */
  private auditOf(stored: StoredOrder, next: OmsOrder, action: string): OrderAuditEntry {
    return {
      action, clientOrderId: stored.order.clientOrderId, actorUserId: null,
      before: auditView(stored.order), after: { ...auditView(next), fills: next.fills.length },
    };
  }

  /** The effects that reach outside the transaction: looking an UNKNOWN order up, cancelling at the venue. */
  private afterEffects(order: OmsOrder, after: { readonly effects: readonly OrderEffect[]; readonly squareOff: boolean }): void {
    for (const effect of after.effects) {
      if (effect.kind === 'resolve-with-venue') void this.track(this.resolveUnknown(order.clientOrderId));
      if (effect.kind === 'cancel-at-venue') void this.track(this.cancelAtVenue(order.clientOrderId, effect.brokerOrderId));
    }
    // An order found working while a kill switch is on (an UNKNOWN resolved late) is cancelled too.
    const kill = this.killSwitches.stateFor(this.userId);
    if ((kill.user || kill.global) && !after.squareOff && ['SUBMITTED', 'OPEN', 'PARTIALLY_FILLED'].includes(order.status)) {
      void this.track(this.cancelOrder(order.clientOrderId));
    }
  }

  /** An UNKNOWN order looked up at the venue by its tag; its absence counts only 10 s after the send. */
  async resolveUnknown(clientOrderId: string): Promise<void> {
    const [stored] = await ordersByIds(this.pool, [clientOrderId]);
    if (stored === undefined || stored.order.status !== 'UNKNOWN') return;
    let report: Awaited<ReturnType<VenuePort['orderByTag']>>;
    try {
      report = await this.venue.orderByTag(venueTagOf(stored.order));
    } catch (error) {
      // The venue could not be read (a broker's 429, a dropped connection): the order stays UNKNOWN and is asked about again.
      this.log(`oms: looking up ${clientOrderId} at the venue failed (${(error as Error).message}); asking again in ${LOOKUP_RETRY_MS / 1000} s`);
      if (!this.closed) {
        void this.scheduler.sleepUntil(this.scheduler.now() + LOOKUP_RETRY_MS).then(() => {
          if (!this.closed) void this.track(this.resolveUnknown(clientOrderId));
        });
      }
      return;
    }
    const event: OrderEvent = report === undefined ? { type: 'venue-absent', checkedAtMs: this.scheduler.now() } : { type: 'venue-report', report };
    const result = await this.apply(clientOrderId, event);
    if (!result.ok && result.error.code === 'absence-too-early' && stored.order.submittedAtMs !== undefined && !this.closed) {
      const at = stored.order.submittedAtMs + ABSENCE_GRACE_MS;
      void this.scheduler.sleepUntil(at).then(() => {
        if (!this.closed) void this.track(this.resolveUnknown(clientOrderId));
      });
    }
  }

  private async cancelAtVenue(clientOrderId: string, brokerOrderId: string): Promise<void> {
    const outcome = await this.venue.cancel({ brokerOrderId });
    if (outcome.kind === 'refused') await this.apply(clientOrderId, { type: 'cancel-rejected', reason: outcome.reason });
  }

  /** Venue events are handled one after another, in the order the venue sent them. */
  private onVenueEvent(event: VenueEvent): void {
    if (this.closed) return;
    const next = this.venueChain.then(async () => {
      const id = this.sentByBrokerId.get(event.brokerOrderId)
        ?? await clientOrderIdForVenue(this.pool, { brokerOrderId: event.brokerOrderId, userId: this.userId, ...(event.tag === undefined ? {} : { tag: event.tag }) });
      if (id === undefined) {
        this.log(`oms: venue event for an order this account does not have: ${JSON.stringify(event)}`);
        return;
      }
      await this.apply(id, orderEventOf(event));
    });
    this.venueChain = next.catch((error: unknown) => this.log(`oms: venue event failed: ${String(error)}`));
    void this.track(this.venueChain);
  }
}
