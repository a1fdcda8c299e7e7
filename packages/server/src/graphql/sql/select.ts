/**
 * Selections -> JSON built in PostgreSQL. A row is `json_build_object(...)`; an object
 * relationship is a correlated `(SELECT ... LIMIT 1)`; an array relationship a correlated
 * `json_agg` over an ordered, limited subquery. Every level ANDs in the role's select filter, so
 * rows the role may not see never enter the JSON. One statement per root field, no N+1.
 *
 * @example `{ users(limit: 1) { name } }` as role user compiles to
 * // (SELECT coalesce(json_agg(s.j), '[]'::json) FROM (SELECT json_build_object('name', _0."name") AS j
 * //   FROM "public"."users" _0 WHERE _0."user_id" = $1::uuid LIMIT $2::integer) s)
 */
import { getNamedType, type GraphQLObjectType } from 'graphql';
import type { CatalogueTable } from '../catalogue';
import { fieldOf, fieldRole } from '../schema/field-roles';
import {
  andAll, columnRef, joinCondition, nameLiteral, nextAlias, readTable, remoteTable, type CompileContext,
} from './context';
import { fieldArguments, subFields, type CollectedField } from './fields';
import { distinctAndOrder, limitClause, type ListArguments } from './order';
import { columnValue, compileBoolExp, permissionFilter } from './where';
import { compileAggregate } from './aggregate';

/** PostgreSQL functions take at most 100 arguments: wider objects go through row_to_json. */
const MAX_JSON_PAIRS = 50;

/** A JSON object from (key, SQL expression) pairs, keys in order. */
export function jsonObject(pairs: readonly (readonly [string, string])[]): string {
  if (pairs.length <= MAX_JSON_PAIRS) return `json_build_object(${pairs.map(([key, value]) => `${nameLiteral(key)}, ${value}`).join(', ')})`;
  return `(SELECT row_to_json(x) FROM (SELECT ${pairs.map(([key, value]) => `${value} AS "${key}"`).join(', ')}) x)`;
}

/** A relationship join from an outer row. */
export interface JoinInput {
  readonly outerAlias: string;
  readonly columns: Readonly<Record<string, string>>;
}

export interface RowsInput {
  readonly type: GraphQLObjectType;
  readonly table: CatalogueTable;
  readonly field: CollectedField;
  readonly args: ListArguments;
  readonly join?: JoinInput;
}

/** The JSON object of one row of `table` at `alias` for the collected fields of `type`. */
export function compileRowObject(context: CompileContext, input: { type: GraphQLObjectType; table: CatalogueTable; alias: string; fields: readonly CollectedField[] }): string {
  const { type, table, alias } = input;
  const pairs: [string, string][] = [];
  for (const field of input.fields) {
    if (field.name === '__typename') {
      pairs.push([field.responseKey, nameLiteral(type.name)]);
      continue;
    }
    const definition = fieldOf(type, field.name);
    const role = fieldRole(definition);
    const childType = getNamedType(definition.type) as GraphQLObjectType;
    if (role?.kind === 'column') {
      pairs.push([field.responseKey, columnValue(context, { table, alias, column: role.column })]);
    } else if (role?.kind === 'object_relationship' || role?.kind === 'array_relationship' || role?.kind === 'array_aggregate') {
      const { remote, columns } = remoteTable(context, table, role.relationship);
      const join = { outerAlias: alias, columns };
      if (role.kind === 'object_relationship') {
        pairs.push([field.responseKey, compileSingleRow(context, { type: childType, table: remote, field, join })]);
      } else {
        const args = fieldArguments(definition, field, context.variables) as ListArguments;
        const rows = { type: childType, table: remote, field, args, join };
        pairs.push([field.responseKey, role.kind === 'array_relationship' ? compileList(context, rows) : compileAggregate(context, rows)]);
      }
    } else {
      throw new Error(`internal: field ${type.name}.${field.name} has no compiler role`);
    }
  }
  return jsonObject(pairs);
}

/** WHERE of a read: the join, the role's select filter, the query's `where` and any extra condition. */
export function readCondition(context: CompileContext, input: { table: CatalogueTable; alias: string; where?: unknown; join?: JoinInput | undefined; extra?: string }): string {
  const { table, alias } = input;
  const conditions: string[] = [];
  if (input.join) conditions.push(joinCondition(input.join.columns, { outer: input.join.outerAlias, inner: alias }));
  conditions.push(permissionFilter(context, { table, alias }));
  if (input.where !== undefined && input.where !== null) conditions.push(compileBoolExp(context, { table, alias, exp: input.where, mode: 'user' }));
  if (input.extra) conditions.push(input.extra);
  return andAll(conditions);
}

/**
 * `SELECT <row json> AS j FROM ... WHERE ... ORDER BY ... LIMIT ...`: the rows of a list, one
 * JSON object each, in order (also the CSV stream's statement).
 */
export function compileRowsSelect(context: CompileContext, input: RowsInput): string {
  const { table, args } = input;
  const alias = nextAlias(context);
  const from = readTable(context, table);
  const condition = readCondition(context, { table, alias, where: args.where, join: input.join });
  const { distinct, order } = distinctAndOrder(context, { table, alias, args });
  const object = compileRowObject(context, { type: input.type, table, alias, fields: subFields(input.field, context) });
  return `SELECT ${distinct}${object} AS j FROM ${from} ${alias} WHERE ${condition}${order}${limitClause(context, { table, args })}`;
}

/** A JSON array of rows (a list root field or an array relationship). */
export function compileList(context: CompileContext, input: RowsInput): string {
  return `(SELECT coalesce(json_agg(s.j), '[]'::json) FROM (${compileRowsSelect(context, input)}) s)`;
}

/** One row or null: an object relationship, or `_by_pk` when `keys` are given. */
export function compileSingleRow(context: CompileContext, input: { type: GraphQLObjectType; table: CatalogueTable; field: CollectedField; join?: JoinInput; keys?: Readonly<Record<string, unknown>> }): string {
  const { table } = input;
  const alias = nextAlias(context);
  const from = readTable(context, table);
  const keyConditions = Object.entries(input.keys ?? {}).map(([column, value]) => {
    const sqlType = table.columns.get(column)?.sqlType ?? 'text';
    return `${columnRef(alias, column)} = ${context.params.value(value, sqlType)}`;
  });
  const condition = readCondition(context, { table, alias, join: input.join, extra: andAll(keyConditions) });
  const object = compileRowObject(context, { type: input.type, table, alias, fields: subFields(input.field, context) });
  return `(SELECT ${object} FROM ${from} ${alias} WHERE ${condition} LIMIT 1)`;
}

/** The JSON expression of a query or subscription root field (`<t>`, `<t>_by_pk`, `<t>_aggregate`). */
export function compileQueryField(context: CompileContext, input: { rootType: GraphQLObjectType; field: CollectedField }): string {
  const definition = fieldOf(input.rootType, input.field.name);
  const role = fieldRole(definition);
  if (!role || !('table' in role)) throw new Error(`internal: ${input.field.name} is not a table field`);
  const table = context.catalogue.tables.get(role.table);
  if (!table) throw new Error(`internal: table ${role.table} missing`);
  const type = getNamedType(definition.type) as GraphQLObjectType;
  const args = fieldArguments(definition, input.field, context.variables);
  switch (role.kind) {
    case 'select': return compileList(context, { type, table, field: input.field, args });
    case 'select_aggregate': return compileAggregate(context, { type, table, field: input.field, args });
    case 'select_by_pk': return compileSingleRow(context, { type, table, field: input.field, keys: args });
    default: throw new Error(`internal: ${input.field.name} is not a query field`);
  }
}
