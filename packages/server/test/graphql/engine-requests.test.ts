import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import type { VyuhaGraphqlEngine } from '../../src/graphql/engine';
import type { Metadata } from '../../src/graphql/metadata/types';
import { adminSession, demoUserIds, echoAction, run, testEngine, testMetadata, userSession } from './engine-fixtures';

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
const INTROSPECTION = '{ __schema { queryType { name } types { name } } }';

describe('request errors', () => {
  it('answers a syntax error with line and column', async () => {
    const outcome = await engine.execute({ query: '{ users { name }' }, advanced());
    expect(outcome.failed).toBe(true);
    expect(outcome.requestError).toBe(true);
    expect(outcome.errors[0]?.extensions).toEqual({ code: 'validation-failed', path: '$.query' });
    expect(outcome.errors[0]?.message).toMatch(/^not a valid graphql query: .* at 1:17$/);
  });

  it('names unknown fields and arguments with their path', async () => {
    const field = await run(engine, { session: advanced(), query: '{ strategies { name nope } }' });
    expect(field.errors?.[0]).toEqual({ message: "field 'nope' not found in type: 'strategies'", extensions: { code: 'validation-failed', path: '$.selectionSet.strategies.selectionSet.nope' } });
    const argument = await run(engine, { session: advanced(), query: '{ strategies(first: 1) { name } }' });
    expect(argument.errors?.[0]).toEqual({ message: "'strategies' has no argument named 'first'", extensions: { code: 'validation-failed', path: '$.selectionSet.strategies' } });
  });

  it('names the variable that is missing or of the wrong type', async () => {
    const query = 'query ($id: uuid!, $limit: Int) { strategies_by_pk(strategy_id: $id) { name } strategies(limit: $limit) { name } }';
    const missing = await run(engine, { session: advanced(), query });
    expect(missing.errors?.[0]).toEqual({ message: 'expecting a value for non-nullable variable: "id"', extensions: { code: 'validation-failed', path: '$' } });
    const wrong = await run(engine, { session: advanced(), query, variables: { id: ids.advanced, limit: 'ten' } });
    expect(wrong.errors?.[0]?.message).toContain('$limit');
  });

  it('enforces depth, node and root-field limits', async () => {
    const small = await testEngine(db.pool, { limits: { maxDepth: 3, maxNodes: 4, maxRootFields: 2 } });
    const deep = await run(small, { session: advanced(), query: '{ users { strategies { user { name } } } }' });
    expect(deep.errors?.[0]?.message).toBe('query depth 4 exceeds the limit of 3');
    const wide = await run(small, { session: advanced(), query: '{ users { name tier user_id created_at } }' });
    expect(wide.errors?.[0]?.message).toBe('query has at least 5 fields, more than the limit of 4');
    const many = await run(small, { session: advanced(), query: '{ a: exchanges { name } b: exchanges { name } c: exchanges { name } }' });
    expect(many.errors?.[0]?.message).toBe('too many root fields: 3 (at most 2)');
    const fine = await run(small, { session: advanced(), query: '{ users { strategies { name } } }' });
    expect(fine.errors).toBeUndefined();
  });

  it('refuses subscriptions over execute()', async () => {
    const result = await run(engine, { session: advanced(), query: 'subscription { exchanges { name } }' });
    expect(result.errors?.[0]?.extensions.code).toBe('validation-failed');
  });
});

describe('introspection', () => {
  it('is open in development and answers with the role schema', async () => {
    const result = await run(engine, { session: advanced(), query: INTROSPECTION });
    const typeNames = ((result.data?.__schema as { types: { name: string }[] }).types).map((type) => type.name);
    expect(typeNames).toEqual(expect.arrayContaining(['strategies', 'strategies_bool_exp', 'strategies_order_by', 'strategies_aggregate_fields', 'uuid_comparison_exp', 'order_by', 'strategies_insert_input', 'strategies_set_input', 'strategies_mutation_response', 'echo_output']));
    expect(typeNames).not.toContain('algorithm_versions');
    const anonymous = await run(engine, { session: { role: 'anonymous', admin: false, variables: {} }, query: INTROSPECTION });
    const anonymousTypes = ((anonymous.data?.__schema as { types: { name: string }[] }).types).map((type) => type.name);
    expect(anonymousTypes).toContain('exchanges');
    expect(anonymousTypes).not.toContain('users');
    expect(anonymousTypes).not.toContain('mutation_root');
  });

  it('is refused in production except for the admin secret, administrator and superadmin', async () => {
    const production = await testEngine(db.pool, { production: true });
    const refused = await run(production, { session: advanced(), query: `query { exchanges(limit: 1) { name } ...F } fragment F on query_root { __type(name: "users") { name } }` });
    expect(refused.errors).toEqual([{ message: 'introspection is disabled', extensions: { code: 'validation-failed', path: '$.selectionSet.__type' } }]);
    expect((await run(production, { session: adminSession, query: INTROSPECTION })).errors).toBeUndefined();
    expect((await run(production, { session: userSession(ids.administrator ?? '', 'administrator'), query: INTROSPECTION })).errors).toBeUndefined();
    const typename = await run(production, { session: advanced(), query: '{ __typename exchanges(limit: 1) { __typename } }' });
    expect(typename.data).toEqual({ __typename: 'query_root', exchanges: [{ __typename: 'exchanges' }] });
  });

  it('mixes introspection with table fields in field order', async () => {
    const outcome = await engine.execute({ query: '{ a: exchanges(limit: 1) { exchange } t: __type(name: "order_by") { kind } }' }, advanced());
    expect(outcome.body.startsWith('{"data":{"a":')).toBe(true);
    expect(JSON.parse(outcome.body)).toEqual({ data: { a: [{ exchange: 'NSE' }], t: { kind: 'ENUM' } } });
  });
});

describe('actions', () => {
  it('runs the handler with args and session, and selects the requested fields', async () => {
    const result = await run(engine, { session: advanced(), query: 'mutation { echo_session(input: {text: "hi"}) { text user_id } }' });
    expect(result.data).toEqual({ echo_session: { text: 'HI', user_id: ids.advanced } });
  });

  it('turns a thrown GraphqlFailure into its Hasura error', async () => {
    const result = await run(engine, { session: advanced(), query: 'mutation { echo_session(input: {text: "no", fail: true}) { text } }' });
    expect(result.errors).toEqual([{ message: 'refused: no', extensions: { code: 'action-error', path: '$' } }]);
  });

  it('exists only for its roles, and refuses a mix with table mutations', async () => {
    const support = await run(engine, { session: userSession(ids.support ?? '', 'support'), query: 'mutation { echo_session(input: {text: "x"}) { text } }' });
    expect(support.errors?.[0]?.extensions.code).toBe('validation-failed');
    const mixed = await run(engine, { session: advanced(), query: 'mutation { echo_session(input: {text: "x"}) { text } delete_strategies(where: {}) { affected_rows } }' });
    expect(mixed.errors?.[0]?.message).toBe('action mutations cannot be mixed with table mutations in one request');
  });

  it('answers an unexpected handler error generically and logs the real one', async () => {
    const logged: string[] = [];
    const failing = { ...echoAction, name: 'explode', field: 'explode(input: echo_input!): echo_output!', types: '', async handler() { throw new Error('secret detail'); } };
    const { createGraphqlEngine } = await import('../../src/graphql/engine');
    const withFailing = await createGraphqlEngine({ pool: db.pool, metadata: { ...testMetadata, actions: [echoAction, failing] }, log: (message) => logged.push(message) });
    const result = await run(withFailing, { session: advanced(), query: 'mutation { explode(input: {text: "x"}) { text } }' });
    expect(result.errors?.[0]?.extensions.code).toBe('unexpected');
    expect(JSON.stringify(result)).not.toContain('secret detail');
    expect(logged.join('\n')).toContain('secret detail');
  });
});

describe('subscribe and executeRows', () => {
  it('returns a LiveQuery whose fetch() matches execute()', async () => {
    await db.pool.query("INSERT INTO strategies (user_id, name, kind) VALUES ($1, 'Live A', 'basket')", [ids.advanced]);
    const body = 'strategies(where: {name: {_like: $pattern}}) { name user { name } }';
    const live = await engine.subscribe({ query: `subscription ($pattern: String!) { ${body} }`, variables: { pattern: 'Live%' } }, advanced());
    if ('errors' in live) throw new Error(JSON.stringify(live.errors));
    const executed = await engine.execute({ query: `query ($pattern: String!) { ${body} }`, variables: { pattern: 'Live%' } }, advanced());
    expect(await live.fetch()).toBe(executed.body);
    expect(live.responseKey).toBe('strategies');
    expect(live.tables).toEqual(['public.managers', 'public.strategies', 'public.users']);
    expect(live.sql).toMatch(/\$\d+::text/);
    const same = await engine.subscribe({ query: `subscription ($pattern: String!) { ${body} }`, variables: { pattern: 'Live%' } }, advanced());
    const other = await engine.subscribe({ query: `subscription ($pattern: String!) { ${body} }`, variables: { pattern: 'Live%' } }, userSession(ids.basic ?? ''));
    expect('key' in same && same.key).toBe(live.key);
    expect('key' in other && other.key).not.toBe(live.key);
  });

  it('subscribes to aggregates and refuses two root fields', async () => {
    const live = await engine.subscribe({ query: 'subscription { total: user_credits_aggregate { aggregate { sum { credits } } } }' }, advanced());
    if ('errors' in live) throw new Error(JSON.stringify(live.errors));
    expect(JSON.parse(await live.fetch())).toEqual(JSON.parse((await engine.execute({ query: '{ total: user_credits_aggregate { aggregate { sum { credits } } } }' }, advanced())).body));
    const two = await engine.subscribe({ query: 'subscription { a: exchanges { name } b: exchanges { name } }' }, advanced());
    expect('errors' in two && two.errors[0]?.extensions.code).toBe('validation-failed');
  });

  it('streams the rows of the first root field in batches, with the same permissions', async () => {
    const values = Array.from({ length: 1203 }, (_unused, index) => `($1, 'Row ${String(index).padStart(4, '0')}', 'basket')`);
    await db.pool.query(`INSERT INTO strategies (user_id, name, kind) VALUES ${values.join(', ')}`, [ids.advanced]);
    await db.pool.query("INSERT INTO strategies (user_id, name, kind) VALUES ($1, 'Row theirs', 'basket')", [ids.basic]);
    const rows: Record<string, unknown>[] = [];
    for await (const row of engine.executeRows({ query: '{ strategies(where: {name: {_like: "Row %"}}, order_by: {name: asc}) { name user { tier } } }' }, advanced())) rows.push(row);
    expect(rows).toHaveLength(1203);
    expect(rows[0]).toEqual({ name: 'Row 0000', user: { tier: 'advanced' } });
    expect(rows.at(-1)).toEqual({ name: 'Row 1202', user: { tier: 'advanced' } });
    const capped = await testEngine(db.pool, { limits: { maxRowsPerSelect: 10 } });
    let streamed = 0;
    for await (const _row of capped.executeRows({ query: '{ strategies(where: {name: {_like: "Row %"}}) { name } }' }, advanced())) streamed += 1;
    expect(streamed).toBe(1203);
    await expect(async () => {
      for await (const _row of engine.executeRows({ query: '{ nope }' }, advanced())) void _row;
    }).rejects.toMatchObject({ code: 'validation-failed' });
  });
});

describe('metadata validation at start', () => {
  const broken = async (change: (metadata: Metadata) => Metadata) => {
    try {
      await testEngine(db.pool, { metadata: change(testMetadata) });
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };
  const withStrategies = (metadata: Metadata, patch: (table: Metadata['tables'][number]) => Metadata['tables'][number]): Metadata => ({
    ...metadata,
    tables: metadata.tables.map((table) => (table.name === 'strategies' ? patch(table) : table)),
  });

  it('names the table, role and path of an unknown column, relationship or operator', async () => {
    expect(await broken((metadata) => ({ ...metadata, tables: [...metadata.tables, { name: 'no_such_table', permissions: {} }] })))
      .toBe('graphql metadata: table "no_such_table": public.no_such_table does not exist in the database');
    expect(await broken((metadata) => withStrategies(metadata, (table) => ({ ...table, permissions: { user: { select: { filter: { owner: { _eq: 'X-Hasura-User-Id' } }, columns: 'all' } } } }))))
      .toBe('graphql metadata: table "strategies" (filter user.select.filter): unknown column or relationship "owner" at user.select.filter.owner');
    expect(await broken((metadata) => withStrategies(metadata, (table) => ({ ...table, permissions: { user: { select: { filter: { user: { name: { _near: 'x' } } }, columns: 'all' } } } }))))
      .toBe('graphql metadata: table "users" (filter user.select.filter.user.name): unknown operator "_near" for column "name" of type String');
    expect(await broken((metadata) => withStrategies(metadata, (table) => ({ ...table, objectRelationships: { owner: { table: 'people', columns: { user_id: 'id' } } } }))))
      .toBe('graphql metadata: table "strategies", relationship "owner": unknown remote table "people"');
    expect(await broken((metadata) => withStrategies(metadata, (table) => ({ ...table, permissions: { user: { select: { filter: {}, columns: ['name', 'colour'] } } } }))))
      .toBe('graphql metadata: table "strategies", role "user", select.columns: unknown column "colour"');
  });
});
