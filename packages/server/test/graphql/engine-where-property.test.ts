import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import type { VyuhaGraphqlEngine } from '../../src/graphql/engine';
import { adminSession, testEngine } from './engine-fixtures';

/** SQL's three-valued logic: null is "unknown". */
type Truth = boolean | null;

interface Row { id: number; a: number | null; b: string | null; c: boolean | null }

const ROWS: Row[] = Array.from({ length: 40 }, (_unused, id) => ({
  id,
  a: id % 7 === 0 ? null : (id * 37) % 11 - 5,
  b: id % 5 === 0 ? null : ['apple', 'Apricot', 'banana', 'berry', 'cherry', 'Avocado'][id % 6] ?? null,
  c: id % 9 === 0 ? null : id % 2 === 0,
}));

const and = (values: Truth[]): Truth => (values.includes(false) ? false : values.includes(null) ? null : true);
const or = (values: Truth[]): Truth => (values.includes(true) ? true : values.includes(null) ? null : false);
const not = (value: Truth): Truth => (value === null ? null : !value);

type Exp = Record<string, unknown>;

function compare(value: number | string | boolean | null, operator: string, operand: unknown): Truth {
  if (operator === '_is_null') return operand ? value === null : value !== null;
  if (operator === '_in' || operator === '_nin') {
    const list = operand as unknown[];
    const found: Truth = list.length === 0 ? false : value === null ? null : list.includes(value);
    return operator === '_in' ? found : not(found);
  }
  if (value === null) return null;
  switch (operator) {
    case '_eq': return value === operand;
    case '_neq': return value !== operand;
    case '_gt': return (value as number) > (operand as number);
    case '_gte': return (value as number) >= (operand as number);
    case '_lt': return (value as number) < (operand as number);
    case '_lte': return (value as number) <= (operand as number);
    case '_like': return (value as string).startsWith((operand as string).slice(0, -1));
    case '_ilike': return (value as string).toLowerCase().startsWith((operand as string).slice(0, -1).toLowerCase());
    default: throw new Error(operator);
  }
}

function evaluate(exp: Exp, row: Row): Truth {
  return and(Object.entries(exp).map(([key, value]) => {
    if (key === '_and') return and((value as Exp[]).map((item) => evaluate(item, row)));
    if (key === '_or') return or((value as Exp[]).map((item) => evaluate(item, row)));
    if (key === '_not') return not(evaluate(value as Exp, row));
    const column = row[key as 'a' | 'b' | 'c'];
    return and(Object.entries(value as Exp).map(([operator, operand]) => compare(column, operator, operand)));
  }));
}

const integer = fc.integer({ min: -6, max: 6 });
const text = fc.constantFrom('apple', 'Apricot', 'banana', 'berry', 'cherry', 'Avocado', 'kiwi');
const prefix = fc.constantFrom('a%', 'A%', 'b%', 'ch%', 'z%');
const leaf: fc.Arbitrary<Exp> = fc.oneof(
  fc.record({ a: fc.oneof(
    integer.chain((value) => fc.constantFrom('_eq', '_neq', '_gt', '_gte', '_lt', '_lte').map((operator) => ({ [operator]: value }))),
    fc.array(integer, { maxLength: 3 }).chain((list) => fc.constantFrom('_in', '_nin').map((operator) => ({ [operator]: list }))),
    fc.boolean().map((flag) => ({ _is_null: flag })),
    fc.tuple(integer, integer).map(([low, high]) => ({ _gte: low, _lte: high })),
  ) }),
  fc.record({ b: fc.oneof(
    text.chain((value) => fc.constantFrom('_eq', '_neq').map((operator) => ({ [operator]: value }))),
    prefix.chain((value) => fc.constantFrom('_like', '_ilike').map((operator) => ({ [operator]: value }))),
    fc.array(text, { maxLength: 3 }).chain((list) => fc.constantFrom('_in', '_nin').map((operator) => ({ [operator]: list }))),
    fc.boolean().map((flag) => ({ _is_null: flag })),
  ) }),
  fc.record({ c: fc.oneof(fc.boolean().map((flag) => ({ _eq: flag })), fc.boolean().map((flag) => ({ _is_null: flag }))) }),
);
const tree: fc.Arbitrary<Exp> = fc.letrec<{ node: Exp }>((self) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(self('node'), { maxLength: 3 }).map((items) => ({ _and: items })),
    fc.array(self('node'), { maxLength: 3 }).map((items) => ({ _or: items })),
    self('node').map((item) => ({ _not: item })),
    fc.tuple(leaf, leaf).map(([left, right]) => ({ ...left, ...right })),
  ),
})).node;

let db: TestDatabase;
let engine: VyuhaGraphqlEngine;

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query('CREATE TABLE where_rows (id integer PRIMARY KEY, a integer, b text, c boolean)');
  for (const row of ROWS) await db.pool.query('INSERT INTO where_rows VALUES ($1, $2, $3, $4)', [row.id, row.a, row.b, row.c]);
  engine = await testEngine(db.pool, { metadata: { tables: [{ name: 'where_rows', permissions: {} }], actions: [] } });
});
afterAll(async () => db?.close());

describe('where compiler', () => {
  it('returns exactly the rows a three-valued evaluation of the expression accepts', async () => {
    await fc.assert(fc.asyncProperty(tree, async (where) => {
      const outcome = await engine.execute({ query: 'query ($where: where_rows_bool_exp!) { where_rows(where: $where, order_by: {id: asc}) { id } }', variables: { where } }, adminSession);
      const body = JSON.parse(outcome.body) as { data?: { where_rows: { id: number }[] }; errors?: unknown };
      expect(body.errors).toBeUndefined();
      const expected = ROWS.filter((row) => evaluate(where, row) === true).map((row) => row.id);
      expect(body.data?.where_rows.map((row) => row.id)).toEqual(expected);
    }), { numRuns: 150 });
  });
});
