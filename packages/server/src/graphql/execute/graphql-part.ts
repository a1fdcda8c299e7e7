/**
 * The root fields graphql-js answers itself: introspection (`__schema`, `__type`) and actions.
 * They run on a copy of the operation that holds only those fields; action handlers receive
 * `{args, session}` and graphql-js selects the requested fields from what they return.
 */
import { Kind, execute, type DocumentNode, type GraphQLError as GraphqlJsError } from 'graphql';
import { GraphqlFailure, type GraphqlError, type GraphqlSession } from '../types';
import type { ActionDeclaration } from '../metadata/types';
import { executionError } from './errors';
import type { CollectedField } from '../sql/fields';
import type { PreparedOperation } from './prepare';

export interface GraphqlPartInput {
  readonly prepared: PreparedOperation;
  readonly fields: readonly CollectedField[];
  readonly variables: Readonly<Record<string, unknown>> | null | undefined;
  readonly session: GraphqlSession;
  readonly actions: ReadonlyMap<string, ActionDeclaration>;
  readonly log: ((message: string) => void) | undefined;
}

export type GraphqlPartResult = { readonly ok: true; readonly values: ReadonlyMap<string, string> } | { readonly ok: false; readonly errors: readonly GraphqlError[] };

function errorOf(error: GraphqlJsError, log: GraphqlPartInput['log']): GraphqlError {
  const original = error.originalError;
  const path = `$.selectionSet.${(error.path ?? []).join('.selectionSet.')}`;
  if (original instanceof GraphqlFailure) return original.toGraphqlError();
  if (original) return executionError(original, { path, log });
  return { message: error.message, extensions: { path, code: 'validation-failed' } };
}

/** Runs the given root fields with graphql-js and returns each one's JSON text by response key. */
export async function executeGraphqlPart(input: GraphqlPartInput): Promise<GraphqlPartResult> {
  const { prepared, fields, session } = input;
  const operation = {
    ...prepared.operation,
    selectionSet: { kind: Kind.SELECTION_SET, selections: fields.flatMap((field) => field.nodes) },
  } as const;
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [operation, ...Object.values(prepared.fragments)],
  };
  const rootValue: Record<string, unknown> = {};
  for (const field of fields) {
    const action = input.actions.get(field.name);
    if (action) rootValue[field.name] = (args: Record<string, unknown>) => action.handler({ args, session });
  }
  const result = await execute({ schema: prepared.schema, document, rootValue, variableValues: input.variables ?? {} });
  if (result.errors && result.errors.length > 0) {
    return { ok: false, errors: result.errors.slice(0, 1).map((error) => errorOf(error, input.log)) };
  }
  const values = new Map<string, string>();
  for (const field of fields) values.set(field.responseKey, JSON.stringify(result.data?.[field.responseKey] ?? null));
  return { ok: true, values };
}
