/**
 * The root fields graphql-js answers itself: introspection (`__schema`, `__type`) and actions.
 * They run on a copy of the operation that holds only those fields; action handlers receive
 * `{args, session}` and graphql-js selects the requested fields from what they return.
 *
 * Introspection is built in this process, so it is kept cheap: each introspection root field
 * runs alone, its JSON is cached by prepared operation, selection (the alias left out) and
 * variables (bytes-bounded), so the same field asked again or under twenty aliases is built
 * once; between two fields built afresh the event loop gets a turn. Every field's JSON counts
 * toward the response ceiling before the response is joined.
 */
import { Kind, execute, print, type DocumentNode, type FieldNode, type GraphQLError as GraphqlJsError } from 'graphql';
import { GraphqlFailure, type GraphqlError, type GraphqlSession } from '../types';
import type { ActionDeclaration } from '../metadata/types';
import { executionError } from './errors';
import type { CollectedField } from '../sql/fields';
import type { ByteLruCache } from './lru';
import { stringBytes } from './lru';
import type { PreparedOperation } from './prepare';
import { tooLargeError } from './response-ceiling';

export interface GraphqlPartInput {
  readonly prepared: PreparedOperation;
  readonly fields: readonly CollectedField[];
  readonly variables: Readonly<Record<string, unknown>> | null | undefined;
  readonly session: GraphqlSession;
  readonly actions: ReadonlyMap<string, ActionDeclaration>;
  readonly log: ((message: string) => void) | undefined;
  /** Introspection JSON by operation, selection and variables. */
  readonly introspection: ByteLruCache<string, string>;
  readonly maxResponseBytes: number;
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
  const values = new Map<string, string>();
  let bytes = 0;
  const introspection = input.fields.filter((field) => field.name === '__schema' || field.name === '__type');
  for (const field of introspection) {
    const value = await introspectionValue(input, field);
    if (!value.ok) return value;
    bytes += value.json.length;
    if (bytes > input.maxResponseBytes) return { ok: false, errors: [tooLargeError({ bytes, maxBytes: input.maxResponseBytes })] };
    values.set(field.responseKey, value.json);
  }
  const actions = input.fields.filter((field) => field.name !== '__schema' && field.name !== '__type');
  if (actions.length > 0) {
    const result = await run(input, actions);
    if (!result.ok) return result;
    for (const field of actions) {
      const json = JSON.stringify(result.data?.[field.responseKey] ?? null);
      bytes += json.length;
      if (bytes > input.maxResponseBytes) return { ok: false, errors: [tooLargeError({ bytes, maxBytes: input.maxResponseBytes })] };
      values.set(field.responseKey, json);
    }
  }
  return { ok: true, values };
}

async function run(input: GraphqlPartInput, fields: readonly CollectedField[]): Promise<{ ok: true; data: Record<string, unknown> | null | undefined } | { ok: false; errors: readonly GraphqlError[] }> {
  const { prepared, session } = input;
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
  return { ok: true, data: result.data };
}

function withoutAlias(node: FieldNode): FieldNode {
  const { alias: _alias, ...rest } = node;
  return rest;
}

/** One introspection field's JSON: from the cache, or built alone (then the event loop gets a turn). */
async function introspectionValue(input: GraphqlPartInput, field: CollectedField): Promise<{ ok: true; json: string } | { ok: false; errors: readonly GraphqlError[] }> {
  const selection = field.nodes.map((node: FieldNode) => print(withoutAlias(node))).join(' ');
  const variables = selection.includes('$') ? JSON.stringify(input.variables ?? {}) : '';
  const key = `${input.prepared.id}\u0000${selection}\u0000${variables}`;
  const cached = input.introspection.get(key);
  if (cached !== undefined) return { ok: true, json: cached };
  const result = await run(input, [field]);
  if (!result.ok) return result;
  const json = JSON.stringify(result.data?.[field.responseKey] ?? null);
  input.introspection.set(key, json, stringBytes(key) + stringBytes(json));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return { ok: true, json };
}
