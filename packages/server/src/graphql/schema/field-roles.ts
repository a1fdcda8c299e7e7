/**
 * What each generated schema field means to the compiler. The schema builder stores a FieldRole
 * in the field's `extensions.vyuha`; the compiler reads it back from the validated query's field
 * definitions, so the role schema is the single source of what can be compiled.
 */
import type { GraphQLField, GraphQLObjectType } from 'graphql';

export type AggregateFunction = 'sum' | 'avg' | 'max' | 'min' | 'stddev' | 'stddev_pop' | 'stddev_samp' | 'var_pop' | 'var_samp' | 'variance';

export const AGGREGATE_FUNCTIONS: readonly AggregateFunction[] = [
  'sum', 'avg', 'max', 'min', 'stddev', 'stddev_pop', 'stddev_samp', 'var_pop', 'var_samp', 'variance',
];

export type RootFieldKind =
  | 'select' | 'select_by_pk' | 'select_aggregate'
  | 'insert' | 'insert_one' | 'update' | 'update_by_pk' | 'update_many' | 'delete' | 'delete_by_pk';

export type FieldRole =
  | { readonly kind: RootFieldKind; readonly table: string }
  | { readonly kind: 'action'; readonly action: string }
  | { readonly kind: 'column'; readonly column: string }
  | { readonly kind: 'object_relationship'; readonly relationship: string }
  | { readonly kind: 'array_relationship'; readonly relationship: string }
  | { readonly kind: 'array_aggregate'; readonly relationship: string }
  | { readonly kind: 'aggregate' }
  | { readonly kind: 'nodes' }
  | { readonly kind: 'count' }
  | { readonly kind: 'aggregate_function'; readonly function: AggregateFunction }
  | { readonly kind: 'affected_rows' }
  | { readonly kind: 'returning' };

/** The `extensions` value that tags a field with its role. */
export function tagged(role: FieldRole): { vyuha: FieldRole } {
  return { vyuha: role };
}

/** The role of a schema field, or undefined for fields the compiler does not own (introspection, actions' own types). */
export function fieldRole(field: GraphQLField<unknown, unknown>): FieldRole | undefined {
  return (field.extensions as { vyuha?: FieldRole }).vyuha;
}

/** The field definition of `name` on `type` (validation guarantees it exists). */
export function fieldOf(type: GraphQLObjectType, name: string): GraphQLField<unknown, unknown> {
  const field = type.getFields()[name];
  if (!field) throw new Error(`internal: field ${type.name}.${name} missing after validation`);
  return field;
}
