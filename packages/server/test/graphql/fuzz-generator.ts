/**
 * Random GraphQL operations walked from a role's own graphql-js schema (the engine's RoleSchemas):
 * root fields, arguments of every input type (filters with `_and`/`_or`/`_not`, order_by, limits,
 * insert objects, `_set`), selections with relationships and aggregates, sometimes through
 * variables. Seeded (mulberry32): the same seed gives the same operation, so a failure names
 * the seed that reproduces it. Every selected object of a table that has `user_id` is recorded
 * with its response path, so the caller can check whose rows came back.
 */
import {
  getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType,
  type GraphQLField, type GraphQLInputType, type GraphQLObjectType, type GraphQLSchema,
} from 'graphql';
import { fieldRole } from '../../src/graphql/schema/field-roles';

export interface Rng {
  next(): number;
  int(lowest: number, highest: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** mulberry32: small, fast, and the same numbers for the same seed everywhere. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lowest, highest) => lowest + Math.floor(next() * (highest - lowest + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (probability) => next() < probability,
  };
}

/** Values the generator draws from: ids of the world's rows, so filters and keys hit real rows. */
export interface ValuePool {
  readonly uuids: readonly string[];
  readonly ints: readonly number[];
}

/** Where, in a response, objects of a table with `user_id` are (arrays walked through). */
export interface OwnedPath {
  readonly path: readonly string[];
  readonly table: string;
}

export interface GeneratedOperation {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly owned: readonly OwnedPath[];
}

const STRINGS = ['NSE', 'a', '%a%', "it's", 'Ω ✓', '', 'CE', 'x'.repeat(40), '2024-01-01', 'PAPER', 'LIVE'];

interface Context {
  readonly rng: Rng;
  readonly pool: ValuePool;
  readonly variables: Record<string, unknown>;
  readonly definitions: string[];
  readonly owned: OwnedPath[];
}

/** A literal of `type` as GraphQL text (or, now and then, a variable holding the value). */
function literal(type: GraphQLInputType, context: Context, depth: number): string {
  if (isNonNullType(type)) return literal(type.ofType, context, depth);
  if (isListType(type)) {
    const count = depth > 2 ? 0 : context.rng.int(0, 3);
    return `[${Array.from({ length: count }, () => literal(type.ofType, context, depth + 1)).join(', ')}]`;
  }
  if (isEnumType(type)) return context.rng.pick(type.getValues()).name;
  if (isInputObjectType(type)) return inputObject(type, context, depth);
  return JSON.stringify(scalarValue(type.name, context));
}

function scalarValue(name: string, context: Context): unknown {
  const { rng, pool } = context;
  switch (name) {
    case 'Int': case 'smallint': case 'bigint': return rng.chance(0.5) && pool.ints.length > 0 ? rng.pick(pool.ints) : rng.int(-2, 60);
    case 'Float': case 'numeric': case 'float8': return rng.chance(0.5) ? rng.int(0, 1000) / 8 : rng.int(-5, 100);
    case 'Boolean': return rng.chance(0.5);
    case 'uuid': return rng.chance(0.85) && pool.uuids.length > 0 ? rng.pick(pool.uuids) : '00000000-0000-4000-8000-000000000000';
    case 'timestamptz': case 'timestamp': return rng.pick(['2024-01-01T03:45:00Z', '2020-06-01T09:15:00+05:30', '2099-12-31T00:00:00Z']);
    case 'date': return rng.pick(['2024-01-01', '2025-01-02', '2019-12-31']);
    case 'time': case 'timetz': return rng.pick(['09:15:00', '15:30:00']);
    case 'jsonb': case 'json': return rng.pick([{}, { a: 1 }, [1, 'x'], 'text', 3]);
    default: return rng.pick(STRINGS);
  }
}

/** An input object with its required fields and a few others (nesting ends at depth 3). */
function inputObject(type: GraphQLInputType & { getFields(): Record<string, { type: GraphQLInputType }> }, context: Context, depth: number): string {
  const fields = Object.entries(type.getFields());
  const required = fields.filter(([, field]) => isNonNullType(field.type));
  const optional = fields.filter(([, field]) => !isNonNullType(field.type));
  const chosen = [...required];
  const extra = depth > 2 ? 0 : context.rng.int(0, Math.min(2, optional.length));
  for (let n = 0; n < extra; n += 1) {
    const candidate = context.rng.pick(optional);
    if (!chosen.includes(candidate)) chosen.push(candidate);
  }
  return `{${chosen.map(([name, field]) => `${name}: ${literal(field.type, context, depth + 1)}`).join(', ')}}`;
}

/** The arguments of a field: required ones always, optional ones sometimes; some through variables. */
function argumentsOf(field: GraphQLField<unknown, unknown>, context: Context): string {
  const parts: string[] = [];
  for (const argument of field.args) {
    const required = isNonNullType(argument.type);
    if (!required && !context.rng.chance(argument.name === 'limit' ? 0.7 : 0.35)) continue;
    if (argument.name === 'limit' || argument.name === 'offset') {
      parts.push(`${argument.name}: ${context.rng.int(0, 12)}`);
      continue;
    }
    const text = literal(argument.type, context, 0);
    if (context.rng.chance(0.25)) {
      // The same value through a variable: exercises coercion and the plan cache.
      const name = `v${context.definitions.length}`;
      context.definitions.push(`$${name}: ${argument.type.toString()}`);
      context.variables[name] = JSON.parse(toJson(text)) as unknown;
      parts.push(`${argument.name}: $${name}`);
    } else parts.push(`${argument.name}: ${text}`);
  }
  return parts.length > 0 ? `(${parts.join(', ')})` : '';
}

/** GraphQL literal text -> JSON text (the generator only writes names, strings, numbers, booleans, lists and objects). */
function toJson(text: string): string {
  const token = /"(?:[^"\\]|\\.)*"|([{,]\s*)([_A-Za-z][_0-9A-Za-z]*)(\s*:)|\b([_A-Za-z][_0-9A-Za-z]*)\b/g;
  return text.replace(token, (...match: (string | undefined)[]) => {
    const [whole, before, key, colon, bare] = match;
    if (key !== undefined) return `${before ?? ''}"${key}"${colon ?? ''}`;
    if (bare !== undefined) return bare === 'true' || bare === 'false' || bare === 'null' ? bare : `"${bare}"`;
    return whole ?? '';
  });
}

/** A selection of an object type: some columns (always `user_id` where there is one), maybe relationships. */
function selection(type: GraphQLObjectType, context: Context, at: { path: readonly string[]; depth: number }): string {
  const fields = Object.values(type.getFields());
  const columns = fields.filter((field) => fieldRole(field)?.kind === 'column');
  const chosen = new Set<string>();
  if (type.getFields().user_id && fieldRole(type.getFields().user_id as GraphQLField<unknown, unknown>)?.kind === 'column') {
    chosen.add('user_id');
    context.owned.push({ path: at.path, table: type.name });
  }
  for (let n = context.rng.int(1, 4); n > 0 && columns.length > 0; n -= 1) chosen.add(context.rng.pick(columns).name);
  const parts = [...chosen];
  if (context.rng.chance(0.2)) parts.push('__typename');
  const nested = fields.filter((field) => {
    const kind = fieldRole(field)?.kind;
    return kind === 'object_relationship' || kind === 'array_relationship' || kind === 'array_aggregate';
  });
  if (at.depth < 3) {
    for (let n = context.rng.int(0, 2); n > 0 && nested.length > 0; n -= 1) {
      const field = context.rng.pick(nested);
      const alias = `r${context.owned.length}_${context.rng.int(0, 999)}`;
      parts.push(`${alias}: ${field.name}${argumentsOf(field, context)} ${subSelection(field, context, { path: [...at.path, alias], depth: at.depth + 1 })}`);
    }
  }
  return `{ ${parts.join(' ')} }`;
}

/** What a field's own type asks to select: a table row, an aggregate, a mutation response. */
function subSelection(field: GraphQLField<unknown, unknown>, context: Context, at: { path: readonly string[]; depth: number }): string {
  const type = getNamedType(field.type);
  if (!isObjectType(type)) return '';
  const fields = type.getFields();
  if (fields.aggregate && fields.nodes) {
    const nodes = getNamedType(fields.nodes.type) as GraphQLObjectType;
    return `{ aggregate { count } nodes ${selection(nodes, context, { path: [...at.path, 'nodes'], depth: at.depth })} }`;
  }
  if (fields.affected_rows) {
    const returning = fields.returning ? getNamedType(fields.returning.type) : undefined;
    return returning && isObjectType(returning)
      ? `{ affected_rows returning ${selection(returning, context, { path: [...at.path, 'returning'], depth: at.depth })} }`
      : '{ affected_rows }';
  }
  return selection(type, context, at);
}

const READS = new Set(['select', 'select_by_pk', 'select_aggregate']);
const WRITES = new Set(['insert', 'insert_one', 'update', 'update_by_pk', 'delete', 'delete_by_pk']);

/** One random operation of `kind` for a role's schema, or undefined when the role has no such root field. */
export function generateOperation(schema: GraphQLSchema, input: { kind: 'query' | 'mutation'; seed: number; pool: ValuePool }): GeneratedOperation | undefined {
  const root = input.kind === 'query' ? schema.getQueryType() : schema.getMutationType();
  if (!root) return undefined;
  const wanted = input.kind === 'query' ? READS : WRITES;
  const candidates = Object.values(root.getFields()).filter((field) => {
    const role = fieldRole(field);
    return role !== undefined && wanted.has(role.kind);
  });
  if (candidates.length === 0) return undefined;
  const context: Context = { rng: seededRng(input.seed), pool: input.pool, variables: {}, definitions: [], owned: [] };
  const count = input.kind === 'query' ? context.rng.int(1, 3) : 1;
  const fields: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const field = context.rng.pick(candidates);
    const alias = `f${n}`;
    if (isScalarType(getNamedType(field.type))) continue;
    fields.push(`${alias}: ${field.name}${argumentsOf(field, context)} ${subSelection(field, context, { path: [alias], depth: 1 })}`);
  }
  const variables = context.definitions.length > 0 ? `(${context.definitions.join(', ')})` : '';
  return { query: `${input.kind} Fuzz${variables} { ${fields.join(' ')} }`, variables: context.variables, owned: context.owned };
}

/** Every object at `path` in a response's data (lists walked through). */
export function objectsAt(data: unknown, path: readonly string[]): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const walk = (value: unknown, at: number): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, at);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (at === path.length) {
      found.push(value as Record<string, unknown>);
      return;
    }
    walk((value as Record<string, unknown>)[path[at] as string], at + 1);
  };
  walk(data, 0);
  return found;
}
