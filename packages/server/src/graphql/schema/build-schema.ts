/**
 * One GraphQLSchema per role: `query_root`, `mutation_root`, `subscription_root` with only what
 * the role may do, plus the actions granted to it (their SDL parsed by graphql-js).
 */
import {
  GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, extendSchema, parse,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type { Catalogue } from '../catalogue';
import type { ActionDeclaration } from '../metadata/types';
import { tagged } from './field-roles';
import { boolExp, type TypeContext } from './filter-types';
import {
  insertInput, mutationResponse, onConflictInput, pkArguments, pkColumnsInput, updateOperatorArguments, updatesInput,
} from './mutation-types';
import { aggregateType, listArguments, objectType } from './object-types';
import type { RoleModel, RoleTable } from './role-model';
import { selectableTable } from './role-model';
import { COMMON_SCALARS, scalarType } from './scalars';

type FieldMap = GraphQLFieldConfigMap<unknown, unknown>;

function readFields(context: TypeContext, permissions: RoleTable, into: FieldMap): void {
  const { table } = permissions;
  const select = selectableTable(context.model, table.name);
  if (!select) return;
  const row = objectType(context, table);
  into[table.name] = {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(row))),
    description: `fetch data from the table: "${table.name}"`,
    args: listArguments(context, table),
    extensions: tagged({ kind: 'select', table: table.name }),
  };
  if (select.allowAggregations) {
    into[`${table.name}_aggregate`] = {
      type: new GraphQLNonNull(aggregateType(context, table)),
      description: `fetch aggregated fields from the table: "${table.name}"`,
      args: listArguments(context, table),
      extensions: tagged({ kind: 'select_aggregate', table: table.name }),
    };
  }
  // Hasura offers _by_pk only when every key column is selectable.
  if (table.primaryKey.length > 0 && table.primaryKey.every((column) => select.columns.includes(column))) {
    into[`${table.name}_by_pk`] = {
      type: row,
      description: `fetch data from the table: "${table.name}" using primary key columns`,
      args: pkArguments(table),
      extensions: tagged({ kind: 'select_by_pk', table: table.name }),
    };
  }
}

function insertFields(context: TypeContext, permissions: RoleTable, into: FieldMap): void {
  const { table } = permissions;
  const input = insertInput(context, permissions);
  if (!input) return;
  const onConflict = onConflictInput(context, permissions);
  const conflictArgument = onConflict ? { on_conflict: { type: onConflict, description: 'upsert condition' } } : {};
  into[`insert_${table.name}`] = {
    type: mutationResponse(context, table),
    description: `insert data into the table: "${table.name}"`,
    args: { objects: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(input))), description: 'the rows to be inserted' }, ...conflictArgument },
    extensions: tagged({ kind: 'insert', table: table.name }),
  };
  if (selectableTable(context.model, table.name)) {
    into[`insert_${table.name}_one`] = {
      type: objectType(context, table),
      description: `insert a single row into the table: "${table.name}"`,
      args: { object: { type: new GraphQLNonNull(input), description: 'the row to be inserted' }, ...conflictArgument },
      extensions: tagged({ kind: 'insert_one', table: table.name }),
    };
  }
}

function updateFields(context: TypeContext, permissions: RoleTable, into: FieldMap): void {
  const { table, update } = permissions;
  if (!update || update.columns.length === 0) return;
  const operators = updateOperatorArguments(context, permissions);
  const where = { type: new GraphQLNonNull(boolExp(context, table)), description: 'filter the rows which have to be updated' };
  into[`update_${table.name}`] = {
    type: mutationResponse(context, table),
    description: `update data of the table: "${table.name}"`,
    args: { ...operators, where },
    extensions: tagged({ kind: 'update', table: table.name }),
  };
  const select = selectableTable(context.model, table.name);
  if (table.primaryKey.length > 0 && select && table.primaryKey.every((column) => select.columns.includes(column))) {
    into[`update_${table.name}_by_pk`] = {
      type: objectType(context, table),
      description: `update single row of the table: "${table.name}"`,
      args: { ...operators, pk_columns: { type: new GraphQLNonNull(pkColumnsInput(context, table)) } },
      extensions: tagged({ kind: 'update_by_pk', table: table.name }),
    };
  }
  into[`update_${table.name}_many`] = {
    type: new GraphQLList(mutationResponse(context, table)),
    description: `update multiples rows of table: "${table.name}"`,
    args: { updates: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(updatesInput(context, permissions)))), description: 'updates to execute, in order' } },
    extensions: tagged({ kind: 'update_many', table: table.name }),
  };
}

function deleteFields(context: TypeContext, permissions: RoleTable, into: FieldMap): void {
  const { table } = permissions;
  if (!permissions.delete) return;
  into[`delete_${table.name}`] = {
    type: mutationResponse(context, table),
    description: `delete data from the table: "${table.name}"`,
    args: { where: { type: new GraphQLNonNull(boolExp(context, table)), description: 'filter the rows which have to be deleted' } },
    extensions: tagged({ kind: 'delete', table: table.name }),
  };
  const select = selectableTable(context.model, table.name);
  if (table.primaryKey.length > 0 && select && table.primaryKey.every((column) => select.columns.includes(column))) {
    into[`delete_${table.name}_by_pk`] = {
      type: objectType(context, table),
      description: `delete single row from the table: "${table.name}"`,
      args: pkArguments(table),
      extensions: tagged({ kind: 'delete_by_pk', table: table.name }),
    };
  }
}

function actionSdl(actions: readonly ActionDeclaration[], hasMutationRoot: boolean): string {
  const queries = actions.filter((action) => action.kind === 'query');
  const mutations = actions.filter((action) => action.kind === 'mutation');
  const describe = (action: ActionDeclaration) => (action.description ? `${JSON.stringify(action.description)}\n` : '') + action.field;
  const parts = actions.map((action) => action.types);
  if (queries.length > 0) parts.push(`extend type query_root {\n${queries.map(describe).join('\n')}\n}`);
  if (mutations.length > 0) {
    parts.push(`${hasMutationRoot ? 'extend type' : 'type'} mutation_root {\n${mutations.map(describe).join('\n')}\n}`);
    if (!hasMutationRoot) parts.push('extend schema { mutation: mutation_root }');
  }
  return parts.join('\n');
}

/** Builds the schema of one role (or of the admin secret). Throws when an action's SDL is invalid. */
export function buildRoleSchema(options: { catalogue: Catalogue; model: RoleModel; actions: readonly ActionDeclaration[] }): GraphQLSchema {
  const { catalogue, model } = options;
  const context: TypeContext = { catalogue, model, cache: new Map() };
  const query: FieldMap = {};
  const mutation: FieldMap = {};
  for (const permissions of model.tables.values()) {
    readFields(context, permissions, query);
    insertFields(context, permissions, mutation);
    updateFields(context, permissions, mutation);
    deleteFields(context, permissions, mutation);
  }
  const actions = options.actions.filter((action) => model.admin || action.roles.includes(model.key));
  const subscription: FieldMap = { ...query };
  if (Object.keys(query).length === 0 && !actions.some((action) => action.kind === 'query')) {
    // Hasura's placeholder: a schema needs at least one query field.
    query.no_queries_available = { type: new GraphQLNonNull(GraphQLString), resolve: () => '' };
  }
  const hasMutationRoot = Object.keys(mutation).length > 0;
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'query_root', fields: query }),
    ...(hasMutationRoot ? { mutation: new GraphQLObjectType({ name: 'mutation_root', fields: mutation }) } : {}),
    ...(Object.keys(subscription).length > 0 ? { subscription: new GraphQLObjectType({ name: 'subscription_root', fields: subscription }) } : {}),
    types: COMMON_SCALARS.map(scalarType),
  });
  if (actions.length === 0) return schema;
  return extendSchema(schema, parse(actionSdl(actions, hasMutationRoot)));
}
