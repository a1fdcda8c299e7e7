/**
 * Hasura boolean expressions -> SQL conditions. Two modes:
 * - `user`: a query's `where`; columns read through the role's masks, and a relationship only
 *   reaches remote rows the role may select (its select filter is ANDed in);
 * - `permission`: a metadata filter; raw columns, `X-Hasura-*` strings are session variables,
 *   `_exists` is allowed, and relationships are not filtered further (Hasura evaluates
 *   permission filters with the table owner's eyes).
 *
 * @example compileBoolExp(ctx, { table: users, alias: '_0', exp: { name: { _ilike: 'ra%' } }, mode: 'user' })
 * // -> `_0."name" ILIKE $1::text` with params ['ra%']
 */
import { GraphqlFailure } from '../types';
import { resolveExistsTable } from '../catalogue-validate';
import type { CatalogueColumn, CatalogueTable } from '../catalogue';
import {
  andAll, columnRef, isSessionVariable, joinCondition, nextAlias, readTable, remoteTable, selectPermission,
  sessionValue, type CompileContext,
} from './context';
import { BINARY_SQL, type ComparisonOperator } from './operators';

export type FilterMode = 'user' | 'permission';

export interface BoolExpInput {
  readonly table: CatalogueTable;
  readonly alias: string;
  readonly exp: unknown;
  readonly mode: FilterMode;
}

function nullValue(type: string): never {
  throw new GraphqlFailure('validation-failed', `unexpected null value for type "${type}"`);
}

/** Compiles a boolean expression; `{}` is `true`. */
export function compileBoolExp(context: CompileContext, input: BoolExpInput): string {
  const { table, exp, mode } = input;
  if (exp === null || typeof exp !== 'object') nullValue(`${table.name}_bool_exp`);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(exp as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (value === null) nullValue(key.startsWith('_') ? `${table.name}_bool_exp` : key);
    if (key === '_and' || key === '_or') {
      const items = (value as unknown[]).map((item) => compileBoolExp(context, { ...input, exp: item }));
      if (key === '_and') parts.push(andAll(items));
      else parts.push(items.length === 0 ? 'false' : items.map((item) => `(${item})`).join(' OR '));
    } else if (key === '_not') {
      parts.push(`NOT (${compileBoolExp(context, { ...input, exp: value })})`);
    } else if (key === '_exists' && mode === 'permission') {
      parts.push(compileExists(context, value));
    } else if (table.columns.has(key)) {
      parts.push(...compileComparisons(context, { ...input, exp: value }, key));
    } else {
      parts.push(compileRelationshipFilter(context, { ...input, exp: value }, key));
    }
  }
  return andAll(parts);
}

function compileExists(context: CompileContext, value: unknown): string {
  const { _table: reference, _where: inner } = value as { _table?: unknown; _where?: unknown };
  const remote = resolveExistsTable(context.catalogue, reference);
  if (!remote) throw new Error(`internal: _exists table ${JSON.stringify(reference)} unknown`);
  const alias = nextAlias(context);
  const condition = compileBoolExp(context, { table: remote, alias, exp: inner ?? {}, mode: 'permission' });
  return `EXISTS (SELECT 1 FROM ${readTable(context, remote)} ${alias} WHERE ${condition})`;
}

function compileRelationshipFilter(context: CompileContext, input: BoolExpInput, relationship: string): string {
  const { remote, columns } = remoteTable(context, input.table, relationship);
  const alias = nextAlias(context);
  const conditions = [joinCondition(columns, { outer: input.alias, inner: alias })];
  if (input.mode === 'user') conditions.push(permissionFilter(context, { table: remote, alias }));
  conditions.push(compileBoolExp(context, { table: remote, alias, exp: input.exp, mode: input.mode }));
  return `EXISTS (SELECT 1 FROM ${readTable(context, remote)} ${alias} WHERE ${andAll(conditions)})`;
}

/** The role's select filter on `table` rows at `alias`. */
export function permissionFilter(context: CompileContext, target: { table: CatalogueTable; alias: string }): string {
  const select = selectPermission(context, target.table);
  return compileBoolExp(context, { table: target.table, alias: target.alias, exp: select.filter, mode: 'permission' });
}

/**
 * The SQL value of a column as the role sees it: masked columns show first two characters, four
 * stars and last two (names of four characters or fewer become all stars), except on rows that
 * match the mask's `unlessRow`.
 */
export function columnValue(context: CompileContext, target: { table: CatalogueTable; alias: string; column: string }): string {
  const raw = columnRef(target.alias, target.column);
  const mask = context.model.tables.get(target.table.name)?.select?.masked.get(target.column);
  if (!mask) return raw;
  const masked = `(CASE WHEN char_length(${raw}) >= 5 THEN left(${raw}, 2) || '****' || right(${raw}, 2) ELSE repeat('*', char_length(${raw})) END)`;
  if (!mask.unlessRow) return masked;
  const clear = compileBoolExp(context, { table: target.table, alias: target.alias, exp: mask.unlessRow, mode: 'permission' });
  return `(CASE WHEN ${clear} THEN ${raw} ELSE ${masked} END)`;
}

interface OperandInput {
  readonly column: CatalogueColumn;
  readonly operator: ComparisonOperator;
  readonly value: unknown;
  readonly mode: FilterMode;
}

/** The right-hand side: a parameter with an explicit cast (array operators cast to `<type>[]`). */
function operand(context: CompileContext, input: OperandInput): string {
  const { column, operator, value, mode } = input;
  const textual = operator === '_has_key' || operator === '_has_keys_any' || operator === '_has_keys_all';
  const isList = operator === '_in' || operator === '_nin' || operator === '_has_keys_any' || operator === '_has_keys_all';
  const baseType = textual ? 'text' : column.sqlType;
  const type = isList ? `${baseType}[]` : baseType;
  if (mode === 'permission' && isSessionVariable(value)) return context.params.raw(sessionValue(context, value), type);
  if (isList) {
    const items = (value as unknown[]).map((item) => {
      if (item === null) nullValue(column.scalar);
      return !textual && (column.sqlType === 'jsonb' || column.sqlType === 'json') ? JSON.stringify(item) : item;
    });
    return context.params.raw(items, type);
  }
  return textual ? context.params.raw(value, 'text') : context.params.value(value, column.sqlType);
}

function compileComparisons(context: CompileContext, input: BoolExpInput, columnName: string): string[] {
  const column = input.table.columns.get(columnName);
  if (!column) throw new Error(`internal: column ${columnName} missing`);
  const left = input.mode === 'user'
    ? columnValue(context, { table: input.table, alias: input.alias, column: columnName })
    : columnRef(input.alias, columnName);
  const conditions: string[] = [];
  for (const [key, value] of Object.entries(input.exp as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (value === null) nullValue(column.scalar);
    const operator = key as ComparisonOperator;
    const mode = input.mode;
    switch (operator) {
      case '_is_null': conditions.push(value ? `${left} IS NULL` : `${left} IS NOT NULL`); break;
      case '_in': conditions.push(`${left} = ANY(${operand(context, { column, operator, value, mode })})`); break;
      case '_nin': conditions.push(`NOT (${left} = ANY(${operand(context, { column, operator, value, mode })}))`); break;
      case '_has_key': conditions.push(`${left} ? ${operand(context, { column, operator, value, mode })}`); break;
      case '_has_keys_any': conditions.push(`${left} ?| ${operand(context, { column, operator, value, mode })}`); break;
      case '_has_keys_all': conditions.push(`${left} ?& ${operand(context, { column, operator, value, mode })}`); break;
      default: {
        const sql = BINARY_SQL[operator];
        if (!sql) throw new GraphqlFailure('validation-failed', `unknown operator "${key}" for column "${columnName}"`);
        conditions.push(`${left} ${sql} ${operand(context, { column, operator, value, mode })}`);
      }
    }
  }
  return conditions;
}
