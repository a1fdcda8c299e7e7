// CSV export columns come from the query's selection set, not from the first row: a key the
// first row lacks (a null relationship, a jsonb object with other keys) is no longer dropped from
// the whole file. The real engine (createGraphqlEngine) over real tables, through HTTP.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectionColumns } from '../../src/graphql/csv';
import { createGraphqlEngine } from '../../src/graphql/engine';
import type { Metadata, PermissionFilter, RolePermissions } from '../../src/graphql/metadata/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { startGraphqlServer, testToken, type TestServer } from './live-test-engine';

const own: PermissionFilter = { user_id: { _eq: 'X-Hasura-User-Id' } };
const readOwn = (columns: readonly string[]): RolePermissions => ({ select: { filter: own, columns } });
const METADATA: Metadata = {
  tables: [
    { name: 'users', permissions: { basic: { select: { filter: own, columns: ['user_id', 'name'] } } } },
    {
      name: 'strategies',
      objectRelationships: { user: { table: 'users', columns: { user_id: 'user_id' } } },
      arrayRelationships: { runs: { table: 'strategy_runs', columns: { strategy_id: 'strategy_id' } } },
      permissions: { basic: readOwn(['strategy_id', 'name', 'user_id']) },
    },
    {
      name: 'strategy_runs',
      objectRelationships: { strategy: { table: 'strategies', columns: { strategy_id: 'strategy_id' } } },
      permissions: { basic: readOwn(['run_id', 'kind', 'status', 'params', 'started_at', 'user_id', 'strategy_id']) },
    },
  ],
  actions: [],
};

let db: TestDatabase;
let server: TestServer;
const userId = randomUUID();
const strategyId = randomUUID();
const runs = [randomUUID(), randomUUID(), randomUUID()];

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query("INSERT INTO auth.users (id, email, default_role) VALUES ($1, 'csv@example.com', 'basic')", [userId]);
  await db.pool.query("INSERT INTO users (user_id, name, tier) VALUES ($1, 'Asha', 'basic')", [userId]);
  await db.pool.query("INSERT INTO strategies (strategy_id, user_id, name, kind) VALUES ($1, $2, 'Straddle', 'basket')", [strategyId, userId]);
  // The first run (oldest) has no strategy (a manual run) and params with other keys than the rest.
  await db.pool.query(
    `INSERT INTO strategy_runs (run_id, strategy_id, user_id, kind, params, started_at) VALUES
       ($1, NULL, $4, 'MANUAL', '{"note": "by hand"}', '2024-05-02T03:45:00Z'),
       ($2, $5, $4, 'BACKTEST', '{"interval": 5}', '2024-05-02T03:46:00Z'),
       ($3, $5, $4, 'BACKTEST', '{"interval": 15}', '2024-05-02T03:47:00Z')`,
    [...runs, userId, strategyId]);
  const engine = await createGraphqlEngine({ pool: db.pool, metadata: METADATA });
  server = await startGraphqlServer({ pool: db.pool, engine });
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

async function csv(body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/api/gql/csv`, {
    method: 'POST', headers: { authorization: `Bearer ${testToken({ userId })}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('CSV export columns', () => {
  it('keeps the columns of a relationship that is null in the first row, with empty cells where a row has none', async () => {
    const response = await csv({ query: '{ strategy_runs(order_by: {started_at: asc}) { run_id kind strategy { name user { name } } } }' });
    expect(response.status).toBe(200);
    expect(response.text).toBe([
      'run_id,kind,strategy.name,strategy.user.name',
      `${runs[0]},MANUAL,,`,
      `${runs[1]},BACKTEST,Straddle,Asha`,
      `${runs[2]},BACKTEST,Straddle,Asha`,
      '',
    ].join('\r\n'));
  });

  it('writes a jsonb column as one JSON cell whatever keys each row has', async () => {
    const response = await csv({ query: '{ strategy_runs(order_by: {started_at: asc}) { params } }' });
    expect(response.text).toBe('params\r\n"{""note"":""by hand""}"\r\n"{""interval"":5}"\r\n"{""interval"":15}"\r\n');
  });

  it('names columns by alias in selection order, through fragments and @include, and lists an array relationship per field', async () => {
    const query = `query ($withUser: Boolean = false) {
      mine: strategies(limit: 5) { label: name ...Runs user @include(if: $withUser) { name } }
    }
    fragment Runs on strategies { runs(order_by: {started_at: asc}, limit: 10) { status kind } }`;
    const without = await csv({ query });
    expect(without.text).toBe('label,runs.status,runs.kind\r\nStraddle,"[""IN PROGRESS"",""IN PROGRESS""]","[""BACKTEST"",""BACKTEST""]"\r\n');
    const withUser = await csv({ query, variables: { withUser: true } });
    expect(withUser.text.split('\r\n')[0]).toBe('label,runs.status,runs.kind,user.name');
  });

  it('still names the columns when no row matches', async () => {
    const response = await csv({ query: '{ strategy_runs(where: {kind: {_eq: "LIVE"}}) { run_id strategy { name } } }' });
    expect(response).toEqual({ status: 200, text: 'run_id,strategy.name\r\n' });
  });
});

describe('selectionColumns', () => {
  it('reads the first root field of the named operation, skipping __typename', () => {
    const request = { query: 'query A { x { a } } query B { __typename y: runs { id strategy { name } } }', operationName: 'B' };
    expect(selectionColumns(request)?.map((column) => column.header)).toEqual(['id', 'strategy.name']);
    expect(selectionColumns({ query: '{ broken' })).toBeUndefined();
  });
});
