/**
 * The response size ceiling (`EngineLimits.maxResponseBytes`), checked where the text is built:
 * JSON that PostgreSQL builds is measured in PostgreSQL (`octet_length`) and withheld there when
 * it is too large, so an oversized answer never crosses into this process's heap; JSON built
 * here (introspection, actions) is measured field by field before the response is joined.
 *
 * @example sizedSelect(['(a)::text', '(b)::text'], 100)
 *   -> 'SELECT CASE WHEN (coalesce(octet_length(f."0"), 0) + coalesce(octet_length(f."1"), 0)) <= 100 THEN f."0" END AS "0", ...'
 */
import { GraphqlFailure, type GraphqlError } from '../types';
import { graphqlError } from './errors';

/** The error of an answer over the ceiling. */
export function tooLargeError(input: { bytes: number; maxBytes: number; path?: string }): GraphqlError {
  const message = `the response would be ${input.bytes.toLocaleString('en-US')} bytes, more than the limit of ${input.maxBytes.toLocaleString('en-US')}:`
    + ' ask for fewer rows or fields';
  return graphqlError('response-too-large', message, input.path ?? '$');
}

/** The same error, thrown (for code paths that fail by throwing). */
export function tooLargeFailure(input: { bytes: number; maxBytes: number; path?: string }): GraphqlFailure {
  const error = tooLargeError(input);
  return new GraphqlFailure(error.extensions.code, error.message, error.extensions.path);
}

/**
 * One row whose columns `"0"`, `"1"`, ... hold the given text expressions when their total
 * length is within `maxBytes` (NULL otherwise), plus a last column `n` with that total. The
 * expressions are computed once (OFFSET 0 keeps the planner from copying them into each use).
 */
export function sizedSelect(expressions: readonly string[], maxBytes: number): string {
  const total = expressions.length === 0 ? '0' : expressions.map((_expression, index) => `coalesce(octet_length(f."${index}"), 0)`).join(' + ');
  const columns = expressions.map((_expression, index) => `CASE WHEN (${total}) <= ${maxBytes} THEN f."${index}" END AS "${index}"`);
  const inner = expressions.map((expression, index) => `${expression} AS "${index}"`).join(', ');
  return `SELECT ${[...columns, `(${total})::bigint AS n`].join(', ')} FROM (SELECT ${inner} OFFSET 0) f`;
}

/** Prefix of the text a live query returns in place of a result over the ceiling (never valid JSON). */
export const TOO_LARGE_MARKER = '!too-large:';

/**
 * A subscription's one text column `result`, or `!too-large:<bytes>/<maxBytes>` in its place
 * when it is over `maxBytes` (a multiplexed refetch returns many rows: each is judged alone).
 */
export function sizedLiveSelect(expression: string, maxBytes: number): string {
  return `SELECT CASE WHEN octet_length(f.result) <= ${maxBytes} THEN f.result`
    + ` ELSE '${TOO_LARGE_MARKER}' || octet_length(f.result) || '/${maxBytes}' END AS result FROM (SELECT ${expression} AS result OFFSET 0) f`;
}

/** The sizes a live query's text reports when it is the too-large marker, else undefined. */
export function markedSize(text: string | null | undefined): { bytes: number; maxBytes: number } | undefined {
  if (!text?.startsWith(TOO_LARGE_MARKER)) return undefined;
  const [bytes, maxBytes] = text.slice(TOO_LARGE_MARKER.length).split('/').map(Number);
  return { bytes: bytes ?? 0, maxBytes: maxBytes ?? 0 };
}
