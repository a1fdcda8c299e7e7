/**
 * The SQL side of the live-query manager (live-queries.ts): which base tables a view reads (a
 * view fires no trigger), table names as the change triggers spell them, which refetch failures
 * a retry cannot fix, and running a statement in UTC.
 */
import type pg from 'pg';
import { GraphqlFailure, type GraphqlError } from '../types';

export const VIEW_BASE_TABLES_SQL = `
WITH RECURSIVE relations(oid) AS (
  SELECT to_regclass(format('%I.%I', split_part($1, '.', 1), split_part($1, '.', 2)))::oid
  UNION
  SELECT dependency.refobjid
  FROM relations
  JOIN pg_rewrite rewrite ON rewrite.ev_class = relations.oid
  JOIN pg_depend dependency ON dependency.objid = rewrite.oid
    AND dependency.classid = 'pg_rewrite'::regclass AND dependency.refclassid = 'pg_class'::regclass
  WHERE dependency.refobjid <> relations.oid
)
SELECT namespace.nspname || '.' || class.relname AS name
FROM relations
JOIN pg_class class ON class.oid = relations.oid
JOIN pg_namespace namespace ON namespace.oid = class.relnamespace
WHERE class.relkind IN ('r', 'p')`;

/** `schema.table` as the triggers spell it: quotes removed, `public.` when no schema is given. */
export function tableName(name: string): string {
  const parts = name.split('.').map((part) => part.replace(/^"(.*)"$/, '$1'));
  return parts.length === 1 ? `public.${parts[0] ?? ''}` : parts.join('.');
}

/** A GraphqlError for failures that a retry cannot fix, else undefined (connection trouble). */
export function permanentError(error: unknown): GraphqlError | undefined {
  if (error instanceof GraphqlFailure) return error.toGraphqlError();
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || code.length !== 5) return undefined;
  if (code.startsWith('22')) return { message: (error as Error).message, extensions: { path: '$', code: 'data-exception' } };
  if (/^(23|42|2F|P0|XX)/.test(code)) return { message: 'database query failed', extensions: { path: '$', code: 'unexpected' } };
  return undefined;
}

/** The engine's SQL assumes `TimeZone=UTC` (timestamps rendered `+00:00`); set it for this statement only. */
export async function inUtcTransaction(pool: pg.Pool, statement: { sql: string; params: unknown[] }): Promise<{ i: number; result: string | null }[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN READ ONLY; SET LOCAL TimeZone = 'UTC'");
    const result = await client.query<{ i: number; result: string | null }>(statement.sql, statement.params);
    await client.query('COMMIT');
    return result.rows;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
