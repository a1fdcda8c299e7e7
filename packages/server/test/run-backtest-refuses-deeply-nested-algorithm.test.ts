// The other road a deeply nested algorithm document takes to the engine (besides the CLI's
// parseAlgorithmJson, whose stack overflow is fixed and tested beside it in
// packages/engine/src/algorithm/parse-json-nested-too-deeply.test.ts): stored in
// algorithm_versions.graph (jsonb), read back by node-postgres (JSON.parse, which does not
// recurse) and compiled by run_backtest before anything is reserved. It must be a clear refusal
// naming the field, with nothing written, not a stack overflow or a 500.
import { algorithmFromExpressions } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import { GraphqlFailure } from '../src/graphql/types';
import { createJobQueue, type JobQueue } from '../src/jobs/job-queue';
import { freshDatabase, type TestDatabase } from './helpers/db';
import { backtestInput, demoUserId, graphqlSession } from './graphql/actions-support';

let db: TestDatabase;
let queue: JobQueue;
let userId: string;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
  userId = await demoUserId(db.pool, 'advanced');
});
afterAll(async () => {
  await queue?.stop();
  await db?.close();
});

/** An algorithm whose first node's position.x is `levels` arrays deep (JSON text: JSON.stringify would recurse). */
async function deepAlgorithm(levels: number): Promise<string> {
  const text = JSON.stringify(algorithmFromExpressions({ entry: 'close > open' })).replace('"x":0', `"x":${'['.repeat(levels)}1${']'.repeat(levels)}`);
  const { rows } = await db.pool.query<{ algorithm_id: string }>(
    'INSERT INTO algorithms (user_id, name, published, latest_version) VALUES ($1, $2, false, 1) RETURNING algorithm_id', [userId, `nested ${levels}`]);
  const algorithmId = rows[0]?.algorithm_id ?? '';
  await db.pool.query('INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 1, $2::jsonb, 1, $3)', [algorithmId, text, userId]);
  return algorithmId;
}

describe('run_backtest with a deeply nested stored algorithm', () => {
  it('refuses it at algorithms[0], naming the field, and writes nothing', async () => {
    const algorithmId = await deepAlgorithm(5_000);
    const runBacktest = backtestActions({ pool: db.pool, queue }).find((action) => action.name === 'run_backtest');
    const session = graphqlSession({ tier: 'advanced', userId });
    const before = await db.pool.query('SELECT count(*)::int AS n FROM strategy_runs');
    const outcome = await runBacktest?.handler({ args: { input: backtestInput([algorithmId]) }, session }).then(() => undefined, (error: unknown) => error);
    expect(outcome).toBeInstanceOf(GraphqlFailure);
    const failure = outcome as GraphqlFailure;
    expect(failure.code).toBe('validation-failed');
    expect(failure.message).toMatch(/algorithms\[0\].*does not compile: nodes\[0\]\.position\.x: expected a number, got an array/);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM strategy_runs')).rows).toEqual(before.rows);
  });
});
