// The demo world's parameter sweep: one published algorithm with `$parameters` (an SMA crossover,
// `$fast` and `$slow` with ranges and `$fast < $slow`), and for each demo user planned here its
// backtest, one COMPLETE sweep and one COMPLETE walk-forward of that run, so the sweep screens
// open on real results. Nothing is made up: the backtest goes through run_backtest and the sweeps
// through start_sweep (the same checks, rows and credits as a user's own), and each is then
// executed here, in this call, by the very functions the workers run (executeBacktestRun,
// executeSweepJob) over the stored candles. The pg-boss jobs those actions queue find them done
// and skip; a worker that takes one first races harmlessly (a run and a sweep complete once).
//
// Invariants:
// - Runs only once the demo world's candles for the range are stored (start.ts and the browser
//   tests' set-up call it after the history, as queueDemoBacktests).
// - Once per user: a marker in app_meta (`demo_sweeps`) records each user seeded, so a repeated
//   call, a restart or a second process (advisory lock) adds nothing, and a backtest or sweep the
//   user deletes does not come back.
// - Small: 19 combinations over three months of 15-minute bars, a few seconds on one core.
import type { IsoDate } from '@vyuha/core';
import { ALGORITHM_VERSION } from '@vyuha/engine';
import type { AlgorithmDocument, AlgorithmParameter, SweepMetric, WalkForwardSpec } from '@vyuha/engine';
import type pg from 'pg';
import { runBacktestAction } from '../../graphql/actions/run-backtest';
import { startSweepAction } from '../../graphql/actions/sweep-actions';
import { GraphqlFailure } from '../../graphql/types';
import type { JobQueue } from '../../jobs/job-queue';
import { executeBacktestRun } from '../../jobs/backtest-run';
import { chunkRanges, readSweepRequest } from '../../jobs/sweep-request';
import { executeSweepJob } from '../../jobs/sweep-run';
import { demoUuid } from './demo-ids';
import { buySellGraph, EXAMPLE_AUTHOR } from './demo-research';
import { demoUserOf, sessionOf } from './demo-research-backtests';
import type { DemoUser } from './demo-research-backtests';
import type { DemoRole } from './demo-users';

const FAST: AlgorithmParameter = { name: 'fast', default: 10, from: 5, to: 20, step: 5 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 30, from: 20, to: 60, step: 10 };

/** The swept example: 4 x 5 = 20 grid points, 19 after `$fast < $slow` (fast 20 with slow 20 is out). */
export const SWEEP_EXAMPLE = {
  name: 'SMA crossover $fast/$slow (sweepable)',
  description: 'Buys when the $fast-bar SMA crosses above the $slow-bar SMA and sells when it crosses back below. '
    + '$fast runs 5 to 20 by 5 and $slow 20 to 60 by 10, with $fast < $slow: sweep it, or walk it forward, from its backtest.',
  graph: {
    ...buySellGraph({
      buy: { label: 'SMA $fast crosses above SMA $slow', expression: 'crossover(sma(close, $fast), sma(close, $slow))' },
      sell: { label: 'SMA $fast crosses below SMA $slow', expression: 'crossunder(sma(close, $fast), sma(close, $slow))' },
    }),
    parameters: [FAST, SLOW],
    constraints: ['$fast < $slow'],
  } satisfies AlgorithmDocument,
} as const;

/** The fixed id of the swept example. */
export function sweepExampleId(): string {
  return demoUuid('algorithm:sma-crossover-sweep');
}

/** What one demo user gets: a backtest of the swept example, then a sweep and a walk-forward of that run. */
export interface DemoSweepPlan {
  readonly role: DemoRole;
  readonly backtestName: string;
  readonly instrument: string;
  readonly strategyType: 'intraday' | 'swing';
  readonly intervalMinutes: number;
  readonly investmentRupees: number;
  readonly sweepMetric: SweepMetric;
  readonly walkForward: WalkForwardSpec & { readonly metric: SweepMetric };
}

/**
 * The administrator (a demo research user with an example backtest and room in its credits:
 * about 1,600 candles for the backtest, 19 x that for the sweep and some 40,000 for the
 * walk-forward, beside its 500,000). About 63 trading days: four windows of 20 in-sample and 10
 * out-of-sample days.
 */
export const DEMO_SWEEPS: readonly DemoSweepPlan[] = [
  {
    role: 'administrator', backtestName: 'Example: SMA crossover $fast/$slow on NIFTY 50, intraday (swept)', instrument: 'NIFTY 50',
    strategyType: 'intraday', intervalMinutes: 15, investmentRupees: 500_000, sweepMetric: 'sharpe',
    walkForward: { inSampleDays: 20, outOfSampleDays: 10, metric: 'returnPercent' },
  },
];

export interface SeedDemoSweepsOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** IST dates, both included, whose candles are stored. */
  readonly range: { readonly from: IsoDate; readonly to: IsoDate };
  readonly log: (message: string) => void;
  /** Wall clock, epoch ms (run_backtest refuses ranges ending after today). Default Date.now. */
  readonly now?: () => number;
}

export interface SeededDemoSweep {
  readonly role: DemoRole;
  readonly runId: string;
  readonly sweepId: string;
  readonly walkForwardId: string;
}

export interface SeedDemoSweepsResult {
  readonly seeded: readonly SeededDemoSweep[];
  readonly skipped: readonly { readonly role: DemoRole; readonly reason: string }[];
  /** Wall time of the call, ms. */
  readonly elapsedMs: number;
}

const MARKER_KEY = 'demo_sweeps';
// Any constant other than demo-research-backtests.ts's.
const LOCK_KEY = 727_004;

/** Inserts the swept example (published, version 1) under its fixed id for the example author; nothing when it is there. */
async function saveSweepExample(client: pg.PoolClient): Promise<void> {
  const author = await demoUserOf(client, EXAMPLE_AUTHOR);
  if (author === undefined) throw new Error(`demo user ${EXAMPLE_AUTHOR} is missing`);
  const algorithmId = sweepExampleId();
  await client.query(
    `INSERT INTO algorithms (algorithm_id, user_id, name, description, published, latest_version)
     VALUES ($1, $2, $3, $4, true, 1) ON CONFLICT DO NOTHING`,
    [algorithmId, author.userId, SWEEP_EXAMPLE.name, SWEEP_EXAMPLE.description]);
  await client.query(
    `INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by)
     SELECT $1, 1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM algorithms WHERE algorithm_id = $1)
     ON CONFLICT (algorithm_id, version) DO NOTHING`,
    [algorithmId, JSON.stringify(SWEEP_EXAMPLE.graph), ALGORITHM_VERSION, author.userId]);
}

async function seededUsers(client: pg.PoolClient): Promise<Record<string, unknown>> {
  const { rows } = await client.query<{ value: Record<string, unknown> }>('SELECT value FROM app_meta WHERE key = $1', [MARKER_KEY]);
  return rows[0]?.value ?? {};
}

async function writeMarker(client: pg.PoolClient, entry: { userId: string; value: unknown }): Promise<void> {
  await client.query(
    `INSERT INTO app_meta (key, value) VALUES ($1, jsonb_build_object($2::text, $3::jsonb))
     ON CONFLICT (key) DO UPDATE SET value = app_meta.value || EXCLUDED.value`,
    [MARKER_KEY, entry.userId, JSON.stringify(entry.value)]);
}

async function candidateOf(client: pg.PoolClient, plan: DemoSweepPlan): Promise<{ user: DemoUser } | { skip: string }> {
  const user = await demoUserOf(client, plan.role);
  if (user === undefined) return { skip: 'no such demo user' };
  if (!user.permissions.includes('strategy:backtest')) return { skip: 'no strategy:backtest permission' };
  if ((await seededUsers(client))[user.userId] !== undefined) return { skip: 'already has its example sweeps' };
  // The strategy but no marker: an earlier call stopped half-way; what it left stays as it is.
  const { rows } = await client.query('SELECT 1 FROM strategies WHERE user_id = $1 AND name = $2', [user.userId, plan.backtestName]);
  if (rows.length > 0) {
    await writeMarker(client, { userId: user.userId, value: { interrupted: true } });
    return { skip: 'already has its example sweeps' };
  }
  return { user };
}

/** A refusal or failure of one user's seed: reported, the others still get theirs. */
class DemoSweepFailure extends Error {
  override readonly name = 'DemoSweepFailure';
}

interface Context {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  readonly now: () => number;
}

/** The backtest of the swept example, queued and executed; its run id. */
async function backtestOf(context: Context, request: { plan: DemoSweepPlan; user: DemoUser; range: SeedDemoSweepsOptions['range'] }): Promise<string> {
  const { plan, range } = request;
  const input = {
    name: plan.backtestName, strategyType: plan.strategyType, algorithms: [sweepExampleId()], instrument: plan.instrument,
    dateRanges: [{ from: range.from, to: range.to }], window: plan.intervalMinutes,
    frequenciesAndInvestments: [{ interval: plan.intervalMinutes, investment: plan.investmentRupees }], tradeInstrumentsConfig: null,
  };
  const output = await runBacktestAction(context, { args: { input }, session: sessionOf(request.user) });
  const runId = output.run_ids[0];
  if (runId === undefined) throw new Error('run_backtest queued no run');
  await executeBacktestRun({ pool: context.pool, runId, now: context.now });
  const { rows } = await context.pool.query<{ status: string; error: string | null }>('SELECT status, error FROM strategy_runs WHERE run_id = $1', [runId]);
  if (rows[0]?.status !== 'COMPLETE') throw new DemoSweepFailure(`its backtest ended ${rows[0]?.status ?? 'missing'}: ${rows[0]?.error ?? ''}`);
  return runId;
}

/** A sweep or walk-forward of the run, started and executed chunk by chunk as the workers would; its id. */
async function sweepOf(context: Context, request: { user: DemoUser; input: Record<string, unknown> }): Promise<string> {
  const started = await startSweepAction(context, { args: { input: request.input }, session: sessionOf(request.user) });
  const sweepId = started.sweep_id as string;
  const { rows } = await context.pool.query<{ request: unknown }>('SELECT request FROM sweeps WHERE sweep_id = $1', [sweepId]);
  const stored = readSweepRequest(rows[0]?.request);
  const ranges = stored.kind === 'walkforward' ? [{ from: 0, to: stored.combinations }] : chunkRanges(stored.combinations, stored.chunkSize);
  for (const range of ranges) await executeSweepJob(context.pool, { sweepId, ...range });
  const { rows: ended } = await context.pool.query<{ status: string; error: string | null }>('SELECT status, error FROM sweeps WHERE sweep_id = $1', [sweepId]);
  if (ended[0]?.status !== 'COMPLETE') throw new DemoSweepFailure(`its ${stored.kind} ended ${ended[0]?.status ?? 'missing'}: ${ended[0]?.error ?? ''}`);
  return sweepId;
}

async function seedOne(context: Context, request: { plan: DemoSweepPlan; user: DemoUser; range: SeedDemoSweepsOptions['range'] }): Promise<Omit<SeededDemoSweep, 'role'>> {
  const { plan, user } = request;
  const runId = await backtestOf(context, request);
  const sweepId = await sweepOf(context, { user, input: { run_id: runId, kind: 'sweep', metric: plan.sweepMetric } });
  const { metric, ...windows } = plan.walkForward;
  const walkForwardId = await sweepOf(context, { user, input: { run_id: runId, kind: 'walkforward', metric, walkForward: windows } });
  return { runId, sweepId, walkForwardId };
}

/**
 * Seeds the swept example and, for each planned demo user without them, its backtest, sweep and
 * walk-forward, executed before returning. Users are taken one at a time under an advisory lock on
 * a connection of its own.
 * @example await seedDemoSweeps({ pool, queue, range: { from: '2026-08-03', to: '2026-10-30' }, log }) // { seeded: [{ role: 'administrator', ... }], skipped: [] }
 */
export async function seedDemoSweeps(options: SeedDemoSweepsOptions): Promise<SeedDemoSweepsResult> {
  const started = performance.now();
  const context: Context = { pool: options.pool, queue: options.queue, now: options.now ?? Date.now };
  const seeded: SeededDemoSweep[] = [];
  const skipped: { role: DemoRole; reason: string }[] = [];
  const client = await options.pool.connect();
  let unlocked = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await saveSweepExample(client);
    for (const plan of DEMO_SWEEPS) {
      const candidate = await candidateOf(client, plan);
      if ('skip' in candidate) {
        skipped.push({ role: plan.role, reason: candidate.skip });
        continue;
      }
      try {
        const ids = await seedOne(context, { plan, user: candidate.user, range: options.range });
        await writeMarker(client, { userId: candidate.user.userId, value: ids });
        seeded.push({ role: plan.role, ...ids });
      } catch (error) {
        if (!(error instanceof GraphqlFailure) && !(error instanceof DemoSweepFailure)) throw error;
        // Marked all the same: what was made stays, and a refusal would only repeat on the next start.
        await writeMarker(client, { userId: candidate.user.userId, value: { failed: error.message } });
        skipped.push({ role: plan.role, reason: `refused: ${error.message}` });
        options.log(`demo sweeps: ${plan.role} refused: ${error.message}`);
      }
    }
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    unlocked = true;
  } finally {
    client.release(unlocked ? undefined : true);
  }
  const elapsedMs = Math.round(performance.now() - started);
  if (seeded.length > 0) options.log(`demo sweeps: a backtest, a sweep and a walk-forward for ${seeded.map((item) => item.role).join(', ')} in ${elapsedMs} ms`);
  return { seeded, skipped, elapsedMs };
}
