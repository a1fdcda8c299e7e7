/**
 * Output types of a table for one role: the row object `<t>` (allowed columns, relationships to
 * tables the role can read), `<t>_aggregate`, `<t>_aggregate_fields` and `<t>_<fn>_fields`.
 */
import {
  GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType,
  type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap,
} from 'graphql';
import type { CatalogueTable } from '../catalogue';
import { isNumericScalar, isOrderableScalar } from '../sql/operators';
import { AGGREGATE_FUNCTIONS, tagged, type AggregateFunction } from './field-roles';
import {
  boolExp, memo, orderByType, selectColumnEnum, selectColumns, visibleRelationships, type TypeContext,
} from './filter-types';
import { selectableTable } from './role-model';
import { scalarType } from './scalars';

/** The arguments of a list of rows: distinct_on, limit, offset, order_by, where. */
export function listArguments(context: TypeContext, table: CatalogueTable): GraphQLFieldConfigArgumentMap {
  return {
    distinct_on: { type: new GraphQLList(new GraphQLNonNull(selectColumnEnum(context, table))), description: 'distinct select on columns' },
    limit: { type: GraphQLInt, description: 'limit the number of rows returned' },
    offset: { type: GraphQLInt, description: 'skip the first n rows. Use only with order_by' },
    order_by: { type: new GraphQLList(new GraphQLNonNull(orderByType(context, table))), description: 'sort the rows by one or more columns' },
    where: { type: boolExp(context, table), description: 'filter the rows returned' },
  };
}

/** `<t>`: the row type. */
export function objectType(context: TypeContext, table: CatalogueTable): GraphQLObjectType {
  return memo(context, table.name, () => new GraphQLObjectType({
    name: table.name,
    description: table.declaration.description ?? `columns and relationships of "${table.name}"`,
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
      for (const name of selectColumns(context, table)) {
        const column = table.columns.get(name);
        if (!column) continue;
        const type = scalarType(column.scalar);
        fields[name] = { type: column.nullable ? type : new GraphQLNonNull(type), extensions: tagged({ kind: 'column', column: name }) };
      }
      for (const [relationship, remote, isArray] of visibleRelationships(context, table)) {
        if (!isArray) {
          fields[relationship] = { type: objectType(context, remote), description: 'An object relationship', extensions: tagged({ kind: 'object_relationship', relationship }) };
          continue;
        }
        fields[relationship] = {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectType(context, remote)))),
          description: 'An array relationship',
          args: listArguments(context, remote),
          extensions: tagged({ kind: 'array_relationship', relationship }),
        };
        if (selectableTable(context.model, remote.name)?.allowAggregations) {
          fields[`${relationship}_aggregate`] = {
            type: new GraphQLNonNull(aggregateType(context, remote)),
            description: 'An aggregate relationship',
            args: listArguments(context, remote),
            extensions: tagged({ kind: 'array_aggregate', relationship }),
          };
        }
      }
      return fields;
    },
  }));
}

/** `<t>_aggregate { aggregate, nodes }` */
export function aggregateType(context: TypeContext, table: CatalogueTable): GraphQLObjectType {
  const name = `${table.name}_aggregate`;
  return memo(context, name, () => new GraphQLObjectType({
    name,
    description: `aggregated selection of "${table.name}"`,
    fields: () => ({
      aggregate: { type: aggregateFieldsType(context, table), extensions: tagged({ kind: 'aggregate' }) },
      nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectType(context, table)))), extensions: tagged({ kind: 'nodes' }) },
    }),
  }));
}

function functionColumns(context: TypeContext, table: CatalogueTable, aggregate: AggregateFunction): string[] {
  const accepts = aggregate === 'max' || aggregate === 'min' ? isOrderableScalar : isNumericScalar;
  return selectColumns(context, table).filter((column) => accepts(table.columns.get(column)?.scalar ?? ''));
}

function functionFieldsType(context: TypeContext, table: CatalogueTable, aggregate: AggregateFunction): GraphQLObjectType | undefined {
  const columns = functionColumns(context, table, aggregate);
  if (columns.length === 0) return undefined;
  const keepsType = aggregate === 'sum' || aggregate === 'max' || aggregate === 'min';
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const column of columns) {
    fields[column] = {
      type: keepsType ? scalarType(table.columns.get(column)?.scalar ?? 'String') : GraphQLFloat,
      extensions: tagged({ kind: 'column', column }),
    };
  }
  return new GraphQLObjectType({ name: `${table.name}_${aggregate}_fields`, description: `aggregate ${aggregate} on columns`, fields });
}

/** `<t>_aggregate_fields { count(columns, distinct), sum, avg, max, min, stddev, ... }` */
export function aggregateFieldsType(context: TypeContext, table: CatalogueTable): GraphQLObjectType {
  const name = `${table.name}_aggregate_fields`;
  return memo(context, name, () => {
    const fields: GraphQLFieldConfigMap<unknown, unknown> = {
      count: {
        type: new GraphQLNonNull(GraphQLInt),
        args: {
          columns: { type: new GraphQLList(new GraphQLNonNull(selectColumnEnum(context, table))) },
          distinct: { type: GraphQLBoolean },
        },
        extensions: tagged({ kind: 'count' }),
      },
    };
    for (const aggregate of AGGREGATE_FUNCTIONS) {
      const type = functionFieldsType(context, table, aggregate);
      if (type) fields[aggregate] = { type, extensions: tagged({ kind: 'aggregate_function', function: aggregate }) };
    }
    return new GraphQLObjectType({ name, description: `aggregate fields of "${table.name}"`, fields });
  });
}
