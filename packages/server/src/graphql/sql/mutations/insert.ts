/**
 * `insert_<t>` / `insert_<t>_one`: INSERT ... VALUES with DEFAULT for columns a row leaves out,
 * presets from the session, `on_conflict` as ON CONFLICT ON CONSTRAINT ... DO UPDATE/NOTHING
 * (the update side under the role's update filter and presets), RETURNING * into the CTE.
 */
import { GraphqlFailure } from '../../types';
import { quoteIdentifier, type CatalogueTable } from '../../catalogue';
import type { ColumnPresets } from '../../metadata/types';
import type { RoleInsert, RoleUpdate } from '../../schema/role-model';
import { andAll, isSessionVariable, nextAlias, readTable, sessionValue, type CompileContext } from '../context';
import { compileBoolExp } from '../where';
import { INSERTED_FLAG, mutationStatement, type MutationCheck, type MutationOutput } from './returning';

interface OnConflict {
  readonly constraint: string;
  readonly update_columns?: readonly string[];
  readonly where?: unknown;
}

export interface InsertInput {
  readonly table: CatalogueTable;
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  readonly onConflict: OnConflict | undefined;
  readonly output: MutationOutput;
}

/** A preset's SQL: a session variable (`X-Hasura-User-Id`) or a literal, as a typed parameter. */
export function presetValue(context: CompileContext, input: { table: CatalogueTable; column: string; presets: ColumnPresets }): string {
  const value = input.presets[input.column];
  const sqlType = input.table.columns.get(input.column)?.sqlType ?? 'text';
  if (isSessionVariable(value)) return context.params.raw(sessionValue(context, value), sqlType);
  return context.params.value(value, sqlType);
}

function insertColumns(table: CatalogueTable, input: { rows: InsertInput['rows']; permission: RoleInsert }): string[] {
  const given = new Set<string>();
  for (const row of input.rows) for (const column of Object.keys(row)) if (row[column] !== undefined) given.add(column);
  // Table order keeps the SQL text stable for equal shapes (prepared statements).
  return [...table.columns.keys()].filter((column) => given.has(column) || column in input.permission.presets);
}

function conflictClause(context: CompileContext, input: { table: CatalogueTable; alias: string; onConflict: OnConflict; update: RoleUpdate | undefined }): string {
  const { table, alias, onConflict, update } = input;
  const target = `ON CONFLICT ON CONSTRAINT ${quoteIdentifier(onConflict.constraint)}`;
  // A column named twice, or also preset by the update permission (the preset wins), is
  // assigned once: PostgreSQL refuses two assignments to one column.
  const columns = [...new Set(onConflict.update_columns ?? [])].filter((column) => !update || !(column in update.presets));
  if ((onConflict.update_columns ?? []).length === 0) return ` ${target} DO NOTHING`;
  if (!update) throw new GraphqlFailure('permission-error', `no update permission on "${table.name}" for an upsert`);
  const assignments = columns.map((column) => `${quoteIdentifier(column)} = EXCLUDED.${quoteIdentifier(column)}`);
  for (const column of Object.keys(update.presets)) {
    assignments.push(`${quoteIdentifier(column)} = ${presetValue(context, { table, column, presets: update.presets })}`);
  }
  const conditions = [compileBoolExp(context, { table, alias, exp: update.filter, mode: 'permission' })];
  if (onConflict.where !== undefined && onConflict.where !== null) conditions.push(compileBoolExp(context, { table, alias, exp: onConflict.where, mode: 'user' }));
  const where = andAll(conditions);
  return ` ${target} DO UPDATE SET ${assignments.join(', ')}${where === 'true' ? '' : ` WHERE ${where}`}`;
}

/** The statement of an insert root field. */
export function compileInsert(context: CompileContext, input: InsertInput): string {
  const { table, rows, onConflict, output } = input;
  const permissions = context.model.tables.get(table.name);
  const insert = permissions?.insert;
  if (!insert) throw new GraphqlFailure('permission-error', `no insert permission on "${table.name}"`);
  const from = readTable(context, table);
  if (rows.length === 0) {
    return mutationStatement(context, { table, modification: `SELECT * FROM ${from} WHERE false`, output, check: { kind: 'none' } });
  }
  const alias = nextAlias(context);
  const columns = insertColumns(table, { rows, permission: insert });
  const values = rows.map((row) => `(${columns.map((column) => {
    if (column in insert.presets) return presetValue(context, { table, column, presets: insert.presets });
    if (row[column] === undefined) return 'DEFAULT';
    return context.params.value(row[column], table.columns.get(column)?.sqlType ?? 'text');
  }).join(', ')})`);
  const columnList = columns.length > 0 ? ` (${columns.map(quoteIdentifier).join(', ')})` : '';
  const valuesClause = columns.length > 0 ? ` VALUES ${values.join(', ')}` : ' DEFAULT VALUES';
  if (columns.length === 0 && rows.length > 1) throw new GraphqlFailure('validation-failed', 'rows without any column can be inserted one at a time only');
  const conflict = onConflict ? conflictClause(context, { table, alias, onConflict, update: permissions.update }) : '';
  const upserts = Boolean(onConflict?.update_columns?.length);
  const returning = upserts ? ` RETURNING *, (xmax = 0) AS "${INSERTED_FLAG}"` : ' RETURNING *';
  const modification = `INSERT INTO ${from} AS ${alias}${columnList}${valuesClause}${conflict}${returning}`;
  const check: MutationCheck = upserts
    ? { kind: 'upsert', insert: insert.check, update: permissions.update?.check ?? {} }
    : { kind: 'filter', filter: insert.check };
  return mutationStatement(context, { table, modification, output, check });
}
