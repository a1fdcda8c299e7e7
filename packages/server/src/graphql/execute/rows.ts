/**
 * executeRows(): the rows of a query's FIRST root field as plain objects, read through a
 * server-side cursor in batches (the CSV endpoint). Same permissions as execute(): the role's
 * filter, columns, masks and row limit; the engine-wide row cap does not apply (the result is
 * streamed, not held), but one row's JSON may not pass the response ceiling. `<t>_by_pk` and
 * `<t>_aggregate` yield their one object.
 */
import { getNamedType, type GraphQLObjectType } from 'graphql';
import { GraphqlFailure, type GraphqlRequest, type GraphqlSession } from '../types';
import { fieldOf, fieldRole } from '../schema/field-roles';
import { finishStatement, statementContext } from '../sql/context';
import { fieldArguments } from '../sql/fields';
import { compileQueryField, compileRowsSelect } from '../sql/select';
import { tooLargeFailure } from './response-ceiling';
import { readyRequest, type ExecutorDependencies } from './run';

const BATCH_ROWS = 500;

function failure(errors: readonly { message: string; extensions: { code: string; path: string } }[]): GraphqlFailure {
  const first = errors[0];
  return new GraphqlFailure(first?.extensions.code ?? 'validation-failed', first?.message ?? 'invalid request', first?.extensions.path ?? '$');
}

/** Streams the rows of the first root field; throws GraphqlFailure for request errors. */
export async function* executeRows(dependencies: ExecutorDependencies, input: { request: GraphqlRequest; session: GraphqlSession }): AsyncGenerator<Record<string, unknown>> {
  const ready = readyRequest(dependencies, input);
  if ('errors' in ready) throw failure(ready.errors);
  if (ready.prepared.operation.operation !== 'query') throw new GraphqlFailure('validation-failed', 'only a query can be exported');
  const field = ready.fields[0];
  const definition = field && !field.name.startsWith('__') ? fieldOf(ready.prepared.rootType, field.name) : undefined;
  const role = definition && fieldRole(definition);
  if (!field || !definition || !role || !('table' in role)) throw new GraphqlFailure('validation-failed', 'the first root field must be a table field');
  const context = statementContext({ ...ready.base, capRows: false });
  let sql: string;
  if (role.kind === 'select') {
    const table = dependencies.catalogue.tables.get(role.table);
    if (!table) throw new Error(`internal: table ${role.table} missing`);
    const type = getNamedType(definition.type) as GraphQLObjectType;
    sql = compileRowsSelect(context, { type, table, field, args: fieldArguments(definition, field, ready.base.variables) });
  } else {
    sql = `SELECT ${compileQueryField(context, { rootType: ready.prepared.rootType, field })} AS j`;
  }
  const statement = finishStatement(context, sql);
  const client = await dependencies.runner.connect();
  let open = false;
  try {
    await client.query('BEGIN READ ONLY');
    open = true;
    // Each row's JSON is measured in PostgreSQL and withheld over the response ceiling.
    const maxBytes = dependencies.limits.maxResponseBytes;
    const sized = `SELECT CASE WHEN octet_length(r.j::text) <= ${maxBytes} THEN r.j END AS j, octet_length(r.j::text)::bigint AS n FROM (${statement.sql}) r`;
    await client.query({ text: `DECLARE vyuha_rows NO SCROLL CURSOR FOR ${sized}`, values: statement.params as unknown[] });
    for (;;) {
      const batch = await client.query<{ j: Record<string, unknown> | null; n: string | null }>(`FETCH ${BATCH_ROWS} FROM vyuha_rows`);
      for (const row of batch.rows) {
        if (Number(row.n ?? 0) > maxBytes) throw tooLargeFailure({ bytes: Number(row.n), maxBytes });
        if (row.j !== null) yield row.j;
      }
      if (batch.rows.length < BATCH_ROWS) break;
    }
    await client.query('COMMIT');
    open = false;
  } finally {
    if (open) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
