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
  engine = await testEngine(db.pool);
});
afterAll(async () => db?.close());

const advanced = () => userSession(ids.advanced ?? '');
const count = async (sql: string, params: unknown[] = []) => Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params)).rows[0]?.n);
const CHECK_FAILED = 'check constraint of an insert/update permission has failed';

describe('insert', () => {
  it('inserts rows with presets from the session and returns them', async () => {
    const result = await run(engine, {
      session: advanced(),
      query: `mutation ($objects: [strategies_insert_input!]!) {
        insert_strategies(objects: $objects) { affected_rows returning { name mode interval_minutes user { name } } }
      }`,
      variables: { objects: [{ name: 'Ins A', kind: 'basket' }, { name: 'Ins B', kind: 'basket', mode: 'LIVE', interval_minutes: 15 }] },
    });
    expect(result).toEqual({
      data: {
        insert_strategies: {
          affected_rows: 2,
          returning: [
            { name: 'Ins A', mode: 'PAPER', interval_minutes: 5, user: { name: 'Rohan Mehta' } },
            { name: 'Ins B', mode: 'LIVE', interval_minutes: 15, user: { name: 'Rohan Mehta' } },
          ],
        },
      },
    });
    expect(await count("strategies WHERE name LIKE 'Ins %' AND user_id = $1", [ids.advanced])).toBe(2);
  });

  it('does not offer preset columns in the insert input', async () => {
    const result = await run(engine, { session: advanced(), query: 'mutation { insert_strategies_one(object: {name: "x", kind: "basket", user_id: "00000000-0000-0000-0000-000000000000"}) { name } }' });
    expect(result.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(result.errors?.[0]?.message).toContain('user_id');
  });

  it('refuses a row that fails the insert check and writes nothing', async () => {
    const failed = await run(engine, { session: advanced(), query: 'mutation { insert_strategies_one(object: {name: "Archived", kind: "basket", status: "ARCHIVED"}) { name } }' });
    expect(failed.errors).toEqual([{ message: CHECK_FAILED, extensions: { code: 'permission-error', path: '$.selectionSet.insert_strategies_one.args.object' } }]);
    expect(await count("strategies WHERE name = 'Archived'")).toBe(0);
    const foreign = await run(engine, {
      session: advanced(),
      query: 'mutation ($user: uuid!) { insert_user_app_configs(objects: [{user_id: $user, category: "x", subcategory: "y"}]) { affected_rows } }',
      variables: { user: ids.basic },
    });
    expect(foreign.errors?.[0]?.message).toBe(CHECK_FAILED);
    expect(await count("user_app_configs WHERE category = 'x'")).toBe(0);
  });

  it('upserts with on_conflict, and does nothing with empty update_columns', async () => {
    const query = `mutation ($object: user_app_configs_insert_input!, $columns: [user_app_configs_update_column!]!) {
      insert_user_app_configs_one(object: $object, on_conflict: {constraint: user_app_configs_pkey, update_columns: $columns}) { category meta_data }
    }`;
    const object = { user_id: ids.advanced, category: 'application', subcategory: 'global', meta_data: { theme: 'light' } };
    const upserted = await run(engine, { session: advanced(), query, variables: { object, columns: ['meta_data'] } });
    expect(upserted.data).toEqual({ insert_user_app_configs_one: { category: 'application', meta_data: { theme: 'light' } } });
    const ignored = await run(engine, { session: advanced(), query, variables: { object: { ...object, meta_data: { theme: 'dark' } }, columns: [] } });
    expect(ignored.data).toEqual({ insert_user_app_configs_one: null });
    const { rows } = await db.pool.query("SELECT meta_data FROM user_app_configs WHERE user_id = $1 AND category = 'application' AND subcategory = 'global'", [ids.advanced]);
    expect(rows[0]?.meta_data).toEqual({ theme: 'light' });
  });

  it('answers a duplicate key with Hasura\'s uniqueness message', async () => {
    const result = await run(engine, {
      session: advanced(),
      query: 'mutation ($user: uuid!) { insert_user_app_configs(objects: [{user_id: $user, category: "application", subcategory: "marketplace"}]) { affected_rows } }',
      variables: { user: ids.advanced },
    });
    expect(result.errors).toEqual([{
      message: 'Uniqueness violation. duplicate key value violates unique constraint "user_app_configs_pkey"',
      extensions: { code: 'constraint-violation', path: '$.selectionSet.insert_user_app_configs.args.objects' },
    }]);
  });
});

describe('update', () => {
  it('updates with _set and _inc under the role filter', async () => {
    await db.pool.query("INSERT INTO strategies (user_id, name, kind, interval_minutes) VALUES ($1, 'Up A', 'basket', 5), ($2, 'Up B', 'basket', 5)", [ids.advanced, ids.basic]);
    const result = await run(engine, {
      session: advanced(),
      query: 'mutation { update_strategies(where: {name: {_like: "Up %"}}, _set: {mode: "LIVE"}, _inc: {interval_minutes: 10}) { affected_rows returning { name mode interval_minutes } } }',
    });
    expect(result.data).toEqual({ update_strategies: { affected_rows: 1, returning: [{ name: 'Up A', mode: 'LIVE', interval_minutes: 15 }] } });
    const { rows } = await db.pool.query("SELECT mode FROM strategies WHERE name = 'Up B'");
    expect(rows[0]?.mode).toBe('PAPER');
  });

  it('applies the jsonb operators by primary key', async () => {
    const pk = { user_id: ids.advanced, category: 'application', subcategory: 'marketplace' };
    const step = async (operator: string, value: unknown) => {
      const result = await run(engine, {
        session: advanced(),
        query: `mutation ($pk: user_app_configs_pk_columns_input!, $value: ${operator === '_delete_key' ? 'user_app_configs_delete_key_input' : operator === '_delete_elem' ? 'user_app_configs_delete_elem_input' : operator === '_delete_at_path' ? 'user_app_configs_delete_at_path_input' : operator === '_append' ? 'user_app_configs_append_input' : 'user_app_configs_prepend_input'}) {
          update_user_app_configs_by_pk(pk_columns: $pk, ${operator}: $value) { meta_data }
        }`,
        variables: { pk, value: { meta_data: value } },
      });
      expect(result.errors).toBeUndefined();
      return (result.data?.update_user_app_configs_by_pk as { meta_data: unknown }).meta_data;
    };
    expect(await step('_append', { list: [1, 2, 3], nested: { a: 1, b: 2 } })).toEqual({ marketplaceLayout: 'grid', list: [1, 2, 3], nested: { a: 1, b: 2 } });
    expect(await step('_prepend', { marketplaceLayout: 'list', extra: true })).toEqual({ marketplaceLayout: 'grid', extra: true, list: [1, 2, 3], nested: { a: 1, b: 2 } });
    expect(await step('_delete_key', 'extra')).toEqual({ marketplaceLayout: 'grid', list: [1, 2, 3], nested: { a: 1, b: 2 } });
    expect(await step('_delete_at_path', ['nested', 'a'])).toEqual({ marketplaceLayout: 'grid', list: [1, 2, 3], nested: { b: 2 } });
    expect(await step('_delete_at_path', ['list', '-1'])).toEqual({ marketplaceLayout: 'grid', list: [1, 2], nested: { b: 2 } });
  });

  it('sends _delete_elem to PostgreSQL, which refuses an index into an object (data-exception)', async () => {
    const pk = `{user_id: "${ids.advanced}", category: "application", subcategory: "marketplace"}`;
    const result = await run(engine, { session: advanced(), query: `mutation { update_user_app_configs_by_pk(pk_columns: ${pk}, _delete_elem: {meta_data: 0}) { meta_data } }` });
    expect(result.errors?.[0]).toMatchObject({ message: 'cannot delete from object using integer index', extensions: { code: 'data-exception' } });
  });

  it('refuses an update whose new row fails the check and rolls back', async () => {
    const failed = await run(engine, { session: advanced(), query: 'mutation { update_strategies(where: {name: {_eq: "Up A"}}, _set: {status: "ARCHIVED"}) { affected_rows } }' });
    expect(failed.errors?.[0]).toEqual({ message: CHECK_FAILED, extensions: { code: 'permission-error', path: '$.selectionSet.update_strategies' } });
    const { rows } = await db.pool.query("SELECT status FROM strategies WHERE name = 'Up A'");
    expect(rows[0]?.status).toBe('DRAFT');
  });

  it('runs update_many in order and rolls all back when one fails', async () => {
    const ok = await run(engine, {
      session: advanced(),
      query: `mutation { update_strategies_many(updates: [
        {where: {name: {_eq: "Up A"}}, _set: {status: "PAUSED"}},
        {where: {status: {_eq: "PAUSED"}}, _set: {name: "Up A2"}}
      ]) { affected_rows returning { name status } } }`,
    });
    expect(ok.data).toEqual({ update_strategies_many: [
      { affected_rows: 1, returning: [{ name: 'Up A', status: 'PAUSED' }] },
      { affected_rows: 1, returning: [{ name: 'Up A2', status: 'PAUSED' }] },
    ] });
    const failed = await run(engine, {
      session: advanced(),
      query: `mutation { update_strategies_many(updates: [
        {where: {name: {_eq: "Up A2"}}, _set: {name: "Up A3"}},
        {where: {name: {_eq: "Up A3"}}, _set: {status: "ARCHIVED"}}
      ]) { affected_rows } }`,
    });
    expect(failed.errors?.[0]?.message).toBe(CHECK_FAILED);
    expect(await count("strategies WHERE name = 'Up A2'")).toBe(1);
  });

  it('refuses a column named in two operators', async () => {
    const result = await run(engine, { session: advanced(), query: 'mutation { update_strategies(where: {}, _set: {interval_minutes: 1}, _inc: {interval_minutes: 1}) { affected_rows } }' });
    expect(result.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(result.errors?.[0]?.message).toContain('"interval_minutes"');
  });

  it('maps an immutable-row trigger (42501) to permission-error', async () => {
    const { rows } = await db.pool.query<{ algorithm_id: string }>("INSERT INTO algorithms (user_id, name) VALUES ($1, 'Algo') RETURNING algorithm_id", [ids.advanced]);
    await db.pool.query("INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version) VALUES ($1, 1, '{}', 1)", [rows[0]?.algorithm_id]);
    const result = await run(engine, { session: adminSession, query: 'mutation { update_algorithm_versions(where: {}, _set: {schema_version: 2}) { affected_rows } }' });
    expect(result.errors?.[0]?.extensions.code).toBe('permission-error');
    expect(result.errors?.[0]?.message).toContain('immutable');
  });
});

describe('delete and transactions', () => {
  it('deletes only rows the role may delete, by filter and by key', async () => {
    const { rows } = await db.pool.query<{ strategy_id: string; user_id: string }>("INSERT INTO strategies (user_id, name, kind) VALUES ($1, 'Del A', 'basket'), ($2, 'Del B', 'basket') RETURNING strategy_id, user_id", [ids.advanced, ids.basic]);
    const theirs = rows.find((row) => row.user_id === ids.basic)?.strategy_id;
    const notMine = await run(engine, { session: advanced(), query: `mutation { delete_strategies_by_pk(strategy_id: "${theirs}") { name } }` });
    expect(notMine.data).toEqual({ delete_strategies_by_pk: null });
    const mine = await run(engine, { session: advanced(), query: 'mutation { delete_strategies(where: {name: {_like: "Del %"}}) { affected_rows returning { name } } }' });
    expect(mine.data).toEqual({ delete_strategies: { affected_rows: 1, returning: [{ name: 'Del A' }] } });
    expect(await count("strategies WHERE name LIKE 'Del %'")).toBe(1);
  });

  it('runs several mutation fields in one transaction: a later failure undoes the earlier ones', async () => {
    const result = await run(engine, {
      session: advanced(),
      query: `mutation {
        a: insert_strategies_one(object: {name: "Tx A", kind: "basket"}) { name }
        b: update_strategies(where: {name: {_eq: "Up A2"}}, _set: {name: "Tx renamed"}) { affected_rows }
        c: insert_strategies_one(object: {name: "Tx C", kind: "basket", interval_minutes: 7}) { name }
      }`,
    });
    expect(result.errors?.[0]?.extensions.code).toBe('constraint-violation');
    expect(result.errors?.[0]?.message).toMatch(/^Check constraint violation\. new row for relation "strategies" violates check constraint/);
    expect(await count("strategies WHERE name IN ('Tx A', 'Tx renamed', 'Tx C')")).toBe(0);
    expect(await count("strategies WHERE name = 'Up A2'")).toBe(1);
    const ok = await run(engine, {
      session: advanced(),
      query: 'mutation { a: insert_strategies_one(object: {name: "Tx A", kind: "basket"}) { name } b: delete_strategies(where: {name: {_eq: "Tx A"}}) { affected_rows } }',
    });
    expect(ok.data).toEqual({ a: { name: 'Tx A' }, b: { affected_rows: 1 } });
  });

  it('reports bad input values as data-exception', async () => {
    const result = await run(engine, { session: advanced(), query: '{ strategies_by_pk(strategy_id: "not-a-uuid") { name } }' });
    expect(result.errors?.[0]).toEqual({ message: 'invalid input syntax for type uuid: "not-a-uuid"', extensions: { code: 'data-exception', path: '$' } });
  });
});
