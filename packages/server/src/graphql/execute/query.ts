/**
 * Queries: every table root field is compiled into ONE statement (`SELECT (f1)::text, (f2)::text`,
 * one snapshot, one round trip); introspection and query actions go to graphql-js; the response
 * text is spliced together in field order without parsing row data. A repeated query of the same
 * shape runs its cached plan (plan-cache.ts): no field collection, no compile. The statement
 * also returns the total length of its JSON and withholds it over the response ceiling
 * (response-ceiling.ts), so an oversized answer never reaches this process.
 */
import type { ExecutionOutcome, GraphqlRequest, GraphqlSession } from '../types';
import { finishStatement, statementContext, type CompiledStatement } from '../sql/context';
import { type CollectedField } from '../sql/fields';
import { compileQueryField } from '../sql/select';
import { dataOutcome, errorOutcome } from './errors';
import { sizedSelect, tooLargeError } from './response-ceiling';
import {
  parameterSources, planParameters, reproduces, sentinelSession, sentinelVariables,
  type ParameterSource, type PlanField, type QueryPlan,
} from './plan-cache';
import { classify, graphqlValues, readyFrom, type CoercedRequest, type ExecutorDependencies, type ReadyRequest } from './run';

interface QueryInput {
  readonly coerced: CoercedRequest;
  readonly session: GraphqlSession;
  readonly request: GraphqlRequest;
}

/** Runs a query (the caller turns a throw into an execution error). */
export async function runQuery(dependencies: ExecutorDependencies, input: QueryInput): Promise<ExecutionOutcome> {
  const { prepared, variables } = input.coerced;
  const target = { schema: prepared.schema, operation: prepared.operation, id: prepared.id };
  const lookup = dependencies.plans.lookup({ ...target, variables });
  if (lookup.plan) return runPlan(dependencies, { plan: lookup.plan, variables, session: input.session });
  const ready = readyFrom(dependencies, { coerced: input.coerced, session: input.session });
  const tableFields = ready.fields.filter((field) => classify(ready, field) === 'table');
  const otherFields = ready.fields.filter((field) => {
    const kind = classify(ready, field);
    return kind === 'graphql' || kind === 'action';
  });
  const values = new Map<string, string>();
  if (tableFields.length > 0) {
    const statement = compileTableFields(ready, tableFields);
    if (!lookup.known) {
      const plan = otherFields.length === 0 ? buildPlan(dependencies, { ready, statement, input }) : undefined;
      dependencies.plans.store({ ...target, key: lookup.key, plan });
    }
    const rows = await dependencies.runner.run(statement);
    const row = rows[0] ?? [];
    const tooLarge = oversized(dependencies, row[tableFields.length]);
    if (tooLarge) return tooLarge;
    tableFields.forEach((field, index) => values.set(field.responseKey, (row[index] as string | null) ?? 'null'));
  }
  const other = await graphqlValues(dependencies, { ready, input: { request: input.request, session: input.session } }, otherFields);
  if (!other.ok) return errorOutcome(other.errors, false);
  for (const [key, value] of other.values) values.set(key, value);
  const entries = ready.fields.map((field): [string, string] => [field.responseKey, values.get(field.responseKey) ?? JSON.stringify(ready.prepared.rootType.name)]);
  return dataOutcome(entries, dependencies.limits.maxResponseBytes);
}

/** An error outcome when the statement's size column says the answer is over the ceiling. */
function oversized(dependencies: ExecutorDependencies, size: unknown): ExecutionOutcome | undefined {
  const bytes = Number(size ?? 0);
  const maxBytes = dependencies.limits.maxResponseBytes;
  return bytes > maxBytes ? errorOutcome([tooLargeError({ bytes, maxBytes })], false) : undefined;
}

function compileTableFields(ready: ReadyRequest, tableFields: readonly CollectedField[]): CompiledStatement {
  const context = statementContext(ready.base);
  const expressions = tableFields.map((field) => `(${compileQueryField(context, { rootType: ready.prepared.rootType, field })})::text`);
  return finishStatement(context, sizedSelect(expressions, ready.base.limits.maxResponseBytes));
}

async function runPlan(dependencies: ExecutorDependencies, input: { plan: QueryPlan; variables: Readonly<Record<string, unknown>>; session: GraphqlSession }): Promise<ExecutionOutcome> {
  const { plan } = input;
  const params = planParameters(plan, input);
  const rows = await dependencies.runner.run({ sql: plan.sql, params });
  const row = rows[0] ?? [];
  const tooLarge = oversized(dependencies, row[plan.sizeColumn]);
  if (tooLarge) return tooLarge;
  let body = '{"data":{';
  for (let index = 0; index < plan.fields.length; index += 1) {
    const field = plan.fields[index] as PlanField;
    if (index > 0) body += ',';
    body += field.prefix;
    body += 'json' in field ? field.json : ((row[field.column] as string | null) ?? 'null');
  }
  return { body: `${body}}}`, failed: false, errors: [], requestError: false };
}

/**
 * The plan of a request just compiled for real, from a second compile with sentinel variables
 * and session (plan-cache.ts says when one exists); undefined when it does not.
 */
function buildPlan(dependencies: ExecutorDependencies, input: { ready: ReadyRequest; statement: CompiledStatement; input: QueryInput }): QueryPlan | undefined {
  const { ready, statement } = input;
  const { variables, prepared } = input.input.coerced;
  const sources = new Map<string, ParameterSource>();
  const strings = dependencies.plans.stringVariablesOf({ schema: prepared.schema, operation: prepared.operation });
  let probe: CompiledStatement;
  try {
    const probeVariables = sentinelVariables(variables, { strings, sources });
    const probeSession = sentinelSession(input.input.session, sources);
    const probeReady = readyFrom(dependencies, { coerced: { prepared, variables: probeVariables }, session: probeSession });
    if (probeReady.fields.map((field) => field.responseKey).join('\u0000') !== ready.fields.map((field) => field.responseKey).join('\u0000')) return undefined;
    const probeTables = probeReady.fields.filter((field) => classify(probeReady, field) === 'table');
    probe = compileTableFields(probeReady, probeTables);
  } catch {
    return undefined;
  }
  const params = parameterSources({ real: statement, probe, sources });
  if (!params) return undefined;
  let column = 0;
  const fields: PlanField[] = ready.fields.map((field) => {
    const prefix = `${JSON.stringify(field.responseKey)}:`;
    // Table fields were compiled in this order, so their columns count up.
    if (classify(ready, field) === 'table') return { prefix, column: column++ };
    return { prefix, json: JSON.stringify(ready.prepared.rootType.name) };
  });
  const plan: QueryPlan = { sql: statement.sql, tables: statement.tables, params, fields, sizeColumn: column };
  return reproduces(plan, { variables, session: input.input.session, params: statement.params }) ? plan : undefined;
}
