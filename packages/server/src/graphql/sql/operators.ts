/**
 * Hasura's comparison operators, which scalar gets which, and their SQL. Shared by the schema
 * (`<scalar>_comparison_exp` input types), the compiler and the metadata validation.
 */

export type ComparisonOperator =
  | '_eq' | '_neq' | '_gt' | '_gte' | '_lt' | '_lte' | '_in' | '_nin' | '_is_null'
  | '_like' | '_nlike' | '_ilike' | '_nilike' | '_similar' | '_nsimilar'
  | '_regex' | '_nregex' | '_iregex' | '_niregex'
  | '_contains' | '_contained_in' | '_has_key' | '_has_keys_any' | '_has_keys_all';

/** Binary operators whose right side has the column's own type. */
export const BINARY_SQL: Readonly<Partial<Record<ComparisonOperator, string>>> = {
  _eq: '=', _neq: '<>', _gt: '>', _gte: '>=', _lt: '<', _lte: '<=',
  _like: 'LIKE', _nlike: 'NOT LIKE', _ilike: 'ILIKE', _nilike: 'NOT ILIKE',
  _similar: 'SIMILAR TO', _nsimilar: 'NOT SIMILAR TO',
  _regex: '~', _nregex: '!~', _iregex: '~*', _niregex: '!~*',
  _contains: '@>', _contained_in: '<@',
};

const BASE: readonly ComparisonOperator[] = ['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_is_null'];
const TEXT: readonly ComparisonOperator[] = [
  ...BASE, '_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_nregex', '_iregex', '_niregex',
];
const JSONB: readonly ComparisonOperator[] = [
  ...BASE, '_contains', '_contained_in', '_has_key', '_has_keys_any', '_has_keys_all',
];
/** Arrays: no `_in` (it would need arrays of arrays), containment instead. */
const ARRAY: readonly ComparisonOperator[] = ['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_is_null', '_contains', '_contained_in'];
/** json (not jsonb) has no equality operator in PostgreSQL. */
const JSON_PLAIN: readonly ComparisonOperator[] = ['_is_null'];

/** The operators a column of this scalar accepts. */
export function operatorsForScalar(scalar: string): readonly ComparisonOperator[] {
  if (scalar === 'String' || scalar === 'citext') return TEXT;
  if (scalar === 'jsonb') return JSONB;
  if (scalar === 'json') return JSON_PLAIN;
  if (scalar.startsWith('_')) return ARRAY;
  return BASE;
}

/** Scalars with sum/avg/stddev/variance aggregates and `_inc`. */
export function isNumericScalar(scalar: string): boolean {
  return ['Int', 'smallint', 'bigint', 'numeric', 'float8', 'real'].includes(scalar);
}

/** Scalars PostgreSQL can take max/min of (uuid, boolean, json and arrays have no max in PG 15). */
export function isOrderableScalar(scalar: string): boolean {
  return isNumericScalar(scalar) || ['String', 'citext', 'timestamptz', 'timestamp', 'date', 'time', 'timetz', 'interval'].includes(scalar);
}
