/**
 * Hasura-shaped errors: building outcomes, and mapping graphql-js and PostgreSQL errors to
 * Hasura's codes and message styles. SQL text never reaches the client; unexpected errors are
 * logged through the engine's `log` and answered with a generic message.
 */
import { Kind, type FragmentDefinitionNode, type GraphQLError as GraphqlJsError, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { GraphqlFailure, type ExecutionOutcome, type GraphqlError } from '../types';

/** `{message, extensions: {path, code}}` */
export function graphqlError(code: string, message: string, path = '$'): GraphqlError {
  return { message, extensions: { path, code } };
}

/** An outcome carrying errors. */
export function errorOutcome(errors: readonly GraphqlError[], requestError: boolean): ExecutionOutcome {
  return { body: JSON.stringify({ errors }), failed: true, errors, requestError };
}

/**
 * A successful outcome from response keys and their JSON texts (row data is never parsed); over
 * `maxBytes` (UTF-16 length of the parts, measured before they are joined) it is an error outcome.
 */
export function dataOutcome(entries: readonly (readonly [string, string])[], maxBytes = Number.POSITIVE_INFINITY): ExecutionOutcome {
  let length = 12;
  for (const [key, json] of entries) length += key.length + json.length + 4;
  if (length > maxBytes) {
    const errors = [graphqlError('response-too-large', `the response would be about ${length.toLocaleString('en-US')} bytes, more than the limit of ${maxBytes.toLocaleString('en-US')}: ask for fewer rows or fields`)];
    return errorOutcome(errors, false);
  }
  const body = `{"data":{${entries.map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(',')}}}`;
  return { body, failed: false, errors: [], requestError: false };
}

interface DatabaseErrorLike {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly severity?: unknown;
}

const CONSTRAINT_PREFIX: Readonly<Record<string, string>> = {
  '23505': 'Uniqueness violation. ',
  '23503': 'Foreign key violation. ',
  '23502': 'Not-NULL violation. ',
  '23514': 'Check constraint violation. ',
  '23P01': 'Exclusion violation. ',
};

/** Whether an error came from PostgreSQL (has a SQLSTATE and a severity). */
export function isDatabaseError(error: unknown): error is DatabaseErrorLike & { code: string; message: string } {
  const candidate = error as DatabaseErrorLike | null;
  return typeof candidate?.code === 'string' && typeof candidate.message === 'string' && typeof candidate.severity === 'string';
}

/** Any error during execution -> one Hasura error. */
export function executionError(error: unknown, options: { path: string; log?: ((message: string) => void) | undefined }): GraphqlError {
  if (error instanceof GraphqlFailure) return error.toGraphqlError();
  if (isDatabaseError(error)) {
    const prefix = CONSTRAINT_PREFIX[error.code];
    if (prefix) return graphqlError('constraint-violation', `${prefix}${error.message}`, options.path);
    if (error.code.startsWith('22')) return graphqlError('data-exception', error.message, options.path);
    if (error.code === '42501') return graphqlError('permission-error', error.message, options.path);
    options.log?.(`graphql: database error ${error.code}: ${error.message}`);
    return graphqlError('unexpected', 'database query error', options.path);
  }
  options.log?.(`graphql: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return graphqlError('unexpected', 'unexpected error', options.path);
}

/** `$.selectionSet.a.selectionSet.b` of the innermost field containing source position `position`. */
export function pathAt(operation: OperationDefinitionNode, input: { fragments: Readonly<Record<string, FragmentDefinitionNode>>; position: number }): string {
  const path: string[] = [];
  const visit = (set: SelectionSetNode, depth: number): boolean => {
    if (depth > 64) return false;
    for (const selection of set.selections) {
      const inside = selection.loc !== undefined && selection.loc.start <= input.position && input.position < selection.loc.end;
      if (selection.kind === Kind.FIELD) {
        if (!inside) continue;
        path.push(selection.alias?.value ?? selection.name.value);
        if (selection.selectionSet) visit(selection.selectionSet, depth + 1);
        return true;
      }
      const body = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : input.fragments[selection.name.value]?.selectionSet;
      if (body && visit(body, depth + 1)) return true;
    }
    return false;
  };
  visit(operation.selectionSet, 0);
  return ['$', ...path.map((key) => `selectionSet.${key}`)].join('.');
}

/** A graphql-js validation error in Hasura's words where Hasura's differ. */
export function validationError(error: GraphqlJsError, input: { operation: OperationDefinitionNode; fragments: Readonly<Record<string, FragmentDefinitionNode>> }): GraphqlError {
  const position = error.nodes?.[0]?.loc?.start;
  const path = position === undefined ? '$' : pathAt(input.operation, { fragments: input.fragments, position });
  const unknownField = /^Cannot query field "(\w+)" on type "(\w+)"/.exec(error.message);
  if (unknownField) return graphqlError('validation-failed', `field '${unknownField[1]}' not found in type: '${unknownField[2]}'`, path);
  // graphql-js stops a rule that would run past its work budget (overlapping fields, fragments).
  if (error.message === 'Validation aborted.') return graphqlError('validation-failed', 'the query is too complex to validate', path);
  const unknownArgument = /^Unknown argument "(\w+)" on field "\w+\.(\w+)"/.exec(error.message);
  if (unknownArgument) return graphqlError('validation-failed', `'${unknownArgument[2]}' has no argument named '${unknownArgument[1]}'`, path);
  return graphqlError('validation-failed', error.message, path);
}

/** A variable coercion error, Hasura's wording for a missing non-null variable. */
export function variableError(error: GraphqlJsError): GraphqlError {
  const missing = /^Variable "\$(\w+)" of required type "[^"]+" was not provided\.$/.exec(error.message);
  if (missing) return graphqlError('validation-failed', `expecting a value for non-nullable variable: "${missing[1]}"`, '$');
  return graphqlError('validation-failed', error.message, '$');
}
