// One broker account trading LIVE in this worker: everything its strategies share.
//
// - The day's session (brokers/broker-sessions.ts): without a usable one the account does not
//   open, and the user is told to log in for today (a `trading_alerts` row with the login path).
// - Today's instruments dump, downloaded once a day and mapped to our contracts (kite-instruments.ts):
//   the venue speaks Kite's symbols, the ticker Kite's tokens.
// - One Kite venue and one OMS: the rate queue (10 orders a second per segment) and Kite's own
//   limits hold per account only if every strategy of the account goes through them.
// - One ticker connection (KiteFeedHub) shared by the account's runs; its order updates, the
//   postbacks published by the API process (broker-order-updates.ts) and a slow poll of the order
//   book all feed the venue, which turns them into fills once per trade.
// - Every request to Kite and its answer in the audit trail (broker-request-trail.ts).
//
// The session dying mid-day (Kite answers TokenException, or the ticker's handshake is refused):
// the session row is marked ended, the user alerted, entries pause, and an order that must still
// go (an exit) waits in `brokerReady()`. The account keeps reading the order book and looks for a
// new login every `sessionCheckMs`; when one comes it takes the new token, reconciles the
// account's orders and positions with Kite (recoverOms), tells the user, and lets orders go again.
// A request sent with the old token and refused after the new one came is stale: it ends nothing.
import { err, istDate, ok, type Result } from '@vyuha/core';
import type pg from 'pg';
import type { BrokerOrderUpdates } from '../../brokers/broker-order-updates';
import { BrokerRequestTrail } from '../../brokers/broker-request-trail';
import { liveBrokerSession, invalidateBrokerSession, brokerLoginPath, logInForTodayMessage, type BrokerSessionProblem, type LiveBrokerSession } from '../../brokers/broker-sessions';
import type { BrokerSecretKey } from '../../brokers/broker-secrets';
import { KiteApi } from '../../brokers/kite/kite-api';
import { KiteFeedHub } from '../../brokers/kite/kite-feed-hub';
import { instrumentTokens, syncKiteInstruments, type BrokerInstrumentLookup } from '../../brokers/kite/kite-instruments';
import { KiteTickerConnection, type KiteTickerTimers } from '../../brokers/kite/kite-ticker';
import { KiteVenue } from '../../brokers/kite/kite-venue';
import type { Scheduler } from '../feeds/scheduler';
import type { KillSwitchWatch } from '../kill-switch-watch';
import type { Oms } from '../oms/oms';
import { recoverOms, type RecoveryReport } from '../oms/oms-recovery';
import type { RunContext } from '../oms/oms-types';
import { openOms } from '../oms/open-oms';
import { raiseTradingAlert } from '../trading-alerts';

export interface LiveAccountOptions {
  readonly pool: pg.Pool;
  readonly userBrokerId: string;
  /** Decrypt the stored session's token. */
  readonly keys: readonly BrokerSecretKey[];
  /** kiteApiBaseUrl / kiteTickerBaseUrl of the environment (a stand-in in tests and demos). */
  readonly kite: { readonly apiUrl: string; readonly tickerUrl: string };
  /** The wall clock (a manual one in tests): sends time out and sessions expire on it. */
  readonly scheduler: Scheduler;
  readonly killSwitches: KillSwitchWatch;
  /** Postbacks published by the API process; absent: the ticker's updates and polling only. */
  readonly updates?: BrokerOrderUpdates;
  readonly log?: (message: string) => void;
  /** The ticker's timers (tests drive them); default the wall clock's. */
  readonly tickerTimers?: KiteTickerTimers;
  /** How often a lost session looks for a new login (default 30 s). */
  readonly sessionCheckMs?: number;
  /** The order book's safety-net poll beside the update streams (default 15 s). */
  readonly pollMs?: number;
  /** How long a request to Kite may take before it counts as unanswered (default KiteApi's 10 s). */
  readonly requestTimeoutMs?: number;
  /** How often the account's margin is read for the entry check (default 15 s; also after each fill). */
  readonly marginCheckMs?: number;
}

/** The alert a user sees when the account cannot trade for want of a session. */
export async function alertSessionProblem(pool: pg.Pool, account: { userId: string; userBrokerId: string; strategyId?: string | null }, problem: BrokerSessionProblem): Promise<void> {
  await raiseTradingAlert(pool, {
    userId: account.userId, userBrokerId: account.userBrokerId, strategyId: account.strategyId ?? null,
    kind: 'broker-session-missing', message: problem.message, actionPath: problem.loginPath ?? null,
  });
}

/** How many times reconciliation is tried before the run that asked for it fails. */
const RECONCILE_ATTEMPTS = 10;

export class LiveAccount {
  readonly oms: Oms;
  readonly venue: KiteVenue;
  readonly hub: KiteFeedHub;
  readonly lookup: BrokerInstrumentLookup;
  private token: string;
  private lostReason: string | undefined;
  /** Counts the token changes: a refusal of a request sent with an earlier token is stale. */
  private tokenEpoch = 0;
  private readyWaiters: Array<() => void> = [];
  private sessionTimer: NodeJS.Timeout | undefined;
  private readonly closers: Array<() => void | Promise<void>> = [];
  private closed = false;
  /** The equity segment's net available margin at the last read (paise); undefined until read. */
  private margin: number | undefined;
  private marginRead: Promise<void> | undefined;
  private marginTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: LiveAccountOptions,
    readonly session: LiveBrokerSession,
    parts: { lookup: BrokerInstrumentLookup; trail: BrokerRequestTrail },
  ) {
    const { pool, scheduler } = options;
    this.token = session.accessToken;
    this.lookup = parts.lookup;
    const api = new KiteApi({
      baseUrl: options.kite.apiUrl, apiKey: session.apiKey, accessToken: () => this.token,
      onExchange: parts.trail.record, now: () => scheduler.now(),
      ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
    });
    const lookup = parts.lookup;
    this.venue = new KiteVenue({
      api, clock: () => scheduler.now(), sleep: (ms) => scheduler.sleepUntil(scheduler.now() + ms), sessionEpoch: () => this.tokenEpoch,
      onSessionLost: (reason, epoch) => {
        if (epoch !== undefined && epoch !== this.tokenEpoch) {
          options.log?.(`LIVE account ${session.clientId}: a request sent with the replaced session was refused (${reason}); the new session stands`);
          return;
        }
        this.loseSession(reason);
      },
      contracts: {
        kiteContractOf: (key) => lookup.contractOf(Number(key)),
        instrumentKeyOf: (exchange, tradingSymbol) => {
          const id = lookup.instrumentOfContract({ exchange, tradingSymbol });
          return id === undefined ? undefined : String(id);
        },
      },
    });
    this.oms = openOms({ pool, userId: session.userId, venue: this.venue, scheduler, killSwitches: options.killSwitches, ...(options.log === undefined ? {} : { log: options.log }) });
    const connection = new KiteTickerConnection({
      baseUrl: options.kite.tickerUrl, apiKey: session.apiKey, accessToken: session.accessToken, ...(options.tickerTimers === undefined ? {} : { timers: options.tickerTimers }),
    });
    this.hub = new KiteFeedHub({ connection, lookup, clock: scheduler });
    this.closers.push(connection.listen({
      onOrder: (order) => this.orderUpdate(order),
      onState: (change) => {
        if (change.state === 'session-refused') this.loseSession(`Kite refused the ticker's session (HTTP ${change.httpStatus})`);
      },
    }));
    if (options.updates !== undefined) this.closers.push(options.updates.register(options.userBrokerId, (text) => this.orderUpdate(text)));
    this.venue.startPolling(options.pollMs ?? 15_000);
    // The margin follows the account: read now, every marginCheckMs, and after each fill.
    this.closers.push(this.venue.subscribe((event) => {
      if (event.kind === 'fill') this.readMargin();
    }));
    const marginEvery = options.marginCheckMs ?? 15_000;
    const readEvery = (): void => {
      this.readMargin();
      this.marginTimer = setTimeout(readEvery, marginEvery);
      this.marginTimer.unref();
    };
    readEvery();
    this.closers.push(() => this.venue.stopPolling(), () => this.hub.close(), () => parts.trail.close());
  }

  /**
   * Opens the account for LIVE trading at `scheduler.now()`: its session, today's instruments, the
   * venue, the OMS and the ticker. Without a usable session: the problem (and the user alerted).
   */
  static async open(options: LiveAccountOptions): Promise<Result<LiveAccount, BrokerSessionProblem>> {
    const { pool, userBrokerId, scheduler } = options;
    const session = await liveBrokerSession(pool, { userBrokerId, keys: options.keys, nowMs: scheduler.now() });
    if (!session.ok) {
      const { rows } = await pool.query<{ user_id: string }>('SELECT user_id FROM user_brokers WHERE user_broker_id = $1', [userBrokerId]);
      const userId = rows[0]?.user_id;
      if (userId !== undefined) await alertSessionProblem(pool, { userId, userBrokerId }, session.error);
      return session;
    }
    const { apiKey, accessToken } = session.value;
    const synced = await syncKiteInstruments({ baseUrl: options.kite.apiUrl, apiKey, accessToken, pool, today: istDate(scheduler.now()) });
    const lookup = await instrumentTokens(pool);
    if (lookup.dumpDate === undefined) {
      const why = synced.outcome === 'download-failed' ? synced.failure.reason : synced.outcome === 'malformed' ? synced.reason : 'no instruments are stored';
      return err({ code: 'no-session', message: `Kite's instruments could not be read, so no order can name its contract: ${why}` });
    }
    if (synced.outcome === 'download-failed' || synced.outcome === 'malformed') {
      options.log?.(`Kite instruments of ${istDate(scheduler.now())} not stored (${synced.outcome}); trading on the dump of ${lookup.dumpDate}`);
    }
    const trail = new BrokerRequestTrail({
      pool, userId: session.value.userId, userBrokerId, broker: session.value.broker, ...(options.log === undefined ? {} : { log: options.log }),
    });
    return ok(new LiveAccount(options, session.value, { lookup, trail }));
  }

  /** Adds a run: its orders go through this account's OMS. */
  attach(run: RunContext): void {
    if (run.userBrokerId !== this.options.userBrokerId) throw new Error(`run ${run.runId} trades through ${run.userBrokerId ?? 'no broker account'}, not ${this.options.userBrokerId}`);
    this.oms.attachRun(run);
  }

  /**
   * Brings the attached runs' orders and the account's positions in line with Kite's (before any
   * strategy acts: start of day, restart, take-over, a new login). An unexplained position at
   * Kite pauses the strategies and tells the user.
   */
  async reconcile(): Promise<RecoveryReport> {
    let report: RecoveryReport | undefined;
    // Kite may refuse a read for a moment (its 10 requests a second, a 5xx): asked again, a second apart, before giving up.
    for (let attempt = 1; report === undefined; attempt += 1) {
      try {
        report = await recoverOms(this.oms);
      } catch (error) {
        if (attempt >= RECONCILE_ATTEMPTS || this.closed) throw error;
        this.options.log?.(`LIVE account ${this.session.clientId}: reconciliation failed (${(error as Error).message}); trying again`);
        await this.options.scheduler.sleepUntil(this.options.scheduler.now() + 1_000);
      }
    }
    const { pool } = this.options;
    const { userId } = this.session;
    for (const strategyId of report.pausedStrategies) {
      await raiseTradingAlert(pool, {
        userId, userBrokerId: this.options.userBrokerId, strategyId, kind: 'unexplained-position',
        message: `Zerodha ${this.session.clientId} holds positions Vyuha did not place (${report.alerts.map((alert) => alert.message).join('; ') || 'a position no order explains'}): the strategy is paused until you check the account and resume it`,
      });
    }
    return report;
  }

  /** Why entries must not be decided now (the session is lost), or undefined. */
  get entriesBlockedReason(): string | undefined {
    return this.lostReason;
  }

  /** Resolves when orders can be sent: at once while the session is usable, else after the next login and its reconciliation. */
  brokerReady(): Promise<void> {
    if (this.lostReason === undefined || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * The margin check of entries: true when the account's net available margin (equity segment, as
   * last read) is below `requiredPaise`, the capital a new position of the strategy may take (its
   * investment: our sizing never takes more). Undefined margin (not read yet, or unreadable): not short.
   */
  marginShort(requiredPaise: number): boolean {
    return this.margin !== undefined && this.margin < requiredPaise;
  }

  /** The margin as last read (paise), or undefined. */
  get marginPaise(): number | undefined {
    return this.margin;
  }

  /** Reads the margin now (one read at a time; a failed read keeps the last value). */
  refreshMargin(): Promise<void> {
    this.readMargin();
    return this.marginRead ?? Promise.resolve();
  }

  private readMargin(): void {
    if (this.closed || this.marginRead !== undefined) return;
    this.marginRead = this.availableMarginPaise()
      .then((read) => {
        if (read.ok) this.margin = read.value;
        else this.options.log?.(`LIVE account ${this.session.clientId}: margin not read (${read.error})`);
      })
      .catch((error: unknown) => this.options.log?.(`LIVE account ${this.session.clientId}: margin not read (${(error as Error).message})`))
      .finally(() => {
        this.marginRead = undefined;
      });
  }

  /** The account's available cash in the equity segment (paise), or why it cannot be read. */
  async availableMarginPaise(): Promise<Result<number, string>> {
    const margins = await this.venue.margins();
    if (!margins.ok) return margins;
    const equity = margins.value.equity;
    if (equity === undefined) return err('Kite reported no equity segment margins');
    return ok(equity.netPaise);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.sessionTimer !== undefined) clearTimeout(this.sessionTimer);
    if (this.marginTimer !== undefined) clearTimeout(this.marginTimer);
    await this.marginRead;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    await this.oms.close();
    for (const close of this.closers.splice(0).reverse()) await close();
  }

  private orderUpdate(update: unknown): void {
    const taken = this.venue.onOrderUpdate(update);
    if (!taken.ok) this.options.log?.(`Kite order update ignored: ${taken.error}`);
  }

  /** `sessionLost` from a callback: a failure to write the alert is logged, never an unhandled rejection. */
  private loseSession(reason: string): void {
    this.sessionLost(reason).catch((error: unknown) => {
      this.options.log?.(`LIVE account ${this.session.clientId}: the lost session could not be recorded (${(error as Error).message})`);
      this.watchForLogin();
    });
  }

  /** Kite stopped accepting the token: once per loss, the session ended, the user told, a new login watched for. */
  private async sessionLost(reason: string): Promise<void> {
    if (this.lostReason !== undefined || this.closed) return;
    this.lostReason = reason;
    const { pool } = this.options;
    const { userId, userBrokerId, brokerName, clientId, broker } = this.session;
    this.options.log?.(`LIVE account ${clientId}: session lost (${reason}); entries paused until a new login`);
    await invalidateBrokerSession(pool, userBrokerId, reason);
    await raiseTradingAlert(pool, {
      userId, userBrokerId, kind: 'broker-session-lost', actionPath: brokerLoginPath(broker, clientId),
      message: logInForTodayMessage(brokerName, `the session of ${clientId} ended (${reason}); entries are paused, working orders stay at Kite`),
    });
    this.watchForLogin();
  }

  private watchForLogin(): void {
    if (this.closed) return;
    this.sessionTimer = setTimeout(() => void this.checkLogin().catch((error: unknown) => {
      this.options.log?.(`LIVE account ${this.session.clientId}: looking for a new login failed: ${String(error)}`);
      this.watchForLogin();
    }), this.options.sessionCheckMs ?? 30_000);
    this.sessionTimer.unref();
  }

  private async checkLogin(): Promise<void> {
    const { pool, keys, scheduler, userBrokerId } = this.options;
    const session = await liveBrokerSession(pool, { userBrokerId, keys, nowMs: scheduler.now() });
    if (!session.ok || session.value.accessToken === this.token) {
      this.watchForLogin();
      return;
    }
    this.token = session.value.accessToken;
    this.tokenEpoch += 1;
    this.lostReason = undefined;
    this.hub.renewSession(this.token);
    const report = await this.reconcile();
    await raiseTradingAlert(pool, {
      userId: this.session.userId, userBrokerId, kind: 'reconciled',
      message: `Zerodha ${this.session.clientId}: new session; ${report.checked} orders checked against Kite, ${report.updated.length} updated; entries resumed`,
    });
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }
}
