// Issue 6 acceptance: every call of docs/PRODUCT.md section 7, written as the spec's web client writes it
// (Hasura-generated shapes, with variables), sent from outside to a real server (auth + GraphQL +
// the backtest actions on 127.0.0.1) with real demo users' tokens; subscriptions over WebSocket
// through the `graphql-ws` client; and the session errors of docs/PRODUCT.md section 8.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import type { DemoRole } from '../../src/db/seed/demo-users';
import { SPEC_QUERIES, SPEC_MUTATIONS, SPEC_SUBSCRIPTIONS } from './spec-calls';
import { LiveFeed, SPEC_ADMIN_SECRET, dataOf, startSpecServer, type GraphqlBody, type SpecServer } from './spec-server';

let server: SpecServer;
const ids = {} as Record<DemoRole, string>;
const tokens = {} as Record<DemoRole, string>;
/** Today's IST date, as the spec's client computes "today" (credits count when expiry is today or later). */
const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
const dayAfter = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const HASURA_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/;

const as = (role: DemoRole, query: string, variables?: Record<string, unknown>): Promise<GraphqlBody> =>
  server.graphql({ query, ...(variables ? { variables } : {}) }, { token: tokens[role] });
const dataAs = async (role: DemoRole, query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> =>
  dataOf(await as(role, query, variables));

async function rows<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return (await server.db.pool.query(sql, params as unknown[])).rows as T[];
}

beforeAll(async () => {
  server = await startSpecServer();
  for (const role of ['trial', 'basic', 'advanced', 'demo', 'manager', 'administrator'] as const) {
    ids[role] = await server.userId(role);
    tokens[role] = await server.token(role);
  }
  const instrument = async (name: string): Promise<number> =>
    (await rows<{ instrument_id: number }>('SELECT instrument_id FROM instruments WHERE name = $1', [name]))[0]?.instrument_id as number;
  const [nifty, bank, fin, sensex] = [await instrument('NIFTY 50'), await instrument('NIFTY BANK'), await instrument('NIFTY FIN SERVICE'), await instrument('S&P BSE SENSEX')];
  // Reference data the importers write; only today's OPT expiries of the listed indices must come back.
  await server.db.pool.query(
    `INSERT INTO fno_expiries (instrument_id, segment, expiry, mode) VALUES
       ($1, 'OPT', $5, 'weekly'), ($2, 'OPT', $5, 'monthly'), ($1, 'FUT', $5, 'monthly'), ($3, 'OPT', $6, 'weekly'), ($4, 'OPT', $5, 'weekly')`,
    [nifty, bank, fin, sensex, today, dayAfter(today, 1)]);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('docs/PRODUCT.md section 7 queries', () => {
  it('user_app_configs: category, subcategory, meta_data of the signed-in user only', async () => {
    const data = await dataAs('advanced', SPEC_QUERIES.userAppConfigs);
    const expected = await rows<{ category: string; subcategory: string; meta_data: unknown }>(
      'SELECT category, subcategory, meta_data FROM user_app_configs WHERE user_id = $1', [ids.advanced]);
    expect(expected.length).toBe(2);
    expect(data.user_app_configs).toEqual(expect.arrayContaining(expected));
    expect(data.user_app_configs).toHaveLength(expected.length);
    expect((data.user_app_configs as Array<{ meta_data: { dashboardMode?: string } }>).find((row) => row.meta_data.dashboardMode)?.meta_data.dashboardMode).toBe('LIVE');
  });

  it('managers where manager_id is the user, ordered by user name, with user.name and user.user_brokers.active', async () => {
    const data = await dataAs('manager', SPEC_QUERIES.managers, { userId: ids.manager });
    expect(data.managers).toEqual([
      { user_id: ids.trial, user: { name: 'Aarav Sharma', user_brokers: [{ active: true }] } },
      { user_id: ids.basic, user: { name: 'Priya Iyer', user_brokers: [{ active: true }] } },
      { user_id: ids.advanced, user: { name: 'Rohan Mehta', user_brokers: expect.arrayContaining([{ active: true }, { active: false }]) as unknown } },
    ]);
    // Other users asking with the manager's id get only the links that name them: the row filter is the server's.
    expect(await dataAs('basic', SPEC_QUERIES.managers, { userId: ids.manager })).toEqual({ managers: [{ user_id: ids.basic, user: { name: 'Priya Iyer', user_brokers: [{ active: true }] } }] });
    expect(await dataAs('demo', SPEC_QUERIES.managers, { userId: ids.manager })).toEqual({ managers: [] });
  });

  it('fno_expiries of the index list, segment OPT, expiring today: instrument_id and mode', async () => {
    const indices = await rows<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name IN ('NIFTY 50', 'NIFTY BANK', 'NIFTY FIN SERVICE') ORDER BY instrument_id`);
    const data = await dataAs('trial', SPEC_QUERIES.fnoExpiries, { instrumentIds: indices.map((row) => row.instrument_id), today });
    const expected = await rows<{ instrument_id: number; mode: string }>(
      `SELECT instrument_id, mode FROM fno_expiries WHERE instrument_id = ANY($1) AND segment = 'OPT' AND expiry = $2`, [indices.map((row) => row.instrument_id), today]);
    expect(expected).toHaveLength(2);
    expect(data.fno_expiries).toEqual(expect.arrayContaining(expected));
    expect(data.fno_expiries).toHaveLength(2);
  });

  it('the generic table query: where, order_by, limit, offset as variables', async () => {
    const variables = { where: { exchange: { _eq: 'NSE' }, date: { _gte: '2023-01-01', _lte: '2024-12-31' } }, order_by: [{ date: 'desc' }], limit: 5, offset: 2 };
    const data = await dataAs('basic', SPEC_QUERIES.genericHolidays, variables);
    const expected = await rows<{ date: string; event: string }>(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, event FROM holidays WHERE exchange = 'NSE' AND date BETWEEN '2023-01-01' AND '2024-12-31' ORDER BY date DESC LIMIT 5 OFFSET 2`);
    expect(expected).toHaveLength(5);
    expect(data.holidays).toEqual(expected.map((row) => ({ ...row, exchange: 'NSE' })));
  });

  it("exchanges filtered by the user's zone", async () => {
    const data = await dataAs('trial', SPEC_QUERIES.exchangesByZone, { zone: 'IN' });
    const expected = await rows<Record<string, string>>(
      `SELECT currency, locale, market_close::text, market_open::text, symbol, tz, exchange FROM exchanges WHERE zone = 'IN' ORDER BY exchange`);
    expect(expected.map((row) => row.exchange)).toEqual(['BCD', 'BSE', 'BFO', 'CDS', 'NFO', 'NSE'].sort());
    expect(data.exchanges).toEqual(expected);
    expect((data.exchanges as Array<{ exchange: string; market_open: string }>).find((row) => row.exchange === 'NSE')?.market_open).toBe('09:15:00');
  });

  it('strategy credits (available, utilized) by user_id, and the licence aggregate (max expiry, max created_at)', async () => {
    const data = await dataAs('advanced', SPEC_QUERIES.strategyCredits, { userId: ids.advanced, today });
    expect(data.deployed_strategies).toEqual([{ available: 5, utilized: 2 }]);
    // Hasura renders timestamptz as PostgreSQL's JSON does in UTC: microseconds, `+00:00`.
    const [expected] = await rows<{ expiry: string; created_at: string }>(
      `SELECT to_char(max(expiry), 'YYYY-MM-DD') AS expiry, (to_json(max(created_at) AT TIME ZONE 'UTC') #>> '{}') || '+00:00' AS created_at
       FROM user_credits WHERE user_id = $1 AND category = 'STRATEGIES' AND subcategory = 'DEPLOYED' AND expiry >= $2`, [ids.advanced, today]);
    const max = (data.user_credits_aggregate as { aggregate: { max: { expiry: string; created_at: string } } }).aggregate.max;
    expect(max).toEqual({ expiry: expected?.expiry, created_at: expected?.created_at });
    expect(max.created_at).toMatch(HASURA_TIMESTAMP);
  });
});

describe('docs/PRODUCT.md section 7 mutations', () => {
  it('update_user_app_configs_by_pk appends to meta_data (key category, subcategory, user_id)', async () => {
    const data = await dataAs('demo', SPEC_MUTATIONS.appendAppConfig, {
      category: 'application', subcategory: 'global', userId: ids.demo, metaData: { theme: 'light', density: 'compact' },
    });
    const updated = data.update_user_app_configs_by_pk as { meta_data: Record<string, unknown> };
    expect(updated.meta_data).toMatchObject({ theme: 'light', density: 'compact', dashboardMode: 'PAPER', drawer: true });
    const [stored] = await rows<{ meta_data: unknown }>(`SELECT meta_data FROM user_app_configs WHERE user_id = $1 AND category = 'application' AND subcategory = 'global'`, [ids.demo]);
    expect(stored?.meta_data).toEqual(updated.meta_data);
    // Someone else's key: no row matches, nothing changes (Hasura answers null).
    const foreign = await dataAs('trial', SPEC_MUTATIONS.appendAppConfig, { category: 'application', subcategory: 'global', userId: ids.demo, metaData: { theme: 'dark' } });
    expect(foreign.update_user_app_configs_by_pk).toBeNull();
  });

  it('update_user_app_configs_many applies a list of updates', async () => {
    const updates = [
      { where: { category: { _eq: 'application' }, subcategory: { _eq: 'global' } }, _append: { meta_data: { drawer: false } } },
      { where: { category: { _eq: 'application' }, subcategory: { _eq: 'marketplace' } }, _set: { meta_data: { marketplaceLayout: 'list' } } },
    ];
    const data = await dataAs('basic', SPEC_MUTATIONS.updateAppConfigsMany, { updates });
    const results = data.update_user_app_configs_many as Array<{ affected_rows: number; returning: Array<{ meta_data: Record<string, unknown> }> }>;
    expect(results.map((result) => result.affected_rows)).toEqual([1, 1]);
    expect(results[0]?.returning[0]?.meta_data).toMatchObject({ drawer: false, theme: 'dark' });
    expect(results[1]?.returning[0]?.meta_data).toEqual({ marketplaceLayout: 'list' });
    const stored = await rows<{ subcategory: string; meta_data: Record<string, unknown> }>(`SELECT subcategory, meta_data FROM user_app_configs WHERE user_id = $1 ORDER BY subcategory`, [ids.basic]);
    expect(stored.map((row) => [row.subcategory, row.meta_data.drawer ?? row.meta_data.marketplaceLayout])).toEqual([['global', false], ['marketplace', 'list']]);
    const untouched = await rows<{ n: string }>(`SELECT count(*) AS n FROM user_app_configs WHERE user_id <> $1 AND meta_data ->> 'marketplaceLayout' = 'list'`, [ids.basic]);
    expect(untouched[0]?.n).toBe('0');
  });

  it('insert_user_app_configs (objects list) for the signed-in user, whatever user_id the client leaves out', async () => {
    const objects = [
      { category: 'performance', subcategory: 'metrics', meta_data: { expandedPanels: ['capital_requirement', 'correlation', 'metricTable'], computeInvestment: true } },
      { category: 'accounts', subcategory: 'columns', meta_data: { enableSl: true } },
    ];
    const data = await dataAs('trial', SPEC_MUTATIONS.insertAppConfigs, { objects });
    const inserted = data.insert_user_app_configs as { affected_rows: number; returning: Array<{ user_id: string; category: string }> };
    expect(inserted.affected_rows).toBe(2);
    expect(inserted.returning.every((row) => row.user_id === ids.trial)).toBe(true);
    const again = await as('trial', SPEC_MUTATIONS.insertAppConfigs, { objects: [objects[1]] });
    expect(again.errors?.[0]?.extensions?.code).toBe('constraint-violation');
  });

  describe('subscriptions, strategies and pending signals', () => {
    let strategies: string[];
    let published: string;
    let subscriptions: string[];
    let signals: string[];

    beforeAll(async () => {
      const strategy = async (userId: string, name: string, isPublished: boolean): Promise<string> =>
        (await rows<{ strategy_id: string }>(`INSERT INTO strategies (user_id, name, kind, published) VALUES ($1, $2, 'basket', $3) RETURNING strategy_id`, [userId, name, isPublished]))[0]?.strategy_id as string;
      strategies = [await strategy(ids.advanced, 'straddle', false), await strategy(ids.advanced, 'strangle', false)];
      published = await strategy(ids.demo, 'iron condor', true);
      subscriptions = [];
      for (const id of [strategies[0], published]) {
        subscriptions.push((await rows<{ subscription_id: string }>(`INSERT INTO subscriptions (user_id, strategy_id, quantity) VALUES ($1, $2, 1) RETURNING subscription_id`, [ids.advanced, id]))[0]?.subscription_id as string);
      }
      signals = [];
      for (const side of ['BUY', 'SELL']) {
        signals.push((await rows<{ pending_signal_id: string }>(`INSERT INTO pending_signals (strategy_id, user_id, payload) VALUES ($1, $2, $3) RETURNING pending_signal_id`, [strategies[0], ids.advanced, { side }]))[0]?.pending_signal_id as string);
      }
    });

    it('batched update_subscriptions_by_pk', async () => {
      const history = [{ date: '2024-05-01', amount_paise: 20_000_000 }];
      const data = await dataAs('advanced', SPEC_MUTATIONS.batchedSubscriptionUpdates, {
        id0: subscriptions[0], set0: { quantity: 2, investment_history: history, mask_mode: { value: 'fixed', quantity: 2 } },
        id1: subscriptions[1], set1: { quantity: 3, active: false },
      });
      expect(data).toEqual({
        u0: { subscription_id: subscriptions[0], quantity: 2, active: true, investment_history: history },
        u1: { subscription_id: subscriptions[1], quantity: 3, active: false, investment_history: [] },
      });
      // Another user's batch reaches nothing.
      const foreign = await dataAs('basic', SPEC_MUTATIONS.batchedSubscriptionUpdates, { id0: subscriptions[0], set0: { quantity: 9 }, id1: subscriptions[1], set1: { quantity: 9 } });
      expect(foreign).toEqual({ u0: null, u1: null });
    });

    it('insert_subscriptions plus updates in one request, in one transaction', async () => {
      const objects = [{ strategy_id: strategies[1], quantity: 4, investment_amt_paise: 10_000_000 }];
      const data = await dataAs('advanced', SPEC_MUTATIONS.insertAndUpdateSubscriptions, { objects, id0: subscriptions[0], set0: { quantity: 5 } });
      const inserted = data.insert_subscriptions as { affected_rows: number; returning: Array<{ subscription_id: string; user_id: string; strategy_id: string }> };
      expect(inserted.affected_rows).toBe(1);
      expect(inserted.returning[0]).toMatchObject({ user_id: ids.advanced, strategy_id: strategies[1] });
      expect(data.u0).toMatchObject({ subscription_id: subscriptions[0], quantity: 5 });
      // A failing update (quantity must be > 0) rolls the insert back with it.
      const before = await rows<{ n: string }>('SELECT count(*) AS n FROM subscriptions');
      const failed = await as('advanced', SPEC_MUTATIONS.insertAndUpdateSubscriptions, { objects: [{ strategy_id: published, quantity: 1 }], id0: subscriptions[0], set0: { quantity: 0 } });
      expect(failed.errors?.[0]?.extensions?.code).toBe('constraint-violation');
      expect(await rows('SELECT count(*) AS n FROM subscriptions')).toEqual(before);
      expect((await rows<{ quantity: number }>('SELECT quantity FROM subscriptions WHERE subscription_id = $1', [subscriptions[0]]))[0]?.quantity).toBe(5);
    });

    it('update_strategies_by_pk batch', async () => {
      const data = await dataAs('advanced', SPEC_MUTATIONS.batchedStrategyUpdates, {
        id0: strategies[0], set0: { name: 'straddle v2', interval_minutes: 15 },
        id1: strategies[1], set1: { status: 'PAUSED', strategy_type: 'swing' },
      });
      expect(data).toEqual({
        s0: { strategy_id: strategies[0], name: 'straddle v2', status: 'DRAFT', strategy_type: 'intraday', interval_minutes: 15 },
        s1: { strategy_id: strategies[1], name: 'strangle', status: 'PAUSED', strategy_type: 'swing', interval_minutes: 5 },
      });
      // The manager reads the managed user's strategies but writes them only while acting for that user.
      expect(await dataAs('manager', SPEC_MUTATIONS.batchedStrategyUpdates, { id0: strategies[0], set0: { name: 'x' }, id1: strategies[1], set1: { name: 'y' } }))
        .toEqual({ s0: null, s1: null });
      const acting = dataOf(await server.graphql({ query: SPEC_MUTATIONS.batchedStrategyUpdates, variables: { id0: strategies[0], set0: { name: 'managed' }, id1: published, set1: { name: 'y' } } },
        { token: tokens.manager, headers: { 'x-hasura-managed-user-id': ids.advanced } }));
      expect(acting).toEqual({ s0: expect.objectContaining({ name: 'managed' }) as unknown, s1: null });
      // A tier without the Strategies menu has no such mutation at all.
      const trial = await as('trial', SPEC_MUTATIONS.batchedStrategyUpdates, { id0: strategies[0], set0: { name: 'x' }, id1: published, set1: { name: 'y' } });
      expect(trial.errors?.map((error) => error.extensions?.code)).toContain('validation-failed');
      expect(trial.errors?.map((error) => error.message)).toContain("field 'update_strategies_by_pk' not found in type: 'mutation_root'");
    });

    it('update_pending_signals_by_pk batch: PENDING -> PROCESSED once', async () => {
      const processedAt = new Date(Date.now() + 1_000).toISOString();
      const variables = { id0: signals[0], id1: signals[1], set: { state: 'PROCESSED', processed_at: processedAt } };
      const data = await dataAs('advanced', SPEC_MUTATIONS.batchedSignalUpdates, variables);
      expect(data).toEqual({
        p0: { pending_signal_id: signals[0], state: 'PROCESSED', processed_at: expect.stringMatching(HASURA_TIMESTAMP) as unknown },
        p1: { pending_signal_id: signals[1], state: 'PROCESSED', processed_at: expect.stringMatching(HASURA_TIMESTAMP) as unknown },
      });
      expect(Date.parse((data.p0 as { processed_at: string }).processed_at)).toBe(Date.parse(processedAt));
      // Already processed: the filter (state PENDING) matches nothing any more.
      expect(await dataAs('advanced', SPEC_MUTATIONS.batchedSignalUpdates, variables)).toEqual({ p0: null, p1: null });
    });
  });
});

describe('docs/PRODUCT.md section 7 subscriptions (graphql-ws over WebSocket)', () => {
  let client: Client;
  const feeds: LiveFeed[] = [];
  const feed = (query: string, variables: Record<string, unknown>): LiveFeed => {
    const live = new LiveFeed(client, { query, variables });
    feeds.push(live);
    return live;
  };
  const credits = { userId: '', today };

  beforeAll(() => {
    client = server.wsClient({ Authorization: `Bearer ${tokens.advanced}` });
    credits.userId = ids.advanced;
  });
  afterAll(() => {
    for (const live of feeds) live.close();
  });

  /** Runs `change` and returns how long after its answer the feed delivered a value that `accept` takes. */
  async function delivery(live: LiveFeed, change: () => Promise<unknown>, accept: (data: Record<string, unknown>) => boolean): Promise<number> {
    const after = live.values.length - 1;
    await change();
    const answered = performance.now();
    const result = await live.next(accept, { after, timeoutMs: 5_000 });
    return result.at - answered;
  }

  const adminInsertCredits = (object: Record<string, unknown>): Promise<Record<string, unknown>> =>
    dataAs('administrator', SPEC_MUTATIONS.grantCredits, { object });

  it('user_credits_aggregate (BACKTEST, CANDLES, not expired) updates within a second after an administrator grants credits', async () => {
    const live = feed(SPEC_SUBSCRIPTIONS.backtestCredits, credits);
    const first = (await live.next(() => true)).data as { user_credits_aggregate: { aggregate: { sum: { credits: number }; max: { expiry: string; created_at: string } } } };
    const [expected] = await rows<{ total: string }>(`SELECT sum(credits) AS total FROM user_credits WHERE user_id = $1 AND category = 'BACKTEST' AND subcategory = 'CANDLES' AND expiry >= $2`, [ids.advanced, today]);
    const sumOf = (data: Record<string, unknown>): number => Number((data as typeof first).user_credits_aggregate.aggregate.sum.credits);
    expect(sumOf(first)).toBe(Number(expected?.total));
    expect(first.user_credits_aggregate.aggregate.max.created_at).toMatch(HASURA_TIMESTAMP);
    const expiry = dayAfter(today, 400);
    const latency = await delivery(live, () => adminInsertCredits({ user_id: ids.advanced, credits: 1234, expiry, category: 'BACKTEST', subcategory: 'CANDLES' }),
      (data) => sumOf(data) === sumOf(first) + 1234);
    expect(latency).toBeLessThan(1000);
    expect((live.values.at(-1)?.data as typeof first).user_credits_aggregate.aggregate.max.expiry).toBe(expiry);
    // An expired grant does not count, and another user's grant pushes nothing (results are pushed only when they change).
    const count = live.values.length;
    await adminInsertCredits({ user_id: ids.advanced, credits: 99, expiry: dayAfter(today, -1), category: 'BACKTEST', subcategory: 'CANDLES' });
    await adminInsertCredits({ user_id: ids.basic, credits: 500, expiry, category: 'BACKTEST', subcategory: 'CANDLES' });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(live.values.length).toBe(count);
  });

  it('strategy_runs_aggregate (sum candles) follows a run written by the server', async () => {
    const live = feed(SPEC_SUBSCRIPTIONS.usedCandles, { userId: ids.advanced });
    const sumOf = (data: Record<string, unknown>): number => Number((data as { strategy_runs_aggregate: { aggregate: { sum: { candles: number | null } } } }).strategy_runs_aggregate.aggregate.sum.candles);
    const first = sumOf((await live.next(() => true)).data);
    expect(first).toBe(80_000);
    const latency = await delivery(live, () => server.db.pool.query(`INSERT INTO strategy_runs (user_id, kind, candles) VALUES ($1, 'BACKTEST', 777)`, [ids.advanced]),
      (data) => sumOf(data) === first + 777);
    expect(latency).toBeLessThan(1000);
  });

  it('deployed_strategies (available, utilized) follows an administrator update', async () => {
    const live = feed(SPEC_SUBSCRIPTIONS.deployedStrategies, { userId: ids.advanced });
    const first = (await live.next(() => true)).data as { deployed_strategies: Array<{ id: string; available: number; utilized: number }> };
    expect(first.deployed_strategies).toEqual([{ id: expect.any(String) as unknown, available: 5, utilized: 2 }]);
    const id = first.deployed_strategies[0]?.id as string;
    const latency = await delivery(live, () => dataAs('administrator', SPEC_MUTATIONS.useStrategyLicence, { id }),
      (data) => (data as typeof first).deployed_strategies[0]?.utilized === 3);
    expect(latency).toBeLessThan(1000);
  });

  it('user_credits count with max expiry and created_at (STRATEGIES, DEPLOYED)', async () => {
    const live = feed(SPEC_SUBSCRIPTIONS.strategyLicences, credits);
    const countOf = (data: Record<string, unknown>): number => (data as { user_credits_aggregate: { aggregate: { count: number } } }).user_credits_aggregate.aggregate.count;
    const first = countOf((await live.next(() => true)).data);
    expect(first).toBe(1);
    const latency = await delivery(live, () => adminInsertCredits({ user_id: ids.advanced, credits: 1, expiry: dayAfter(today, 30), category: 'STRATEGIES', subcategory: 'DEPLOYED' }),
      (data) => countOf(data) === 2);
    expect(latency).toBeLessThan(1000);
  });
});

describe('session errors docs/PRODUCT.md section 8 client reacts to', () => {
  const QUERY = SPEC_QUERIES.userAppConfigs;
  async function claimsOf(role: DemoRole): Promise<Record<string, unknown>> {
    return JSON.parse(Buffer.from(tokens[role].split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  }

  it('an expired token gives invalid-jwt, over HTTP and as a 4403 close over WebSocket', async () => {
    const claims = await claimsOf('advanced');
    const nowSeconds = Math.floor(Date.now() / 1000);
    const expired = await server.keys.sign({ ...(claims as { sub: string; iss: string }), iat: nowSeconds - 7200, exp: nowSeconds - 60 });
    const answer = await server.graphql({ query: QUERY }, { token: expired });
    expect(answer).toEqual({ errors: [{ message: 'Could not verify JWT: JWTExpired', extensions: { path: '$', code: 'invalid-jwt' } }] });
    const closed = await webSocketFailure({ Authorization: `Bearer ${expired}` });
    expect(closed.code).toBe(4403);
    expect(closed.reason).toContain('JWTExpired');
  });

  it('a forged token (payload changed, signature kept) gives invalid-jwt', async () => {
    const [header, , signature] = tokens.trial.split('.');
    const claims = await claimsOf('trial');
    const hasura = claims['https://hasura.io/jwt/claims'] as Record<string, unknown>;
    const forgedClaims = { ...claims, 'https://hasura.io/jwt/claims': { ...hasura, 'x-hasura-default-role': 'superadmin', 'x-hasura-allowed-roles': ['superadmin'] } };
    const forged = `${header}.${Buffer.from(JSON.stringify(forgedClaims)).toString('base64url')}.${signature}`;
    const answer = await server.graphql({ query: QUERY }, { token: forged });
    expect(answer.errors?.[0]?.extensions?.code).toBe('invalid-jwt');
    expect(answer.data).toBeUndefined();
    const garbage = await server.graphql({ query: QUERY }, { token: 'not.a.jwt' });
    expect(garbage.errors?.[0]?.extensions?.code).toBe('invalid-jwt');
  });

  it('a validly signed token without the user-id claim gives a message naming x-hasura-user-id', async () => {
    const claims = await claimsOf('basic');
    const hasura = { ...(claims['https://hasura.io/jwt/claims'] as Record<string, unknown>) };
    delete hasura['x-hasura-user-id'];
    const token = await server.keys.sign({ ...(claims as { sub: string; iss: string; iat: number; exp: number }), 'https://hasura.io/jwt/claims': hasura });
    const answer = await server.graphql({ query: QUERY }, { token });
    expect(answer.errors?.[0]?.message).toContain('x-hasura-user-id');
    expect(answer.data).toBeUndefined();
    const closed = await webSocketFailure({ Authorization: `Bearer ${token}` });
    expect(closed.code).toBe(4403);
    expect(closed.reason).toContain('x-hasura-user-id');
  });

  it('the same query with the real token still works, and the admin secret is no user (control)', async () => {
    expect((await dataAs('basic', QUERY)).user_app_configs).toHaveLength(2);
    const admin = await server.graphql({ query: QUERY }, { headers: { 'x-hasura-admin-secret': SPEC_ADMIN_SECRET } });
    expect((dataOf(admin).user_app_configs as unknown[]).length).toBeGreaterThanOrEqual(18);
  });
});

/** Subscribes with the given connection headers and returns the close event the server ends it with. */
function webSocketFailure(headers: Record<string, string>): Promise<{ code: number; reason: string }> {
  const client = server.wsClient(headers);
  return new Promise((resolve, reject) => {
    client.subscribe({ query: `subscription { user_app_configs { category } }` }, {
      next: () => reject(new Error('the subscription delivered data with a refused token')),
      error: (error) => resolve(error as { code: number; reason: string }),
      complete: () => reject(new Error('the subscription completed with a refused token')),
    });
  });
}
