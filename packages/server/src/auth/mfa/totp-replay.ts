import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * Records that `step` was used by the user, atomically, and says whether it was new: a code is
 * accepted only for a step later than every step used before, so no code (and no older code of
 * the +-1 window) can be replayed.
 */
export async function claimTotpStep(database: Queryable, input: { userId: string; step: number }): Promise<boolean> {
  const result = await database.query(
    `INSERT INTO auth.totp_last_steps (user_id, last_step) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET last_step = EXCLUDED.last_step, updated_at = now()
       WHERE auth.totp_last_steps.last_step < EXCLUDED.last_step
     RETURNING user_id`,
    [input.userId, input.step],
  );
  return result.rowCount === 1;
}
