// The followers of one publisher's paper run: each ACTIVE, unexpired subscription of the published
// strategy gets a follower run of its own (a PAPER strategy_runs row of the subscriber, no
// strategy of its own, params.follows naming the publisher's run and the subscription) whose
// orders copy the publisher's, sized by the subscription (follow-sizing.ts).
//
// Invariants:
// - One kernel. The publisher's kernel decides every entry, exit, stop, target and trailing move;
//   the desk hears them through `RunMirror` (paper-run.ts calls it) and places scaled copies. A
//   follower never runs the algorithm.
// - Same market. Each follower has its own OMS (the subscriber's account: their kill switch, their
//   risk checks, their daily P&L) on its own paper venue, and the desk gives that venue every tick
//   the publisher's venue got, at the same market clock, before the copies of the orders decided
//   on that tick: a copy fills at the publisher's price and time, and a copied stop or target
//   fills on the same tick as the publisher's.
// - Isolation. A follower's refusal (its kill switch, a risk check) or failure is logged for that
//   follower and skipped; the publisher and the other followers go on. A follower that missed an
//   entry holds nothing, so the exit, stop and target copies that follow skip it too (they close
//   what the follower holds, read from its positions, never the publisher's size).
// - Joining. A follower run opens at the first entry the publisher decides while its
//   subscription follows; a subscription created mid-trade does not buy into a position the
//   publisher opened earlier (at an older price, sized for another moment).
// - Pausing and leaving. A paused subscription places no new entries; what it holds still follows
//   the publisher's exits and protective orders. A subscription turned inactive (unsubscribed),
//   expired or deleted has its follower's working copies cancelled, what it holds squared off at
//   the last price, and its run ended. Subscriptions are read again at every entry and, at most
//   once a second of wall time, at bar opens.
// - Restarts. A copy takes the publisher's decision number in the follower's run, so a publisher
//   run resumed after a crash (decisions answered from their rows) finds each copy stored and
//   sends nothing twice; the follower runs still IN PROGRESS under the publisher's run are opened
//   again. The strategy runners' take-over scan leaves follower runs alone (they run inside their
//   publisher's run).
import { chargeModelOf } from '@vyuha/engine';
import type { ChargesConfig, ChargeModel, FeedTick, OrderSide, SlippageModel } from '@vyuha/engine';
import type pg from 'pg';
import type { ManualScheduler } from '../feeds/scheduler';
import { KillSwitchWatch } from '../kill-switch-watch';
import type { Oms } from '../oms/oms';
import { recoverOms } from '../oms/oms-recovery';
import { openOms } from '../oms/open-oms';
import { PaperVenue } from '../paper/paper-venue';
import { followerQuantity, followSizingOf } from './follow-sizing';
import type { FollowSizing } from './follow-sizing';
import type { MirroredOrder, RunMirror } from './run-mirror';

export interface FollowerDeskOptions {
  readonly pool: pg.Pool;
  readonly publisherRunId: string;
  /** The published strategy whose subscriptions follow. */
  readonly strategyId: string;
  /** The publisher's market clock: the followers' OMSs and venues run on it too. */
  readonly clock: ManualScheduler;
  readonly killSwitches: KillSwitchWatch;
  /** The publisher's matching rules (tick size, slippage): the same fills. */
  readonly rules: { readonly tickSizePaise: number; readonly slippage: SlippageModel };
  /** The charge model the followers' fills are charged with (the publisher's backtest's). */
  readonly charges: ChargesConfig;
  readonly log?: ((message: string) => void) | undefined;
  /** Wall time between reads of the subscriptions at bar opens, ms (default 1 s). */
  readonly refreshMs?: number;
}

interface SubscriptionState {
  readonly subscriptionId: string;
  readonly userId: string;
  readonly sizing: FollowSizing;
  readonly paused: boolean;
  /** Active and not expired. */
  readonly following: boolean;
}

interface Follower {
  readonly subscriptionId: string;
  readonly userId: string;
  readonly runId: string;
  readonly oms: Oms;
  readonly venue: PaperVenue;
  /** The publisher's client order id -> this follower's copy. */
  readonly copies: Map<string, { readonly clientOrderId: string; readonly instrumentId: number }>;
  /** Orders the follower decides itself (its square-off when it leaves): numbered far above the publisher's. */
  ownDecision: number;
  /** Copies the follower's OMS refused (its own risk checks). */
  refused: number;
}

/** The first decision number a follower uses for orders of its own: beyond any run's own count. */
const OWN_DECISIONS_FROM = 100_000_000;

export class FollowerDesk implements RunMirror {
  private readonly followers = new Map<string, Follower>();
  private subscriptions = new Map<string, SubscriptionState>();
  private readonly lastPrices = new Map<number, number>();
  /** The latest tick of each traded instrument: a new follower's venue starts from it, as the publisher's venue stands. */
  private readonly lastTicks = new Map<number, FeedTick>();
  private readonly chargeModel: ChargeModel;
  private refreshedAt = Number.NEGATIVE_INFINITY;

  private constructor(private readonly options: FollowerDeskOptions) {
    this.chargeModel = chargeModelOf(options.charges);
  }

  /**
   * The desk of a publisher's run: its follower runs still in progress opened again, the
   * subscriptions read.
   * @example const desk = await FollowerDesk.open({ pool, publisherRunId, strategyId, clock, killSwitches, rules, charges });
   */
  static async open(options: FollowerDeskOptions): Promise<FollowerDesk> {
    const desk = new FollowerDesk(options);
    const { rows } = await options.pool.query<{ run_id: string; user_id: string; subscription_id: string }>(
      `SELECT run_id, user_id, params -> 'follows' ->> 'subscriptionId' AS subscription_id FROM strategy_runs
       WHERE params ? 'follows' AND params -> 'follows' ->> 'publisherRunId' = $1 AND status = 'IN PROGRESS'`, [options.publisherRunId]);
    for (const row of rows) await desk.openFollower({ subscriptionId: row.subscription_id, userId: row.user_id, runId: row.run_id });
    await desk.refresh();
    return desk;
  }

  /** The follower runs open now, by subscription id. */
  get followerRuns(): ReadonlyMap<string, string> {
    return new Map([...this.followers.values()].map((follower) => [follower.subscriptionId, follower.runId]));
  }

  tick(tick: FeedTick, jump: boolean): Promise<void> | undefined {
    this.lastPrices.set(tick.instrumentId, tick.price);
    this.lastTicks.set(tick.instrumentId, tick);
    const refreshDue = jump && Date.now() - this.refreshedAt >= (this.options.refreshMs ?? 1_000);
    if (this.followers.size === 0 && !refreshDue) return undefined;
    const followers = [...this.followers.values()];
    for (const follower of followers) follower.venue.onTick(tick, { jump });
    return (async () => {
      await Promise.all(followers.map((follower) => this.guard(follower, 'a tick', () => follower.oms.settled())));
      if (refreshDue) await this.refresh();
    })();
  }

  async placed(order: MirroredOrder): Promise<void> {
    if (order.role === 'market' && !order.squareOff) {
      await this.refresh();
      const joining = [...this.subscriptions.values()].filter((subscription) => subscription.following && !subscription.paused);
      await Promise.all(joining.map(async (subscription) => {
        const follower = this.followers.get(subscription.subscriptionId) ?? await this.startFollower(subscription);
        await this.guard(follower, `entry ${order.decision}`, () => this.copyEntry(follower, subscription.sizing, order));
      }));
      return;
    }
    await Promise.all([...this.followers.values()].map((follower) => this.guard(follower, `${order.role} ${order.decision}`, () => this.copyExit(follower, order))));
  }

  async modified(clientOrderId: string, triggerPricePaise: number): Promise<void> {
    await Promise.all([...this.followers.values()].map((follower) => this.guard(follower, 'a trailing stop', async () => {
      const copy = follower.copies.get(clientOrderId);
      if (copy === undefined) return;
      const reference = this.lastPrices.get(copy.instrumentId);
      const moved = await follower.oms.modifyOrder({ clientOrderId: copy.clientOrderId, triggerPricePaise, ...(reference === undefined ? {} : { referencePricePaise: reference }) });
      if (!moved.ok) this.note(follower, `its stop ${copy.clientOrderId} did not move to ${triggerPricePaise} paise: ${moved.error.map((issue) => issue.message).join('; ')}`);
      await follower.oms.settled();
    })));
  }

  async cancelled(clientOrderIds: readonly string[]): Promise<void> {
    await Promise.all([...this.followers.values()].map((follower) => this.guard(follower, 'a cancellation', async () => {
      for (const id of clientOrderIds) {
        const copy = follower.copies.get(id);
        if (copy !== undefined) await follower.oms.cancelIfWorking(copy.clientOrderId);
      }
      await follower.oms.settled();
    })));
  }

  async marked(instrumentId: number, pricePaise: number): Promise<void> {
    await Promise.all([...this.followers.values()].map((follower) => this.guard(follower, 'a mark',
      () => follower.oms.markToMarket({ runId: follower.runId, instrumentId, pricePaise }))));
  }

  /**
   * The publisher's run is over ('ended': each follower run ends COMPLETE, holding what the
   * publisher's last orders left it) or handed over ('released': the follower runs stay in
   * progress for whoever resumes the publisher's run). Either way the followers' OMSs close.
   */
  async close(how: 'ended' | 'released', reason?: string): Promise<void> {
    const followers = [...this.followers.values()];
    this.followers.clear();
    await Promise.all(followers.map(async (follower) => {
      await follower.oms.settled().catch(() => undefined);
      await follower.oms.close().catch(() => undefined);
      if (how === 'ended') await this.endRun(follower, 'COMPLETE', reason ?? this.endNote(follower, 'the followed run ended'));
    }));
  }

  /** Reads the strategy's subscriptions; a follower whose subscription stopped following leaves. */
  async refresh(): Promise<void> {
    this.refreshedAt = Date.now();
    const { rows } = await this.options.pool.query<{
      subscription_id: string; user_id: string; sizing: string; quantity: number; investment_amt_paise: string; investment_history: unknown; paused: boolean; following: boolean;
    }>(
      `SELECT subscription_id, user_id, sizing, quantity, investment_amt_paise::text, investment_history, paused,
              active AND (expires_at IS NULL OR expires_at > now()) AS following
       FROM subscriptions WHERE strategy_id = $1`, [this.options.strategyId]);
    this.subscriptions = new Map(rows.map((row) => [row.subscription_id, {
      subscriptionId: row.subscription_id, userId: row.user_id, sizing: followSizingOf(row), paused: row.paused, following: row.following,
    }]));
    const leaving = [...this.followers.values()].filter((follower) => this.subscriptions.get(follower.subscriptionId)?.following !== true);
    await Promise.all(leaving.map((follower) => this.leave(follower)));
  }

  private async copyEntry(follower: Follower, sizing: FollowSizing, order: MirroredOrder): Promise<void> {
    const instrument = await follower.oms.instrument(order.instrumentId);
    const price = this.lastPrices.get(order.instrumentId);
    if (instrument === undefined || price === undefined) {
      this.note(follower, `entry ${order.decision} skipped: no price of instrument ${order.instrumentId} yet`);
      return;
    }
    const quantity = followerQuantity({
      sizing, instrument, pricePaise: price, side: order.side === 'BUY' ? 'buy' : 'sell', atMs: this.options.clock.now(), chargeModel: this.chargeModel,
    });
    if (quantity <= 0) {
      this.note(follower, `entry ${order.decision} skipped: the investment does not buy one ${instrument.lotSize > 1 ? 'lot' : 'unit'}`);
      return;
    }
    await this.place(follower, { order, quantity, side: order.side });
  }

  /** An exit, stop or target: sized by what the follower holds of the instrument, on the side that reduces it. */
  private async copyExit(follower: Follower, order: MirroredOrder): Promise<void> {
    await follower.oms.settled();
    const held = await this.heldOf(follower, order.instrumentId);
    const reducing: OrderSide = held > 0 ? 'SELL' : 'BUY';
    if (held === 0 || reducing !== order.side) return;
    await this.place(follower, { order, quantity: Math.abs(held), side: reducing });
  }

  private async place(follower: Follower, request: { readonly order: MirroredOrder; readonly quantity: number; readonly side: OrderSide; readonly decision?: number }): Promise<void> {
    const { order } = request;
    const reference = this.lastPrices.get(order.instrumentId);
    const decision = request.decision ?? order.decision;
    const placed = await follower.oms.placeOrder({
      runId: follower.runId, decision, instrumentId: order.instrumentId, side: request.side, quantity: request.quantity,
      orderType: order.orderType, product: order.product, squareOff: order.squareOff,
      ...(order.triggerPricePaise === undefined ? {} : { triggerPricePaise: order.triggerPricePaise }),
      ...(order.pricePaise === undefined ? {} : { pricePaise: order.pricePaise }),
      ...(reference === undefined ? {} : { referencePricePaise: reference }),
    });
    if (!placed.ok) {
      follower.refused += 1;
      this.note(follower, `decision ${decision} refused: ${placed.error.map((issue) => issue.message).join('; ')}`);
      return;
    }
    const copy = placed.value.orders[0];
    if (copy !== undefined) follower.copies.set(order.clientOrderId, { clientOrderId: copy.clientOrderId, instrumentId: order.instrumentId });
    await follower.oms.settled();
  }

  /** Units the follower's run holds of an instrument (its positions row, written by its OMS's fills). */
  private async heldOf(follower: Follower, instrumentId: number): Promise<number> {
    const { rows } = await this.options.pool.query<{ net_quantity: number }>(
      'SELECT net_quantity FROM positions WHERE run_id = $1 AND instrument_id = $2', [follower.runId, instrumentId]);
    return rows[0]?.net_quantity ?? 0;
  }

  /** Unsubscribed, expired or deleted: working copies cancelled, holdings squared off, the run ended. */
  private async leave(follower: Follower): Promise<void> {
    this.followers.delete(follower.subscriptionId);
    let closed = 0;
    await this.guard(follower, 'leaving', async () => {
      for (const copy of follower.copies.values()) await follower.oms.cancelIfWorking(copy.clientOrderId);
      await follower.oms.settled();
      const { rows } = await this.options.pool.query<{ instrument_id: number; net_quantity: number }>(
        'SELECT instrument_id, net_quantity FROM positions WHERE run_id = $1 AND net_quantity <> 0', [follower.runId]);
      for (const row of rows) {
        const side: OrderSide = row.net_quantity > 0 ? 'SELL' : 'BUY';
        const product = (await this.options.pool.query<{ product: string }>(
          'SELECT product FROM orders WHERE run_id = $1 AND instrument_id = $2 ORDER BY created_at DESC LIMIT 1', [follower.runId, row.instrument_id])).rows[0]?.product ?? 'MIS';
        const decision = follower.ownDecision;
        follower.ownDecision += 1;
        await this.place(follower, {
          order: { decision, clientOrderId: `leave-${decision}`, instrumentId: row.instrument_id, side, role: 'market', orderType: 'MARKET', squareOff: true, product },
          quantity: Math.abs(row.net_quantity), side, decision,
        });
        closed += Math.abs(row.net_quantity);
      }
    });
    await follower.oms.close().catch(() => undefined);
    await this.endRun(follower, closed > 0 ? 'COMPLETE: SQUARED OFF' : 'COMPLETE', this.endNote(follower, 'the subscription ended (unsubscribed or expired)'));
  }

  private endNote(follower: Follower, why: string): string {
    return follower.refused === 0 ? why : `${why}; ${follower.refused} order(s) were refused by this account's risk checks`;
  }

  private async endRun(follower: Follower, status: 'COMPLETE' | 'COMPLETE: SQUARED OFF', reason: string): Promise<void> {
    await this.options.pool.query(
      `UPDATE strategy_runs SET status = $2, status_reason = $3, progress = 100, finished_at = greatest(now(), started_at), lease_owner = NULL, heartbeat_at = NULL
       WHERE run_id = $1 AND status = 'IN PROGRESS'`, [follower.runId, status, reason]);
  }

  /** A follower run for a subscription joining at an entry. */
  private async startFollower(subscription: SubscriptionState): Promise<Follower> {
    const params = {
      mode: 'PAPER',
      follows: { publisherRunId: this.options.publisherRunId, subscriptionId: subscription.subscriptionId, strategyId: this.options.strategyId },
      sizing: subscription.sizing,
    };
    const { rows } = await this.options.pool.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (user_id, kind, status, params) VALUES ($1, 'PAPER', 'IN PROGRESS', $2) RETURNING run_id`,
      [subscription.userId, JSON.stringify(params)]);
    return this.openFollower({ subscriptionId: subscription.subscriptionId, userId: subscription.userId, runId: (rows[0] as { run_id: string }).run_id });
  }

  private async openFollower(request: { subscriptionId: string; userId: string; runId: string }): Promise<Follower> {
    const { pool, clock, killSwitches, rules, charges } = this.options;
    const { userId, runId } = request;
    const venue = await PaperVenue.open({ pool, userId, clock, runIds: [runId], rulesFor: () => rules });
    // A copy placed now must fill at the price the publisher's venue last saw, not at the next tick.
    for (const tick of this.lastTicks.values()) venue.onTick(tick, { jump: true });
    const log = this.options.log;
    const oms = openOms({ pool, userId, venue, scheduler: clock, killSwitches, venueScope: 'attached-runs', ...(log === undefined ? {} : { log }) });
    oms.attachRun({ runId, userId, strategyId: null, userBrokerId: null, algoId: null, charges });
    await recoverOms(oms);
    const { rows } = await pool.query<{ top: string | null }>(
      `SELECT max(split_part(client_order_id, '-', 6)::bigint / 10)::text AS top FROM orders WHERE run_id = $1`, [runId]);
    const top = rows[0]?.top == null ? -1 : Number(rows[0].top);
    const follower: Follower = {
      ...request, oms, venue, copies: new Map(), ownDecision: Math.max(OWN_DECISIONS_FROM, top + 1), refused: 0,
    };
    this.followers.set(request.subscriptionId, follower);
    return follower;
  }

  /** Runs one follower's part; its failure is logged and stays its own. */
  private async guard(follower: Follower, what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.note(follower, `${what} failed: ${(error as Error).message}`);
    }
  }

  private note(follower: Follower, message: string): void {
    this.options.log?.(`follower run ${follower.runId} (subscription ${follower.subscriptionId}): ${message}`);
  }
}

/**
 * Runs `work` with the desk of a publisher's run when its strategy can have followers (published,
 * or subscribed to already), and closes the desk as the run ends: ended when `work` returned a
 * finished run or threw an `isRunEnding` error, released otherwise (the run resumes elsewhere, its
 * followers with it). A strategy published while its run is in progress is followed from its next run.
 * @example await withFollowers(options, async (mirror) => playReplay(...), { released: (outcome) => outcome.released, isRunEnding })
 */
export async function withFollowers<T>(
  options: Omit<FollowerDeskOptions, 'strategyId' | 'killSwitches'> & { readonly strategyId: string | null; readonly killSwitches?: KillSwitchWatch | undefined },
  work: (mirror: RunMirror | undefined) => Promise<T>,
  ending: { readonly released: (result: T) => boolean; readonly isRunEnding: (error: unknown) => boolean },
): Promise<T> {
  const { strategyId, pool } = options;
  if (strategyId === null) return work(undefined);
  const { rows } = await pool.query<{ followed: boolean }>(
    `SELECT published OR EXISTS (SELECT 1 FROM subscriptions u WHERE u.strategy_id = s.strategy_id) AS followed FROM strategies s WHERE strategy_id = $1`, [strategyId]);
  if (rows[0]?.followed !== true) return work(undefined);
  const killSwitches = options.killSwitches ?? await KillSwitchWatch.open({ pool });
  try {
    const desk = await FollowerDesk.open({ ...options, strategyId, killSwitches });
    let result: T;
    try {
      result = await work(desk);
    } catch (error) {
      const ended = ending.isRunEnding(error);
      await desk.close(ended ? 'ended' : 'released', ended ? `the followed run ended: ${(error as Error).message}` : undefined);
      throw error;
    }
    await desk.close(ending.released(result) ? 'released' : 'ended');
    return result;
  } finally {
    if (options.killSwitches === undefined) await killSwitches.close();
  }
}
