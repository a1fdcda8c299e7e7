import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AuthContext } from './context';
import { AuthError } from './errors';
import { clearOtpAttempts, reserveOtpAttempt } from './mfa/otp-attempts';
import { hashOneTimeCode, newOneTimeCode, oneTimeCodeMatches } from './sms/one-time-code';
import { isTakenIdentity, signUpFields } from './sms/sign-up-fields';
import { readSignUpOptions } from './validation';

/**
 * Passwordless sign-ups that wait for proof (auth.pending_signups, migration 0013). A magic link,
 * an e-mailed code or a texted code asked for an address or number without an account creates
 * no auth.users row: the request (its sign-up options, the link's ticket or the code's argon2id
 * hash) is kept here, and the user is created only when the link is followed (GET /verify) or the
 * code exchanged. So nobody can fill the user table with other people's addresses, and the work
 * for a known and an unknown address is alike (a write, a mail).
 *
 * One pending row per channel and identity: a new request replaces the old one (its link or code
 * stops working), as a new ticket replaces the old one of an account. Codes allow 5 guesses
 * (auth.otp_attempts, subject `pending:<channel>:<identity>`).
 */

export type PendingChannel = 'magic-link' | 'email-otp' | 'sms-otp';

/** What the pending sign-up asked for, to create the user with. */
export interface PendingSignUp {
  readonly identity: string;
  readonly options: Readonly<Record<string, unknown>>;
}

async function save(pool: pg.Pool, input: { channel: PendingChannel; identity: string; expiresInSeconds: number; options: Record<string, unknown>; ticket?: string; otpHash?: string }): Promise<void> {
  await pool.query(
    `INSERT INTO auth.pending_signups (channel, identity, expires_at, ticket, otp_hash, options)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5, $6)
     ON CONFLICT (channel, identity) DO UPDATE SET
       created_at = now(), expires_at = EXCLUDED.expires_at, ticket = EXCLUDED.ticket, otp_hash = EXCLUDED.otp_hash, options = EXCLUDED.options`,
    [input.channel, input.identity, input.expiresInSeconds, input.ticket ?? null, input.otpHash ?? null, JSON.stringify(input.options)],
  );
  // Dead requests are swept here, so the table needs no job of its own.
  await pool.query('DELETE FROM auth.pending_signups WHERE expires_at < now()');
}

/** Keeps a magic-link sign-up and returns its `passwordlessEmail:<uuid>` ticket (redeemed at GET /verify). */
export async function savePendingMagicLink(context: AuthContext, input: { email: string; options: Record<string, unknown> }): Promise<string> {
  const ticket = `passwordlessEmail:${randomUUID()}`;
  await save(context.pool, { channel: 'magic-link', identity: input.email, expiresInSeconds: context.config.ticketExpiresIn, options: input.options, ticket });
  return ticket;
}

/** Keeps a code sign-up and returns the code in clear, for delivery. */
export async function savePendingCode(context: AuthContext, input: { channel: 'email-otp' | 'sms-otp'; identity: string; options: Record<string, unknown>; expiresInSeconds: number }): Promise<string> {
  const code = newOneTimeCode();
  await save(context.pool, { ...input, otpHash: await hashOneTimeCode(code) });
  await clearOtpAttempts(context.pool, attemptSubject(input.channel, input.identity));
  return code;
}

/**
 * Follows a magic link of a pending sign-up inside the caller's transaction: the row is used up
 * and the user created (e-mail verified: the link reached the mailbox). Undefined for an unknown
 * or expired ticket; email-already-in-use when the address got an account meanwhile.
 */
export async function redeemPendingMagicLink(context: AuthContext, input: { client: pg.PoolClient; ticket: string }): Promise<string | undefined> {
  const taken = await input.client.query<{ identity: string; options: Record<string, unknown> }>(
    `DELETE FROM auth.pending_signups WHERE channel = 'magic-link' AND ticket = $1 AND expires_at > now() RETURNING identity, options`,
    [input.ticket],
  );
  const row = taken.rows[0];
  if (!row) return undefined;
  return context.users.create({ email: row.identity, emailVerified: true, ...signUpFields(row.options), client: input.client });
}

/** Why a pending code was refused (audit only; the client sees invalid-otp). */
export type PendingCodeRefusal = 'no-code' | 'too-many-attempts' | 'wrong-code';

/**
 * Checks a code of a pending sign-up and, when right, uses it up and creates the user with the
 * channel verified. Five guesses per code; of two right answers at once only one creates.
 */
export async function redeemPendingCode(
  context: AuthContext,
  input: { channel: 'email-otp' | 'sms-otp'; identity: string; code: string },
): Promise<{ userId: string } | { refusal: PendingCodeRefusal }> {
  const found = await context.pool.query<{ otp_hash: string; remaining_seconds: number; options: Record<string, unknown> }>(
    `SELECT otp_hash, ceil(extract(epoch FROM expires_at - now()))::int AS remaining_seconds, options FROM auth.pending_signups
     WHERE channel = $1 AND identity = $2 AND expires_at > now()`,
    [input.channel, input.identity],
  );
  const row = found.rows[0];
  if (!row) return { refusal: 'no-code' };
  const subject = attemptSubject(input.channel, input.identity);
  if (!(await reserveOtpAttempt(context.pool, { subject, lifetimeSeconds: row.remaining_seconds }))) {
    // Dead for good: a sixth guess is not checked even if it is right.
    await context.pool.query('DELETE FROM auth.pending_signups WHERE channel = $1 AND identity = $2 AND otp_hash = $3', [input.channel, input.identity, row.otp_hash]);
    return { refusal: 'too-many-attempts' };
  }
  if (!(await oneTimeCodeMatches({ storedHash: row.otp_hash, code: input.code }))) return { refusal: 'wrong-code' };
  const client = await context.pool.connect();
  try {
    await client.query('BEGIN');
    const used = await client.query('DELETE FROM auth.pending_signups WHERE channel = $1 AND identity = $2 AND otp_hash = $3', [input.channel, input.identity, row.otp_hash]);
    if (used.rowCount !== 1) {
      await client.query('ROLLBACK');
      return { refusal: 'no-code' };
    }
    const identity = input.channel === 'email-otp' ? { email: input.identity, emailVerified: true } : { phoneNumber: input.identity, phoneNumberVerified: true };
    const userId = await context.users.create({ ...identity, ...signUpFields(row.options), client });
    await client.query('COMMIT');
    await clearOtpAttempts(context.pool, subject);
    return { userId };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    // The address or number got an account meanwhile: this code no longer signs anybody up.
    if (isTakenIdentity(error)) return { refusal: 'no-code' };
    throw error;
  } finally {
    client.release();
  }
}

/** SignUpOptions of a passwordless request: shape, roles and locale, whatever the address. */
export function checkSignUpOptions(context: AuthContext, options: Record<string, unknown>): void {
  readSignUpOptions({ options });
  const fields = signUpFields(options);
  context.users.signUpRoles({ ...(fields.allowedRoles ? { allowedRoles: fields.allowedRoles } : {}), ...(fields.defaultRole ? { defaultRole: fields.defaultRole } : {}) });
  if (fields.locale !== undefined && !context.config.allowedLocales.includes(fields.locale)) throw new AuthError('locale-not-allowed');
}

function attemptSubject(channel: PendingChannel, identity: string): string {
  return `pending:${channel}:${identity}`;
}
