// deploy_strategy, stop_strategy, confirm_signal and create_strategy_from_backtest as a client meets them: the platform on a
// seeded database (spec-server.ts, the actions of start.ts), demo users signed in over HTTP,
// POST /v1/graphql; the rows, jobs and audit rows read back with SQL. The advanced demo user
// holds a STRATEGIES/DEPLOYED licence of 5 slots with 2 used (the seed) and every permission;
// the backtest user lacks strategy:deploy; the manager manages advanced.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoRole } from '../../src/db/seed/demo-users';
import { parseOptionsLegsConfig } from '@vyuha/engine';
import { BACKTEST_PARAMS_FORMAT } from '../../src/jobs/backtest-params';
import { STRATEGY_RUN_QUEUE } from '../../src/jobs/job-queue';
import { LIVE_UNAVAILABLE_MESSAGE } from '../../src/trading/deployments';
import { saveAlgorithm } from './actions-support';
import { dataOf, startSpecServer } from './spec-server';
import type { GraphqlBody, SpecServer } from './spec-server';

/** A past month replayed as fast as possible: paper strategies run on replays of stored history for now. */
const REPLAY = { from: '2024-05-06', to: '2024-05-31', speed: 0 };
const DEPLOY = `mutation ($id: uuid!, $mode: String!, $replay: deploy_replay_input) {
  deploy_strategy(strategy_id: $id, mode: $mode, replay: $replay) { run_id } }`;
const STOP = 'mutation ($id: uuid!, $squareOff: Boolean!) { stop_strategy(strategy_id: $id, square_off: $squareOff) { strategy_id run_id } }';
const CONFIRM = 'mutation ($id: uuid!, $accept: Boolean!) { confirm_signal(pending_signal_id: $id, accept: $accept) { pending_signal_id state outcome } }';
const UPDATE = 'mutation ($id: uuid!, $set: strategies_set_input!) { update_strategies_by_pk(pk_columns: { strategy_id: $id }, _set: $set) { name status } }';
const INSERT = `mutation ($object: strategies_insert_input!) { insert_strategies_one(object: $object) { strategy_id status } }`;

interface Refusal {
  readonly code: string | undefined;
  readonly message: string;
  readonly path: string | undefined;
  readonly issues: ReadonlyArray<{ field?: string; code: string; message: string }>;
}

let server: SpecServer;
const ids: Partial<Record<DemoRole, string>> = {};
const algorithms: Partial<Record<DemoRole, string>> = {};
let niftyId: number;

const userOf = (role: DemoRole): string => ids[role] as string;

/** `role` calls, or the manager acting for the user `as` names (`x-hasura-managed-user-id`). */
async function call(role: DemoRole | { manager: DemoRole; as: DemoRole }, query: string, variables: Record<string, unknown>): Promise<GraphqlBody> {
  if (typeof role === 'string') return server.graphql({ query, variables }, { token: await server.token(role) });
  return server.graphql({ query, variables }, { token: await server.token(role.manager), headers: { 'x-hasura-managed-user-id': userOf(role.as) } });
}

function refusalOf(body: GraphqlBody): Refusal {
  const error = body.errors?.[0] as (NonNullable<GraphqlBody['errors']>[number] & { extensions?: { issues?: Refusal['issues'] } }) | undefined;
  if (error === undefined) throw new Error(`expected an error, got ${JSON.stringify(body)}`);
  expect(body.data ?? null).toBeNull();
  return { code: error.extensions?.code, message: error.message, path: error.extensions?.path, issues: error.extensions?.issues ?? [] };
}

async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await server.db.pool.query(text, values)).rows as T[];
}

/** A DRAFT algo strategy of `role` made through the API, NIFTY 50 at 5 minutes, 5 lakh rupees unless `config` says otherwise. */
async function newStrategy(role: DemoRole, config: Record<string, unknown> = { investment: 50_000_000 }): Promise<string> {
  const object = {
    name: `deploy test ${Math.random().toString(36).slice(2, 10)}`, kind: 'algo', algorithm_id: algorithms[role], algorithm_version: 1,
    instrument_id: niftyId, interval_minutes: 5, strategy_type: 'intraday', config,
  };
  const inserted = dataOf(await call(role, INSERT, { object })).insert_strategies_one as { strategy_id: string; status: string };
  expect(inserted.status).toBe('DRAFT');
  return inserted.strategy_id;
}

async function licenceOf(role: DemoRole): Promise<{ id: string; available: number; utilized: number }> {
  const [row] = await sql<{ id: string; available: number; utilized: number }>('SELECT id, available, utilized FROM deployed_strategies WHERE user_id = $1', [userOf(role)]);
  if (row === undefined) throw new Error(`${role} has no licence row`);
  return row;
}

/** Everything a refused call must leave as it was. */
async function snapshot(): Promise<string> {
  const [row] = await sql(`SELECT (SELECT json_agg(json_build_object('id', strategy_id, 'status', status) ORDER BY strategy_id) FROM strategies) AS strategies,
      (SELECT count(*)::int FROM strategy_runs) AS runs, (SELECT json_agg(utilized ORDER BY id) FROM deployed_strategies) AS utilized,
      (SELECT count(*)::int FROM pgboss.job WHERE name = '${STRATEGY_RUN_QUEUE}') AS jobs, (SELECT count(*)::int FROM audit_log) AS audit,
      (SELECT json_agg(json_build_object('id', pending_signal_id, 'state', state) ORDER BY pending_signal_id) FROM pending_signals) AS signals`);
  return JSON.stringify(row);
}

async function deployed(role: Parameters<typeof call>[0], strategyId: string): Promise<string> {
  return (dataOf(await call(role, DEPLOY, { id: strategyId, mode: 'PAPER', replay: REPLAY })).deploy_strategy as { run_id: string }).run_id;
}

beforeAll(async () => {
  server = await startSpecServer();
  for (const role of ['advanced', 'backtest', 'demo', 'manager', 'trial'] as const) {
    ids[role] = await server.userId(role);
    algorithms[role] = await saveAlgorithm(server.db.pool, { userId: userOf(role), name: `deploy test ${role}` });
    // Signed in up front: a first sign-in writes audit rows, which the snapshots of refusals count.
    await server.token(role);
  }
  niftyId = (await sql<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`))[0]?.instrument_id as number;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('deploy_strategy', () => {
  it('deploys a DRAFT strategy on PAPER: a run in progress, the strategy ACTIVE, a licence slot, a job, an audit row', async () => {
    const strategyId = await newStrategy('advanced');
    const before = await licenceOf('advanced');
    const runId = await deployed('advanced', strategyId);
    const [run] = await sql('SELECT strategy_id, user_id, kind, status, params, licence_id, stop_requested_at FROM strategy_runs WHERE run_id = $1', [runId]);
    expect(run).toEqual({
      strategy_id: strategyId, user_id: userOf('advanced'), kind: 'PAPER', status: 'IN PROGRESS', licence_id: before.id, stop_requested_at: null,
      params: {
        mode: 'PAPER', replay: REPLAY, instrumentId: niftyId, intervalMinutes: 5,
        config: {
          algorithm: { id: algorithms.advanced, version: 1 }, legs: null, instrument: 'NIFTY 50', interval: 5, type: 'intraday',
          investment: 50_000_000, sizing: { kind: 'all-in' }, manual: false,
        },
      },
    });
    expect(await sql('SELECT status, mode FROM strategies WHERE strategy_id = $1', [strategyId])).toEqual([{ status: 'ACTIVE', mode: 'PAPER' }]);
    expect((await licenceOf('advanced')).utilized).toBe(before.utilized + 1);
    expect(await sql('SELECT state, data FROM pgboss.job WHERE name = $1 AND singleton_key = $2', [STRATEGY_RUN_QUEUE, runId]))
      .toEqual([{ state: 'created', data: { runId } }]);
    expect(await sql(`SELECT actor_user_id, action, after->>'run_id' AS run_id, after->>'user_id' AS user_id FROM audit_log WHERE entity = 'strategies' AND entity_id = $1`, [strategyId]))
      .toEqual([{ actor_user_id: userOf('advanced'), action: 'strategy.deployed', run_id: runId, user_id: userOf('advanced') }]);

    // Deployed already: refused, nothing changes.
    const state = await snapshot();
    const again = refusalOf(await call('advanced', DEPLOY, { id: strategyId, mode: 'PAPER', replay: REPLAY }));
    expect(again).toMatchObject({ code: 'invalid-status', message: 'the strategy is ACTIVE: it is running already', path: '$.selectionSet.deploy_strategy.args.strategy_id' });
    expect(await snapshot()).toBe(state);
  });

  it('refuses without a free licence slot, saying how many are used, and changes nothing', async () => {
    const strategyId = await newStrategy('advanced');
    const licence = await licenceOf('advanced');
    await sql('UPDATE deployed_strategies SET utilized = available WHERE id = $1', [licence.id]);
    try {
      const state = await snapshot();
      const refused = refusalOf(await call('advanced', DEPLOY, { id: strategyId, mode: 'PAPER', replay: REPLAY }));
      expect(refused).toMatchObject({
        code: 'no-licence-slot', path: '$.selectionSet.deploy_strategy',
        message: `every STRATEGIES/DEPLOYED licence slot is in use (${licence.available} of ${licence.available}): stop a strategy or extend the licence`,
      });
      expect(await snapshot()).toBe(state);
    } finally {
      await sql('UPDATE deployed_strategies SET utilized = $2 WHERE id = $1', [licence.id, licence.utilized]);
    }
  });

  it('refuses an account without strategy:deploy, listing every issue', async () => {
    const strategyId = await newStrategy('backtest');
    const state = await snapshot();
    const refused = refusalOf(await call('backtest', DEPLOY, { id: strategyId, mode: 'PAPER', replay: REPLAY }));
    expect(refused.code).toBe('permission-error');
    expect(refused.issues.map((issue) => issue.code)).toEqual(['permission-missing', 'no-licence-slot']);
    expect(refused.message).toBe('deploying a strategy needs the strategy:deploy permission, which this account does not have; '
      + 'no STRATEGIES/DEPLOYED licence is valid today: a licence slot is needed to deploy');
    expect(await snapshot()).toBe(state);
  });

  it('refuses LIVE without what it needs (each at its field), a bad configuration at its field, and replay speed 7 at replay.speed', async () => {
    const strategyId = await newStrategy('advanced');
    const state = await snapshot();
    const live = refusalOf(await call('advanced', DEPLOY, { id: strategyId, mode: 'LIVE', replay: REPLAY }));
    expect(live.code).toBe('validation-failed');
    expect(live.path).toBe('$.selectionSet.deploy_strategy.args.replay');
    expect(live.issues).toEqual([
      { field: 'replay', code: 'invalid-replay', message: 'a LIVE strategy trades the market as it happens: a replay is for PAPER' },
      { field: 'strategy_id', code: 'algo-id-missing', message: "every LIVE order carries the exchange's algo id: set the strategy's algo id first" },
      { field: 'user_broker_id', code: 'broker-account', message: 'user_broker_id: a LIVE strategy trades through one of your broker accounts: choose it' },
    ]);
    expect(await snapshot()).toBe(state);
    const demo = refusalOf(await call('demo', DEPLOY, { id: await newStrategy('demo'), mode: 'LIVE' }));
    expect(demo.issues).toContainEqual({ field: 'mode', code: 'live-unavailable', message: LIVE_UNAVAILABLE_MESSAGE });
    expect(LIVE_UNAVAILABLE_MESSAGE).toBe('demo and backtest accounts trade on PAPER only');

    const speed = refusalOf(await call('advanced', DEPLOY, { id: strategyId, mode: 'PAPER', replay: { from: '2024-05-06', to: '2024-05-31', speed: 7 } }));
    expect(speed).toMatchObject({ code: 'validation-failed', path: '$.selectionSet.deploy_strategy.args.replay.speed',
      message: 'replay.speed must be one of 0, 1, 10, 60, 600 (0 = as fast as possible), got 7' });

    const badConfig = await newStrategy('advanced', { investment: 50_000_000, sizing: { kind: 'lots', lots: 2 } });
    const config = refusalOf(await call('advanced', DEPLOY, { id: badConfig, mode: 'PAPER', replay: REPLAY }));
    expect(config.code).toBe('validation-failed');
    expect(config.path).toBe('$.selectionSet.deploy_strategy');
    expect(config.issues.map((issue) => issue.field)).toEqual(['config.sizing.lotSize']);
    expect(config.message).toMatch(/^config\.sizing\.lotSize /);
    expect(await snapshot()).not.toBe(state); // the second strategy was inserted
    expect(await sql(`SELECT count(*)::int AS n FROM strategy_runs WHERE strategy_id = ANY($1::uuid[])`, [[strategyId, badConfig]])).toEqual([{ n: 0 }]);
    expect(await sql(`SELECT status FROM strategies WHERE strategy_id = ANY($1::uuid[])`, [[strategyId, badConfig]])).toEqual([{ status: 'DRAFT' }, { status: 'DRAFT' }]);
  });

  it('records a replay on the run', async () => {
    const strategyId = await newStrategy('advanced');
    const runId = (dataOf(await call('advanced', DEPLOY, { id: strategyId, mode: 'PAPER', replay: { from: '2024-05-06', to: '2024-05-31', speed: 0 } }))
      .deploy_strategy as { run_id: string }).run_id;
    expect(await sql(`SELECT params->'replay' AS replay FROM strategy_runs WHERE run_id = $1`, [runId])).toEqual([{ replay: { from: '2024-05-06', to: '2024-05-31', speed: 0 } }]);
    dataOf(await call('advanced', STOP, { id: strategyId, squareOff: false }));
  });

  it('keeps ACTIVE for deploy_strategy: update_strategies_by_pk cannot set it, but renames and pauses a running strategy', async () => {
    const strategyId = await newStrategy('advanced');
    const state = await snapshot();
    const refused = refusalOf(await call('advanced', UPDATE, { id: strategyId, set: { status: 'ACTIVE' } }));
    expect(refused.code).toBe('constraint-violation');
    expect(refused.message).toContain(`a strategy becomes ACTIVE only through deploy_strategy (strategy ${strategyId})`);
    expect(await snapshot()).toBe(state);
    // Inserting one ACTIVE is no way round.
    const object = { name: 'born active', kind: 'algo', algorithm_id: algorithms.advanced, algorithm_version: 1, status: 'ACTIVE' };
    expect(refusalOf(await call('advanced', INSERT, { object })).message).toContain('a strategy becomes ACTIVE only through deploy_strategy');

    const runId = await deployed('advanced', strategyId);
    expect(dataOf(await call('advanced', UPDATE, { id: strategyId, set: { name: 'renamed while active' } })).update_strategies_by_pk)
      .toEqual({ name: 'renamed while active', status: 'ACTIVE' });
    expect(dataOf(await call('advanced', UPDATE, { id: strategyId, set: { status: 'PAUSED' } })).update_strategies_by_pk)
      .toEqual({ name: 'renamed while active', status: 'PAUSED' });

    // Deploying the paused strategy resumes its run: same run id, no second slot, no second run.
    const utilized = (await licenceOf('advanced')).utilized;
    expect(await deployed('advanced', strategyId)).toBe(runId);
    expect(await sql('SELECT status FROM strategies WHERE strategy_id = $1', [strategyId])).toEqual([{ status: 'ACTIVE' }]);
    expect((await licenceOf('advanced')).utilized).toBe(utilized);
    expect(await sql('SELECT count(*)::int AS n FROM strategy_runs WHERE strategy_id = $1', [strategyId])).toEqual([{ n: 1 }]);
    expect(await sql(`SELECT action FROM audit_log WHERE entity = 'strategies' AND entity_id = $1 ORDER BY id`, [strategyId]))
      .toEqual([{ action: 'strategy.deployed' }, { action: 'strategy.resumed' }]);
    dataOf(await call('advanced', STOP, { id: strategyId, squareOff: false }));
  });

  it("refuses another user's strategy as not found, and lets a manager deploy and stop for a managed user", async () => {
    const strategyId = await newStrategy('advanced');
    const state = await snapshot();
    for (const mutation of [{ query: DEPLOY, variables: { id: strategyId, mode: 'PAPER' } }, { query: STOP, variables: { id: strategyId, squareOff: false } }]) {
      const refused = refusalOf(await call('demo', mutation.query, mutation.variables));
      expect(refused).toMatchObject({ code: 'not-found', message: `no strategy ${strategyId} in this account` });
    }
    // The manager's own account has no such strategy either.
    expect(refusalOf(await call('manager', DEPLOY, { id: strategyId, mode: 'PAPER', replay: REPLAY })).code).toBe('not-found');
    expect(await snapshot()).toBe(state);

    const acting = { manager: 'manager', as: 'advanced' } as const;
    const before = await licenceOf('advanced');
    const runId = await deployed(acting, strategyId);
    expect(await sql('SELECT user_id FROM strategy_runs WHERE run_id = $1', [runId])).toEqual([{ user_id: userOf('advanced') }]);
    expect((await licenceOf('advanced')).utilized).toBe(before.utilized + 1);
    const stop = dataOf(await call(acting, STOP, { id: strategyId, squareOff: true })).stop_strategy;
    expect(stop).toEqual({ strategy_id: strategyId, run_id: runId });
    expect(await sql(`SELECT actor_user_id, action, after->>'user_id' AS user_id FROM audit_log WHERE entity = 'strategies' AND entity_id = $1 ORDER BY id`, [strategyId]))
      .toEqual([
        { actor_user_id: userOf('manager'), action: 'strategy.deployed', user_id: userOf('advanced') },
        { actor_user_id: userOf('manager'), action: 'strategy.stopped', user_id: userOf('advanced') },
      ]);
  });

  it('is not in the schema of a tier that builds no strategies', async () => {
    const plain = 'mutation ($id: uuid!) { deploy_strategy(strategy_id: $id, mode: "PAPER") { run_id } }';
    const refused = refusalOf(await call('trial', plain, { id: await newStrategy('advanced') }));
    expect(refused).toMatchObject({ code: 'validation-failed', message: "field 'deploy_strategy' not found in type: 'mutation_root'" });
  });
});

describe('stop_strategy', () => {
  it('records the stop with square-off, frees the slot, and a redeploy waits for the runner to end the run', async () => {
    const strategyId = await newStrategy('advanced');
    const runId = await deployed('advanced', strategyId);
    const utilized = (await licenceOf('advanced')).utilized;
    const listener = new pg.Client({ connectionString: server.db.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(`${message.channel}:${message.payload ?? ''}`));
    await listener.query('LISTEN strategy_runs');
    try {
      expect(dataOf(await call('advanced', STOP, { id: strategyId, squareOff: true })).stop_strategy).toEqual({ strategy_id: strategyId, run_id: runId });
      const [run] = await sql<{ stop_requested: boolean; stop_square_off: boolean; licence_id: string | null; status: string }>(
        'SELECT stop_requested_at IS NOT NULL AS stop_requested, stop_square_off, licence_id, status FROM strategy_runs WHERE run_id = $1', [runId]);
      expect(run).toEqual({ stop_requested: true, stop_square_off: true, licence_id: null, status: 'IN PROGRESS' });
      expect(await sql('SELECT status FROM strategies WHERE strategy_id = $1', [strategyId])).toEqual([{ status: 'STOPPED' }]);
      expect((await licenceOf('advanced')).utilized).toBe(utilized - 1);
      await expect.poll(() => heard).toContain(`strategy_runs:${runId}`);
    } finally {
      await listener.end();
    }

    // The runner has not ended the run yet: a redeploy is refused and changes nothing.
    const state = await snapshot();
    const early = refusalOf(await call('advanced', DEPLOY, { id: strategyId, mode: 'PAPER', replay: REPLAY }));
    expect(early).toMatchObject({ code: 'run-in-progress', message: `the strategy's run ${runId} has not ended yet; deploy again once it has` });
    expect(await snapshot()).toBe(state);
    // The runner ends it; the STOPPED strategy deploys again with a new run and a slot.
    await sql(`UPDATE strategy_runs SET status = 'COMPLETE: SQUARED OFF', finished_at = now() WHERE run_id = $1`, [runId]);
    const second = await deployed('advanced', strategyId);
    expect(second).not.toBe(runId);
    expect((await licenceOf('advanced')).utilized).toBe(utilized);
    dataOf(await call('advanced', STOP, { id: strategyId, squareOff: false }));
  });

  it('refuses a strategy that is not running', async () => {
    const strategyId = await newStrategy('advanced');
    const state = await snapshot();
    expect(refusalOf(await call('advanced', STOP, { id: strategyId, squareOff: false })))
      .toMatchObject({ code: 'invalid-status', message: 'the strategy is DRAFT: only an ACTIVE or PAUSED strategy can be stopped' });
    expect(await snapshot()).toBe(state);
  });
});

describe('confirm_signal', () => {
  let strategyId: string;
  let runId: string;

  const signal = async (expiresIn: string): Promise<string> => (await sql<{ pending_signal_id: string }>(
    `INSERT INTO pending_signals (strategy_id, user_id, run_id, payload, created_at, expires_at)
     VALUES ($1, $2, $3, '{"side": "BUY", "quantity": 75}', now() - interval '2 hours', now() + $4::interval) RETURNING pending_signal_id`,
    [strategyId, userOf('advanced'), runId, expiresIn]))[0]?.pending_signal_id as string;

  beforeAll(async () => {
    strategyId = await newStrategy('advanced', { investment: 50_000_000, manual: true });
    // deploy_strategy refuses MANUAL until the runtime can wait for confirmations; the signals'
    // own rules are tested on a running strategy set up as deploy would leave it.
    const client = await server.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT set_config('vyuha.deploying', 'on', true)`);
      await client.query(`UPDATE strategies SET status = 'ACTIVE' WHERE strategy_id = $1`, [strategyId]);
      const { rows } = await client.query<{ run_id: string }>(
        `INSERT INTO strategy_runs (strategy_id, user_id, kind, params) VALUES ($1, $2, 'PAPER', '{}') RETURNING run_id`, [strategyId, userOf('advanced')]);
      await client.query('COMMIT');
      runId = rows[0]!.run_id;
    } finally {
      client.release();
    }
  });

  afterAll(async () => {
    await call('advanced', STOP, { id: strategyId, squareOff: false });
  });

  it('accepts a signal: PROCESSED, ACCEPTED, the runner told by NOTIFY with the run id, an audit row', async () => {
    const id = await signal('1 hour');
    const listener = new pg.Client({ connectionString: server.db.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(`${message.channel}:${message.payload ?? ''}`));
    await listener.query('LISTEN pending_signals');
    try {
      expect(dataOf(await call('advanced', CONFIRM, { id, accept: true })).confirm_signal).toEqual({ pending_signal_id: id, state: 'PROCESSED', outcome: 'ACCEPTED' });
      await expect.poll(() => heard).toContain(`pending_signals:${runId}`);
    } finally {
      await listener.end();
    }
    expect(await sql('SELECT state, outcome, processed_at IS NOT NULL AS processed FROM pending_signals WHERE pending_signal_id = $1', [id]))
      .toEqual([{ state: 'PROCESSED', outcome: 'ACCEPTED', processed: true }]);
    expect(await sql(`SELECT actor_user_id, action FROM audit_log WHERE entity = 'pending_signals' AND entity_id = $1`, [id]))
      .toEqual([{ actor_user_id: userOf('advanced'), action: 'signal.accepted' }]);
    // The new columns are readable by their owner.
    const read = dataOf(await call('advanced', '{ pending_signals(where: { pending_signal_id: { _eq: "' + id + '" } }) { state outcome run_id expires_at } }', {}));
    expect(read.pending_signals).toEqual([expect.objectContaining({ state: 'PROCESSED', outcome: 'ACCEPTED', run_id: runId })]);
  });

  it('rejects a signal', async () => {
    const id = await signal('1 hour');
    expect(dataOf(await call('advanced', CONFIRM, { id, accept: false })).confirm_signal).toEqual({ pending_signal_id: id, state: 'PROCESSED', outcome: 'REJECTED' });
    expect(await sql('SELECT outcome FROM pending_signals WHERE pending_signal_id = $1', [id])).toEqual([{ outcome: 'REJECTED' }]);
  });

  it('refuses an expired signal with the time it expired (IST) and records it EXPIRED', async () => {
    const id = await signal('-1 minute');
    const [{ expires } = { expires: '' }] = await sql<{ expires: string }>(
      `SELECT to_char(expires_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS') AS expires FROM pending_signals WHERE pending_signal_id = $1`, [id]);
    const refused = refusalOf(await call('advanced', CONFIRM, { id, accept: true }));
    expect(refused).toMatchObject({ code: 'signal-expired', message: `the signal expired at ${expires} IST`, path: '$.selectionSet.confirm_signal.args.pending_signal_id' });
    expect(await sql('SELECT state, outcome FROM pending_signals WHERE pending_signal_id = $1', [id])).toEqual([{ state: 'PROCESSED', outcome: 'EXPIRED' }]);
  });

  it("refuses another user's signal as not found, and lets the manager confirm for the managed user", async () => {
    const id = await signal('1 hour');
    const state = await snapshot();
    expect(refusalOf(await call('demo', CONFIRM, { id, accept: true }))).toMatchObject({ code: 'not-found', message: `no pending signal ${id} in this account` });
    expect(await snapshot()).toBe(state);
    const answer = dataOf(await call({ manager: 'manager', as: 'advanced' }, CONFIRM, { id, accept: false })).confirm_signal;
    expect(answer).toEqual({ pending_signal_id: id, state: 'PROCESSED', outcome: 'REJECTED' });
    expect(await sql(`SELECT actor_user_id FROM audit_log WHERE entity = 'pending_signals' AND entity_id = $1`, [id])).toEqual([{ actor_user_id: userOf('manager') }]);
  });
});

describe('create_strategy_from_backtest', () => {
  const CREATE = `mutation ($run: uuid!, $name: String) {
    create_strategy_from_backtest(backtest_run_id: $run, name: $name) { strategy_id } }`;
  let niftySymbol: string;

  beforeAll(async () => {
    niftySymbol = (await sql<{ trading_symbol: string }>('SELECT trading_symbol FROM instruments WHERE instrument_id = $1', [niftyId]))[0]?.trading_symbol as string;
  });

  /**
   * A backtest run row of `role` as run_backtest writes one and the worker finishes it: NIFTY 50 at
   * 5 minutes, intraday, 5 lakh rupees, 6 to 31 May 2024, COMPLETE unless `shape` says otherwise.
   */
  async function backtestRun(role: DemoRole, shape: { status?: string; kind?: string; params?: Record<string, unknown> } = {}): Promise<string> {
    const params = {
      format: BACKTEST_PARAMS_FORMAT, key: 'deploy-this', strategyType: 'intraday',
      instrument: { instrumentId: niftyId, exchange: 'NSE', tradingSymbol: niftySymbol, name: 'NIFTY 50' },
      algorithm: { algorithmId: algorithms[role], version: 1, name: `deploy test ${role}` },
      dateRange: { from: '2024-05-06', to: '2024-05-31' }, interval: 5, window: 5, investmentPaise: 50_000_000,
      tradeInstrumentsConfig: null, estimatedCandles: 7_500, actorId: userOf(role), ...shape.params,
    };
    const status = shape.status ?? 'COMPLETE';
    const [row] = await sql<{ run_id: string }>(
      `INSERT INTO strategy_runs (user_id, kind, status, progress, params, finished_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $3 = 'IN PROGRESS' THEN NULL ELSE now() END) RETURNING run_id`,
      [userOf(role), shape.kind ?? 'BACKTEST', status, status === 'IN PROGRESS' ? 40 : 100, JSON.stringify(params)]);
    return (row as { run_id: string }).run_id;
  }

  const created = async (role: Parameters<typeof call>[0], variables: Record<string, unknown>): Promise<string> =>
    (dataOf(await call(role, CREATE, variables)).create_strategy_from_backtest as { strategy_id: string }).strategy_id;

  const strategyRow = async (strategyId: string): Promise<Record<string, unknown> | undefined> => (await sql(
    `SELECT user_id, name, kind, mode, status, algorithm_id, algorithm_version, instrument_id, interval_minutes, strategy_type, config
       FROM strategies WHERE strategy_id = $1`, [strategyId]))[0];

  it('makes a DRAFT strategy of what the backtest ran, with an audit row naming the run, that deploy_strategy deploys as built', async () => {
    const runId = await backtestRun('advanced');
    const strategyId = await created('advanced', { run: runId });
    const config: Record<string, unknown> = {
      algorithm: { id: algorithms.advanced, version: 1 }, legs: null, instrument: 'NIFTY 50', interval: 5, type: 'intraday',
      investment: 50_000_000, sizing: { kind: 'all-in' }, manual: false,
    };
    const name = `deploy test advanced on ${niftySymbol}, 5-minute, intraday (from the backtest of 2024-05-06 to 2024-05-31)`;
    expect(await strategyRow(strategyId)).toEqual({
      user_id: userOf('advanced'), name, kind: 'algo', mode: 'PAPER', status: 'DRAFT', algorithm_id: algorithms.advanced, algorithm_version: 1,
      instrument_id: niftyId, interval_minutes: 5, strategy_type: 'intraday', config,
    });
    expect(await sql(`SELECT actor_user_id, action, before, after FROM audit_log WHERE entity = 'strategies' AND entity_id = $1`, [strategyId]))
      .toEqual([{ actor_user_id: userOf('advanced'), action: 'strategy.created', before: null,
        after: { status: 'DRAFT', user_id: userOf('advanced'), name, backtest_run_id: runId, config } }]);

    // Deployed on a replay, the run starts with exactly that configuration.
    const deployedRun = await deployed('advanced', strategyId);
    expect(await sql(`SELECT params->'config' AS config, params->'instrumentId' AS instrument FROM strategy_runs WHERE run_id = $1`, [deployedRun]))
      .toEqual([{ config, instrument: niftyId }]);
    dataOf(await call('advanced', STOP, { id: strategyId, squareOff: false }));

    // The default name is the account's once: the same backtest again is numbered.
    const second = await created('advanced', { run: runId });
    const third = await created('advanced', { run: runId });
    expect((await strategyRow(second))?.name).toBe(`${name} (2)`);
    expect((await strategyRow(third))?.name).toBe(`${name} (3)`);
  });

  it('carries option legs, parsed as deploy reads them', async () => {
    const leg = (option: 'CE' | 'PE'): object => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 30 } });
    const legs = { underlying: 'NIFTY', onBuy: [leg('CE'), leg('PE')] };
    const strategyId = await created('advanced', { run: await backtestRun('advanced', { params: { tradeInstrumentsConfig: legs } }), name: 'short straddle' });
    const row = await strategyRow(strategyId);
    expect(row?.name).toBe('short straddle');
    const stored = row?.config as Record<string, unknown>;
    expect(stored.legs).toEqual(JSON.parse(JSON.stringify(parseOptionsLegsConfig(legs))));
    expect(stored.legs).not.toBeNull();
    const runId = await deployed('advanced', strategyId);
    expect(await sql(`SELECT params->'config' AS config FROM strategy_runs WHERE run_id = $1`, [runId])).toEqual([{ config: stored }]);
    dataOf(await call('advanced', STOP, { id: strategyId, squareOff: false }));
  });

  it('refuses a run in progress, one ended in ERROR and a paper run at backtest_run_id, saying why, and changes nothing', async () => {
    const running = await backtestRun('advanced', { status: 'IN PROGRESS' });
    const failed = await backtestRun('advanced', { status: 'ERROR' });
    const paper = await backtestRun('advanced', { kind: 'PAPER' });
    const state = await snapshot();
    const path = '$.selectionSet.create_strategy_from_backtest.args.backtest_run_id';
    expect(refusalOf(await call('advanced', CREATE, { run: running }))).toEqual({
      code: 'invalid-status', path, message: `the backtest run ${running} is IN PROGRESS: only a COMPLETE backtest becomes a strategy`,
      issues: [{ field: 'backtest_run_id', code: 'invalid-status', message: `the backtest run ${running} is IN PROGRESS: only a COMPLETE backtest becomes a strategy` }],
    });
    expect(refusalOf(await call('advanced', CREATE, { run: failed })))
      .toMatchObject({ code: 'invalid-status', path, message: `the backtest run ${failed} is ERROR: only a COMPLETE backtest becomes a strategy` });
    expect(refusalOf(await call('advanced', CREATE, { run: paper })))
      .toMatchObject({ code: 'not-deployable', path, message: `run ${paper} is a PAPER run, not a backtest` });
    expect(await snapshot()).toBe(state);
  });

  it('refuses a backtest whose configuration cannot be deployed or read, or whose algorithm is not usable, at backtest_run_id', async () => {
    const sevenMinutes = await backtestRun('advanced', { params: { interval: 7 } });
    const unreadable = await backtestRun('advanced', { params: { format: 'something else' } });
    // demo's algorithm is not published: advanced may not write a strategy running it.
    const foreignAlgorithm = await backtestRun('advanced', { params: { algorithm: { algorithmId: algorithms.demo, version: 1, name: 'deploy test demo' } } });
    const state = await snapshot();
    expect(refusalOf(await call('advanced', CREATE, { run: foreignAlgorithm }))).toMatchObject({
      code: 'not-deployable', path: '$.selectionSet.create_strategy_from_backtest.args.backtest_run_id',
      message: "the backtest ran algorithm deploy test demo, which is neither this account's nor published any more",
    });
    const seven = refusalOf(await call('advanced', CREATE, { run: sevenMinutes }));
    expect(seven).toMatchObject({ code: 'validation-failed', path: '$.selectionSet.create_strategy_from_backtest.args.backtest_run_id' });
    expect(seven.issues).toEqual([{ field: 'backtest_run_id', code: 'invalid-config',
      message: "the backtest's configuration cannot be deployed: config.interval must be one of 1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440 minutes, got 7" }]);
    expect(refusalOf(await call('advanced', CREATE, { run: unreadable })).message)
      .toBe("the backtest's parameters cannot be read: strategy_runs.params.format is missing or malformed");
    expect(await snapshot()).toBe(state);
  });

  it('refuses a name the account uses at name, and a blank one', async () => {
    const runId = await backtestRun('advanced');
    await created('advanced', { run: runId, name: 'my nifty trend' });
    const state = await snapshot();
    expect(refusalOf(await call('advanced', CREATE, { run: runId, name: 'my nifty trend' }))).toEqual({
      code: 'name-taken', path: '$.selectionSet.create_strategy_from_backtest.args.name',
      message: 'this account already has a strategy named "my nifty trend": choose another name',
      issues: [{ field: 'name', code: 'name-taken', message: 'this account already has a strategy named "my nifty trend": choose another name' }],
    });
    expect(refusalOf(await call('advanced', CREATE, { run: runId, name: '   ' })))
      .toMatchObject({ code: 'validation-failed', path: '$.selectionSet.create_strategy_from_backtest.args.name', message: 'name must be a non-blank string, got "   "' });
    expect(await snapshot()).toBe(state);
    // Another account may use the name.
    const other = await created('demo', { run: await backtestRun('demo'), name: 'my nifty trend' });
    expect((await strategyRow(other))?.user_id).toBe(userOf('demo'));
  });

  it("refuses another user's run as not found, and lets a manager create one for a managed user", async () => {
    const runId = await backtestRun('advanced');
    const state = await snapshot();
    for (const role of ['demo', 'manager'] as const) {
      expect(refusalOf(await call(role, CREATE, { run: runId }))).toMatchObject({ code: 'not-found', message: `no backtest run ${runId} in this account` });
    }
    expect(await snapshot()).toBe(state);
    const strategyId = await created({ manager: 'manager', as: 'advanced' }, { run: runId, name: 'made by the manager' });
    expect((await strategyRow(strategyId))?.user_id).toBe(userOf('advanced'));
    expect(await sql(`SELECT actor_user_id, after->>'user_id' AS user_id FROM audit_log WHERE entity = 'strategies' AND entity_id = $1`, [strategyId]))
      .toEqual([{ actor_user_id: userOf('manager'), user_id: userOf('advanced') }]);
  });

  it('is not in the schema of a tier that builds no strategies', async () => {
    const runId = await backtestRun('trial');
    const refused = refusalOf(await call('trial', CREATE, { run: runId }));
    expect(refused).toMatchObject({ code: 'validation-failed', message: "field 'create_strategy_from_backtest' not found in type: 'mutation_root'" });
  });
});
