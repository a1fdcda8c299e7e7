/**
 * subscribe(): a subscription with exactly one table root field (`<t>`, `<t>_by_pk`,
 * `<t>_aggregate`) becomes a LiveQuery: one statement returning one row with one text column.
 * Its key hashes the SQL, the parameters (the variables and the session values the permission
 * filters used) and the response key, so identical subscriptions share one refetch. A result
 * over the response ceiling comes back as a marker (response-ceiling.ts) and ends the
 * subscription with `response-too-large`.
 */
import { createHash } from 'node:crypto';
import type { GraphqlError, GraphqlRequest, GraphqlSession, LiveQuery } from '../types';
import { fieldOf, fieldRole } from '../schema/field-roles';
import { finishStatement, statementContext } from '../sql/context';
import { compileQueryField } from '../sql/select';
import { executionError, graphqlError } from './errors';
import { markedSize, sizedLiveSelect, tooLargeFailure } from './response-ceiling';
import { readyRequest, type ExecutorDependencies } from './run';

/** Prepares a live query, or answers the request's errors. */
export function prepareLiveQuery(dependencies: ExecutorDependencies, input: { request: GraphqlRequest; session: GraphqlSession }): LiveQuery | { readonly errors: readonly GraphqlError[] } {
  const ready = readyRequest(dependencies, input);
  if ('errors' in ready) return ready;
  if (ready.prepared.operation.operation !== 'subscription') {
    return { errors: [graphqlError('validation-failed', 'expected a subscription operation')] };
  }
  const [field, ...rest] = ready.fields;
  if (!field || rest.length > 0) return { errors: [graphqlError('validation-failed', 'subscriptions must select exactly one top level field')] };
  const role = field.name.startsWith('__') ? undefined : fieldRole(fieldOf(ready.prepared.rootType, field.name));
  if (!role || !('table' in role)) {
    return { errors: [graphqlError('validation-failed', `"${field.name}" cannot be subscribed to`, `$.selectionSet.${field.responseKey}`)] };
  }
  try {
    const context = statementContext(ready.base);
    const maxBytes = dependencies.limits.maxResponseBytes;
    const expression = `(${compileQueryField(context, { rootType: ready.prepared.rootType, field })})::text`;
    const statement = finishStatement(context, sizedLiveSelect(expression, maxBytes));
    const key = createHash('sha256').update(statement.sql).update('\u0000').update(JSON.stringify(statement.params)).update('\u0000').update(field.responseKey).digest('base64url');
    const prefix = `{"data":{${JSON.stringify(field.responseKey)}:`;
    return {
      key,
      sql: statement.sql,
      params: statement.params,
      responseKey: field.responseKey,
      tables: statement.tables,
      async fetch() {
        const rows = await dependencies.runner.run(statement);
        const text = rows[0]?.[0] as string | null | undefined;
        const tooLarge = markedSize(text);
        if (tooLarge) throw tooLargeFailure(tooLarge);
        return `${prefix}${text ?? 'null'}}}`;
      },
    };
  } catch (error) {
    return { errors: [executionError(error, { path: '$', log: dependencies.log })] };
  }
}
