import type pg from 'pg';

/**
 * Runs `work` in a transaction on a client of its own: COMMIT when it resolves, ROLLBACK (and its
 * error rethrown) when it throws; the client goes back to the pool either way.
 * @example await inTransaction(pool, (client) => client.query('UPDATE sweeps SET status = $2 WHERE sweep_id = $1', [sweepId, 'DONE']))
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const value = await work(client);
    await client.query('COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
