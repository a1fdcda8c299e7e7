import type pg from 'pg';

// Guess counting for one-time secrets (docs/AUTH-CONTRACT.md: OTPs allow 5 attempts), shared by TOTP tickets,
// SMS codes and e-mail codes. An attempt is reserved BEFORE the secret is compared, in one
// atomic statement, so parallel guesses cannot slip past the limit; a success deletes the row.

/** Guesses allowed per ticket or per issued code. */
export const MAX_OTP_ATTEMPTS = 5;

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * Reserves one attempt on `subject` and says whether it is still within the limit. The row lives
 * `lifetimeSeconds` from its first attempt (the secret's own remaining life, by the database
 * clock); an expired row starts over.
 */
export async function reserveOtpAttempt(database: Queryable, input: { subject: string; lifetimeSeconds: number }): Promise<boolean> {
  const result = await database.query<{ failures: number }>(
    `INSERT INTO auth.otp_attempts (subject, failures, expires_at) VALUES ($1, 1, now() + make_interval(secs => $2))
     ON CONFLICT (subject) DO UPDATE SET
       failures = CASE WHEN auth.otp_attempts.expires_at < now() THEN 1 ELSE auth.otp_attempts.failures + 1 END,
       expires_at = CASE WHEN auth.otp_attempts.expires_at < now() THEN EXCLUDED.expires_at ELSE auth.otp_attempts.expires_at END
     RETURNING failures`,
    [input.subject, Math.max(1, input.lifetimeSeconds)],
  );
  return (result.rows[0]?.failures ?? MAX_OTP_ATTEMPTS + 1) <= MAX_OTP_ATTEMPTS;
}

/** Forgets the attempts on `subject`: after a success, or when a new code is issued. */
export async function clearOtpAttempts(database: Queryable, subject: string): Promise<void> {
  // Rows of dead tickets and codes are swept here too, so the table needs no job of its own.
  await database.query('DELETE FROM auth.otp_attempts WHERE subject = $1 OR expires_at < now()', [subject]);
}
