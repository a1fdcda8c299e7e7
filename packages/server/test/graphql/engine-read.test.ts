import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import type { VyuhaGraphqlEngine } from '../../src/graphql/engine';
import { adminSession, demoUserIds, run, testEngine, userSession } from './engine-fixtures';

let db: TestDatabase;
let engine: VyuhaGraphqlEngine;
let ids: Record<string, string>;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  ids = await demoUserIds(db.pool);
  const insert = 'INSERT INTO strategies (user_id, name, mode, status, kind, interval_minutes, config, algo_id) VALUES ($1, $2, $3, $4, \'basket\', $5, $6, $7)';
  const rows: [string, string, string, string, number, object, string | null][] = [
    ['advanced', 'Alpha', 'LIVE', 'ACTIVE', 5, { risk: 'low', legs: 2 }, 'X1'],
    ['advanced', 'Beta', 'PAPER', 'DRAFT', 15, { risk: 'high' }, null],
    ['advanced', 'gamma', 'PAPER', 'PAUSED', 1, {}, null],
    ['advanced', 'Delta', 'LIVE', 'STOPPED', 60, { risk: 'low', tags: ['a', 'b'] }, 'X2'],
    ['basic', 'Basic one', 'PAPER', 'DRAFT', 5, {}, null],
    ['trial', 'Trial one', 'PAPER', 'DRAFT', 30, {}, null],
  ];
  for (const [tier, ...values] of rows) await db.pool.query(insert, [ids[tier], ...values]);
  for (let index = 0; index < 5; index += 1) {
    await db.pool.query("INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, $2, '2099-01-01', 'BACKTEST', 'CANDLES')", [ids.advanced, 100 + index]);
  }
  engine = await testEngine(db.pool);
});
afterAll(async () => db?.close());

const advanced = () => userSession(ids.advanced ?? '');
const names = async (where: string, session = advanced()) => {
  const result = await run(engine, { session, query: `{ strategies(where: ${where}, order_by: {name: asc}) { name } }` });
  expect(result.errors).toBeUndefined();
  return (result.data?.strategies as { name: string }[]).map((row) => row.name);
};

describe('where operators', () => {
  it('compares with _eq _neq _gt _gte _lt _lte _in _nin _is_null', async () => {
    expect(await names('{name: {_eq: "Alpha"}}')).toEqual(['Alpha']);
    expect(await names('{name: {_neq: "Alpha"}}')).toEqual(['Beta', 'Delta', 'gamma']);
    expect(await names('{interval_minutes: {_gt: 5}}')).toEqual(['Beta', 'Delta']);
    expect(await names('{interval_minutes: {_gte: 5}}')).toEqual(['Alpha', 'Beta', 'Delta']);
    expect(await names('{interval_minutes: {_lt: 5}}')).toEqual(['gamma']);
    expect(await names('{interval_minutes: {_lte: 5}}')).toEqual(['Alpha', 'gamma']);
    expect(await names('{status: {_in: ["ACTIVE", "PAUSED"]}}')).toEqual(['Alpha', 'gamma']);
    expect(await names('{status: {_nin: ["ACTIVE", "PAUSED"]}}')).toEqual(['Beta', 'Delta']);
    expect(await names('{algo_id: {_is_null: true}}')).toEqual(['Beta', 'gamma']);
    expect(await names('{algo_id: {_is_null: false}}')).toEqual(['Alpha', 'Delta']);
  });

  it('matches text with _like _nlike _ilike _nilike', async () => {
    expect(await names('{name: {_like: "%a"}}')).toEqual(['Alpha', 'Beta', 'Delta', 'gamma']);
    expect(await names('{name: {_like: "G%"}}')).toEqual([]);
    expect(await names('{name: {_ilike: "G%"}}')).toEqual(['gamma']);
    expect(await names('{name: {_nlike: "%l%"}}')).toEqual(['Beta', 'gamma']);
    expect(await names('{name: {_nilike: "%A%"}}')).toEqual([]);
  });

  it('tests jsonb with _contains _contained_in _has_key _has_keys_any _has_keys_all', async () => {
    expect(await names('{config: {_contains: {risk: "low"}}}')).toEqual(['Alpha', 'Delta']);
    expect(await names('{config: {_contained_in: {risk: "high", legs: 4}}}')).toEqual(['Beta', 'gamma']);
    expect(await names('{config: {_has_key: "legs"}}')).toEqual(['Alpha']);
    expect(await names('{config: {_has_keys_any: ["legs", "tags"]}}')).toEqual(['Alpha', 'Delta']);
    expect(await names('{config: {_has_keys_all: ["risk", "tags"]}}')).toEqual(['Delta']);
  });

  it('combines with _and _or _not and empty lists', async () => {
    expect(await names('{_or: [{name: {_eq: "Alpha"}}, {interval_minutes: {_eq: 1}}]}')).toEqual(['Alpha', 'gamma']);
    expect(await names('{_and: [{mode: {_eq: "LIVE"}}, {interval_minutes: {_gt: 5}}]}')).toEqual(['Delta']);
    expect(await names('{_not: {mode: {_eq: "LIVE"}}}')).toEqual(['Beta', 'gamma']);
    expect(await names('{_and: []}')).toEqual(['Alpha', 'Beta', 'Delta', 'gamma']);
    expect(await names('{_or: []}')).toEqual([]);
  });

  it('passes values as typed parameters, never in the SQL text', async () => {
    const live = await engine.subscribe({ query: 'subscription { strategies(where: {name: {_eq: "Robert\'); DROP TABLE users; --"}}) { name } }' }, advanced());
    if ('errors' in live) throw new Error(JSON.stringify(live.errors));
    expect(live.sql).not.toContain('Robert');
    expect(live.sql).toMatch(/\$\d+::text/);
    expect(live.params).toContain("Robert'); DROP TABLE users; --");
    expect(await live.fetch()).toBe('{"data":{"strategies":[]}}');
  });

  it('filters through object and array relationships with the remote permission applied', async () => {
    expect(await names('{user: {name: {_eq: "Rohan Mehta"}}}')).toEqual(['Alpha', 'Beta', 'Delta', 'gamma']);
    const query = '{ users(where: {strategies: {name: {_eq: "Alpha"}}}) { name } }';
    // The manager sees Rohan's user row, but not his strategies, so the filter finds nothing.
    expect((await run(engine, { session: userSession(ids.manager ?? ''), query })).data).toEqual({ users: [] });
    expect((await run(engine, { session: adminSession, query })).data).toEqual({ users: [{ name: 'Rohan Mehta' }] });
  });

  it('refuses a null comparison value', async () => {
    const result = await run(engine, { session: advanced(), query: '{ strategies(where: {name: {_eq: null}}) { name } }' });
    expect(result.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(result.errors?.[0]?.message).toContain('unexpected null value');
  });
});

describe('ordering, pagination, distinct_on', () => {
  it('orders ascending, descending and with nulls first or last', async () => {
    const query = (order: string) => `{ strategies(order_by: ${order}) { name } }`;
    const list = async (order: string) => ((await run(engine, { session: advanced(), query: query(order) })).data?.strategies as { name: string }[]).map((row) => row.name);
    expect(await list('{interval_minutes: desc}')).toEqual(['Delta', 'Beta', 'Alpha', 'gamma']);
    expect(await list('[{algo_id: asc_nulls_first}, {name: asc}]')).toEqual(['Beta', 'gamma', 'Alpha', 'Delta']);
    expect(await list('[{algo_id: asc}, {name: asc}]')).toEqual(['Alpha', 'Delta', 'Beta', 'gamma']);
    expect(await list('[{algo_id: desc_nulls_last}, {name: desc}]')).toEqual(['Delta', 'Alpha', 'gamma', 'Beta']);
    expect(await list('[{algo_id: desc}, {name: asc}]')).toEqual(['Beta', 'gamma', 'Delta', 'Alpha']);
  });

  it('orders through an object relationship and by an array relationship aggregate', async () => {
    const byUser = await run(engine, { session: adminSession, query: '{ strategies(order_by: [{user: {name: desc}}, {name: asc}], limit: 3) { name } }' });
    expect(byUser.data).toEqual({ strategies: [{ name: 'Alpha' }, { name: 'Beta' }, { name: 'Delta' }] });
    const byCount = await run(engine, { session: adminSession, query: '{ users(order_by: [{strategies_aggregate: {count: desc}}, {name: asc}], limit: 3) { name } }' });
    expect(byCount.data).toEqual({ users: [{ name: 'Rohan Mehta' }, { name: 'Aarav Sharma' }, { name: 'Priya Iyer' }] });
    const byMax = await run(engine, { session: adminSession, query: '{ users(order_by: {strategies_aggregate: {max: {interval_minutes: desc_nulls_last}}}, limit: 1) { name } }' });
    expect(byMax.data).toEqual({ users: [{ name: 'Rohan Mehta' }] });
  });

  it('paginates with limit and offset', async () => {
    const page = await run(engine, { session: advanced(), query: 'query ($limit: Int, $offset: Int) { strategies(order_by: {name: asc}, limit: $limit, offset: $offset) { name } }', variables: { limit: 2, offset: 1 } });
    expect(page.data).toEqual({ strategies: [{ name: 'Beta' }, { name: 'Delta' }] });
  });

  it('selects distinct rows with distinct_on, and refuses an order_by that does not start with its columns', async () => {
    const distinct = await run(engine, { session: advanced(), query: '{ strategies(distinct_on: mode, order_by: [{mode: asc}, {interval_minutes: desc}]) { mode name } }' });
    expect(distinct.data).toEqual({ strategies: [{ mode: 'LIVE', name: 'Delta' }, { mode: 'PAPER', name: 'Beta' }] });
    const plain = await run(engine, { session: advanced(), query: '{ strategies(distinct_on: [mode]) { mode } }' });
    expect(plain.data).toEqual({ strategies: [{ mode: 'LIVE' }, { mode: 'PAPER' }] });
    const wrong = await run(engine, { session: advanced(), query: '{ strategies(distinct_on: mode, order_by: {name: asc}) { mode } }' });
    expect(wrong.errors?.[0]).toMatchObject({ message: '"distinct_on" columns must match initial "order_by" columns', extensions: { code: 'validation-failed' } });
  });
});

describe('aggregates and by_pk', () => {
  it('computes count, distinct count, sum, avg, max, min, stddev and nodes over the same rows', async () => {
    const result = await run(engine, {
      session: advanced(),
      query: `{ strategies_aggregate(where: {mode: {_eq: "PAPER"}}, order_by: {name: asc}) {
        aggregate { count statuses: count(columns: [status], distinct: true) sum { interval_minutes } avg { interval_minutes }
                    max { interval_minutes name } min { interval_minutes } stddev_samp { interval_minutes } __typename }
        nodes { name } } }`,
    });
    expect(result.data).toEqual({
      strategies_aggregate: {
        aggregate: {
          count: 2, statuses: 2, sum: { interval_minutes: 16 }, avg: { interval_minutes: 8 },
          max: { interval_minutes: 15, name: 'gamma' }, min: { interval_minutes: 1 }, stddev_samp: { interval_minutes: expect.closeTo(9.8995, 3) },
          __typename: 'strategies_aggregate_fields',
        },
        nodes: [{ name: 'Beta' }, { name: 'gamma' }],
      },
    });
  });

  it('aggregates through an array relationship under the remote permission', async () => {
    const result = await run(engine, { session: userSession(ids.manager ?? ''), query: '{ users(where: {tier: {_eq: "advanced"}}) { strategies_aggregate { aggregate { count } } } }' });
    expect(result.data).toEqual({ users: [{ strategies_aggregate: { aggregate: { count: 0 } } }] });
    const own = await run(engine, { session: advanced(), query: '{ users { strategies_aggregate(where: {mode: {_eq: "LIVE"}}) { aggregate { count } } } }' });
    expect(own.data).toEqual({ users: [{ strategies_aggregate: { aggregate: { count: 2 } } }] });
  });

  it('reads one row by primary key, and null for a row the role may not see', async () => {
    const { rows } = await db.pool.query<{ strategy_id: string; name: string }>("SELECT strategy_id, name FROM strategies WHERE name IN ('Alpha', 'Basic one') ORDER BY name");
    const query = 'query ($id: uuid!) { strategies_by_pk(strategy_id: $id) { strategy_id name user { name } } }';
    const mine = await run(engine, { session: advanced(), query, variables: { id: rows[0]?.strategy_id } });
    expect(mine.data).toEqual({ strategies_by_pk: { strategy_id: rows[0]?.strategy_id, name: 'Alpha', user: { name: 'Rohan Mehta' } } });
    const theirs = await run(engine, { session: advanced(), query, variables: { id: rows[1]?.strategy_id } });
    expect(theirs.data).toEqual({ strategies_by_pk: null });
  });
});

describe('relationships, permissions and masks', () => {
  it('applies the remote select filter inside relationships', async () => {
    const result = await run(engine, { session: userSession(ids.manager ?? ''), query: '{ users(order_by: {name: asc}) { name strategies { name } } }' });
    expect(result.data).toEqual({
      users: [
        { name: 'Aarav Sharma', strategies: [] },
        { name: 'Ananya Deshpande', strategies: [] },
        { name: 'Priya Iyer', strategies: [] },
        { name: 'Rohan Mehta', strategies: [] },
      ],
    });
    const own = await run(engine, { session: advanced(), query: '{ users { name strategies(where: {mode: {_eq: "LIVE"}}, order_by: {name: desc}) { name user { tier } } } }' });
    expect(own.data).toEqual({ users: [{ name: 'Rohan Mehta', strategies: [{ name: 'Delta', user: { tier: 'advanced' } }, { name: 'Alpha', user: { tier: 'advanced' } }] }] });
  });

  it('caps rows at the role limit and at the engine-wide maximum', async () => {
    const capped = await run(engine, { session: advanced(), query: '{ user_credits(limit: 10) { credits } }' });
    expect((capped.data?.user_credits as unknown[]).length).toBe(3);
    const small = await testEngine(db.pool, { limits: { maxRowsPerSelect: 2 } });
    const exchanges = await run(small, { session: advanced(), query: '{ exchanges { exchange } }' });
    expect((exchanges.data?.exchanges as unknown[]).length).toBe(2);
  });

  it('masks names for support except its own row, also in filters', async () => {
    await db.pool.query("UPDATE users SET name = 'Ravi' WHERE tier = 'demo'");
    const support = userSession(ids.support ?? '', 'support');
    const result = await run(engine, { session: support, query: '{ users(order_by: {tier: asc}, limit: 10) { tier name } }' });
    const byTier = Object.fromEntries((result.data?.users as { tier: string; name: string }[]).map((row) => [row.tier, row.name]));
    expect(Object.keys(byTier)).toHaveLength(5); // the role's limit of 5
    expect(byTier.advanced).toBe('Ro****ta');
    expect(byTier.administrator).toBe('Ar****ra');
    expect(byTier.demo).toBe('****');
    const own = await run(engine, { session: support, query: '{ users(where: {tier: {_eq: "support"}}) { name } }' });
    expect(own.data).toEqual({ users: [{ name: 'Siddharth Banerjee' }] });
    const probe = await run(engine, { session: support, query: '{ users(where: {name: {_like: "Rohan%"}}) { tier } }' });
    expect(probe.data).toEqual({ users: [] });
  });

  it('never exposes hidden columns, even to the admin secret', async () => {
    const result = await run(engine, { session: adminSession, query: '{ user_brokers { api_secret_ciphertext } }' });
    expect(result.errors?.[0]).toEqual({
      message: "field 'api_secret_ciphertext' not found in type: 'user_brokers'",
      extensions: { path: '$.selectionSet.user_brokers.selectionSet.api_secret_ciphertext', code: 'validation-failed' },
    });
  });

  it('fails with Hasura\'s message when the session lacks a variable a filter needs', async () => {
    const result = await run(engine, { session: { role: 'user', admin: false, variables: { 'x-hasura-role': 'user' } }, query: '{ strategies { name } }' });
    expect(result.errors?.[0]?.message).toBe('missing session variable: "x-hasura-user-id"');
    expect(result.errors?.[0]?.extensions.code).toBe('not-found');
  });

  it('renders timestamps in UTC as Hasura does', async () => {
    const result = await run(engine, { session: advanced(), query: '{ users { created_at } }' });
    expect((result.data?.users as { created_at: string }[])[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
  });
});

describe('documents', () => {
  it('supports aliases, named and inline fragments, __typename, @include and @skip', async () => {
    const result = await run(engine, {
      session: advanced(),
      variables: { withMode: true, skipId: true },
      query: `query Mine($withMode: Boolean!, $skipId: Boolean!) {
        __typename
        first: strategies(where: {name: {_eq: "Alpha"}}) { ...Parts ... on strategies { kind } mode @include(if: $withMode) strategy_id @skip(if: $skipId) }
        second: strategies(where: {name: {_eq: "Beta"}}) { title: name __typename }
      }
      fragment Parts on strategies { name __typename user { ...UserParts } }
      fragment UserParts on users { tier }`,
    });
    expect(result).toEqual({
      data: {
        __typename: 'query_root',
        first: [{ name: 'Alpha', __typename: 'strategies', user: { tier: 'advanced' }, kind: 'basket', mode: 'LIVE' }],
        second: [{ title: 'Beta', __typename: 'strategies' }],
      },
    });
  });

  it('picks the operation by operationName', async () => {
    const query = 'query A { exchanges(limit: 1) { exchange } } query B { exchanges(order_by: {exchange: desc}, limit: 1) { exchange } }';
    expect((await run(engine, { session: advanced(), query, operationName: 'B' })).data).toEqual({ exchanges: [{ exchange: 'XCBO' }] });
    const missing = await run(engine, { session: advanced(), query });
    expect(missing.errors?.[0]?.extensions.code).toBe('validation-failed');
  });

  it('answers anonymous with public data only', async () => {
    const anonymous = { role: 'anonymous', admin: false, variables: { 'x-hasura-role': 'anonymous' } };
    const result = await run(engine, { session: anonymous, query: '{ exchanges(where: {is_default: {_eq: true}}) { exchange market_open } }' });
    expect(result.data).toEqual({ exchanges: [{ exchange: 'NSE', market_open: '09:15:00' }] });
    const denied = await run(engine, { session: anonymous, query: '{ users { name } }' });
    expect(denied.errors?.[0]?.message).toBe("field 'users' not found in type: 'query_root'");
  });
});
