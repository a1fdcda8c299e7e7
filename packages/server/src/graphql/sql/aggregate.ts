/**
 * `<t>_aggregate { aggregate { count sum {..} avg {..} max {..} ... } nodes {..} }` as one
 * aggregate query over the filtered, ordered, limited rows: the aggregates and `nodes` see the
 * same rows, as in Hasura.
 */
import { getNamedType, type GraphQLObjectType } from 'graphql';
import { GraphqlFailure } from '../types';
import type { CatalogueTable } from '../catalogue';
import { fieldOf, fieldRole } from '../schema/field-roles';
import { nameLiteral, nextAlias, readTable, type CompileContext } from './context';
import { fieldArguments, subFields, type CollectedField } from './fields';
import { distinctAndOrder, limitClause } from './order';
import { compileRowObject, jsonObject, readCondition, type RowsInput } from './select';
import { columnValue } from './where';

interface AggregateScope {
  readonly context: CompileContext;
  readonly table: CatalogueTable;
  readonly alias: string;
}

function countExpression(scope: AggregateScope, args: { columns?: readonly string[] | null; distinct?: boolean | null }): string {
  const columns = (args.columns ?? []).map((column) => columnValue(scope.context, { table: scope.table, alias: scope.alias, column }));
  if (columns.length === 0) {
    if (args.distinct) throw new GraphqlFailure('validation-failed', '"distinct" needs "columns" in count');
    return 'count(*)';
  }
  const operand = columns.length === 1 ? columns[0] ?? '' : `(${columns.join(', ')})`;
  return `count(${args.distinct ? 'DISTINCT ' : ''}${operand})`;
}

function aggregateFieldsObject(scope: AggregateScope, input: { type: GraphQLObjectType; field: CollectedField }): string {
  const { context } = scope;
  const pairs: [string, string][] = [];
  for (const field of subFields(input.field, context)) {
    if (field.name === '__typename') {
      pairs.push([field.responseKey, nameLiteral(input.type.name)]);
      continue;
    }
    const definition = fieldOf(input.type, field.name);
    const role = fieldRole(definition);
    if (role?.kind === 'count') {
      pairs.push([field.responseKey, countExpression(scope, fieldArguments(definition, field, context.variables))]);
    } else if (role?.kind === 'aggregate_function') {
      const functionType = getNamedType(definition.type) as GraphQLObjectType;
      const inner: [string, string][] = [];
      for (const columnField of subFields(field, context)) {
        if (columnField.name === '__typename') {
          inner.push([columnField.responseKey, nameLiteral(functionType.name)]);
          continue;
        }
        const columnRole = fieldRole(fieldOf(functionType, columnField.name));
        if (columnRole?.kind !== 'column') throw new Error(`internal: ${functionType.name}.${columnField.name}`);
        const value = columnValue(context, { table: scope.table, alias: scope.alias, column: columnRole.column });
        // role.function comes from the fixed AGGREGATE_FUNCTIONS list, never from the request.
        inner.push([columnField.responseKey, `${role.function}(${value})`]);
      }
      pairs.push([field.responseKey, jsonObject(inner)]);
    } else {
      throw new Error(`internal: ${input.type.name}.${field.name} has no compiler role`);
    }
  }
  return jsonObject(pairs);
}

/** The JSON object of an aggregate field over the rows the role may see. */
export function compileAggregate(context: CompileContext, input: RowsInput): string {
  const { table, args, type } = input;
  const alias = nextAlias(context);
  const scope: AggregateScope = { context, table, alias };
  const pairs: [string, string][] = [];
  for (const field of subFields(input.field, context)) {
    if (field.name === '__typename') {
      pairs.push([field.responseKey, nameLiteral(type.name)]);
      continue;
    }
    const definition = fieldOf(type, field.name);
    const role = fieldRole(definition);
    const childType = getNamedType(definition.type) as GraphQLObjectType;
    if (role?.kind === 'aggregate') {
      pairs.push([field.responseKey, aggregateFieldsObject(scope, { type: childType, field })]);
    } else if (role?.kind === 'nodes') {
      const object = compileRowObject(context, { type: childType, table, alias, fields: subFields(field, context) });
      pairs.push([field.responseKey, `coalesce(json_agg(${object}), '[]'::json)`]);
    } else {
      throw new Error(`internal: ${type.name}.${field.name} has no compiler role`);
    }
  }
  const inner = nextAlias(context);
  const condition = readCondition(context, { table, alias: inner, where: args.where, join: input.join });
  const { distinct, order } = distinctAndOrder(context, { table, alias: inner, args });
  const rows = `SELECT ${distinct}${inner}.* FROM ${readTable(context, table)} ${inner} WHERE ${condition}${order}${limitClause(context, { table, args })}`;
  return `(SELECT ${jsonObject(pairs)} FROM (${rows}) ${alias})`;
}
