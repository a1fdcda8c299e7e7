/**
 * Input and output types of mutations for one role, with Hasura's names: `<t>_insert_input`,
 * `<t>_on_conflict`, `<t>_constraint`, `<t>_update_column`, `<t>_set_input`, `<t>_inc_input`,
 * the jsonb operator inputs, `<t>_pk_columns_input`, `<t>_updates`, `<t>_mutation_response`.
 */
import {
  GraphQLEnumType, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString,
  type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLInputType,
} from 'graphql';
import type { CatalogueTable } from '../catalogue';
import { isNumericScalar } from '../sql/operators';
import { tagged } from './field-roles';
import { boolExp, memo, type TypeContext } from './filter-types';
import { objectType } from './object-types';
import { selectableTable, type RoleTable } from './role-model';
import { scalarType } from './scalars';

function columnType(table: CatalogueTable, column: string) {
  return scalarType(table.columns.get(column)?.scalar ?? 'String');
}

function inputObject(name: string, fields: GraphQLInputFieldConfigMap, description: string): GraphQLInputObjectType {
  return new GraphQLInputObjectType({ name, description, fields });
}

/** `<t>_insert_input`: the role's insert columns, all optional (defaults and NOT NULL are the database's). */
export function insertInput(context: TypeContext, permissions: RoleTable): GraphQLInputObjectType | undefined {
  const { table, insert } = permissions;
  if (!insert || insert.columns.length === 0) return undefined;
  return memo(context, `${table.name}_insert_input`, () => inputObject(
    `${table.name}_insert_input`,
    Object.fromEntries(insert.columns.map((column) => [column, { type: columnType(table, column) }])),
    `input type for inserting data into table "${table.name}"`,
  ));
}

/** `<t>_on_conflict`, when the table has a key and the role may upsert. */
export function onConflictInput(context: TypeContext, permissions: RoleTable): GraphQLInputObjectType | undefined {
  const { table, insert, update } = permissions;
  if (!insert?.allowUpsert || table.uniqueConstraints.length === 0) return undefined;
  return memo(context, `${table.name}_on_conflict`, () => {
    const constraint = new GraphQLEnumType({
      name: `${table.name}_constraint`,
      description: `unique or primary key constraints on table "${table.name}"`,
      values: Object.fromEntries(table.uniqueConstraints.map((entry) => [entry.name, { value: entry.name, description: `unique or primary key constraint on columns ${entry.columns.map((column) => `"${column}"`).join(', ')}` }])),
    });
    const updateColumns = update?.columns ?? [];
    const updateColumn = new GraphQLEnumType({
      name: `${table.name}_update_column`,
      description: `update columns of table "${table.name}"`,
      // Hasura's placeholder keeps the enum valid when the role may update nothing.
      values: updateColumns.length > 0
        ? Object.fromEntries(updateColumns.map((column) => [column, { value: column, description: 'column name' }]))
        : { _PLACEHOLDER: { value: '_PLACEHOLDER', description: 'placeholder (do not use)' } },
    });
    return inputObject(`${table.name}_on_conflict`, {
      constraint: { type: new GraphQLNonNull(constraint) },
      update_columns: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(updateColumn))), defaultValue: [] },
      where: { type: boolExp(context, table) },
    }, `on_conflict condition type for table "${table.name}"`);
  });
}

type UpdateOperator = '_set' | '_inc' | '_append' | '_prepend' | '_delete_key' | '_delete_elem' | '_delete_at_path';

/** The update operator arguments (`_set`, `_inc`, jsonb operators) the role's update columns allow. */
export function updateOperatorArguments(context: TypeContext, permissions: RoleTable): GraphQLFieldConfigArgumentMap {
  const { table, update } = permissions;
  const columns = update?.columns ?? [];
  const numeric = columns.filter((column) => isNumericScalar(table.columns.get(column)?.scalar ?? ''));
  const jsonb = columns.filter((column) => table.columns.get(column)?.scalar === 'jsonb');
  const operators: [UpdateOperator, string, readonly string[], (column: string) => GraphQLInputType, string][] = [
    ['_set', 'set_input', columns, (column) => columnType(table, column), 'input type for updating data in table'],
    ['_inc', 'inc_input', numeric, (column) => columnType(table, column), 'input type for incrementing numeric columns in table'],
    ['_append', 'append_input', jsonb, () => scalarType('jsonb'), 'append existing jsonb value of filtered columns with new jsonb value'],
    ['_prepend', 'prepend_input', jsonb, () => scalarType('jsonb'), 'prepend existing jsonb value of filtered columns with new jsonb value'],
    ['_delete_key', 'delete_key_input', jsonb, () => GraphQLString, 'delete key/value pair or string element. key/value pairs are matched based on their key value'],
    ['_delete_elem', 'delete_elem_input', jsonb, () => GraphQLInt, 'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array'],
    ['_delete_at_path', 'delete_at_path_input', jsonb, () => new GraphQLList(new GraphQLNonNull(GraphQLString)), 'delete the field or element with specified path (for JSON arrays, negative integers count from the end)'],
  ];
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const [argument, suffix, chosen, type, description] of operators) {
    if (chosen.length === 0) continue;
    const name = `${table.name}_${suffix}`;
    args[argument] = {
      type: memo(context, name, () => inputObject(name, Object.fromEntries(chosen.map((column) => [column, { type: type(column) }])), `${description} "${table.name}"`)),
    };
  }
  return args;
}

/** `<t>_pk_columns_input` */
export function pkColumnsInput(context: TypeContext, table: CatalogueTable): GraphQLInputObjectType {
  const name = `${table.name}_pk_columns_input`;
  return memo(context, name, () => inputObject(
    name,
    Object.fromEntries(table.primaryKey.map((column) => [column, { type: new GraphQLNonNull(columnType(table, column)) }])),
    `primary key columns input for table: ${table.name}`,
  ));
}

/** The primary key as field arguments (`<t>_by_pk(id: uuid!)`). */
export function pkArguments(table: CatalogueTable): GraphQLFieldConfigArgumentMap {
  return Object.fromEntries(table.primaryKey.map((column) => [column, { type: new GraphQLNonNull(columnType(table, column)) }]));
}

/** `<t>_updates { where, _set, _inc, ... }` for `update_<t>_many`. */
export function updatesInput(context: TypeContext, permissions: RoleTable): GraphQLInputObjectType {
  const name = `${permissions.table.name}_updates`;
  return memo(context, name, () => {
    const fields: GraphQLInputFieldConfigMap = { where: { type: new GraphQLNonNull(boolExp(context, permissions.table)), description: 'filter the rows which have to be updated' } };
    for (const [argument, config] of Object.entries(updateOperatorArguments(context, permissions))) fields[argument] = { type: config.type };
    return inputObject(name, fields, `update rows of table "${permissions.table.name}"`);
  });
}

/** `<t>_mutation_response { affected_rows, returning }` (returning only with select permission). */
export function mutationResponse(context: TypeContext, table: CatalogueTable): GraphQLObjectType {
  const name = `${table.name}_mutation_response`;
  return memo(context, name, () => new GraphQLObjectType({
    name,
    description: `response of any mutation on the table "${table.name}"`,
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {
        affected_rows: { type: new GraphQLNonNull(GraphQLInt), description: 'number of rows affected by the mutation', extensions: tagged({ kind: 'affected_rows' }) },
      };
      if (selectableTable(context.model, table.name)) {
        fields.returning = {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectType(context, table)))),
          description: 'data from the rows affected by the mutation',
          extensions: tagged({ kind: 'returning' }),
        };
      }
      return fields;
    },
  }));
}
