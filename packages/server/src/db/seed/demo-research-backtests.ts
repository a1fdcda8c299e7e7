// One finished backtest per demo user who may backtest, so a newcomer opening /backtest sees
// results at once. Each is a real request through `run_backtest` (the same checks, credits, rows
// and pg-boss job as a user's own), made for the user with a session shaped like their token's
// claims, and executed by the ordinary backtest workers. It can only run once the demo world's
// candles for the range are stored, so the caller (start.ts, the browser tests' set-up) calls it
// after the history is written; a repeated call, a restart or a second process adds nothing.
import type { IsoDate } from '@vyuha/core';
import type pg from 'pg';
import { postgresArrayLiteral } from '../../auth/claims';
import { windowClaims } from '../../auth/tier-windows';
import { runBacktestAction } from '../../graphql/actions/run-backtest';
import type { RunBacktestOutput } from '../../graphql/actions/run-backtest';
import { GraphqlFailure } from '../../graphql/types';
import type { GraphqlSession } from '../../graphql/types';
import type { JobQueue } from '../../jobs/job-queue';
import { exampleAlgorithmId, SHORT_STRADDLE_LEGS } from './demo-research';
import type { ExampleKey } from './demo-research';
import { demoEmail } from './demo-users';
import type { DemoRole } from './demo-users';

/** What one demo user's example backtest runs (one algorithm, one range, one interval: one run). */
export interface DemoBacktest {
  readonly role: DemoRole;
  readonly name: string;
  readonly algorithm: ExampleKey;
  readonly instrument: string;
  readonly strategyType: 'intraday' | 'swing';
  readonly intervalMinutes: number;
  readonly investmentRupees: number;
  readonly tradeInstrumentsConfig: unknown;
}

/**
 * The six backtesting roles share the four examples, varied by instrument, style and interval.
 * The runs stay small beside the credit situations demo-accounts.ts sets up (3 months are about
 * 62 sessions; a session is 75 five-minute candles, 25 of 15 minutes, 13 of 30, 7 of 60): the
 * straddle about 4,650, the backtest tier's run (4,000 credits left after its 92%) about 806, and
 * advanced's about 1,550, which keeps its 80% a warning (under 90%).
 */
export const DEMO_BACKTESTS: readonly DemoBacktest[] = [
  { role: 'advanced', name: 'Example: EMA crossover 9/21 on NIFTY 50, intraday', algorithm: 'ema-crossover', instrument: 'NIFTY 50',
    strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 500_000, tradeInstrumentsConfig: null },
  { role: 'backtest', name: 'Example: RSI 14 reversal on NIFTY 50, swing', algorithm: 'rsi-reversal', instrument: 'NIFTY 50',
    strategyType: 'swing', intervalMinutes: 30, investmentRupees: 500_000, tradeInstrumentsConfig: null },
  { role: 'demo', name: 'Example: 09:20 short straddle on NIFTY, 30% stop per leg', algorithm: 'short-straddle', instrument: 'NIFTY 50',
    strategyType: 'intraday', intervalMinutes: 5, investmentRupees: 300_000, tradeInstrumentsConfig: SHORT_STRADDLE_LEGS },
  { role: 'manager', name: 'Example: SuperTrend 10,3 swing on NIFTY BANK', algorithm: 'supertrend-swing', instrument: 'NIFTY BANK',
    strategyType: 'swing', intervalMinutes: 15, investmentRupees: 500_000, tradeInstrumentsConfig: null },
  { role: 'administrator', name: 'Example: RSI 14 reversal on NIFTY BANK, intraday', algorithm: 'rsi-reversal', instrument: 'NIFTY BANK',
    strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 500_000, tradeInstrumentsConfig: null },
  { role: 'superadmin', name: 'Example: EMA crossover 9/21 on NIFTY 50, swing', algorithm: 'ema-crossover', instrument: 'NIFTY 50',
    strategyType: 'swing', intervalMinutes: 60, investmentRupees: 500_000, tradeInstrumentsConfig: null },
];

export interface QueueDemoBacktestsOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** IST dates, both included, whose candles (and INDIA VIX's, for the straddle) are stored. */
  readonly range: { readonly from: IsoDate; readonly to: IsoDate };
  readonly log: (message: string) => void;
  /** Wall clock, epoch ms (run_backtest refuses ranges ending after today). Default Date.now. */
  readonly now?: () => number;
}

export interface QueueDemoBacktestsResult {
  /** Roles whose backtest was queued by this call. */
  readonly queued: readonly DemoRole[];
  /** Roles skipped, each with why (already there, no such user, no permission, refused). */
  readonly skipped: readonly { readonly role: DemoRole; readonly reason: string }[];
}

/** Records which users already got their example backtest, so one they delete does not come back. */
const MARKER_KEY = 'demo_backtests';
// Any constant: concurrent callers (two processes starting together) take turns.
const LOCK_KEY = 727_003;
const BACKTEST_PERMISSION = 'strategy:backtest';

/** A demo user as the seeds act for them (demo-sweeps.ts too). */
export interface DemoUser {
  readonly userId: string;
  readonly tier: string;
  readonly permissions: readonly string[];
}

export async function demoUserOf(client: pg.PoolClient, role: DemoRole): Promise<DemoUser | undefined> {
  const { rows } = await client.query<{ user_id: string; tier: string; permissions: string[] }>(
    `SELECT u.user_id, u.tier, array(SELECT p.permission FROM user_permissions p WHERE p.user_id = u.user_id ORDER BY p.permission) AS permissions
     FROM auth.users a JOIN users u ON u.user_id = a.id WHERE a.email = $1`, [demoEmail(role)]);
  const row = rows[0];
  return row === undefined ? undefined : { userId: row.user_id, tier: row.tier, permissions: row.permissions };
}

/** The session a signed-in user's token gives (auth/claims.ts), as the GraphQL layer reads it. */
export function sessionOf(user: DemoUser): GraphqlSession {
  const windows = Object.fromEntries(Object.entries(windowClaims(user.tier)).map(([name, date]) => [`x-hasura-${name.toLowerCase()}`, date]));
  return {
    role: user.tier,
    admin: false,
    variables: {
      ...windows,
      'x-hasura-role': user.tier,
      'x-hasura-default-role': user.tier,
      'x-hasura-allowed-roles': postgresArrayLiteral([user.tier, 'user', 'me']),
      'x-hasura-user-id': user.userId,
      'x-hasura-permissions': postgresArrayLiteral(user.permissions),
    },
  };
}

function inputOf(plan: DemoBacktest, range: QueueDemoBacktestsOptions['range']): Record<string, unknown> {
  return {
    name: plan.name, strategyType: plan.strategyType, algorithms: [exampleAlgorithmId(plan.algorithm)], instrument: plan.instrument,
    dateRanges: [{ from: range.from, to: range.to }], window: plan.intervalMinutes,
    frequenciesAndInvestments: [{ interval: plan.intervalMinutes, investment: plan.investmentRupees }],
    tradeInstrumentsConfig: plan.tradeInstrumentsConfig,
  };
}

async function readMarker(client: pg.PoolClient): Promise<Record<string, string>> {
  const { rows } = await client.query<{ value: Record<string, string> }>('SELECT value FROM app_meta WHERE key = $1', [MARKER_KEY]);
  return rows[0]?.value ?? {};
}

async function writeMarker(client: pg.PoolClient, entry: { userId: string; strategyId: string }): Promise<void> {
  await client.query(
    `INSERT INTO app_meta (key, value) VALUES ($1, jsonb_build_object($2::text, $3::text))
     ON CONFLICT (key) DO UPDATE SET value = app_meta.value || EXCLUDED.value`,
    [MARKER_KEY, entry.userId, entry.strategyId]);
}

/** The user who should get their example backtest now, or why not. */
async function candidateOf(client: pg.PoolClient, plan: DemoBacktest): Promise<{ user: DemoUser } | { skip: string }> {
  const user = await demoUserOf(client, plan.role);
  if (user === undefined) return { skip: 'no such demo user' };
  if (!user.permissions.includes(BACKTEST_PERMISSION)) return { skip: `no ${BACKTEST_PERMISSION} permission` };
  if ((await readMarker(client))[user.userId] !== undefined) return { skip: 'already has its example backtest' };
  // A strategy of that name but no marker: an earlier call stopped between its two writes.
  const { rows } = await client.query<{ strategy_id: string }>('SELECT strategy_id FROM strategies WHERE user_id = $1 AND name = $2 LIMIT 1', [user.userId, plan.name]);
  const existing = rows[0];
  if (existing === undefined) return { user };
  await writeMarker(client, { userId: user.userId, strategyId: existing.strategy_id });
  return { skip: 'already has its example backtest' };
}

async function queueOne(options: QueueDemoBacktestsOptions, request: { plan: DemoBacktest; user: DemoUser }): Promise<RunBacktestOutput | string> {
  try {
    return await runBacktestAction(
      { pool: options.pool, queue: options.queue, now: options.now ?? Date.now },
      { args: { input: inputOf(request.plan, options.range) }, session: sessionOf(request.user) },
    );
  } catch (error) {
    // A refusal (credits spent, a range the tier may not see, an example the author deleted) is
    // that user's; the others still get theirs.
    if (error instanceof GraphqlFailure) return `refused: ${error.message}`;
    throw error;
  }
}

/**
 * Queues the example backtest of every demo user who may backtest and has none yet; the workers
 * run them. Users are taken one at a time under an advisory lock held on a connection of its own,
 * so two callers never both queue one.
 * @example await queueDemoBacktests({ pool, queue, range: { from: '2026-08-03', to: '2026-10-30' }, log }) // { queued: ['advanced', ...], skipped: [] }
 */
export async function queueDemoBacktests(options: QueueDemoBacktestsOptions): Promise<QueueDemoBacktestsResult> {
  const queued: DemoRole[] = [];
  const skipped: { role: DemoRole; reason: string }[] = [];
  const client = await options.pool.connect();
  let unlocked = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    for (const plan of DEMO_BACKTESTS) {
      const candidate = await candidateOf(client, plan);
      if ('skip' in candidate) {
        skipped.push({ role: plan.role, reason: candidate.skip });
        continue;
      }
      const outcome = await queueOne(options, { plan, user: candidate.user });
      if (typeof outcome === 'string') {
        skipped.push({ role: plan.role, reason: outcome });
        options.log(`demo backtests: ${plan.role} ${outcome}`);
        continue;
      }
      await writeMarker(client, { userId: candidate.user.userId, strategyId: outcome.strategy_id });
      queued.push(plan.role);
    }
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    unlocked = true;
  } finally {
    // A connection still holding the lock (an error above) is closed, not pooled: closing frees the lock.
    client.release(unlocked ? undefined : true);
  }
  if (queued.length > 0) options.log(`demo backtests: queued for ${queued.join(', ')} (${options.range.from} to ${options.range.to})`);
  return { queued, skipped };
}
