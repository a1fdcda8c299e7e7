// `POST /api/gql/csv`: the first root field of a query as `text/csv`, streamed.
//
// Columns come from the query, not from the rows: every selected leaf field is a column, named
// by its dotted path of response keys (aliases), in the order of the selection set (fragments
// expanded, @skip/@include applied). The header is therefore known before the first row and
// covers every key any row can have; a row without a value for a column (a null relationship)
// gets an empty cell. Reading the rows to find the columns would mean holding them all first.
// A sub-selected field is read through: an object relationship's fields become its dotted
// columns; where the value on the path is a list (an array relationship, an aggregate's
// `nodes`), the column holds the JSON array of that field across the list. A field without a
// sub-selection is one column even when its value is an object or array (jsonb: JSON text).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Kind, parse, valueFromASTUntyped, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { errorsBody, parseGraphqlRequest, readJsonBody, statusForFailure, toGraphqlError, useRawBodies, type GraphqlHttpOptions } from './http';
import { budgetError, budgetUser, guardRoutes, refuseHttp } from './transport-guards';
import { collectFields, subFields, type CollectOptions, type CollectedField } from './sql/fields';
import type { GraphqlSession, GraphqlRequest, GraphqlError } from './types';

/** The path of the CSV export (README.md, HTTP endpoints). */
export const CSV_PATH = '/api/gql/csv';

/** Rows of the first root field of a query, streamed (the engine's `executeRows`). */
export type RowSource = (request: GraphqlRequest, session: GraphqlSession) => AsyncIterable<Readonly<Record<string, unknown>>>;

export interface CsvOptions extends GraphqlHttpOptions {
  readonly rows: RowSource;
  /** Epoch milliseconds, for the file name; defaults to the wall clock. */
  readonly now?: () => number;
}

/** Flush the output in chunks of about this many characters (fewer, larger writes). */
const CHUNK_CHARACTERS = 64 * 1024;

/** One column: its dotted header and the path of keys that reaches its value in a row. */
export interface CsvColumn {
  readonly header: string;
  readonly path: readonly string[];
}

/**
 * The columns of one row in key order: nested objects become dotted columns, arrays and scalars
 * one column each. Only for a row source whose query cannot be read (selectionColumns is the rule).
 * @example csvColumns({ id: 1, user: { name: 'Asha' } }).map((c) => c.header) -> ['id', 'user.name']
 */
export function csvColumns(row: Readonly<Record<string, unknown>>, prefix: readonly string[] = []): CsvColumn[] {
  const columns: CsvColumn[] = [];
  for (const [key, value] of Object.entries(row)) {
    const path = [...prefix, key];
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) columns.push(...csvColumns(value as Record<string, unknown>, path));
    else columns.push({ header: path.join('.'), path });
  }
  return columns;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break; text a
 * spreadsheet would run as a formula (= + - @, tab, carriage return first) gets a leading `'`,
 * plain numbers excepted. Arrays and objects are JSON text.
 * @example csvField('=SUM(A1)') -> "'=SUM(A1)"
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The value at `path` in a row: missing keys and nulls give undefined (an empty cell); a list on
 * the way gives the list of the values at the rest of the path in each element.
 * @example valueAt({ fills: [{ price: 1 }, { price: 2 }] }, ['fills', 'price']) -> [1, 2]
 */
export function valueAt(value: unknown, path: readonly string[], from = 0): unknown {
  if (from === path.length) return value;
  if (Array.isArray(value)) return value.map((element) => valueAt(element, path, from));
  if (typeof value !== 'object' || value === null) return undefined;
  return valueAt((value as Record<string, unknown>)[path[from] as string], path, from + 1);
}

/** One CSV line (CRLF-terminated) of a row. */
export function csvLine(row: Readonly<Record<string, unknown>>, columns: readonly CsvColumn[]): string {
  return `${columns.map((column) => csvField(valueAt(row, column.path))).join(',')}\r\n`;
}

function leafColumns(fields: readonly CollectedField[], context: { options: CollectOptions; prefix: readonly string[] }): CsvColumn[] {
  return fields.flatMap((field) => {
    const path = [...context.prefix, field.responseKey];
    if (!field.nodes.some((node) => node.selectionSet !== undefined)) return [{ header: path.join('.'), path }];
    return leafColumns(subFields(field, context.options), { options: context.options, prefix: path });
  });
}

/** The operation a request runs (by operationName, or the only one) and its fragments, or undefined. */
function operationOf(request: GraphqlRequest): { operation: OperationDefinitionNode; fragments: Record<string, FragmentDefinitionNode> } | undefined {
  let document;
  try {
    document = parse(request.query);
  } catch {
    return undefined;
  }
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = request.operationName ? operations.find((candidate) => candidate.name?.value === request.operationName) : operations[0];
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  return operation === undefined ? undefined : { operation, fragments };
}

/**
 * The CSV columns of a query's first root field, from its selection set: every selected leaf
 * field, dotted by response key, in selection order; undefined when the query cannot be read
 * (the engine reports that itself).
 * @example selectionColumns({ query: '{ runs: strategy_runs { run_id strategy { name } } }' }).map((c) => c.header) -> ['run_id', 'strategy.name']
 */
export function selectionColumns(request: GraphqlRequest): CsvColumn[] | undefined {
  const found = operationOf(request);
  if (found === undefined) return undefined;
  const variables: Record<string, unknown> = {};
  for (const definition of found.operation.variableDefinitions ?? []) {
    if (definition.defaultValue !== undefined) variables[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  const options: CollectOptions = { variables: { ...variables, ...(request.variables ?? {}) }, fragments: found.fragments };
  let root: CollectedField | undefined;
  try {
    root = collectFields([found.operation.selectionSet], options).find((field) => !field.name.startsWith('__'));
  } catch {
    // A directive argument of the wrong type: the engine refuses the request itself.
    return undefined;
  }
  if (root === undefined || !root.nodes.some((node) => node.selectionSet !== undefined)) return undefined;
  return leafColumns(subFields(root, options), { options, prefix: [] });
}

/** The response key of the first root field, for the file name (`export` when it cannot be read). */
export function firstRootField(request: GraphqlRequest): string {
  try {
    const document = parse(request.query);
    const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
    const operation = operations.find((candidate) => candidate.name?.value === request.operationName) ?? operations[0];
    const field = operation?.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
    if (field?.kind === Kind.FIELD) return (field.alias ?? field.name).value;
  } catch {
    // The engine reports the syntax error itself.
  }
  return 'export';
}

/** `POST /api/gql/csv`: the first root field of a query as `text/csv`, streamed. */
export async function registerGraphqlCsv(app: FastifyInstance, options: CsvOptions): Promise<void> {
  await app.register(async (scope) => {
    useRawBodies(scope, options);
    guardRoutes(scope, options.guards);
    scope.post(CSV_PATH, { bodyLimit: options.limits.bodyLimitBytes }, (request, reply) => answerCsv(request, reply, options));
  });
}

async function answerCsv(request: FastifyRequest, reply: FastifyReply, options: CsvOptions): Promise<FastifyReply> {
  let graphqlRequest: GraphqlRequest;
  let iterator: AsyncIterator<Readonly<Record<string, unknown>>>;
  let first: IteratorResult<Readonly<Record<string, unknown>>>;
  try {
    graphqlRequest = parseGraphqlRequest(readJsonBody(request.body, options.limits));
    const session = await options.sessions(request.headers);
    const user = options.guards.budget.user(budgetUser(session));
    if (!user.ok) return refuseHttp(reply, { status: 429, retryAfterSeconds: user.retryAfterSeconds, error: budgetError(user, 'user') });
    iterator = options.rows(graphqlRequest, session)[Symbol.asyncIterator]();
    first = await iterator.next();
  } catch (error) {
    // Before the first row the status can still say what went wrong.
    const errors = failureErrors(error, options);
    const code = errors[0]?.extensions.code ?? 'unexpected';
    if (code === 'unexpected') options.log.error({ err: error }, 'graphql csv: request failed');
    return reply.code(statusForFailure(code)).type('application/json; charset=utf-8').send(errorsBody(errors));
  }
  const stamp = new Date(options.now?.() ?? Date.now()).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const fileName = `${firstRootField(graphqlRequest).replace(/[^A-Za-z0-9_-]/g, '_')}-${stamp}.csv`;
  void reply
    .code(200)
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store');
  const columns = selectionColumns(graphqlRequest) ?? (first.done ? [] : csvColumns(first.value));
  return reply.send(Readable.from(csvChunks({ first, iterator, columns, log: options.log, maxBytes: options.limits.maxCsvBytes })));
}

/** Errors thrown by the row source: a GraphqlFailure, an object carrying `errors`, or anything else. */
function failureErrors(error: unknown, options: { production: boolean }): readonly GraphqlError[] {
  if (typeof error === 'object' && error !== null && 'errors' in error && Array.isArray((error as { errors: unknown }).errors)) {
    return (error as { errors: GraphqlError[] }).errors;
  }
  return [toGraphqlError(error, options)];
}

async function* csvChunks(input: {
  first: IteratorResult<Readonly<Record<string, unknown>>>;
  iterator: AsyncIterator<Readonly<Record<string, unknown>>>;
  columns: readonly CsvColumn[];
  log: GraphqlHttpOptions['log'];
  /** The export's ceiling (characters, counted as the lines are built); past it the stream is cut. */
  maxBytes: number;
}): AsyncGenerator<string> {
  const { columns } = input;
  // The header is known from the query, so an export without rows still names its columns.
  let chunk = `${columns.map((column) => csvField(column.header)).join(',')}\r\n`;
  if (input.first.done) {
    yield chunk;
    return;
  }
  chunk += csvLine(input.first.value, columns);
  // The header and the first row go out at once: from here on the status is 200 and a failure
  // can only cut the transfer.
  let sent = chunk.length;
  yield chunk;
  chunk = '';
  let completed = false;
  try {
    for (let next = await input.iterator.next(); !next.done; next = await input.iterator.next()) {
      chunk += csvLine(next.value, columns);
      if (sent + chunk.length > input.maxBytes) {
        throw new Error(`the CSV export passed its limit of ${input.maxBytes} bytes: ask for fewer rows (limit, where)`);
      }
      if (chunk.length >= CHUNK_CHARACTERS) {
        sent += chunk.length;
        yield chunk;
        chunk = '';
      }
    }
    completed = true;
  } catch (error) {
    // Headers are gone: ending the stream with an error aborts the transfer, so a client never
    // mistakes a cut-short file for a complete one.
    input.log.error({ err: error }, 'graphql csv: failed after the first row');
    throw error;
  } finally {
    // Cut short (the client went away, a row failed, the export passed its limit): let the
    // source close its cursor and give its connection back.
    if (!completed) await input.iterator.return?.();
  }
  if (chunk !== '') yield chunk;
}
