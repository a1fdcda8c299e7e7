// Migration 0012: the built-in indicator groups exist once (the migration is idempotent), every
// entry names an indicator of the engine's factory with parameters it accepts, every signed-in
// role reads them through GraphQL, and no user may change or delete them.
import { readFileSync } from 'node:fs';
import { createIndicator, indicatorNames } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphqlEngine } from '../src/graphql/engine';
import { vyuhaMetadata } from '../src/graphql/metadata/index';
import type { GraphqlEngine, GraphqlSession } from '../src/graphql/types';
import { demoUserId, graphqlSession } from './graphql/actions-support';
import { freshDatabase, type TestDatabase } from './helpers/db';

const BUILT_IN = ['Momentum', 'Moving averages', 'Trend', 'Volatility'];

let db: TestDatabase;
let engine: GraphqlEngine;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  engine = await createGraphqlEngine({ pool: db.pool, metadata: vyuhaMetadata([]) });
});
afterAll(async () => db?.close());

async function execute(session: GraphqlSession, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: Record<string, unknown>; errors?: Array<{ message: string }> }> {
  const outcome = await engine.execute({ query, variables, operationName: null }, session);
  return JSON.parse(outcome.body) as { data?: Record<string, unknown>; errors?: Array<{ message: string }> };
}

async function sessionOf(tier: string): Promise<GraphqlSession> {
  return graphqlSession({ tier, userId: await demoUserId(db.pool, tier) });
}

describe('built-in indicator groups (migration 0012)', () => {
  it('are rows without a user, one per name, whose indicators the engine can build', async () => {
    const { rows } = await db.pool.query<{ name: string; indicators: Array<{ name: string; parameters: number[]; pane: string; colors: string[] }> }>(
      'SELECT name, indicators FROM indicator_configs WHERE user_id IS NULL AND name = ANY($1) ORDER BY name', [BUILT_IN]);
    expect(rows.map((row) => row.name)).toEqual(BUILT_IN);
    for (const row of rows) {
      expect(row.indicators.length).toBeGreaterThan(0);
      for (const entry of row.indicators) {
        expect(indicatorNames()).toContain(entry.name);
        expect(() => createIndicator(entry.name, entry.parameters)).not.toThrow();
        expect(['price', 'own']).toContain(entry.pane);
        for (const colour of entry.colors) expect(colour).toMatch(/^#[0-9a-f]{6}$/i);
      }
    }
    const momentum = rows.find((row) => row.name === 'Momentum');
    expect(momentum?.indicators.map((entry) => [entry.name, entry.parameters, entry.pane])).toEqual([['rsi', [14], 'own'], ['macd', [12, 26, 9], 'own']]);
  });

  it('inserts nothing when applied a second time', async () => {
    const sql = readFileSync(new URL('../migrations/0012_builtin_indicator_groups.sql', import.meta.url), 'utf8');
    await db.pool.query(sql);
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM indicator_configs WHERE user_id IS NULL AND name = ANY($1)', [BUILT_IN]);
    expect(rows[0]?.n).toBe(BUILT_IN.length);
  });

  it('are read through GraphQL by every tier', async () => {
    for (const tier of ['trial', 'basic', 'advanced', 'demo', 'backtest']) {
      const result = await execute(await sessionOf(tier), `query { indicator_configs(where: { user_id: { _is_null: true } }, order_by: { name: asc }) { name indicators } }`);
      expect(result.errors, tier).toBeUndefined();
      const names = (result.data?.indicator_configs as Array<{ name: string }>).map((row) => row.name);
      expect(names, tier).toEqual(expect.arrayContaining(BUILT_IN));
    }
  });

  it('cannot be changed or deleted by a user, who may save a group of their own', async () => {
    const advanced = await sessionOf('advanced');
    const updated = await execute(advanced, `mutation { update_indicator_configs(where: { name: { _eq: "Momentum" } }, _set: { indicators: [] }) { affected_rows } }`);
    expect(updated.data?.update_indicator_configs).toEqual({ affected_rows: 0 });
    const deleted = await execute(advanced, `mutation { delete_indicator_configs(where: { name: { _eq: "Trend" } }) { affected_rows } }`);
    expect(deleted.data?.delete_indicator_configs).toEqual({ affected_rows: 0 });
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM indicator_configs WHERE user_id IS NULL AND name = ANY($1) AND jsonb_array_length(indicators) > 0`, [BUILT_IN]);
    expect(rows[0]?.n).toBe(BUILT_IN.length);

    const own = await execute(advanced, `mutation ($indicators: jsonb!) { insert_indicator_configs_one(object: { name: "Momentum", indicators: $indicators }) { name user_id } }`,
      { indicators: [{ name: 'rsi', parameters: [7], pane: 'own', colors: ['#7950f2'] }] });
    expect(own.errors).toBeUndefined();
    expect(own.data?.insert_indicator_configs_one).toEqual({ name: 'Momentum', user_id: await demoUserId(db.pool, 'advanced') });
  });
});
