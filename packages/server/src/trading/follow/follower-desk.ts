// The followers of one publisher's run (PAPER or LIVE): each ACTIVE, unexpired subscription of the published
// strategy gets a follower run of its own (a strategy_runs row of the subscriber, no strategy of
// its own, params.follows naming the publisher's run and the subscription) whose orders copy the
// publisher's, sized by the subscription (follow-sizing.ts). The run is PAPER, or LIVE (below).
//
// Invariants:
// - One kernel. The publisher's kernel decides every entry, exit, stop, target and trailing move;
//   the desk hears them through `RunMirror` (paper-run.ts calls it) and places scaled copies. A
//   follower never runs the algorithm.
// - Same market. Each paper follower has its own OMS (the subscriber's account: their kill switch,
//   their risk checks, their daily P&L) on its own paper venue, and the desk gives that venue every tick
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
// - PAPER or LIVE. A subscription follows LIVE only behind a publisher whose signals come from
//   the real market: the publisher's own LIVE run (live-run.ts: real Kite ticks, its orders at
//   the broker; `market.live`). Behind a PAPER run on the simulated market (synthetic prices
//   continued from the demo world's history; `market.liveRefused`) a LIVE subscription never
//   trades: a broker order decided on a synthetic price would be a real trade on a made-up
//   market. Behind a historical replay (`market` absent) every follower is paper, so a replay
//   never sends a real order. Behind a LIVE publisher a LIVE subscription trades when, checked
//   again as the follower opens, the subscriber's tier trades LIVE, the subscription names an
//   active Zerodha account of theirs (subscription-writes.ts liveFollowIssue, as deploying LIVE),
//   and that account is not the publisher's own (a copy there would double the run's own order
//   at the broker, the positions of the two runs mixed in one account). A LIVE follower run is
//   kind LIVE (params.userBrokerId the account); its copies go through the subscriber's
//   LiveAccount (acquired in this worker from `market.live.accounts`, shared with the account's
//   other runs here: one OMS, its risk checks and rate limits), and its fills are the broker's:
//   no tick is given to a venue, and a copied MARKET order is waited for (up to
//   LIVE_FILL_WAIT_MS of wall time) until the broker reports it done, so the stop and target
//   copies that follow are sized by what the broker filled. A LIVE follower's work (opening its
//   account, its copies, the waits for its fills, leaving) runs in a lane of its own, in the
//   publisher's order, and the publisher never waits for it: a copy goes out after the
//   publisher's order has the broker's id, and the publisher's fills, stop and target go on
//   meanwhile (no follower's broker holds up the publisher's protection). The desk closes once
//   every lane's work is done. A LIVE subscription that cannot trade (behind the simulated
//   market, no session today, the account held by another worker, turned off or the publisher's
//   own, a paper-only tier, no algo id) does not trade at all: the subscriber gets a
//   'follow-not-live' trading alert saying why, at each entry it misses, and never a paper run in
//   its place. A LIVE follower takes no entry while its
//   account's session is lost; an exit copy the broker does not take then is logged, and what it
//   holds stays at the broker (the session alert tells the user). The account is released when
//   the follower leaves or the desk closes. A change of mode or account applies from the
//   publisher's next run; an open follower keeps its own. A PAPER follower of a LIVE publisher
//   trades on its paper venue the real ticks the publisher's run got: a copied MARKET order
//   fills at once at the tick the publisher's kernel decided on, its stop and target on the
//   later ticks that reach them (the publisher's fills are the broker's, so the two may differ
//   by the broker's slippage).
// - Restarts. A copy takes the publisher's decision number in the follower's run, so a publisher
//   run resumed after a crash (decisions answered from their rows) finds each copy stored and
//   sends nothing twice; the follower runs still IN PROGRESS under the publisher's run are opened
//   again. The strategy runners' take-over scan leaves follower runs alone (they run inside their
//   publisher's run).
import { chargeModelOf } from '@vyuha/engine';
import type { ChargesConfig, ChargeModel, FeedTick, OrderSide, SlippageModel } from '@vyuha/engine';
import type pg from 'pg';
import type { ManualScheduler } from '../feeds/scheduler';
import type { LiveAccount } from '../live/live-account';
import type { LiveAccounts } from '../live/live-accounts';
import { raiseTradingAlert } from '../trading-alerts';
import { KillSwitchWatch } from '../kill-switch-watch';
import type { Oms } from '../oms/oms';
import { recoverOms } from '../oms/oms-recovery';
import { openOms } from '../oms/open-oms';
import { PaperVenue } from '../paper/paper-venue';
import { followerQuantity, followSizingOf } from './follow-sizing';
import type { FollowSizing } from './follow-sizing';
import type { MirroredOrder, RunMirror } from './run-mirror';
import { liveFollowIssue } from './subscription-writes';

/** What a LIVE publisher's run gives its desk for LIVE followers: the worker's broker accounts, the algo id their orders carry, the publisher's own account. */
export interface LiveFollowing {
  readonly accounts: LiveAccounts;
  /** The publisher's strategy's algo id, else the platform's; null: no LIVE order may be sent. */
  readonly algoId: string | null;
  /** The broker account the publisher's run trades through: no follower trades LIVE through it. */
  readonly publisherAccount: { readonly userBrokerId: string; readonly broker: string; readonly clientId: string };
}

/**
 * Where the publisher's signals come from, for its LIVE subscriptions: the real market (`live`,
 * the publisher's LIVE run), or a market whose signals never go to a broker (`liveRefused`, the
 * reason in words, e.g. SIMULATED_MARKET_NOT_LIVE).
 */
export type FollowedMarket = { readonly live: LiveFollowing } | { readonly liveRefused: string };

/** Why a PAPER run on the simulated market has no LIVE followers (market-run.ts). */
export const SIMULATED_MARKET_NOT_LIVE = 'the published strategy trades the simulated market (synthetic prices), whose signals never go to a broker: '
  + 'LIVE following needs the publisher to run the strategy LIVE';

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
  /** Present when the publisher's run trades a market as it happens (absent: a replay, whose followers are all paper). */
  readonly market?: FollowedMarket;
  /** Wall time a LIVE copy of a MARKET order is waited for, ms (default LIVE_FILL_WAIT_MS). */
  readonly liveFillWaitMs?: number;
}

interface SubscriptionState {
  readonly subscriptionId: string;
  readonly userId: string;
  readonly sizing: FollowSizing;
  readonly paused: boolean;
  /** Active and not expired. */
  readonly following: boolean;
  readonly mode: 'PAPER' | 'LIVE';
  readonly userBrokerId: string | null;
}

interface Follower {
  readonly subscriptionId: string;
  readonly userId: string;
  readonly runId: string;
  readonly oms: Oms;
  /** A paper follower's own venue; undefined for a LIVE follower (the broker's). */
  readonly venue: PaperVenue | undefined;
  /** A LIVE follower's account, shared with the account's other runs in this worker; released when the follower ends. */
  readonly live: { readonly account: LiveAccount; release(): Promise<void> } | undefined;
  /** The publisher's client order id -> this follower's copy. */
  readonly copies: Map<string, { readonly clientOrderId: string; readonly instrumentId: number }>;
  /** Orders the follower decides itself (its square-off when it leaves): numbered far above the publisher's. */
  ownDecision: number;
  /** Copies the follower's OMS refused (its own risk checks). */
  refused: number;
}

/** The first decision number a follower uses for orders of its own: beyond any run's own count. */
const OWN_DECISIONS_FROM = 100_000_000;
/** How long a LIVE copy of a MARKET order is waited for until the broker reports it done (wall time). */
export const LIVE_FILL_WAIT_MS = 10_000;

export class FollowerDesk implements RunMirror {
  private readonly followers = new Map<string, Follower>();
  private subscriptions = new Map<string, SubscriptionState>();
  private readonly lastPrices = new Map<number, number>();
  /** The latest tick of each traded instrument: a new follower's venue starts from it, as the publisher's venue stands. */
  private readonly lastTicks = new Map<number, FeedTick>();
  private readonly chargeModel: ChargeModel;
  private refreshedAt = Number.NEGATIVE_INFINITY;
  /** A LIVE follower's work, in the publisher's order, off the publisher's path: subscription id -> its last task (never rejects). */
  private readonly lanes = new Map<string, Promise<void>>();

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
    const { rows } = await options.pool.query<{ run_id: string; user_id: string; subscription_id: string; kind: string; user_broker_id: string | null }>(
      `SELECT run_id, user_id, kind, params -> 'follows' ->> 'subscriptionId' AS subscription_id, params ->> 'userBrokerId' AS user_broker_id FROM strategy_runs
       WHERE params ? 'follows' AND params -> 'follows' ->> 'publisherRunId' = $1 AND status = 'IN PROGRESS'`, [options.publisherRunId]);
    for (const row of rows) {
      const request = { subscriptionId: row.subscription_id, userId: row.user_id, runId: row.run_id };
      if (row.kind !== 'LIVE') {
        await desk.openFollower(request);
        continue;
      }
      const account = row.user_broker_id === null ? undefined : await desk.acquireLive(request, row.user_broker_id);
      if (account === undefined) {
        await desk.endRunRow(row.run_id, 'ERROR', 'the followed run resumed where this LIVE follower\'s broker account could not be opened; what it holds stays at the broker');
        continue;
      }
      await desk.openLiveFollower(request, account, { reconcile: true }).catch(async (error: unknown) => {
        await desk.endRunRow(row.run_id, 'ERROR', `this LIVE follower could not resume on its broker account: ${(error as Error).message}`);
      });
    }
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
    // A LIVE follower's market is the broker's: no tick is given to it.
    const followers = [...this.followers.values()].filter((follower) => follower.venue !== undefined);
    for (const follower of followers) follower.venue?.onTick(tick, { jump });
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
        const open = this.followers.get(subscription.subscriptionId);
        const live = open === undefined ? this.lanes.has(subscription.subscriptionId) || (subscription.mode === 'LIVE' && this.live !== undefined) : open.live !== undefined;
        if (live) this.enqueue(subscription.subscriptionId, `entry ${order.decision}`, () => this.join(subscription, order));
        else await this.join(subscription, order);
      }));
      return;
    }
    await this.forEachFollower(`${order.role} ${order.decision}`, (follower) => this.copyExit(follower, order));
  }

  async modified(clientOrderId: string, triggerPricePaise: number): Promise<void> {
    await this.forEachFollower('a trailing stop', async (follower) => {
      const copy = follower.copies.get(clientOrderId);
      if (copy === undefined) return;
      const reference = this.lastPrices.get(copy.instrumentId);
      const moved = await follower.oms.modifyOrder({ clientOrderId: copy.clientOrderId, triggerPricePaise, ...(reference === undefined ? {} : { referencePricePaise: reference }) });
      if (!moved.ok) this.note(follower, `its stop ${copy.clientOrderId} did not move to ${triggerPricePaise} paise: ${moved.error.map((issue) => issue.message).join('; ')}`);
      await follower.oms.settled();
    });
  }

  async cancelled(clientOrderIds: readonly string[]): Promise<void> {
    await this.forEachFollower('a cancellation', async (follower) => {
      for (const id of clientOrderIds) {
        const copy = follower.copies.get(id);
        if (copy !== undefined) await follower.oms.cancelIfWorking(copy.clientOrderId);
      }
      await follower.oms.settled();
    });
  }

  async marked(instrumentId: number, pricePaise: number): Promise<void> {
    await this.forEachFollower('a mark', (follower) => follower.oms.markToMarket({ runId: follower.runId, instrumentId, pricePaise }));
  }

  /** A subscription's follower at an entry (opened when it has none) and its copy of the entry. */
  private async join(subscription: SubscriptionState, order: MirroredOrder): Promise<void> {
    const follower = this.followers.get(subscription.subscriptionId) ?? await this.startFollower(subscription, order).catch((error: unknown) => {
      this.options.log?.(`subscription ${subscription.subscriptionId}: its follower did not open for entry ${order.decision}: ${(error as Error).message}`);
      return undefined;
    });
    if (follower === undefined) return;
    const blocked = follower.live?.account.entriesBlockedReason;
    if (blocked !== undefined) {
      this.note(follower, `entry ${order.decision} skipped: the broker account takes no entry now (${blocked})`);
      return;
    }
    await this.guard(follower, `entry ${order.decision}`, () => this.copyEntry(follower, subscription.sizing, order));
  }

  /**
   * Runs `work` for every follower: a paper one at once (awaited: its venue fills on this tick), a
   * LIVE one in its lane, after its earlier work (not awaited: the publisher never waits for a
   * follower's broker). A LIVE follower still opening in its lane gets the work when it is open.
   */
  private async forEachFollower(what: string, work: (follower: Follower) => Promise<void>): Promise<void> {
    const laned = new Set([...this.followers.values()].filter((follower) => follower.live !== undefined).map((follower) => follower.subscriptionId));
    for (const subscriptionId of this.lanes.keys()) if (!this.followers.has(subscriptionId)) laned.add(subscriptionId);
    for (const subscriptionId of laned) {
      this.enqueue(subscriptionId, what, async () => {
        const follower = this.followers.get(subscriptionId);
        if (follower?.live !== undefined) await this.guard(follower, what, () => work(follower));
      });
    }
    const paper = [...this.followers.values()].filter((follower) => follower.live === undefined);
    await Promise.all(paper.map((follower) => this.guard(follower, what, () => work(follower))));
  }

  /** Queues `work` in a LIVE subscription's lane, after everything queued there before; a failure is logged and the lane goes on. */
  private enqueue(subscriptionId: string, what: string, work: () => Promise<void>): void {
    const previous = this.lanes.get(subscriptionId) ?? Promise.resolve();
    this.lanes.set(subscriptionId, previous.then(work).catch((error: unknown) => {
      this.options.log?.(`subscription ${subscriptionId}: ${what} failed: ${(error as Error).message}`);
    }));
  }

  /** Until every lane's work queued so far is done. */
  private async drainLanes(): Promise<void> {
    for (;;) {
      const pending = [...this.lanes.values()];
      await Promise.all(pending);
      if ([...this.lanes.values()].every((lane, index) => lane === pending[index])) return;
    }
  }

  /**
   * The publisher's run is over ('ended': each follower run ends COMPLETE, holding what the
   * publisher's last orders left it) or handed over ('released': the follower runs stay in
   * progress for whoever resumes the publisher's run). Either way the followers' OMSs close.
   */
  async close(how: 'ended' | 'released', reason?: string): Promise<void> {
    await this.drainLanes();
    const followers = [...this.followers.values()];
    this.followers.clear();
    await Promise.all(followers.map(async (follower) => {
      await follower.oms.settled().catch(() => undefined);
      await this.closeOms(follower);
      if (how === 'ended') await this.endRun(follower, 'COMPLETE', reason ?? this.endNote(follower, 'the followed run ended'));
    }));
  }

  /** Reads the strategy's subscriptions; a follower whose subscription stopped following leaves. */
  async refresh(): Promise<void> {
    this.refreshedAt = Date.now();
    const { rows } = await this.options.pool.query<{
      subscription_id: string; user_id: string; sizing: string; quantity: number; investment_amt_paise: string; investment_history: unknown; paused: boolean; following: boolean;
      mode: string; user_broker_id: string | null;
    }>(
      `SELECT subscription_id, user_id, sizing, quantity, investment_amt_paise::text, investment_history, paused, mode, user_broker_id,
              active AND (expires_at IS NULL OR expires_at > now()) AS following
       FROM subscriptions WHERE strategy_id = $1`, [this.options.strategyId]);
    this.subscriptions = new Map(rows.map((row) => [row.subscription_id, {
      subscriptionId: row.subscription_id, userId: row.user_id, sizing: followSizingOf(row), paused: row.paused, following: row.following,
      mode: row.mode === 'LIVE' ? 'LIVE' : 'PAPER', userBrokerId: row.user_broker_id,
    }]));
    const leaving = [...this.followers.values()].filter((follower) => this.subscriptions.get(follower.subscriptionId)?.following !== true);
    for (const follower of leaving.filter((one) => one.live !== undefined)) {
      this.enqueue(follower.subscriptionId, 'leaving', async () => {
        if (this.followers.get(follower.subscriptionId) === follower) await this.leave(follower);
      });
    }
    await Promise.all(leaving.filter((follower) => follower.live === undefined).map((follower) => this.leave(follower)));
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
    if (follower.live !== undefined && order.orderType === 'MARKET') await this.awaitBrokerFills(follower, placed.value.orders.map((view) => view.clientOrderId), decision);
  }

  /** LIVE: waits (wall time) until the broker reported the orders filled, cancelled or rejected; a rejection or a wait run out is noted. */
  private async awaitBrokerFills(follower: Follower, clientOrderIds: readonly string[], decision: number): Promise<void> {
    const waitMs = this.options.liveFillWaitMs ?? LIVE_FILL_WAIT_MS;
    const started = Date.now();
    for (;;) {
      const views = await follower.oms.views(clientOrderIds);
      const open = views.filter((view) => view.status !== 'FILLED' && view.status !== 'CANCELLED' && view.status !== 'REJECTED');
      for (const view of views) {
        if (view.status === 'REJECTED' || view.status === 'CANCELLED') {
          this.note(follower, `decision ${decision}: the broker ${view.status === 'REJECTED' ? 'rejected' : 'cancelled'} ${view.clientOrderId} (${view.statusMessage ?? 'no reason given'})`);
        }
      }
      if (open.length === 0) return;
      if (Date.now() - started >= waitMs) {
        this.note(follower, `decision ${decision}: the broker has not reported ${open.map((view) => view.clientOrderId).join(', ')} done within ${waitMs / 1000} s`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
      await follower.oms.settled();
    }
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
    await this.closeOms(follower);
    await this.endRun(follower, closed > 0 ? 'COMPLETE: SQUARED OFF' : 'COMPLETE', this.endNote(follower, 'the subscription ended (unsubscribed or expired)'));
  }

  private endNote(follower: Follower, why: string): string {
    return follower.refused === 0 ? why : `${why}; ${follower.refused} order(s) were refused by this account's risk checks`;
  }

  private async endRun(follower: Follower, status: 'COMPLETE' | 'COMPLETE: SQUARED OFF', reason: string): Promise<void> {
    await this.endRunRow(follower.runId, status, reason);
  }

  private async endRunRow(runId: string, status: 'COMPLETE' | 'COMPLETE: SQUARED OFF' | 'ERROR', reason: string): Promise<void> {
    await this.options.pool.query(
      `UPDATE strategy_runs SET status = $2, status_reason = $3, progress = CASE WHEN $2 LIKE 'COMPLETE%' THEN 100 ELSE progress END,
         finished_at = greatest(now(), started_at), lease_owner = NULL, heartbeat_at = NULL
       WHERE run_id = $1 AND status = 'IN PROGRESS'`, [runId, status, reason]);
  }

  /** A paper follower's OMS is its own and closes; a LIVE follower's account is let go (the account's OMS is shared). */
  private async closeOms(follower: Follower): Promise<void> {
    if (follower.live === undefined) await follower.oms.close().catch(() => undefined);
    else await follower.live.release().catch((error: unknown) => this.note(follower, `its broker account was not released cleanly: ${(error as Error).message}`));
  }

  /**
   * A follower run for a subscription joining at an entry: PAPER, or LIVE when the subscription
   * asks for it behind a market run. Undefined when a LIVE subscription cannot trade (the subscriber is alerted).
   */
  private async startFollower(subscription: SubscriptionState, entry: MirroredOrder): Promise<Follower | undefined> {
    const follows = { publisherRunId: this.options.publisherRunId, subscriptionId: subscription.subscriptionId, strategyId: this.options.strategyId };
    const { market } = this.options;
    if (subscription.mode === 'LIVE' && market !== undefined) {
      const why = await this.liveRefusal(subscription, market);
      const request = { subscriptionId: subscription.subscriptionId, userId: subscription.userId, runId: '' };
      const account = why === undefined && subscription.userBrokerId !== null ? await this.acquireLive(request, subscription.userBrokerId, entry) : undefined;
      if (why !== undefined) await this.alertNotLive(subscription, `entry ${entry.decision}`, why);
      if (account === undefined) return undefined;
      const params = { mode: 'LIVE', userBrokerId: subscription.userBrokerId, follows, sizing: subscription.sizing };
      const runId = await this.insertRun(subscription.userId, 'LIVE', params).catch(async (error: unknown) => {
        await account.release();
        throw error;
      });
      return this.openLiveFollower({ ...request, runId }, account, { reconcile: false });
    }
    const runId = await this.insertRun(subscription.userId, 'PAPER', { mode: 'PAPER', follows, sizing: subscription.sizing });
    return this.openFollower({ subscriptionId: subscription.subscriptionId, userId: subscription.userId, runId });
  }

  private async insertRun(userId: string, kind: 'PAPER' | 'LIVE', params: Record<string, unknown>): Promise<string> {
    const { rows } = await this.options.pool.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (user_id, kind, status, params) VALUES ($1, $2, 'IN PROGRESS', $3) RETURNING run_id`, [userId, kind, JSON.stringify(params)]);
    return (rows[0] as { run_id: string }).run_id;
  }

  /** Why a LIVE subscription cannot trade LIVE here, in words; undefined when it may try its account. */
  private async liveRefusal(subscription: SubscriptionState, market: FollowedMarket): Promise<string | undefined> {
    if (!('live' in market)) return market.liveRefused;
    const { live } = market;
    if (live.algoId === null) return "the published strategy has no exchange algo id, which every LIVE order carries";
    const issue = await liveFollowIssue(this.options.pool, { userId: subscription.userId, userBrokerId: subscription.userBrokerId });
    if (issue !== undefined) return issue.message;
    const { rows } = await this.options.pool.query<{ broker: string; client_id: string }>(
      'SELECT broker, client_id FROM user_brokers WHERE user_broker_id = $1', [subscription.userBrokerId]);
    const account = rows[0];
    const publisher = live.publisherAccount;
    const same = subscription.userBrokerId === publisher.userBrokerId
      || (account !== undefined && account.broker === publisher.broker && account.client_id.toUpperCase() === publisher.clientId.toUpperCase());
    if (same) {
      return `the subscription's broker account (${publisher.clientId}) is the one the published strategy's LIVE run trades through, `
        + 'where a copy would double the run\'s own order: follow through another account, or on PAPER';
    }
    return undefined;
  }

  /** The worker's broker accounts for LIVE followers: only behind a LIVE publisher. */
  private get live(): LiveFollowing | undefined {
    const { market } = this.options;
    return market !== undefined && 'live' in market ? market.live : undefined;
  }

  /**
   * The subscriber's broker account, acquired in this worker; undefined (the subscriber alerted)
   * when it cannot be opened: no usable session today, or another worker trades it.
   */
  private async acquireLive(request: { subscriptionId: string; userId: string }, userBrokerId: string, entry?: MirroredOrder): Promise<{ account: LiveAccount; release(): Promise<void> } | undefined> {
    const { live } = this;
    const what = entry === undefined ? 'resuming' : `entry ${entry.decision}`;
    if (live === undefined) {
      const market = this.options.market;
      const why = market !== undefined && 'liveRefused' in market ? market.liveRefused : 'the followed run is a historical replay, which never trades LIVE';
      await this.alertNotLive({ ...request, userBrokerId }, what, why);
      return undefined;
    }
    const acquired = await live.accounts.acquire(userBrokerId).catch((error: unknown) => ({ ok: false as const, error: { message: (error as Error).message } }));
    if (!acquired.ok) {
      await this.alertNotLive({ ...request, userBrokerId }, what, `the broker account could not be opened: ${acquired.error.message}`);
      return undefined;
    }
    return acquired.value;
  }

  /** Tells the subscriber, in words, that their LIVE subscription did not trade and why. */
  private async alertNotLive(subscription: { subscriptionId: string; userId: string; userBrokerId: string | null }, what: string, why: string): Promise<void> {
    const message = `Your LIVE subscription ${subscription.subscriptionId} did not follow the publisher's ${what}: ${why}. `
      + 'Nothing was sent to the broker and nothing was traded on paper in its place.';
    this.options.log?.(`subscription ${subscription.subscriptionId}: ${message}`);
    await raiseTradingAlert(this.options.pool, {
      userId: subscription.userId, userBrokerId: subscription.userBrokerId, strategyId: this.options.strategyId, kind: 'follow-not-live', message,
    }).catch((error: unknown) => this.options.log?.(`subscription ${subscription.subscriptionId}: the alert was not written (${(error as Error).message})`));
  }

  /** A LIVE follower: its run attached to the subscriber's account (reconciled with the broker when resumed). */
  private async openLiveFollower(
    request: { subscriptionId: string; userId: string; runId: string },
    live: { account: LiveAccount; release(): Promise<void> },
    how: { readonly reconcile: boolean },
  ): Promise<Follower> {
    const { account } = live;
    const userBrokerId = account.session.userBrokerId;
    try {
      account.attach({ runId: request.runId, userId: request.userId, strategyId: null, userBrokerId, algoId: this.live?.algoId ?? null, charges: this.options.charges });
      if (how.reconcile) await account.reconcile();
    } catch (error) {
      await live.release();
      throw error;
    }
    const follower: Follower = {
      ...request, oms: account.oms, venue: undefined, live, copies: new Map(), ownDecision: await this.firstOwnDecision(request.runId), refused: 0,
    };
    this.followers.set(request.subscriptionId, follower);
    return follower;
  }

  private async firstOwnDecision(runId: string): Promise<number> {
    const { rows } = await this.options.pool.query<{ top: string | null }>(
      `SELECT max(split_part(client_order_id, '-', 6)::bigint / 10)::text AS top FROM orders WHERE run_id = $1`, [runId]);
    const top = rows[0]?.top == null ? -1 : Number(rows[0].top);
    return Math.max(OWN_DECISIONS_FROM, top + 1);
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
    const follower: Follower = {
      ...request, oms, venue, live: undefined, copies: new Map(), ownDecision: await this.firstOwnDecision(runId), refused: 0,
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
