import type { AuthContext } from '../context';
import { clearOtpAttempts, reserveOtpAttempt } from '../mfa/otp-attempts';
import { hashOneTimeCode, newOneTimeCode, oneTimeCodeMatches } from './one-time-code';

// One-time sign-in codes kept in auth.users (otp_hash, otp_hash_expires_at,
// otp_method_last_used), shared by SMS and e-mail OTP. A user has at most one live code; issuing
// a new one replaces it and resets its attempt counter.

/** The channel a code was sent through. */
export type OtpMethod = 'sms' | 'email';

/** Why a code was refused (for the audit log; the client only ever sees invalid-otp). */
export type OtpRefusal = 'no-code' | 'too-many-attempts' | 'wrong-code';

/** Stores a new code for the user and returns it in clear, for delivery. */
export async function issueOneTimeCode(context: AuthContext, input: { userId: string; method: OtpMethod; expiresInSeconds: number }): Promise<string> {
  const code = newOneTimeCode();
  await context.pool.query(
    `UPDATE auth.users SET otp_hash = $2, otp_method_last_used = $3, otp_hash_expires_at = now() + make_interval(secs => $4) WHERE id = $1`,
    [input.userId, await hashOneTimeCode(code), input.method, input.expiresInSeconds],
  );
  await clearOtpAttempts(context.pool, attemptSubject(input.method, input.userId));
  return code;
}

/**
 * Checks a code and uses it up: at most 5 guesses per issued code, one success. On success the
 * channel is marked verified (the code reached that phone or mailbox).
 */
export async function redeemOneTimeCode(context: AuthContext, input: { userId: string; method: OtpMethod; code: string }): Promise<OtpRefusal | undefined> {
  const found = await context.pool.query<{ otp_hash: string; remaining_seconds: number }>(
    `SELECT otp_hash, ceil(extract(epoch FROM otp_hash_expires_at - now()))::int AS remaining_seconds FROM auth.users
     WHERE id = $1 AND otp_hash IS NOT NULL AND otp_method_last_used = $2 AND otp_hash_expires_at > now()`,
    [input.userId, input.method],
  );
  const row = found.rows[0];
  if (!row) return 'no-code';
  const subject = attemptSubject(input.method, input.userId);
  if (!(await reserveOtpAttempt(context.pool, { subject, lifetimeSeconds: row.remaining_seconds }))) {
    // The code is dead for good: a sixth guess must not be checked even if it is right.
    await context.pool.query('UPDATE auth.users SET otp_hash = NULL WHERE id = $1 AND otp_hash = $2', [input.userId, row.otp_hash]);
    return 'too-many-attempts';
  }
  if (!(await oneTimeCodeMatches({ storedHash: row.otp_hash, code: input.code }))) return 'wrong-code';
  const verifiedColumn = input.method === 'sms' ? 'phone_number_verified' : 'email_verified';
  // Conditional on the same hash: of two requests with the right code, only one gets a session.
  const used = await context.pool.query(`UPDATE auth.users SET otp_hash = NULL, ${verifiedColumn} = true WHERE id = $1 AND otp_hash = $2`, [input.userId, row.otp_hash]);
  if (used.rowCount !== 1) return 'no-code';
  await clearOtpAttempts(context.pool, subject);
  return undefined;
}

function attemptSubject(method: OtpMethod, userId: string): string {
  return method === 'sms' ? `sms:${userId}` : `email-otp:${userId}`;
}
