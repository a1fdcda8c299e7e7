/**
 * `order_by` -> ORDER BY terms, `distinct_on` -> DISTINCT ON, and the effective LIMIT/OFFSET.
 * Ordering through an object relationship is a correlated scalar subquery; through an array
 * relationship, an aggregate subquery (`count`, `max`, ...). Remote rows are those the role may
 * select. Directions are the `order_by` enum's internal values (our constants, never user text).
 */
import { GraphqlFailure } from '../types';
import type { CatalogueTable } from '../catalogue';
import {
  andAll, joinCondition, nextAlias, readTable, remoteTable, selectPermission, type CompileContext,
} from './context';
import { columnValue, permissionFilter } from './where';

export interface OrderTerm {
  readonly expression: string;
  readonly direction: string;
  /** Set when the term is a plain column of the table itself (distinct_on matching). */
  readonly column?: string;
}

interface OrderInput {
  readonly table: CatalogueTable;
  readonly alias: string;
  readonly orderBy: unknown;
}

/** ORDER BY terms of an `order_by` argument (an object or a list of objects). */
export function compileOrderBy(context: CompileContext, input: OrderInput): OrderTerm[] {
  if (input.orderBy === undefined || input.orderBy === null) return [];
  const items = Array.isArray(input.orderBy) ? input.orderBy : [input.orderBy];
  return items.flatMap((item) => orderTerms(context, { ...input, orderBy: item }));
}

function orderTerms(context: CompileContext, input: OrderInput): OrderTerm[] {
  const { table, alias } = input;
  const terms: OrderTerm[] = [];
  for (const [key, value] of Object.entries(input.orderBy as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') {
      terms.push({ expression: columnValue(context, { table, alias, column: key }), direction: value, column: key });
      continue;
    }
    if (key.endsWith('_aggregate') && table.arrayRelationships.has(key.slice(0, -'_aggregate'.length))) {
      terms.push(...aggregateTerms(context, { table, alias, orderBy: value }, key.slice(0, -'_aggregate'.length)));
      continue;
    }
    const { remote, columns } = remoteTable(context, table, key);
    const inner = nextAlias(context);
    const innerTerms = orderTerms(context, { table: remote, alias: inner, orderBy: value });
    // Nothing to order by (`{run: {}}`): no subquery, and no permission parameters left unused
    // (PostgreSQL cannot type a parameter the statement never reads).
    if (innerTerms.length === 0) continue;
    const where = andAll([joinCondition(columns, { outer: alias, inner }), permissionFilter(context, { table: remote, alias: inner })]);
    for (const term of innerTerms) {
      terms.push({ expression: `(SELECT ${term.expression} FROM ${readTable(context, remote)} ${inner} WHERE ${where} LIMIT 1)`, direction: term.direction });
    }
  }
  return terms;
}

function aggregateTerms(context: CompileContext, input: OrderInput, relationship: string): OrderTerm[] {
  const entries = Object.entries(input.orderBy as Record<string, unknown>);
  const wanted = entries.some(([aggregate, value]) => value !== undefined && value !== null
    && (aggregate === 'count' || Object.values(value as Record<string, unknown>).some((direction) => typeof direction === 'string')));
  // `{positions_aggregate: {}}` orders by nothing: no subquery, no unused parameters.
  if (!wanted) return [];
  const { remote, columns } = remoteTable(context, input.table, relationship);
  const inner = nextAlias(context);
  const where = andAll([joinCondition(columns, { outer: input.alias, inner }), permissionFilter(context, { table: remote, alias: inner })]);
  const from = `FROM ${readTable(context, remote)} ${inner} WHERE ${where}`;
  const terms: OrderTerm[] = [];
  for (const [aggregate, value] of entries) {
    if (value === undefined || value === null) continue;
    if (aggregate === 'count') {
      terms.push({ expression: `(SELECT count(*) ${from})`, direction: value as string });
      continue;
    }
    for (const [column, direction] of Object.entries(value as Record<string, unknown>)) {
      if (typeof direction !== 'string') continue;
      const argument = columnValue(context, { table: remote, alias: inner, column });
      // The aggregate name is a schema field name from a fixed list (avg, max, min, sum).
      terms.push({ expression: `(SELECT ${aggregate}(${argument}) ${from})`, direction });
    }
  }
  return terms;
}

/** `expr direction, ...` or '' */
export function orderByClause(terms: readonly OrderTerm[]): string {
  return terms.length === 0 ? '' : ` ORDER BY ${terms.map((term) => `${term.expression} ${term.direction}`).join(', ')}`;
}

export interface ListArguments {
  readonly where?: unknown;
  readonly order_by?: unknown;
  readonly distinct_on?: readonly string[] | null;
  readonly limit?: number | null;
  readonly offset?: number | null;
}

/**
 * DISTINCT ON and ORDER BY together: PostgreSQL needs the distinct columns first in ORDER BY;
 * Hasura refuses an order_by that does not start with them, and so do we.
 */
export function distinctAndOrder(context: CompileContext, input: { table: CatalogueTable; alias: string; args: ListArguments }): { distinct: string; order: string } {
  const { table, alias, args } = input;
  const terms = compileOrderBy(context, { table, alias, orderBy: args.order_by });
  const distinctColumns = args.distinct_on ?? [];
  if (distinctColumns.length === 0) return { distinct: '', order: orderByClause(terms) };
  if (terms.length === 0) {
    const expressions = distinctColumns.map((column) => columnValue(context, { table, alias, column }));
    return { distinct: `DISTINCT ON (${expressions.join(', ')}) `, order: orderByClause(expressions.map((expression) => ({ expression, direction: 'ASC' }))) };
  }
  const wanted = new Set(distinctColumns);
  const leading = terms.slice(0, wanted.size);
  const covered = new Set(leading.map((term) => term.column));
  if (covered.size !== wanted.size || ![...wanted].every((column) => covered.has(column))) {
    throw new GraphqlFailure('validation-failed', '"distinct_on" columns must match initial "order_by" columns');
  }
  // The very same expression text in both clauses, so PostgreSQL sees them as equal.
  return { distinct: `DISTINCT ON (${leading.map((term) => term.expression).join(', ')}) `, order: orderByClause(terms) };
}

/** LIMIT/OFFSET with the role's row limit and the engine-wide cap applied. */
export function limitClause(context: CompileContext, input: { table: CatalogueTable; args: ListArguments }): string {
  const { limit, offset } = input.args;
  if ((limit ?? 0) < 0) throw new GraphqlFailure('validation-failed', 'unexpected negative value for "limit"');
  if ((offset ?? 0) < 0) throw new GraphqlFailure('validation-failed', 'unexpected negative value for "offset"');
  const caps = [limit, selectPermission(context, input.table).limit, context.capRows ? context.limits.maxRowsPerSelect : undefined]
    .filter((value): value is number => typeof value === 'number');
  let clause = caps.length > 0 ? ` LIMIT ${context.params.raw(Math.min(...caps), 'integer')}` : '';
  if (offset) clause += ` OFFSET ${context.params.raw(offset, 'integer')}`;
  return clause;
}
