/**
 * Runs one permission case through any transport: `execute` sends the request as the case's
 * persona (in-process engine, HTTP with a token, a WebSocket subscription) and returns the JSON
 * body text. Returns the problems found; an empty list means the case passed.
 */
import type pg from 'pg';
import type { GraphqlRequest } from '../../src/graphql/types';
import type { PermissionCase, Persona } from './permission-matrix-cases';
import type { SqlQuery } from './permission-matrix-intent';

export type CaseTransport = (request: GraphqlRequest, persona: Persona) => Promise<string>;

interface Body {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly { readonly message: string; readonly extensions?: { readonly code?: string } }[];
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** One text form per value, whichever side produced it (timestamps as epoch milliseconds). */
export function normalizeValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && TIMESTAMP.test(value)) return String(Date.parse(value));
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function sortedKeys(rows: readonly (readonly unknown[])[]): string[] {
  return rows.map((row) => JSON.stringify(row.map(normalizeValue))).sort();
}

/** Values at `path` inside `value`, walking through arrays at every step. */
export function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, path));
  if (path.length === 0) return [value];
  if (!value || typeof value !== 'object') return [];
  const [head, ...rest] = path as [string, ...string[]];
  return valuesAt((value as Record<string, unknown>)[head], rest);
}

async function runAll(pool: pg.Pool, queries: readonly SqlQuery[]): Promise<void> {
  for (const query of queries) await pool.query(query.text, query.params as unknown[]);
}

async function count(pool: pg.Pool, query: SqlQuery): Promise<number> {
  const result = await pool.query<{ n: number }>(query.text, query.params as unknown[]);
  return Number(result.rows[0]?.n ?? -1);
}

async function check(testCase: PermissionCase, body: Body, pool: pg.Pool): Promise<string[]> {
  const expectation = testCase.expect;
  const codes = (body.errors ?? []).map((error) => error.extensions?.code ?? '?');
  if (expectation.kind === 'error') {
    return codes.some((code) => expectation.codes.includes(code))
      ? []
      : [`expected an error ${expectation.codes.join('|')}, got ${JSON.stringify(body).slice(0, 300)}`];
  }
  if (body.errors?.length) return [`unexpected errors: ${JSON.stringify(body.errors).slice(0, 300)}`];
  const data = body.data ?? {};
  if (expectation.kind === 'rows') {
    const returned = data[expectation.field];
    if (!Array.isArray(returned)) return [`data.${expectation.field} is not a list`];
    const actual = sortedKeys(returned.map((row: Record<string, unknown>) => expectation.columns.map((column) => row[column])));
    const expectedRows = await pool.query<{ key: unknown[] }>(expectation.expected.text, expectation.expected.params as unknown[]);
    const expected = sortedKeys(expectedRows.rows.map((row) => row.key));
    return differences(actual, expected);
  }
  if (expectation.kind === 'values') {
    const actual = valuesAt(data, expectation.path).map(normalizeValue).map(String).sort();
    const expectedRows = await pool.query<{ value: unknown }>(expectation.expected.text, expectation.expected.params as unknown[]);
    return differences(actual, expectedRows.rows.map((row) => String(normalizeValue(row.value))).sort());
  }
  const problems: string[] = [];
  const result = data[expectation.field] as { affected_rows?: number } | null | undefined;
  if (expectation.affectedRows < 0 && !result) problems.push(`${expectation.field} returned nothing`);
  if (expectation.affectedRows >= 0 && result?.affected_rows !== expectation.affectedRows) {
    problems.push(`${expectation.field}.affected_rows ${String(result?.affected_rows)}, expected ${expectation.affectedRows}`);
  }
  for (const { query, n } of expectation.checks) {
    const found = await count(pool, query);
    if (found !== n) problems.push(`check ${query.text.slice(0, 80)}... gave ${found}, expected ${n}`);
  }
  return problems;
}

function differences(actual: readonly string[], expected: readonly string[]): string[] {
  const extra = actual.filter((item) => !expected.includes(item));
  const missing = expected.filter((item) => !actual.includes(item));
  const problems: string[] = [];
  if (extra.length > 0) problems.push(`rows that must not be visible: ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ` (+${extra.length - 5})` : ''}`);
  if (missing.length > 0) problems.push(`rows missing: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (+${missing.length - 5})` : ''}`);
  if (problems.length === 0 && actual.length !== expected.length) problems.push(`${actual.length} rows, expected ${expected.length}`);
  return problems;
}

/** Prepares, sends, checks and cleans up one case; the problems are prefixed with the case id. */
export async function runPermissionCase(testCase: PermissionCase, options: { pool: pg.Pool; transport: CaseTransport }): Promise<string[]> {
  const { pool, transport } = options;
  await runAll(pool, testCase.prepare);
  try {
    const text = await transport(testCase.request, testCase.persona);
    let body: Body;
    try {
      body = JSON.parse(text) as Body;
    } catch {
      return [`${testCase.id}: response is not JSON: ${text.slice(0, 200)}`];
    }
    return (await check(testCase, body, pool)).map((problem) => `${testCase.id}: ${problem}`);
  } finally {
    await runAll(pool, testCase.cleanup);
  }
}
