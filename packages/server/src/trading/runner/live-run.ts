// A LIVE run: one session of a strategy trading through the user's broker account, the same
// runtime as a PAPER run on the market (market-run.ts: the kernel warmed up on stored bars, bars
// closed on time, the same decisions) with the broker in place of the paper venue:
//
// - The account (trading/live/): its session, venue, OMS and ticker, shared by the account's runs
//   in this worker. Without a usable session the run does not trade: it waits, leased, saying why
//   (`status_reason`: log in to Zerodha for today, with the alert and its login link), and looks
//   again every minute until the session closes; the strategy then goes on with the next session.
// - Before the first bar the account's orders and positions are reconciled with the broker's
//   (recoverOms): an order of this run the broker has takes the broker's state; an unexplained
//   position pauses the strategy and tells the user.
// - Ticks come from the account's ticker (one connection for all its runs) and every minute they
//   complete is stored (recorded-feed.ts), so a restart mid-session catches up on the stored
//   minutes as a PAPER run on the market does.
// - Fills are the broker's (PaperRun `fills: 'adopt'`): the run waits for them and takes them.
// - A session lost mid-day pauses entries; an order that must still go waits for the next login.
// - Followers. A published strategy's subscribers follow its LIVE run (follow/follower-desk.ts):
//   the real market's signals, so a LIVE subscription's copies go through the subscriber's own
//   account (never this run's), and a PAPER one trades the real ticks the run gets on its paper
//   venue. A PAPER run on the simulated market has no LIVE followers (market-run.ts).
import { formatRupees } from '@vyuha/core';
import type pg from 'pg';
import { SESSION_EXPIRED_NOT_SENT } from '../../brokers/kite/kite-venue';
import type { LiveAccounts } from '../live/live-accounts';
import { RecordedFeed } from '../live/recorded-feed';
import { raiseTradingAlert } from '../trading-alerts';
import { ManualScheduler } from '../feeds/scheduler';
import { withFollowers } from '../follow/follower-desk';
import { PaperDivergence } from './paper-run';
import type { MarketRunOptions, MarketRunOutcome } from './market-session';
import { prepareMarketSession, tradeMarketSession } from './market-run';
import { PaperRunFailure, RELEASE } from './replay-run';

export interface LiveRunOptions extends Omit<MarketRunOptions, 'market'> {
  readonly accounts: LiveAccounts;
  /** The algo id of orders whose strategy has none of its own (the platform's, from the exchange); none: such a strategy cannot trade LIVE. */
  readonly defaultAlgoId?: string;
  /** How often a run without a usable session looks again (default 60 s). */
  readonly loginCheckMs?: number;
}

/** The broker account a LIVE run trades through (its params' `userBrokerId`). */
async function brokerAccountOf(pool: pg.Pool, runId: string): Promise<string> {
  const { rows } = await pool.query<{ user_broker_id: string | null }>(`SELECT params ->> 'userBrokerId' AS user_broker_id FROM strategy_runs WHERE run_id = $1`, [runId]);
  const id = rows[0]?.user_broker_id;
  if (id == null) throw new PaperRunFailure('this LIVE run names no broker account (params.userBrokerId)');
  return id;
}

/**
 * Runs one session of a LIVE strategy. The caller owns the run's status (strategy-runners.ts), as
 * for a PAPER run on the market.
 */
export async function runLiveSession(options: LiveRunOptions): Promise<MarketRunOutcome> {
  const { pool, runId, scheduler, signal } = options;
  const userBrokerId = await brokerAccountOf(pool, runId);
  let account: Awaited<ReturnType<LiveAccounts['acquire']>> | undefined;
  const market = {
    feed: () => {
      if (account === undefined || !account.ok) throw new Error('the live feed was asked for before the account was open');
      return new RecordedFeed(account.value.account.hub.feed(), { pool, ...(options.log === undefined ? {} : { log: options.log }) });
    },
  };
  const prepared = await prepareMarketSession({ ...options, market }, 'LIVE');
  if (!('stepped' in prepared)) return prepared;
  const { session, swing, run, stepped, ownFrom } = prepared;
  const algoId = run.algo_id ?? options.defaultAlgoId ?? null;
  if (algoId === null) throw new PaperRunFailure("every LIVE order carries the exchange's algo id: set the strategy's algo id (or the platform's VYUHA_ALGO_ID)");

  // The session: wait, leased, for a usable one, saying why, until the market closes.
  for (;;) {
    account = await options.accounts.acquire(userBrokerId);
    if (account.ok) break;
    if (account.error.code === 'held-elsewhere') throw new ReleaseRun(account.error.message);
    await pool.query(`UPDATE strategy_runs SET status_reason = $2 WHERE run_id = $1`, [runId, `waiting: ${account.error.message}`]);
    options.log?.(`LIVE run waits for a session: ${account.error.message}`);
    const next = Math.min(scheduler.now() + (options.loginCheckMs ?? 60_000), session.close);
    await scheduler.sleepUntil(next, signal);
    if (signal?.aborted === true) {
      return { bars: 0, fills: 0, stopped: signal.reason !== RELEASE, released: signal.reason === RELEASE, squaredOff: 0, session: session.date, sessionEnded: false, continues: false, result: undefined };
    }
    if (scheduler.now() >= session.close) {
      // Nothing traded today; the strategy goes on with the next session (a swing run keeps its position at the broker).
      return { bars: 0, fills: 0, stopped: false, released: false, squaredOff: 0, session: session.date, sessionEnded: true, continues: swing, result: undefined };
    }
  }
  const { account: live, release } = account.value;
  try {
    await pool.query(`UPDATE strategy_runs SET status_reason = NULL WHERE run_id = $1 AND status_reason LIKE 'waiting:%'`, [runId]);
    live.attach({
      runId, userId: run.user_id, strategyId: run.strategy_id, userBrokerId, algoId, charges: stepped.config.charges,
      ...(prepared.dailyMaxLoss === undefined ? {} : { strategyMaxLossPaise: prepared.dailyMaxLoss }),
    });
    await live.reconcile();
    await live.refreshMargin();
    const clock = new ManualScheduler(ownFrom, { settle: 'when-waking' });
    const required = prepared.params.config.investment as number;
    let short = false;
    // Entries wait while the session is lost or the margin is below what a new position may take; the user is told once per shortfall.
    const entriesBlocked = (): boolean => {
      const nowShort = live.marginShort(required);
      if (nowShort && !short) {
        void raiseTradingAlert(pool, {
          userId: run.user_id, userBrokerId, strategyId: run.strategy_id, kind: 'margin-short',
          message: `Zerodha ${live.session.clientId} has ${rupeesText(live.marginPaise ?? 0)} of margin available, below the strategy's investment of ${rupeesText(required)}: `
            + 'its entries are not sent until the margin is back',
        }).catch((error: unknown) => options.log?.(`margin alert not written: ${(error as Error).message}`));
      }
      short = nowShort;
      return live.entriesBlockedReason !== undefined || nowShort;
    };
    // Followers copy the run as a PAPER run's do (market-run.ts), on the same market clock; a swing run going on
    // with the next session keeps its followers' runs for it, as a hand-over does.
    const following = {
      pool, publisherRunId: runId, strategyId: run.strategy_id, clock, killSwitches: options.killSwitches, log: options.log,
      rules: { tickSizePaise: stepped.config.tickSize, slippage: stepped.config.slippage }, charges: stepped.config.charges,
      market: { live: { accounts: options.accounts, algoId, publisherAccount: { userBrokerId, broker: live.session.broker, clientId: live.session.clientId } } },
    };
    const ending = {
      released: (outcome: MarketRunOutcome) => outcome.released || outcome.continues,
      isRunEnding: (error: unknown) => error instanceof PaperRunFailure || error instanceof PaperDivergence,
    };
    return await withFollowers(following, (mirror) => tradeMarketSession({ ...options, market }, prepared, {
      oms: live.oms, fills: 'adopt', clock,
      venue: { subscribe: (listener) => live.venue.subscribe(listener), onTick: () => undefined, idle: true },
      entriesBlocked,
      brokerReady: () => live.brokerReady(),
      notSent: (message) => message === SESSION_EXPIRED_NOT_SENT || message?.startsWith('not sent: ') === true,
      ...(mirror === undefined ? {} : { mirror }),
    }), ending);
  } finally {
    await release();
  }
}

/** Rupees for a message, e.g. "₹2,00,000.00". */
function rupeesText(paise: number): string {
  return formatRupees(paise);
}

/** The account is traded by another worker: this one lets the run go for that worker to take. */
export class ReleaseRun extends Error {
  override readonly name = 'ReleaseRun';
}
