/**
 * Hasura's scalars. Values pass through unchanged: PostgreSQL parses and validates them when
 * they arrive as `$n::<type>` parameters (a bad uuid is PostgreSQL's `data-exception`, as in
 * Hasura). bigint and numeric literals keep their exact digits as strings.
 */
import {
  GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLScalarType, GraphQLString,
  Kind, valueFromASTUntyped, type GraphQLInputType, type ValueNode,
} from 'graphql';

const BUILT_IN: Readonly<Record<string, GraphQLScalarType>> = {
  String: GraphQLString,
  Int: GraphQLInt,
  Boolean: GraphQLBoolean,
  Float: GraphQLFloat,
};

const EXACT_NUMBERS = new Set(['bigint', 'numeric']);

const customScalars = new Map<string, GraphQLScalarType>();

function parseLiteral(name: string) {
  return (ast: ValueNode, variables?: Readonly<Record<string, unknown>> | null): unknown => {
    if (EXACT_NUMBERS.has(name) && (ast.kind === Kind.INT || ast.kind === Kind.FLOAT)) return ast.value;
    return valueFromASTUntyped(ast, variables);
  };
}

/** The GraphQL scalar for a Hasura scalar name (one instance per name, shared by every role schema). */
export function scalarType(name: string): GraphQLScalarType {
  const builtIn = BUILT_IN[name];
  if (builtIn) return builtIn;
  let scalar = customScalars.get(name);
  if (!scalar) {
    scalar = new GraphQLScalarType({
      name,
      serialize: (value) => value,
      parseValue: (value) => value,
      parseLiteral: parseLiteral(name),
    });
    customScalars.set(name, scalar);
  }
  return scalar;
}

/** The scalars every role schema carries, so action SDL can use them even where no table does. */
export const COMMON_SCALARS: readonly string[] = [
  'uuid', 'bigint', 'numeric', 'float8', 'smallint', 'real', 'timestamptz', 'timestamp', 'date', 'time', 'jsonb', 'json', 'citext',
];

/** `[T!]` */
export function listOf<T extends GraphQLInputType>(type: T): GraphQLList<GraphQLNonNull<T>> {
  return new GraphQLList(new GraphQLNonNull(type));
}
