import type pg from 'pg';

/** Runs one statement and returns how many rows it touched (0 when ON CONFLICT skipped them). */
export async function execute(client: pg.PoolClient, sql: string, params: readonly unknown[] = []): Promise<number> {
  const result = await client.query(sql, params as unknown[]);
  return result.rowCount ?? 0;
}

/** The IST calendar date the database considers today, as `YYYY-MM-DD`. */
export async function istToday(client: pg.PoolClient): Promise<string> {
  const result = await client.query<{ today: string }>(
    `SELECT to_char((now() AT TIME ZONE 'Asia/Kolkata')::date, 'YYYY-MM-DD') AS today`,
  );
  const today = result.rows[0]?.today;
  if (!today) throw new Error('the database did not return a date');
  return today;
}
