// The query plan cache and the pipelined read lanes: a cached plan answers exactly what a full
// compile answers, never shares one session's values with another, and a failing statement on
// a shared connection fails only its own request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolClient } from 'pg';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { parameterSources, sentinelSession, sentinelVariables, type ParameterSource } from '../../src/graphql/execute/plan-cache';
import { demoUserIds, run, testEngine, userSession } from './engine-fixtures';

let db: TestDatabase;
let ids: Record<string, string>;
const strategyOf: Record<string, string> = {};

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  ids = await demoUserIds(db.pool);
  for (const tier of ['trial', 'basic', 'advanced']) {
    const { rows } = await db.pool.query<{ strategy_id: string }>(
      "INSERT INTO strategies (user_id, name, mode, status, kind, interval_minutes, config) VALUES ($1, $2, 'PAPER', 'DRAFT', 'basket', 5, '{}') RETURNING strategy_id",
      [ids[tier], `Strategy of ${tier}`],
    );
    strategyOf[tier] = rows[0]?.strategy_id ?? '';
  }
});
afterAll(async () => db?.close());

const BY_PK = 'query ($id: uuid!) { strategies_by_pk(strategy_id: $id) { name user_id } }';

/** The body a brand-new engine (empty caches) gives for a request. */
async function fresh(request: Parameters<typeof run>[1]): Promise<unknown> {
  return run(await testEngine(db.pool), request);
}

describe('cached query plans', () => {
  it('reads each session its own row: the user id is a parameter of the plan, never a constant', async () => {
    const engine = await testEngine(db.pool);
    const tiers = ['trial', 'basic', 'advanced'];
    for (let round = 0; round < 3; round += 1) {
      for (const reader of tiers) {
        for (const owner of tiers) {
          const result = await run(engine, { query: BY_PK, variables: { id: strategyOf[owner] }, session: userSession(ids[reader] ?? '') });
          expect(result.errors).toBeUndefined();
          expect(result.data?.strategies_by_pk).toEqual(reader === owner ? { name: `Strategy of ${owner}`, user_id: ids[owner] } : null);
        }
      }
    }
  });

  it('answers like a full compile for every variable shape: Int limits, @include, where objects, aliases, __typename', async () => {
    const engine = await testEngine(db.pool);
    const query = `query ($name: String, $limit: Int, $withUser: Boolean!, $where: strategies_bool_exp) {
      __typename
      list: strategies(where: {name: {_eq: $name}}, limit: $limit, order_by: {name: asc}) { name user @include(if: $withUser) { name } }
      filtered: strategies(where: $where, order_by: {name: asc}) { name }
      count: strategies_aggregate { aggregate { count } }
    }`;
    const cases: Record<string, unknown>[] = [
      { name: 'Strategy of advanced', limit: 5, withUser: true, where: {} },
      { name: 'Strategy of basic', limit: 5, withUser: true, where: {} },
      { name: 'Strategy of advanced', limit: 0, withUser: false, where: { name: { _like: '%advanced' } } },
      { name: 'Strategy of advanced', limit: 5, withUser: false, where: { name: { _like: '%basic' } } },
      { limit: null, withUser: true, where: null },
      { limit: 1, withUser: true },
      // `_eq: null` is an error (as in Hasura): the same error from the cache.
      { name: null, withUser: true },
    ];
    const session = userSession(ids.advanced ?? '');
    for (let round = 0; round < 2; round += 1) {
      for (const variables of cases) {
        const cached = await run(engine, { query, variables, session });
        expect(cached).toEqual(await fresh({ query, variables, session }));
        if (variables.name === null) expect(cached.errors?.[0]?.message).toBe('unexpected null value for type "String"');
        else expect(cached.errors).toBeUndefined();
      }
    }
  });

  it('fails a missing session variable from a cached plan exactly as the compiler does', async () => {
    const engine = await testEngine(db.pool);
    const variables = { id: strategyOf.advanced };
    expect((await run(engine, { query: BY_PK, variables, session: userSession(ids.advanced ?? '') })).errors).toBeUndefined();
    const anonymousUser = { role: 'user', admin: false, variables: { 'x-hasura-role': 'user' } };
    const cached = await run(engine, { query: BY_PK, variables, session: anonymousUser });
    expect(cached.errors?.[0]?.message).toBe('missing session variable: "x-hasura-user-id"');
    expect(cached).toEqual(await fresh({ query: BY_PK, variables, session: anonymousUser }));
  });

  it('keeps a bad value failing its own request only, with many reads in flight on shared connections', async () => {
    const engine = await testEngine(db.pool);
    const session = userSession(ids.basic ?? '');
    const requests = Array.from({ length: 60 }, (_, index) => (index % 7 === 3 ? 'not-a-uuid' : (strategyOf.basic ?? '')));
    for (let round = 0; round < 2; round += 1) {
      const results = await Promise.all(requests.map((id) => run(engine, { query: BY_PK, variables: { id }, session })));
      results.forEach((result, index) => {
        if (requests[index] === 'not-a-uuid') {
          expect(result.errors?.[0]).toEqual({ message: 'invalid input syntax for type uuid: "not-a-uuid"', extensions: { code: 'data-exception', path: '$' } });
        } else {
          expect(result).toEqual({ data: { strategies_by_pk: { name: 'Strategy of basic', user_id: ids.basic } } });
        }
      });
    }
    // Lanes go back to the pool once idle: nothing stays checked out.
    expect(db.pool.totalCount - db.pool.idleCount).toBe(0);
  });
});

describe('parameterSources', () => {
  const session = { role: 'user', admin: false, variables: { 'x-hasura-role': 'user', 'x-hasura-user-id': 'u-1' } };

  it('maps sentinels back to variables and session values, and keeps equal values as constants', () => {
    const sources = new Map<string, ParameterSource>();
    const variables = sentinelVariables({ id: 'abc', limit: 3 }, { strings: new Set(['id']), sources });
    const probeSession = sentinelSession(session, sources);
    const sql = 'SELECT $1::uuid, $2::uuid, $3::integer';
    const result = parameterSources({
      real: { sql, params: ['abc', 'u-1', 3], tables: [] },
      probe: { sql, params: [variables.id, probeSession.variables['x-hasura-user-id'], 3], tables: [] },
      sources,
    });
    expect(result).toEqual([{ kind: 'variable', name: 'id' }, { kind: 'session', key: 'x-hasura-user-id' }, { kind: 'constant', value: 3 }]);
    // The role is in the cache key: it stays itself.
    expect(probeSession.variables['x-hasura-role']).toBe('user');
  });

  it('refuses a plan when a sentinel is rewritten, embedded in SQL, or a value differs between the compiles', () => {
    const sources = new Map<string, ParameterSource>();
    const { id } = sentinelVariables({ id: 'abc' }, { strings: new Set(['id']), sources });
    const sql = 'SELECT $1::text';
    const real = { sql, params: ['%abc%'], tables: [] };
    expect(parameterSources({ real, probe: { sql, params: [`%${String(id)}%`], tables: [] }, sources })).toBeUndefined();
    expect(parameterSources({ real: { ...real, sql: `SELECT '${String(id)}'` }, probe: { sql: `SELECT '${String(id)}'`, params: [], tables: [] }, sources })).toBeUndefined();
    expect(parameterSources({ real, probe: { sql, params: ['%xyz%'], tables: [] }, sources })).toBeUndefined();
    expect(parameterSources({ real, probe: { sql: 'SELECT $1::uuid', params: [id], tables: [] }, sources })).toBeUndefined();
  });
});

describe('ReadLanes', () => {
  /** A stand-in pooled client: answers each statement on the next turn, counts releases. */
  function fakePool() {
    const released: number[] = [];
    let opened = 0;
    const connect = async () => {
      const id = opened;
      opened += 1;
      const listeners = new Set<unknown>();
      return {
        pipeline: false,
        query: async (config: { text: string }) => {
          await new Promise((resolve) => setImmediate(resolve));
          return { rows: [[config.text, id]] };
        },
        on: (_event: string, listener: unknown) => listeners.add(listener),
        removeListener: (_event: string, listener: unknown) => listeners.delete(listener),
        release: () => released.push(id),
      } as unknown as PoolClient;
    };
    return { connect, released, opened: () => opened };
  }

  it('spreads concurrent reads over at most maxLanes connections and gives each back when it drains', async () => {
    const { ReadLanes } = await import('../../src/graphql/execute/read-lanes');
    const pool = fakePool();
    const lanes = new ReadLanes({ connect: pool.connect, maxLanes: 2, maxInFlight: 4, recycleAfter: 1000 });
    const rows = await Promise.all(Array.from({ length: 40 }, (_, index) => lanes.query({ text: `q${index}`, rowMode: 'array' })));
    expect(rows.map((row) => row[0]?.[0])).toEqual(Array.from({ length: 40 }, (_, index) => `q${index}`));
    expect(pool.opened()).toBe(2);
    expect(pool.released.sort()).toEqual([0, 1]);
  });

  it('retires a lane after recycleAfter statements even under a steady load', async () => {
    const { ReadLanes } = await import('../../src/graphql/execute/read-lanes');
    const pool = fakePool();
    const lanes = new ReadLanes({ connect: pool.connect, maxLanes: 1, maxInFlight: 100, recycleAfter: 5 });
    await Promise.all(Array.from({ length: 12 }, (_, index) => lanes.query({ text: `q${index}`, rowMode: 'array' })));
    // 12 statements, 5 per lane: three borrowings, each returned.
    expect(pool.opened()).toBe(3);
    expect(pool.released.length).toBe(3);
  });
});
