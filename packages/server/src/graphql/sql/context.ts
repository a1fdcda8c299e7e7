/**
 * What compiling one statement needs: the role's model, the session, the coerced variables, the
 * parameter list and the set of tables read. Every value enters SQL as `$n::<type>`; identifiers
 * come only from the catalogue and are quoted; JSON keys and `__typename` values are GraphQL
 * names (the parser guarantees `[_A-Za-z][_0-9A-Za-z]*`) and are quoted as literals anyway.
 */
import type { FragmentDefinitionNode } from 'graphql';
import { GraphqlFailure, type GraphqlSession } from '../types';
import { quoteIdentifier, type Catalogue, type CatalogueTable } from '../catalogue';
import type { RoleModel, RoleSelect } from '../schema/role-model';
import type { EngineLimits } from '../execute/limits';

/** The ordered parameter list of one statement. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** A GraphQL value for a column of `sqlType` (json and jsonb values are serialised here). */
  value(value: unknown, sqlType: string): string {
    const isJson = sqlType === 'jsonb' || sqlType === 'json';
    return this.raw(isJson ? JSON.stringify(value) : value, sqlType);
  }

  /** A value PostgreSQL parses as text input of `sqlType` (session variables, array literals). */
  raw(value: unknown, sqlType: string): string {
    this.values.push(value);
    return `$${this.values.length}::${sqlType}`;
  }
}

export interface CompileContext {
  readonly catalogue: Catalogue;
  readonly model: RoleModel;
  readonly session: GraphqlSession;
  /** Coerced variable values of the operation. */
  readonly variables: Readonly<Record<string, unknown>>;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly params: SqlParams;
  /** `schema.table` of every relation the statement reads (subscription routing). */
  readonly tables: Set<string>;
  readonly limits: EngineLimits;
  /** Apply the engine-wide row cap (false for the streamed CSV rows). */
  readonly capRows: boolean;
  readonly aliasCounter: { value: number };
}

/** A fresh table alias for this statement (`_0`, `_1`, ...). */
export function nextAlias(context: CompileContext): string {
  const alias = `_${context.aliasCounter.value}`;
  context.aliasCounter.value += 1;
  return alias;
}

/** Records a table as read and returns its quoted name. */
export function readTable(context: CompileContext, table: CatalogueTable): string {
  context.tables.add(`${table.sqlSchema}.${table.sqlName}`);
  return table.qualified;
}

/** A GraphQL name as an SQL string literal. */
export function nameLiteral(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

/** `alias."column"` */
export function columnRef(alias: string, column: string): string {
  return `${alias}.${quoteIdentifier(column)}`;
}

/** True when a permission value names a session variable (`X-Hasura-...`, any case). */
export function isSessionVariable(value: unknown): value is string {
  return typeof value === 'string' && /^x-hasura-/i.test(value);
}

/** The session's value of a variable; a missing one fails as Hasura does (the client logs out on the user-id claim). */
export function sessionValue(context: CompileContext, name: string): string {
  const key = name.toLowerCase();
  const value = context.session.variables[key];
  if (value === undefined) throw new GraphqlFailure('not-found', `missing session variable: "${key}"`);
  return value;
}

/** The role's select permission on a table; the schema guarantees it exists wherever a query reaches. */
export function selectPermission(context: CompileContext, table: CatalogueTable): RoleSelect {
  const select = context.model.tables.get(table.name)?.select;
  if (!select) throw new GraphqlFailure('permission-error', `no select permission on "${table.name}"`);
  return select;
}

/** The remote table of a relationship. */
export function remoteTable(context: CompileContext, table: CatalogueTable, relationship: string): { remote: CatalogueTable; columns: Readonly<Record<string, string>> } {
  const declaration = table.objectRelationships.get(relationship) ?? table.arrayRelationships.get(relationship);
  const remote = declaration && context.catalogue.tables.get(declaration.table);
  if (!declaration || !remote) throw new Error(`internal: relationship ${table.name}.${relationship} missing`);
  return { remote, columns: declaration.columns };
}

/** `inner.remote = outer.local AND ...` for a relationship join. */
export function joinCondition(columns: Readonly<Record<string, string>>, aliases: { outer: string; inner: string }): string {
  return Object.entries(columns)
    .map(([local, remote]) => `${columnRef(aliases.inner, remote)} = ${columnRef(aliases.outer, local)}`)
    .join(' AND ');
}

/** AND of conditions, dropping `true`s. */
export function andAll(conditions: readonly string[]): string {
  const kept = conditions.filter((condition) => condition !== 'true');
  if (kept.length === 0) return 'true';
  if (kept.length === 1) return kept[0] ?? 'true';
  return kept.map((condition) => `(${condition})`).join(' AND ');
}

/** Everything but the per-statement state. */
export type CompileBase = Omit<CompileContext, 'params' | 'tables' | 'aliasCounter'>;

/** A context for a new statement (own parameters, tables and aliases). */
export function statementContext(base: CompileBase): CompileContext {
  // Explicit properties (not a spread): this runs on every request's hot path.
  return {
    catalogue: base.catalogue,
    model: base.model,
    session: base.session,
    variables: base.variables,
    fragments: base.fragments,
    limits: base.limits,
    capRows: base.capRows,
    params: new SqlParams(),
    tables: new Set(),
    aliasCounter: { value: 0 },
  };
}

/** A compiled statement, ready to run. */
export interface CompiledStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly tables: readonly string[];
}

/** Freezes a context's state with its SQL. */
export function finishStatement(context: CompileContext, sql: string): CompiledStatement {
  return { sql, params: context.params.values, tables: [...context.tables].sort() };
}
