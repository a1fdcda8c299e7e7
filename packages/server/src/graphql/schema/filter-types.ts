/**
 * Input types for reading: `<scalar>_comparison_exp`, `<t>_bool_exp`, `<t>_order_by`,
 * `<t>_aggregate_order_by`, `<t>_select_column` and the `order_by` enum, with Hasura's names.
 */
import {
  GraphQLBoolean, GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLString,
  type GraphQLInputFieldConfigMap, type GraphQLNamedType,
} from 'graphql';
import type { Catalogue, CatalogueTable } from '../catalogue';
import { isNumericScalar, isOrderableScalar, operatorsForScalar, type ComparisonOperator } from '../sql/operators';
import type { RoleModel } from './role-model';
import { selectableTable } from './role-model';
import { scalarType } from './scalars';

/** The per-role type cache the builders share (types are named, so each is built once per schema). */
export interface TypeContext {
  readonly catalogue: Catalogue;
  readonly model: RoleModel;
  readonly cache: Map<string, GraphQLNamedType>;
}

/** Builds the named type once per role schema. */
export function memo<T extends GraphQLNamedType>(context: TypeContext, name: string, build: () => T): T {
  const existing = context.cache.get(name);
  if (existing) return existing as T;
  const built = build();
  context.cache.set(name, built);
  return built;
}

/** Hasura's order_by enum; the internal value is the SQL direction. */
export const ORDER_BY_ENUM = new GraphQLEnumType({
  name: 'order_by',
  description: 'column ordering options',
  values: {
    asc: { value: 'ASC NULLS LAST', description: 'in ascending order, nulls last' },
    asc_nulls_first: { value: 'ASC NULLS FIRST', description: 'in ascending order, nulls first' },
    asc_nulls_last: { value: 'ASC NULLS LAST', description: 'in ascending order, nulls last' },
    desc: { value: 'DESC NULLS FIRST', description: 'in descending order, nulls first' },
    desc_nulls_first: { value: 'DESC NULLS FIRST', description: 'in descending order, nulls first' },
    desc_nulls_last: { value: 'DESC NULLS LAST', description: 'in descending order, nulls last' },
  },
});

const comparisonTypes = new Map<string, GraphQLInputObjectType>();

function operatorInputType(scalar: string, operator: ComparisonOperator) {
  const own = scalarType(scalar);
  switch (operator) {
    case '_in': case '_nin': return new GraphQLList(new GraphQLNonNull(own));
    case '_is_null': return GraphQLBoolean;
    case '_has_key': return GraphQLString;
    case '_has_keys_any': case '_has_keys_all': return new GraphQLList(new GraphQLNonNull(GraphQLString));
    default: return own;
  }
}

/** `<scalar>_comparison_exp`, shared by every role. */
export function comparisonExp(scalar: string): GraphQLInputObjectType {
  let type = comparisonTypes.get(scalar);
  if (!type) {
    const fields: GraphQLInputFieldConfigMap = {};
    for (const operator of operatorsForScalar(scalar)) fields[operator] = { type: operatorInputType(scalar, operator) };
    type = new GraphQLInputObjectType({
      name: `${scalar}_comparison_exp`,
      description: `Boolean expression to compare columns of type "${scalar}". All fields are combined with logical 'AND'.`,
      fields,
    });
    comparisonTypes.set(scalar, type);
  }
  return type;
}

/** Relationships of `table` whose remote table the role may select: [name, remote table, is array]. */
export function visibleRelationships(context: TypeContext, table: CatalogueTable): [string, CatalogueTable, boolean][] {
  const found: [string, CatalogueTable, boolean][] = [];
  const add = (entries: Iterable<[string, { table: string }]>, isArray: boolean) => {
    for (const [name, relationship] of entries) {
      const remote = context.catalogue.tables.get(relationship.table);
      if (remote && selectableTable(context.model, remote.name)) found.push([name, remote, isArray]);
    }
  };
  add(table.objectRelationships, false);
  add(table.arrayRelationships, true);
  return found;
}

/** Columns the role may select on `table` (empty when it cannot select). */
export function selectColumns(context: TypeContext, table: CatalogueTable): readonly string[] {
  return selectableTable(context.model, table.name)?.columns ?? [];
}

/** `<t>_bool_exp` */
export function boolExp(context: TypeContext, table: CatalogueTable): GraphQLInputObjectType {
  const name = `${table.name}_bool_exp`;
  return memo(context, name, () => {
    const type: GraphQLInputObjectType = new GraphQLInputObjectType({
      name,
      description: `Boolean expression to filter rows from the table "${table.name}". All fields are combined with a logical 'AND'.`,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {
          _and: { type: new GraphQLList(new GraphQLNonNull(type)) },
          _not: { type },
          _or: { type: new GraphQLList(new GraphQLNonNull(type)) },
        };
        for (const column of selectColumns(context, table)) {
          fields[column] = { type: comparisonExp(table.columns.get(column)?.scalar ?? 'String') };
        }
        for (const [relationship, remote] of visibleRelationships(context, table)) fields[relationship] = { type: boolExp(context, remote) };
        return fields;
      },
    });
    return type;
  });
}

/** `<t>_order_by` */
export function orderByType(context: TypeContext, table: CatalogueTable): GraphQLInputObjectType {
  const name = `${table.name}_order_by`;
  return memo(context, name, () => new GraphQLInputObjectType({
    name,
    description: `Ordering options when selecting data from "${table.name}".`,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const column of selectColumns(context, table)) fields[column] = { type: ORDER_BY_ENUM };
      for (const [relationship, remote, isArray] of visibleRelationships(context, table)) {
        if (!isArray) fields[relationship] = { type: orderByType(context, remote) };
        else if (selectableTable(context.model, remote.name)?.allowAggregations) {
          fields[`${relationship}_aggregate`] = { type: aggregateOrderBy(context, remote) };
        }
      }
      return fields;
    },
  }));
}

/** `<t>_aggregate_order_by`: ordering by an array relationship's count, sum, avg, max, min. */
export function aggregateOrderBy(context: TypeContext, table: CatalogueTable): GraphQLInputObjectType {
  const name = `${table.name}_aggregate_order_by`;
  return memo(context, name, () => {
    const columns = selectColumns(context, table);
    const fields: GraphQLInputFieldConfigMap = { count: { type: ORDER_BY_ENUM } };
    const groups: [string, (scalar: string) => boolean][] = [
      ['avg', isNumericScalar], ['max', isOrderableScalar], ['min', isOrderableScalar], ['sum', isNumericScalar],
    ];
    for (const [aggregate, accepts] of groups) {
      const chosen = columns.filter((column) => accepts(table.columns.get(column)?.scalar ?? ''));
      if (chosen.length === 0) continue;
      const inner: GraphQLInputFieldConfigMap = {};
      for (const column of chosen) inner[column] = { type: ORDER_BY_ENUM };
      fields[aggregate] = { type: new GraphQLInputObjectType({ name: `${table.name}_${aggregate}_order_by`, fields: inner }) };
    }
    return new GraphQLInputObjectType({ name, description: `order by aggregate values of table "${table.name}"`, fields });
  });
}

/** `<t>_select_column`: the enum of selectable columns (value = column name). */
export function selectColumnEnum(context: TypeContext, table: CatalogueTable): GraphQLEnumType {
  const name = `${table.name}_select_column`;
  return memo(context, name, () => new GraphQLEnumType({
    name,
    description: `select columns of table "${table.name}"`,
    values: Object.fromEntries(selectColumns(context, table).map((column) => [column, { value: column, description: 'column name' }])),
  }));
}
