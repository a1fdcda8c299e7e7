/**
 * `update_<t>`, `update_<t>_by_pk`, `update_<t>_many` items and `delete_<t>`, `delete_<t>_by_pk`:
 * UPDATE/DELETE under the role's filter ANDed with the query's `where` (or the key), RETURNING *
 * into the CTE; updates then verify the role's update check on the new rows.
 */
import { GraphqlFailure } from '../../types';
import { quoteIdentifier, type CatalogueTable } from '../../catalogue';
import { andAll, columnRef, nextAlias, readTable, type CompileContext } from '../context';
import { compileBoolExp } from '../where';
import { presetValue } from './insert';
import { mutationStatement, type MutationOutput } from './returning';

export type UpdateOperator = '_set' | '_inc' | '_append' | '_prepend' | '_delete_key' | '_delete_elem' | '_delete_at_path';

const UPDATE_OPERATORS: readonly UpdateOperator[] = ['_set', '_inc', '_append', '_prepend', '_delete_key', '_delete_elem', '_delete_at_path'];

export interface ModifyInput {
  readonly table: CatalogueTable;
  /** The coerced arguments: `where` or `pk_columns` (or key columns for delete_by_pk), and update operators. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Key columns -> values for the `_by_pk` forms. */
  readonly keys: Readonly<Record<string, unknown>> | undefined;
  readonly output: MutationOutput;
}

function assignment(context: CompileContext, input: { table: CatalogueTable; alias: string; operator: UpdateOperator; column: string; value: unknown }): string {
  const { table, alias, operator, column, value } = input;
  const target = columnRef(alias, column);
  const sqlType = table.columns.get(column)?.sqlType ?? 'text';
  switch (operator) {
    case '_set': return context.params.value(value, sqlType);
    case '_inc': return `${target} + ${context.params.value(value, sqlType)}`;
    case '_append': return `${target} || ${context.params.value(value, 'jsonb')}`;
    case '_prepend': return `${context.params.value(value, 'jsonb')} || ${target}`;
    case '_delete_key': return `${target} - ${context.params.raw(value, 'text')}`;
    case '_delete_elem': return `${target} - ${context.params.raw(value, 'integer')}`;
    case '_delete_at_path': return `${target} #- ${context.params.raw(value, 'text[]')}`;
  }
}

function rowCondition(context: CompileContext, input: { table: CatalogueTable; alias: string; filter: Readonly<Record<string, unknown>>; where: unknown; keys: ModifyInput['keys'] }): string {
  const { table, alias } = input;
  const conditions = [compileBoolExp(context, { table, alias, exp: input.filter, mode: 'permission' })];
  if (input.where !== undefined && input.where !== null) conditions.push(compileBoolExp(context, { table, alias, exp: input.where, mode: 'user' }));
  for (const [column, value] of Object.entries(input.keys ?? {})) {
    conditions.push(`${columnRef(alias, column)} = ${context.params.value(value, table.columns.get(column)?.sqlType ?? 'text')}`);
  }
  return andAll(conditions);
}

/** The statement of one update (a root field, or one item of `update_<t>_many`). */
export function compileUpdate(context: CompileContext, input: ModifyInput): string {
  const { table, args, output } = input;
  const update = context.model.tables.get(table.name)?.update;
  if (!update) throw new GraphqlFailure('permission-error', `no update permission on "${table.name}"`);
  const alias = nextAlias(context);
  const assignments = new Map<string, { operator: string; sql: string }>();
  for (const operator of UPDATE_OPERATORS) {
    const values = args[operator] as Record<string, unknown> | null | undefined;
    for (const [column, value] of Object.entries(values ?? {})) {
      if (value === undefined) continue;
      const previous = assignments.get(column);
      if (previous) {
        throw new GraphqlFailure('validation-failed', `column found in multiple operators; "${column}" in ${previous.operator}, ${operator} operators`);
      }
      assignments.set(column, { operator, sql: assignment(context, { table, alias, operator, column, value }) });
    }
  }
  for (const column of Object.keys(update.presets)) {
    assignments.set(column, { operator: 'preset', sql: presetValue(context, { table, column, presets: update.presets }) });
  }
  if (assignments.size === 0) {
    throw new GraphqlFailure('validation-failed', `at least one of ${UPDATE_OPERATORS.join(', ')} is expected`);
  }
  const set = [...assignments].map(([column, { sql }]) => `${quoteIdentifier(column)} = ${sql}`).join(', ');
  const where = rowCondition(context, { table, alias, filter: update.filter, where: args.where, keys: input.keys });
  const modification = `UPDATE ${readTable(context, table)} AS ${alias} SET ${set} WHERE ${where} RETURNING *`;
  const check = update.check ? { kind: 'filter' as const, filter: update.check } : { kind: 'none' as const };
  return mutationStatement(context, { table, modification, output, check });
}

/** The statement of a delete root field. */
export function compileDelete(context: CompileContext, input: ModifyInput): string {
  const { table, args, output } = input;
  const permission = context.model.tables.get(table.name)?.delete;
  if (!permission) throw new GraphqlFailure('permission-error', `no delete permission on "${table.name}"`);
  const alias = nextAlias(context);
  const where = rowCondition(context, { table, alias, filter: permission.filter, where: args.where, keys: input.keys });
  const modification = `DELETE FROM ${readTable(context, table)} AS ${alias} WHERE ${where} RETURNING *`;
  return mutationStatement(context, { table, modification, output, check: { kind: 'none' } });
}
