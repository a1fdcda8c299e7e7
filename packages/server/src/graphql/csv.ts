import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { errorsBody, parseGraphqlRequest, readJsonBody, statusForFailure, toGraphqlError, useRawBodies, type GraphqlHttpOptions } from './http';
import type { GraphqlSession, GraphqlRequest, GraphqlError } from './types';

/** The path of the CSV export (DESIGN.md). */
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
 * The columns of a row in key order: nested objects become dotted columns, arrays and scalars
 * one column each.
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

/** One CSV line (CRLF-terminated) of a row. */
export function csvLine(row: Readonly<Record<string, unknown>>, columns: readonly CsvColumn[]): string {
  const fields = columns.map((column) => {
    let value: unknown = row;
    for (const key of column.path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    return csvField(value);
  });
  return `${fields.join(',')}\r\n`;
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
    scope.post(CSV_PATH, { bodyLimit: options.limits.bodyLimitBytes }, (request, reply) => answerCsv(request, reply, options));
  });
}

async function answerCsv(request: FastifyRequest, reply: FastifyReply, options: CsvOptions): Promise<FastifyReply> {
  let graphqlRequest: GraphqlRequest;
  let iterator: AsyncIterator<Readonly<Record<string, unknown>>>;
  let first: IteratorResult<Readonly<Record<string, unknown>>>;
  try {
    graphqlRequest = parseGraphqlRequest(readJsonBody(request.body));
    const session = await options.sessions(request.headers);
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
  return reply.send(Readable.from(csvChunks({ first, iterator, log: options.log })));
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
  log: GraphqlHttpOptions['log'];
}): AsyncGenerator<string> {
  // No row, no header: the first row is what names the columns.
  if (input.first.done) return;
  const columns = csvColumns(input.first.value);
  let chunk = `${columns.map((column) => csvField(column.header)).join(',')}\r\n${csvLine(input.first.value, columns)}`;
  let finished = false;
  try {
    for (let next = await input.iterator.next(); !next.done; next = await input.iterator.next()) {
      chunk += csvLine(next.value, columns);
      if (chunk.length >= CHUNK_CHARACTERS) {
        yield chunk;
        chunk = '';
      }
    }
    finished = true;
  } catch (error) {
    finished = true;
    // Headers are gone: ending the stream with an error aborts the transfer, so a client never
    // mistakes a cut-short file for a complete one.
    input.log.error({ err: error }, 'graphql csv: failed after the first row');
    throw error;
  } finally {
    // The client went away mid-file: let the source close its cursor.
    if (!finished) await input.iterator.return?.();
  }
  if (chunk !== '') yield chunk;
}
