import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { ALL_ROLES, SIGNED_IN_ROLES, vyuhaMetadata } from '../../src/graphql/metadata/index';
import { buildPermissionWorld, type PermissionWorld } from './permission-matrix-world';
import { permissionCases, type PermissionCase } from './permission-matrix-cases';
import { normalizeValue, valuesAt } from './permission-matrix-run';

// The cases themselves, checked without the engine: coverage, the oracle's SQL, the probes' SQL.
describe('permission matrix cases', () => {
  let db: TestDatabase;
  let world: PermissionWorld;
  let cases: PermissionCase[];
  const metadata = vyuhaMetadata([]);

  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    world = await buildPermissionWorld(db.pool);
    cases = permissionCases(metadata, world, ALL_ROLES);
  });
  afterAll(async () => { await db.close(); });

  it('covers every table x role x operation, signed-in roles as two different users', () => {
    for (const table of metadata.tables) {
      for (const role of ALL_ROLES) {
        for (const operation of ['select', 'insert', 'update', 'delete'] as const) {
          const matching = cases.filter((item) => item.table === table.name && item.persona.role === role && item.operation === operation);
          const users = new Set(matching.map((item) => item.persona.user?.id ?? 'anonymous'));
          expect(users.size, `${table.name} ${role} ${operation}`).toBe((SIGNED_IN_ROLES as readonly string[]).includes(role) ? 2 : 1);
        }
      }
    }
    expect(new Set(cases.map((item) => item.id)).size).toBe(cases.length);
  });

  it('has an oracle that runs and keeps two ordinary users apart', async () => {
    for (const item of cases) {
      if (item.expect.kind !== 'rows') continue;
      await db.pool.query(item.expect.expected.text, item.expect.expected.params as unknown[]);
    }
    for (const table of ['user_brokers', 'strategy_runs', 'orders', 'fills', 'positions', 'daily_pnl', 'user_credits', 'licences', 'sweeps', 'sweep_results']) {
      const [first, second] = cases.filter((item) => item.table === table && item.operation === 'select' && item.persona.role === 'basic');
      if (first?.expect.kind !== 'rows' || second?.expect.kind !== 'rows') throw new Error(`no select cases for ${table}`);
      const one = await db.pool.query<{ key: string[] }>(first.expect.expected.text, first.expect.expected.params as unknown[]);
      const two = await db.pool.query<{ key: string[] }>(second.expect.expected.text, second.expect.expected.params as unknown[]);
      expect(one.rows.length, table).toBeGreaterThan(0);
      expect(two.rows.length, table).toBeGreaterThan(0);
      const keys = new Set(one.rows.map((row) => JSON.stringify(row.key)));
      expect(two.rows.filter((row) => keys.has(JSON.stringify(row.key))), table).toEqual([]);
    }
  });

  it('expects candles from each tier date by IST trading day', async () => {
    const trial = cases.find((item) => item.table === 'candles' && item.persona.label === 'trial' && item.operation === 'select');
    if (trial?.expect.kind !== 'rows') throw new Error('no candle case');
    const rows = await db.pool.query<{ key: string[] }>(trial.expect.expected.text, trial.expect.expected.params as unknown[]);
    // 2025-01-01 09:15 and 18:15 IST are on or after trial's 2025-01-01; 2024-12-31 15:29 IST is not.
    expect(rows.rows.map((row) => new Date(row.key[1] ?? '').toISOString()).sort())
      .toEqual(['2025-01-01T03:45:00.000Z', '2025-01-01T12:45:00.000Z']);
  });

  it('has probe SQL that prepares and cleans up', async () => {
    for (const item of cases) {
      for (const query of [...item.prepare, ...item.cleanup]) await db.pool.query(query.text, query.params as unknown[]);
      if (item.expect.kind === 'mutation') {
        for (const { query } of item.expect.checks) await db.pool.query(query.text, query.params as unknown[]);
      }
    }
    const leftovers = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM user_app_configs WHERE category = 'probe'`);
    expect(leftovers.rows[0]?.n).toBe(0);
  });

  it('normalises values and walks paths the same way on both sides', () => {
    expect(normalizeValue('2025-01-01T03:45:00+00:00')).toBe(normalizeValue('2025-01-01T09:15:00+05:30'));
    expect(normalizeValue('2025-01-01')).toBe('2025-01-01');
    expect(normalizeValue(12)).toBe('12');
    expect(valuesAt({ a: [{ b: [{ c: 1 }, { c: 2 }] }, { b: [] }] }, ['a', 'b', 'c'])).toEqual([1, 2]);
  });
});
