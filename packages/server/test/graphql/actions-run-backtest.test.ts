import { algorithmFromExpressions, estimateCandles } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestActions } from '../../src/graphql/actions/backtest-actions';
import { GraphqlFailure } from '../../src/graphql/types';
import type { GraphqlSession } from '../../src/graphql/types';
import { BACKTEST_QUEUE, createJobQueue } from '../../src/jobs/job-queue';
import type { JobQueue } from '../../src/jobs/job-queue';
import { readCandles } from '../../src/market-data/candle-store';
import { freshDatabase } from '../helpers/db';
import type { TestDatabase } from '../helpers/db';
import { backtestInput, demoUserId, saveAlgorithm, graphqlSession, writeSyntheticHistory } from './actions-support';

const NOW = Date.UTC(2025, 0, 15, 6, 0);

let db: TestDatabase;
let queue: JobQueue;
let actions: ReturnType<typeof backtestActions>;
const users: Record<string, string> = {};
let algorithmA: string;
let algorithmB: string;

function action(name: string): (args: Record<string, unknown>, session: GraphqlSession) => Promise<unknown> {
  const declaration = actions.find((entry) => entry.name === name);
  if (declaration === undefined) throw new Error(`no action ${name}`);
  return (args, session) => declaration.handler({ args, session });
}

const runBacktest = (input: Record<string, unknown>, session: GraphqlSession): Promise<{ strategy_id: string; run_ids: string[]; candles: number }> =>
  action('run_backtest')({ input }, session) as Promise<{ strategy_id: string; run_ids: string[]; candles: number }>;

async function failureOf(promise: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GraphqlFailure);
  return error as GraphqlFailure;
}

/** Rows that a refused request must leave untouched. */
async function counts(): Promise<Record<string, number>> {
  const { rows } = await db.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM strategies) AS strategies, (SELECT count(*) FROM strategy_runs) AS runs,
            (SELECT count(*) FROM pgboss.job WHERE name = '${BACKTEST_QUEUE}') AS jobs,
            (SELECT sum(utilized_credits) FROM licences WHERE licence_type = 'backtest') AS utilized`);
  return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([key, value]) => [key, Number(value)]));
}

const advanced = (): GraphqlSession => graphqlSession({ tier: 'advanced', userId: users.advanced as string });

describe('backtest actions', () => {
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
    actions = backtestActions({ pool: db.pool, queue, now: () => NOW });
    for (const tier of ['advanced', 'backtest', 'demo', 'trial', 'manager']) users[tier] = await demoUserId(db.pool, tier);
    await writeSyntheticHistory(db.pool);
    algorithmA = await saveAlgorithm(db.pool, { userId: users.advanced as string, name: 'sma cross' });
    algorithmB = await saveAlgorithm(db.pool, { userId: users.advanced as string, name: 'sma cross 2' });
  });
  afterAll(async () => {
    await queue?.stop();
    await db?.close();
  });

  it('declares the three actions with their SDL and roles', () => {
    expect(actions.map((entry) => [entry.name, entry.kind])).toEqual([['run_backtest', 'mutation'], ['cancel_backtest', 'mutation'], ['candle_series', 'query']]);
    expect(actions[0]?.field).toBe('run_backtest(input: run_backtest_input!): run_backtest_output!');
    expect(actions[0]?.types).toContain('input run_backtest_input');
    expect(actions[0]?.roles).toContain('backtest');
    expect(actions[0]?.roles).not.toContain('trial');
  });

  it('creates one strategy, one IN PROGRESS run per cell with its job, and reserves the estimated credits', async () => {
    const before = await counts();
    const input = backtestInput([algorithmA, algorithmB], { dateRanges: [{ from: '2024-05-06', to: '2024-05-17' }, { from: '2024-06-03', to: '2024-06-14' }] });
    const output = await runBacktest(input, advanced());
    expect(output.run_ids).toHaveLength(4);
    const expected = [['2024-05-06', '2024-05-17'], ['2024-06-03', '2024-06-14']]
      .map(([from, to]) => estimateCandles({ dateRange: { from: from as never, to: to as never }, interval: 5, instrument: 'NIFTY' }))
      .reduce((sum, value) => sum + value, 0) * 2;
    expect(output.candles).toBe(expected);
    const { rows } = await db.pool.query<{ run_id: string; status: string; kind: string; candles: string; params: { algorithm: { algorithmId: string }; dateRange: { from: string } }; strategy_id: string }>(
      'SELECT run_id, status, kind, candles, params, strategy_id FROM strategy_runs WHERE run_id = ANY($1::uuid[])', [output.run_ids]);
    expect(rows.every((row) => row.status === 'IN PROGRESS' && row.kind === 'BACKTEST' && row.strategy_id === output.strategy_id)).toBe(true);
    expect(rows.reduce((sum, row) => sum + Number(row.candles), 0)).toBe(expected);
    const strategy = (await db.pool.query('SELECT kind, status, user_id, algorithm_id FROM strategies WHERE strategy_id = $1', [output.strategy_id])).rows[0];
    expect(strategy).toEqual({ kind: 'algo', status: 'DRAFT', user_id: users.advanced, algorithm_id: algorithmA });
    const jobs = await db.pool.query<{ id: string; state: string }>(`SELECT id, state FROM pgboss.job WHERE name = $1 AND id = ANY($2::uuid[])`, [BACKTEST_QUEUE, output.run_ids]);
    expect(jobs.rows.map((job) => job.state)).toEqual(['created', 'created', 'created', 'created']);
    const after = await counts();
    expect((after.utilized as number) - (before.utilized as number)).toBe(expected);
  });

  it('refuses overlapping date ranges, naming both, and writes nothing', async () => {
    const before = await counts();
    const failure = await failureOf(runBacktest(backtestInput([algorithmA], {
      dateRanges: [{ from: '2024-05-06', to: '2024-05-20' }, { from: '2024-05-20', to: '2024-05-31' }],
    }), advanced()));
    expect(failure.code).toBe('validation-failed');
    expect(failure.path).toBe('$.selectionSet.run_backtest.args.input.dateRanges[1]');
    expect(failure.message).toContain('overlaps dateRanges[0] (2024-05-06 to 2024-05-20)');
    expect(await counts()).toEqual(before);
  });

  it('names the bad field of a malformed form', async () => {
    const failure = await failureOf(runBacktest(backtestInput([algorithmA], { frequenciesAndInvestments: [{ interval: 7, investment: 1000 }] }), advanced()));
    expect(failure.code).toBe('validation-failed');
    expect(failure.path).toBe('$.selectionSet.run_backtest.args.input.frequenciesAndInvestments[0].interval');
    const unknown = await failureOf(runBacktest(backtestInput([algorithmA], { instrument: 'NIFTY 55' }), advanced()));
    expect(unknown.path).toBe('$.selectionSet.run_backtest.args.input.instrument');
  });

  it('refuses without the strategy:backtest permission or with a role that has no Backtest menu', async () => {
    const before = await counts();
    const noPermission = graphqlSession({ tier: 'advanced', userId: users.advanced as string, permissions: ['strategy:deploy'] });
    const failure = await failureOf(runBacktest(backtestInput([algorithmA]), noPermission));
    expect(failure.code).toBe('permission-error');
    expect(failure.message).toContain('strategy:backtest');
    const trial = await failureOf(runBacktest(backtestInput([algorithmA]), graphqlSession({ tier: 'trial', userId: users.trial as string })));
    expect(trial.code).toBe('permission-error');
    expect(await counts()).toEqual(before);
  });

  it("refuses a range before the tier's minimum date, naming the range and the earliest date", async () => {
    const demoAlgorithm = await saveAlgorithm(db.pool, { userId: users.demo as string, name: 'demo sma' });
    const before = await counts();
    const failure = await failureOf(runBacktest(backtestInput([demoAlgorithm], {
      dateRanges: [{ from: '2024-05-06', to: '2024-05-10' }, { from: '2022-06-01', to: '2022-06-30' }],
    }), graphqlSession({ tier: 'demo', userId: users.demo as string })));
    expect(failure.code).toBe('permission-error');
    expect(failure.path).toBe('$.selectionSet.run_backtest.args.input.dateRanges[1]');
    expect(failure.message).toContain('2022-06-01 to 2022-06-30 starts before 2023-01-01');
    expect(await counts()).toEqual(before);
  });

  it('refuses what the BACKTEST credits cannot cover, saying how many are needed and available, and writes nothing', async () => {
    const own = await saveAlgorithm(db.pool, { userId: users.backtest as string, name: 'bt sma' });
    const before = await counts();
    const { rows } = await db.pool.query<{ left: string }>(
      `SELECT total_credits - utilized_credits AS left FROM licences WHERE user_id = $1 AND licence_type = 'backtest'`, [users.backtest]);
    const input = backtestInput([own], { dateRanges: [{ from: '2024-05-02', to: '2024-06-28' }], frequenciesAndInvestments: [{ interval: 1, investment: 100_000 }] });
    const needed = estimateCandles({ dateRange: { from: '2024-05-02' as never, to: '2024-06-28' as never }, interval: 1, instrument: 'NIFTY' });
    const failure = await failureOf(runBacktest(input, graphqlSession({ tier: 'backtest', userId: users.backtest as string, permissions: ['strategy:backtest'] })));
    expect(failure.code).toBe('insufficient-credits');
    expect(failure.message).toBe(`this backtest needs ${needed} BACKTEST credits (candles) and ${Number(rows[0]?.left)} are available`);
    expect(await counts()).toEqual(before);
  });

  it('refuses an algorithm whose latest version does not compile, naming the version and the error, and writes nothing', async () => {
    const broken = await saveAlgorithm(db.pool, {
      userId: users.advanced as string, name: 'divides by zero',
      graph: algorithmFromExpressions({ entry: 'close / 0 > 1', exit: 'close < sma(close, 10)' }),
    });
    // Version 2 breaks what version 1 had right: the latest version is the one that runs.
    await db.pool.query('INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 2, $2, 1, $3)',
      [algorithmA, JSON.stringify(algorithmFromExpressions({ entry: 'clsoe > 1' })), users.advanced]);
    await db.pool.query('UPDATE algorithms SET latest_version = 2 WHERE algorithm_id = $1', [algorithmA]);
    try {
      const before = await counts();
      const failure = await failureOf(runBacktest(backtestInput([algorithmB, broken]), advanced()));
      expect(failure.code).toBe('validation-failed');
      expect(failure.path).toBe('$.selectionSet.run_backtest.args.input.algorithms[1]');
      expect(failure.message).toBe("algorithms[1]: algorithm divides by zero version 1 does not compile: nodes[0].expression: 1:9: division by zero: the right side of '/' is always 0");
      const second = await failureOf(runBacktest(backtestInput([algorithmA]), advanced()));
      expect(second.path).toBe('$.selectionSet.run_backtest.args.input.algorithms[0]');
      expect(second.message).toBe("algorithms[0]: algorithm sma cross version 2 does not compile: nodes[0].expression: 1:1: unknown name 'clsoe'; did you mean 'close'?");
      expect(await counts()).toEqual(before);
    } finally {
      await db.pool.query('UPDATE algorithms SET latest_version = 1 WHERE algorithm_id = $1', [algorithmA]);
    }
  });

  it("accepts published algorithms of others, refuses private ones", async () => {
    const privateOne = await saveAlgorithm(db.pool, { userId: users.demo as string, name: 'private' });
    const published = await saveAlgorithm(db.pool, { userId: users.demo as string, name: 'shared', published: true });
    const failure = await failureOf(runBacktest(backtestInput([privateOne]), advanced()));
    expect(failure.path).toBe('$.selectionSet.run_backtest.args.input.algorithms[0]');
    const output = await runBacktest(backtestInput([published]), advanced());
    expect(output.run_ids).toHaveLength(1);
  });

  it('runs for the managed user when a manager acts for one', async () => {
    const session = graphqlSession({ tier: 'manager', userId: users.manager as string, actingFor: users.advanced as string });
    const output = await runBacktest(backtestInput([algorithmA], { dateRanges: [{ from: '2024-06-17', to: '2024-06-21' }] }), session);
    const { rows } = await db.pool.query<{ user_id: string; params: { actorId: string } }>('SELECT user_id, params FROM strategy_runs WHERE run_id = $1', [output.run_ids[0]]);
    expect(rows[0]?.user_id).toBe(users.advanced);
    expect(rows[0]?.params.actorId).toBe(users.manager);
  });

  it('cancels an own run IN PROGRESS: ERROR with the reason, credits back, job cancelled; others cannot', async () => {
    const output = await runBacktest(backtestInput([algorithmA], { dateRanges: [{ from: '2024-06-24', to: '2024-06-28' }] }), advanced());
    const runId = output.run_ids[0] as string;
    const stranger = await failureOf(action('cancel_backtest')({ run_id: runId }, graphqlSession({ tier: 'demo', userId: users.demo as string })));
    expect(stranger.code).toBe('not-found');
    const cancelled = await action('cancel_backtest')({ run_id: runId }, advanced());
    expect(cancelled).toEqual({ run_id: runId, status: 'ERROR', cancelled: true });
    const run = (await db.pool.query('SELECT status, error, candles, finished_at IS NOT NULL AS finished FROM strategy_runs WHERE run_id = $1', [runId])).rows[0];
    expect(run).toMatchObject({ status: 'ERROR', candles: '0', finished: true });
    expect(run.error).toMatch(/^cancelled by the user at 2025-01-15 11:30:00 IST$/);
    const job = (await db.pool.query('SELECT state FROM pgboss.job WHERE id = $1', [runId])).rows[0];
    expect(job?.state).toBe('cancelled');
    expect(await action('cancel_backtest')({ run_id: runId }, advanced())).toEqual({ run_id: runId, status: 'ERROR', cancelled: false });
  });

  it('serves candles at an interval, columnar, and refuses dates before the tier allows', async () => {
    const nifty = (await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50'`)).rows[0]?.instrument_id as number;
    const result = await action('candle_series')({ instrument_id: nifty, interval: 15, from: '2024-06-03', to: '2024-06-07' }, advanced()) as { count: number; time: number[]; close: number[]; truncated: boolean };
    const direct = await readCandles(db.pool, { instrumentId: nifty, from: Date.UTC(2024, 5, 2, 18, 30), to: Date.UTC(2024, 5, 7, 18, 30), intervalMinutes: 15 });
    expect(result.count).toBe(direct.length);
    expect(result.count).toBe(5 * 25);
    expect(result.close).toEqual(Array.from(direct.close));
    expect(result.truncated).toBe(false);
    const refused = await failureOf(action('candle_series')({ instrument_id: nifty, interval: 1, from: '2024-06-03', to: '2024-06-07' }, graphqlSession({ tier: 'trial', userId: users.trial as string })));
    expect(refused.code).toBe('permission-error');
    expect(refused.message).toContain('2025-01-01');
    const bad = await failureOf(action('candle_series')({ instrument_id: nifty, interval: 4, from: '2024-06-03', to: '2024-06-07' }, advanced()));
    expect(bad.path).toBe('$.selectionSet.candles.args.interval');
  });
});
