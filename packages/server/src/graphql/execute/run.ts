/**
 * execute(): prepare -> coerce variables -> collect root fields -> compile -> run.
 * Queries: every table root field is compiled into ONE statement (`SELECT (f1)::text, (f2)::text`,
 * one snapshot, one round trip); introspection and query actions go to graphql-js; the response
 * text is spliced together in field order without parsing row data.
 * Mutations: table fields run in order in one transaction; a failed permission check or any error
 * rolls everything back. Action mutations cannot be mixed with table mutations in one request.
 * Every mutation made while a manager acts for a user is then written to acting_audit (acting-audit.ts).
 */
import { getVariableValues } from 'graphql';
import type { BatchSpent, ExecutionOutcome, GraphqlError, GraphqlRequest, GraphqlSession } from '../types';
import type { Catalogue } from '../catalogue';
import type { ActionDeclaration } from '../metadata/types';
import { fieldOf, fieldRole } from '../schema/field-roles';
import type { CompileBase } from '../sql/context';
import { collectFields, type CollectedField } from '../sql/fields';
import { compileMutationField, type CompiledMutation } from '../sql/mutations/mutation-field';
import type { StatementRunner } from './database';
import { dataOutcome, errorOutcome, executionError, graphqlError, variableError } from './errors';
import { executeGraphqlPart } from './graphql-part';
import type { EngineLimits } from './limits';
import type { ByteLruCache } from './lru';
import { checkVariables } from './variables-check';
import { tooLargeError } from './response-ceiling';
import type { OperationPreparer, PreparedOperation } from './prepare';
import type { QueryPlanCache } from './plan-cache';
import { runQuery } from './query';
import { recordActingMutation, signedInActor } from './acting-audit';

export interface ExecutorDependencies {
  readonly catalogue: Catalogue;
  readonly runner: StatementRunner;
  readonly preparer: OperationPreparer;
  readonly limits: EngineLimits;
  readonly actions: ReadonlyMap<string, ActionDeclaration>;
  readonly log: ((message: string) => void) | undefined;
  /** Compiled query plans (see plan-cache.ts). */
  readonly plans: QueryPlanCache;
  /** Introspection JSON already built (see graphql-part.ts). */
  readonly introspection: ByteLruCache<string, string>;
}

/** A request made ready to compile: its prepared operation, coerced variables and root fields. */
export interface ReadyRequest {
  readonly prepared: PreparedOperation;
  readonly base: CompileBase;
  readonly fields: readonly CollectedField[];
}

/** A request whose operation is prepared and whose variables are coerced. */
export interface CoercedRequest {
  readonly prepared: PreparedOperation;
  readonly variables: Readonly<Record<string, unknown>>;
}

/** Prepares a request and coerces its variables; errors are request errors. */
export function coerceRequest(dependencies: ExecutorDependencies, input: { request: GraphqlRequest; session: GraphqlSession; batch?: BatchSpent | undefined }): CoercedRequest | { errors: readonly GraphqlError[] } {
  const prepared = dependencies.preparer.prepare(input.request, input.session, input.batch);
  if (!prepared.ok) return { errors: prepared.errors };
  const { operation } = prepared;
  const { limits } = dependencies;
  const tooBig = checkVariables(input.request.variables, { maxDepth: limits.maxVariableDepth, maxValues: limits.maxVariableValues });
  if (tooBig) return { errors: [tooBig] };
  const coerced = getVariableValues(operation.schema, operation.operation.variableDefinitions ?? [], { ...(input.request.variables ?? {}) }, { maxErrors: 10 });
  if (coerced.errors) return { errors: coerced.errors.map(variableError) };
  return { prepared: operation, variables: coerced.coerced };
}

/** The root fields and compile base of a coerced request. */
export function readyFrom(dependencies: ExecutorDependencies, input: { coerced: CoercedRequest; session: GraphqlSession }): ReadyRequest {
  const { prepared, variables } = input.coerced;
  const fields = collectFields([prepared.operation.selectionSet], { variables, fragments: prepared.fragments });
  const base: CompileBase = {
    catalogue: dependencies.catalogue,
    model: prepared.model,
    session: input.session,
    variables,
    fragments: prepared.fragments,
    limits: dependencies.limits,
    capRows: true,
  };
  return { prepared, base, fields };
}

/** Prepares and coerces a request; errors are request errors. */
export function readyRequest(dependencies: ExecutorDependencies, input: { request: GraphqlRequest; session: GraphqlSession }): ReadyRequest | { errors: readonly GraphqlError[] } {
  const coerced = coerceRequest(dependencies, input);
  if ('errors' in coerced) return coerced;
  return readyFrom(dependencies, { coerced, session: input.session });
}

/** What answers a root field. */
export type FieldKind = 'typename' | 'graphql' | 'table' | 'action';

/** What answers a root field: SQL (table), graphql-js (introspection), an action handler, or nothing (`__typename`). */
export function classify(ready: ReadyRequest, field: CollectedField): FieldKind {
  if (field.name === '__typename') return 'typename';
  if (field.name === '__schema' || field.name === '__type') return 'graphql';
  const role = fieldRole(fieldOf(ready.prepared.rootType, field.name));
  // Action fields come from SDL (extendSchema) and carry no compiler role.
  return role !== undefined && 'table' in role ? 'table' : 'action';
}

/** Runs a query or mutation; never rejects for GraphQL-level errors. */
export async function executeRequest(dependencies: ExecutorDependencies, input: { request: GraphqlRequest; session: GraphqlSession; batch?: BatchSpent | undefined }): Promise<ExecutionOutcome> {
  const coerced = coerceRequest(dependencies, input);
  if ('errors' in coerced) return errorOutcome(coerced.errors, true);
  const kind = coerced.prepared.operation.operation;
  if (kind === 'subscription') return errorOutcome([graphqlError('validation-failed', 'subscriptions are served over WebSocket')], true);
  if (kind === 'query') {
    try {
      return await runQuery(dependencies, { coerced, session: input.session, request: input.request });
    } catch (error) {
      return errorOutcome([executionError(error, { path: '$', log: dependencies.log })], false);
    }
  }
  let rootFields: string[] = [];
  let outcome: ExecutionOutcome;
  try {
    const ready = readyFrom(dependencies, { coerced, session: input.session });
    rootFields = ready.fields.map((field) => field.name).filter((name) => name !== '__typename');
    outcome = await runMutation(dependencies, { ready, input });
  } catch (error) {
    outcome = errorOutcome([executionError(error, { path: '$', log: dependencies.log })], false);
  }
  // The one place every mutation passes, whatever its transport: the trail of acting for a user.
  await recordActingMutation(dependencies.runner, {
    session: input.session, operationName: coerced.prepared.operation.name?.value, rootFields, outcome,
  }, dependencies.log);
  return outcome;
}

interface RunInput {
  readonly ready: ReadyRequest;
  readonly input: { request: GraphqlRequest; session: GraphqlSession };
}

/** Values of the root fields graphql-js answers (introspection, query actions). */
export async function graphqlValues(dependencies: ExecutorDependencies, run: RunInput, fields: readonly CollectedField[]) {
  if (fields.length === 0) return { ok: true as const, values: new Map<string, string>() };
  return executeGraphqlPart({
    prepared: run.ready.prepared,
    fields,
    variables: run.input.request.variables,
    session: run.input.session,
    actions: dependencies.actions,
    log: dependencies.log,
    introspection: dependencies.introspection,
    maxResponseBytes: dependencies.limits.maxResponseBytes,
  });
}

async function runMutation(dependencies: ExecutorDependencies, run: RunInput): Promise<ExecutionOutcome> {
  const { ready } = run;
  const kinds = ready.fields.map((field) => classify(ready, field));
  if (kinds.includes('action') && kinds.includes('table')) {
    return errorOutcome([graphqlError('validation-failed', 'action mutations cannot be mixed with table mutations in one request')], true);
  }
  const values = new Map<string, string>();
  if (kinds.includes('action') || kinds.includes('graphql')) {
    const other = await graphqlValues(dependencies, run, ready.fields.filter((_field, index) => kinds[index] === 'action' || kinds[index] === 'graphql'));
    if (!other.ok) return errorOutcome(other.errors, false);
    for (const [key, value] of other.values) values.set(key, value);
  }
  // Compile everything before opening the transaction: a compile error touches nothing.
  const mutations = ready.fields.filter((_field, index) => kinds[index] === 'table')
    .map((field) => compileMutationField(ready.base, { rootType: ready.prepared.rootType, field }));
  if (mutations.length > 0) {
    const result = await runInTransaction(dependencies, { mutations, actorId: signedInActor(run.input.session) });
    if ('error' in result) return errorOutcome([result.error], false);
    for (const [key, value] of result.values) values.set(key, value);
  }
  const entries = ready.fields.map((field): [string, string] => [field.responseKey, values.get(field.responseKey) ?? JSON.stringify(ready.prepared.rootType.name)]);
  return dataOutcome(entries, dependencies.limits.maxResponseBytes);
}

const CHECK_FAILED = 'check constraint of an insert/update permission has failed';

/**
 * Runs the compiled table mutations in one transaction. `actorId`: the signed-in user (the manager
 * when acting for a user), set as `vyuha.actor_id` for the transaction so the audit triggers of
 * migration 0028 name who made the change; a validated uuid, so it is written into the BEGIN text
 * (one round trip).
 */
async function runInTransaction(
  dependencies: ExecutorDependencies,
  run: { readonly mutations: readonly CompiledMutation[]; readonly actorId: string | undefined },
): Promise<{ values: Map<string, string> } | { error: GraphqlError }> {
  const { mutations } = run;
  const client = await dependencies.runner.connect();
  const values = new Map<string, string>();
  const maxBytes = dependencies.limits.maxResponseBytes;
  let bytes = 0;
  let path = '$';
  try {
    await client.query(run.actorId === undefined ? 'BEGIN' : `BEGIN; SELECT set_config('vyuha.actor_id', '${run.actorId}', true)`);
    for (const mutation of mutations) {
      path = mutation.errorPath;
      const results: string[] = [];
      for (const statement of mutation.statements) {
        const [row] = await dependencies.runner.query(client, statement);
        bytes += Number(row?.[2] ?? 0);
        if (bytes > maxBytes) {
          // Too large to answer: nothing of the request stays.
          await client.query('ROLLBACK');
          return { error: tooLargeError({ bytes, maxBytes, path: mutation.errorPath }) };
        }
        if (row?.[1] !== true) {
          await client.query('ROLLBACK');
          return { error: graphqlError('permission-error', CHECK_FAILED, mutation.errorPath) };
        }
        results.push((row[0] as string | null) ?? 'null');
      }
      values.set(mutation.responseKey, mutation.list ? `[${results.join(',')}]` : (results[0] ?? 'null'));
    }
    await client.query('COMMIT');
    return { values };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    return { error: executionError(error, { path, log: dependencies.log }) };
  } finally {
    client.release();
  }
}
