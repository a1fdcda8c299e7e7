// Two paper strategies per demo user who may deploy, so a newcomer's dashboard, positions and
// reports show paper trading at once, each a real deployment through `deployStrategy` (the same
// checks, licence slot, run row and strategy-run job as a user's own):
// - one replaying the last 90 sessions of the demo world's synthetic history through the paper
//   runtime as fast as it goes (results at once);
// - one ACTIVE on the simulated market (intraday, no replay): it trades each NSE session as it
//   happens, on the synthetic ticks that continue the same history (runner/market-run.ts).
// Advanced's replay is published and followed by the basic demo user (one lot a trade), so the
// marketplace and /subscriptions show a follower's run at once. Each run names its user's first
// active broker account when there is one, so /userAccounts shows that account's day, open
// positions and levels for the demo world (paper: the account's risk levels count the run).
// Named so nobody takes them for market data: "(synthetic data)". The strategy runners run them;
// a repeated call, a restart or a second process deploys nothing twice (advisory lock, and a
// marker per user and kind in app_meta, so one the user deletes does not come back).
import { addDays, isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { sessionOf } from '@vyuha/market';
import type pg from 'pg';
import type { JobQueue } from '../../jobs/job-queue';
import { enqueueStrategyRun } from '../../jobs/strategy-run-jobs';
import { deployStrategy } from '../../trading/deployments';
import { exampleAlgorithmId } from './demo-research';
import type { DemoBacktest } from './demo-research-backtests';
import { demoEmail } from './demo-users';
import type { DemoRole } from './demo-users';

/** Sessions the demo replays cover, ending with the last finished one. */
export const DEMO_PAPER_SESSIONS = 90;

/** One demo user's paper strategy: an example backtest's plan without option legs, with exits. */
export interface DemoPaperStrategy extends Omit<DemoBacktest, 'tradeInstrumentsConfig'> {
  /** ACTIVE on the simulated market (no replay) instead of replaying the last sessions. */
  readonly market?: boolean;
  /** Exits as the deployable configuration takes them (percent of the entry price). */
  readonly stopLossPercent?: number;
  readonly targetPercent?: number;
  /** Published on the marketplace and followed by this demo user (one lot a trade), so subscriptions show a follower's run. */
  readonly followedBy?: DemoRole;
}

export const DEMO_PAPER_STRATEGIES: readonly DemoPaperStrategy[] = [
  { role: 'advanced', name: 'Paper (synthetic data): EMA crossover 9/21 on NIFTY 50, intraday, 0.5% stop, 1% target', algorithm: 'ema-crossover',
    instrument: 'NIFTY 50', strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 1_000_000, stopLossPercent: 0.5, targetPercent: 1, followedBy: 'basic' },
  { role: 'demo', name: 'Paper (synthetic data): RSI 14 reversal on NIFTY 50, intraday', algorithm: 'rsi-reversal',
    instrument: 'NIFTY 50', strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 1_000_000 },
  { role: 'manager', name: 'Paper (synthetic data): SuperTrend 10,3 swing on NIFTY BANK', algorithm: 'supertrend-swing',
    instrument: 'NIFTY BANK', strategyType: 'swing', intervalMinutes: 15, investmentRupees: 1_500_000 },
  { role: 'administrator', name: 'Paper (synthetic data): RSI 14 reversal on NIFTY BANK, intraday, 0.4% stop', algorithm: 'rsi-reversal',
    instrument: 'NIFTY BANK', strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 1_500_000, stopLossPercent: 0.4 },
  { role: 'superadmin', name: 'Paper (synthetic data): EMA crossover 9/21 on NIFTY 50, swing', algorithm: 'ema-crossover',
    instrument: 'NIFTY 50', strategyType: 'swing', intervalMinutes: 60, investmentRupees: 1_000_000 },
];

/** The second strategy of each: intraday on the simulated market, as it happens. */
export const DEMO_MARKET_STRATEGIES: readonly DemoPaperStrategy[] = [
  { role: 'advanced', name: 'Market (synthetic data): EMA crossover 9/21 on NIFTY 50, 5-minute, intraday, 0.3% stop', algorithm: 'ema-crossover',
    instrument: 'NIFTY 50', strategyType: 'intraday', intervalMinutes: 5, investmentRupees: 1_000_000, stopLossPercent: 0.3, market: true },
  { role: 'demo', name: 'Market (synthetic data): RSI 14 reversal on NIFTY 50, 5-minute, intraday', algorithm: 'rsi-reversal',
    instrument: 'NIFTY 50', strategyType: 'intraday', intervalMinutes: 5, investmentRupees: 1_000_000, market: true },
  { role: 'manager', name: 'Market (synthetic data): EMA crossover 9/21 on NIFTY BANK, 15-minute, intraday', algorithm: 'ema-crossover',
    instrument: 'NIFTY BANK', strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 1_500_000, market: true },
  { role: 'administrator', name: 'Market (synthetic data): RSI 14 reversal on NIFTY BANK, 5-minute, intraday, 0.4% stop', algorithm: 'rsi-reversal',
    instrument: 'NIFTY BANK', strategyType: 'intraday', intervalMinutes: 5, investmentRupees: 1_500_000, stopLossPercent: 0.4, market: true },
  { role: 'superadmin', name: 'Market (synthetic data): EMA crossover 9/21 on NIFTY 50, 15-minute, intraday, 0.5% target', algorithm: 'ema-crossover',
    instrument: 'NIFTY 50', strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 1_000_000, targetPercent: 0.5, market: true },
];

/** The app_meta key of each kind's markers (user id -> strategy id). */
const markerKey = (plan: DemoPaperStrategy): string => (plan.market === true ? 'demo_market' : 'demo_paper');
// Any constant of its own (the demo backtests use 727_003).
const LOCK_KEY = 727_016;

/**
 * The first date of the `sessions` NSE sessions that end with `through`.
 * @example firstOfSessions('2026-11-27', 2) // '2026-11-26'
 */
export function firstOfSessions(through: IsoDate, sessions: number): IsoDate {
  let day = through;
  let counted = sessionOf('NSE', day) === undefined ? 0 : 1;
  while (counted < sessions) {
    day = addDays(day, -1);
    if (sessionOf('NSE', day) !== undefined) counted += 1;
  }
  return isoDate(day);
}

export interface DeployDemoPaperOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** The last finished session whose candles are stored. */
  readonly through: IsoDate;
  readonly log: (message: string) => void;
  /** How many sessions the replays cover (default DEMO_PAPER_SESSIONS). */
  readonly sessions?: number;
  /** Deploy the strategies on the simulated market too (default true; a world without that market: false). */
  readonly market?: boolean;
}

async function userIdOf(client: pg.PoolClient, role: DemoRole): Promise<string | undefined> {
  const { rows } = await client.query<{ user_id: string }>(
    'SELECT u.user_id FROM auth.users a JOIN users u ON u.user_id = a.id WHERE a.email = $1', [demoEmail(role)]);
  return rows[0]?.user_id;
}

/** The user's first active broker account (by client id), which the demo runs count against on /userAccounts. */
async function activeAccountOf(client: pg.PoolClient, userId: string): Promise<string | undefined> {
  const { rows } = await client.query<{ user_broker_id: string }>(
    'SELECT user_broker_id FROM user_brokers WHERE user_id = $1 AND active ORDER BY client_id LIMIT 1', [userId]);
  return rows[0]?.user_broker_id;
}

async function instrumentIdOf(client: pg.PoolClient, name: string): Promise<number | undefined> {
  const { rows } = await client.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = $1`, [name]);
  return rows[0]?.instrument_id;
}

async function marked(client: pg.PoolClient, key: string, userId: string): Promise<boolean> {
  const { rows } = await client.query<{ value: Record<string, string> }>('SELECT value FROM app_meta WHERE key = $1', [key]);
  return rows[0]?.value[userId] !== undefined;
}

async function mark(client: pg.PoolClient, key: string, entry: { userId: string; strategyId: string }): Promise<void> {
  await client.query(
    `INSERT INTO app_meta (key, value) VALUES ($1, jsonb_build_object($2::text, $3::text))
     ON CONFLICT (key) DO UPDATE SET value = app_meta.value || EXCLUDED.value`, [key, entry.userId, entry.strategyId]);
}

/** A DRAFT strategy for the plan, or the one an interrupted earlier call left (same user and name). */
async function strategyFor(client: pg.PoolClient, request: { plan: DemoPaperStrategy; userId: string; instrumentId: number }): Promise<string> {
  const { plan, userId, instrumentId } = request;
  const existing = await client.query<{ strategy_id: string }>('SELECT strategy_id FROM strategies WHERE user_id = $1 AND name = $2 LIMIT 1', [userId, plan.name]);
  if (existing.rows[0] !== undefined) return existing.rows[0].strategy_id;
  const config = {
    investment: plan.investmentRupees * 100, sizing: { kind: 'all-in' }, manual: false, legs: null,
    ...(plan.stopLossPercent === undefined ? {} : { stopLoss: { kind: 'percent', percent: plan.stopLossPercent } }),
    ...(plan.targetPercent === undefined ? {} : { target: { kind: 'percent', percent: plan.targetPercent } }),
  };
  const { rows } = await client.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, mode, algorithm_id, algorithm_version, instrument_id, interval_minutes, strategy_type, config)
     VALUES ($1, $2, 'algo', 'PAPER', $3, 1, $4, $5, $6, $7) RETURNING strategy_id`,
    [userId, plan.name, exampleAlgorithmId(plan.algorithm), instrumentId, plan.intervalMinutes, plan.strategyType, JSON.stringify(config)]);
  return (rows[0] as { strategy_id: string }).strategy_id;
}

/**
 * Publishes the strategy and subscribes `follower` to it (one lot a trade, paper), before its run
 * starts: the run's followers are those subscribed when it trades (trading/follow/).
 */
async function publishFollowed(client: pg.PoolClient, request: { strategyId: string; follower: string | undefined }): Promise<void> {
  await client.query('UPDATE strategies SET published = true WHERE strategy_id = $1', [request.strategyId]);
  if (request.follower === undefined) return;
  await client.query(
    `INSERT INTO subscriptions (user_id, strategy_id, quantity, sizing)
     SELECT $1, $2, 1, 'quantity' WHERE NOT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = $1 AND strategy_id = $2)`,
    [request.follower, request.strategyId]);
}

/**
 * Deploys the demo paper strategies (the replays, then the market ones) not deployed yet; returns
 * the roles deployed now, once per strategy. A refusal (no free licence slot, no permission) is
 * that user's, logged, and the others still get theirs.
 * @example await deployDemoPaperStrategies({ pool, queue, through: '2026-11-26', log }) // ['advanced', 'demo', ..., 'advanced', ...]
 */
export async function deployDemoPaperStrategies(options: DeployDemoPaperOptions): Promise<DemoRole[]> {
  const { pool, queue, through, log } = options;
  const replay = { from: firstOfSessions(through, options.sessions ?? DEMO_PAPER_SESSIONS), to: through, speed: 0 };
  const plans = options.market === false ? DEMO_PAPER_STRATEGIES : [...DEMO_PAPER_STRATEGIES, ...DEMO_MARKET_STRATEGIES];
  const deployed: DemoRole[] = [];
  const client = await pool.connect();
  let unlocked = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    for (const plan of plans) {
      const userId = await userIdOf(client, plan.role);
      const instrumentId = await instrumentIdOf(client, plan.instrument);
      if (userId === undefined || instrumentId === undefined || await marked(client, markerKey(plan), userId)) continue;
      const strategyId = await strategyFor(client, { plan, userId, instrumentId });
      if (plan.followedBy !== undefined) await publishFollowed(client, { strategyId, follower: await userIdOf(client, plan.followedBy) });
      const userBrokerId = await activeAccountOf(client, userId);
      const outcome = await deployStrategy(pool, {
        actorId: userId, userId, strategyId, mode: 'PAPER', replay: plan.market === true ? null : replay, ...(userBrokerId === undefined ? {} : { userBrokerId }),
      }, {
        enqueue: (transaction, runId) => enqueueStrategyRun(queue, { client: transaction, runId }),
      });
      if (!outcome.ok) {
        log(`demo paper strategies: ${plan.role} not deployed: ${outcome.error.map((issue) => issue.message).join('; ')}`);
        continue;
      }
      await mark(client, markerKey(plan), { userId, strategyId });
      deployed.push(plan.role);
    }
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    unlocked = true;
  } finally {
    client.release(unlocked ? undefined : true);
  }
  if (deployed.length > 0) log(`demo paper strategies: deployed for ${deployed.join(', ')} (replays of ${replay.from} to ${replay.to}, and on the simulated market)`);
  return deployed;
}
