import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { AuthConfig } from './config';
import type { SignInAttempt, SignInThrottle } from './context';
import { AuthError } from './errors';

/**
 * Guessing a secret (a password, a TOTP or one-time code, a reset ticket) slows down; it never
 * locks anybody out. The state lives in PostgreSQL, so every process shares it.
 *
 * Invariants:
 * - Only failures count. Each attempt is counted as a failure BEFORE it is judged (so a burst of
 *   parallel guesses cannot all pass while the count is low) and a success gives it back.
 * - Per account: the first `freeFailures` consecutive failures are answered at once; after the
 *   Nth (N > free) the next attempt must wait min(2^(N-free-1) s, maxDelay): 1, 2, 4, ... seconds.
 *   An attempt that comes early is refused with 429 and a Retry-After of the wait left; it is not
 *   judged and changes nothing. A day without attempts starts the count over.
 * - Who the owner is: an address the account signed in from in the last 30 days. From there the
 *   owner is counted on their own (`source:<account>|<ip>`), never with strangers
 *   (`account:<account>`), so strangers' failures cannot refuse them. An account with MFA is
 *   counted per address for everyone: a correct password there only reaches the second factor.
 * - Per address: at most `bruteForce` failures per window (AUTH_RATE_LIMIT_BRUTE_FORCE_*, default
 *   100 per 5 minutes: an office behind one address), except for accounts known at that address.
 *
 * The trade-off: a newcomer (an address the account never used) without MFA waits while strangers
 * keep failing on the account; an attacker sharing the owner's address (one office NAT) is
 * slowed per address and can make the owner wait there too.
 */

const KNOWN_SOURCE_DAYS = 30;
/** Failures forgotten after this long without an attempt. */
const MEMORY_SECONDS = 86_400;

type Reserved = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The throttle of the context. */
export function createSignInThrottle(options: { pool: pg.Pool; config: AuthConfig; log: FastifyBaseLogger }): SignInThrottle {
  const { pool, config, log } = options;
  const noop: SignInAttempt = { failed: async () => undefined, succeeded: async () => undefined };
  return {
    async begin(request, beginOptions) {
      if (!config.rateLimitEnabled) return noop;
      const ip = request.ip;
      const account = beginOptions.account?.toLowerCase();
      const known = account !== undefined && (await isKnownSource(pool, { account, ip }));
      const address = await reserveAddress(pool, { ip, known, config });
      if (!address.ok) return refuse({ log, kind: 'address', retryAfterSeconds: address.retryAfterSeconds });
      let subject: string | undefined;
      if (account !== undefined) {
        subject = known || beginOptions.perSource === true ? `source:${account}|${ip}` : `account:${account}`;
        const reserved = await reserveSubject(pool, { subject, config });
        if (!reserved.ok) {
          await giveBackAddress(pool, ip);
          return refuse({ log, kind: subject.startsWith('source:') ? 'source' : 'account', retryAfterSeconds: reserved.retryAfterSeconds });
        }
      }
      return {
        failed: async () => undefined,
        succeeded: async () => {
          await giveBackAddress(pool, ip);
          if (subject !== undefined) await pool.query('DELETE FROM auth.signin_throttle WHERE subject = $1 OR last_attempt_at < now() - make_interval(secs => $2)', [subject, MEMORY_SECONDS]);
          if (account !== undefined) await rememberSource(pool, { account, ip });
        },
      };
    },
  };
}

function refuse(input: { log: FastifyBaseLogger; kind: string; retryAfterSeconds: number }): never {
  input.log.warn({ kind: input.kind, retryAfterSeconds: input.retryAfterSeconds }, 'auth: sign-in attempt slowed down');
  const message = input.kind === 'address'
    ? `Too many failed attempts from this address: try again in ${input.retryAfterSeconds} s`
    : `Too many failed attempts: try again in ${input.retryAfterSeconds} s`;
  throw new AuthError('too-many-requests', message, { retryAfterSeconds: input.retryAfterSeconds });
}

async function isKnownSource(pool: pg.Pool, input: { account: string; ip: string }): Promise<boolean> {
  const found = await pool.query(
    'SELECT 1 FROM auth.signin_known_sources WHERE account = $1 AND ip = $2 AND last_success_at > now() - make_interval(days => $3)',
    [input.account, input.ip, KNOWN_SOURCE_DAYS],
  );
  return found.rowCount === 1;
}

async function rememberSource(pool: pg.Pool, input: { account: string; ip: string }): Promise<void> {
  await pool.query(
    `INSERT INTO auth.signin_known_sources (account, ip, last_success_at) VALUES ($1, $2, now())
     ON CONFLICT (account, ip) DO UPDATE SET last_success_at = now()`,
    [input.account, input.ip],
  );
  // Addresses not used for 30 days are forgotten here, so the table needs no job of its own.
  await pool.query('DELETE FROM auth.signin_known_sources WHERE last_success_at < now() - make_interval(days => $1)', [KNOWN_SOURCE_DAYS]);
}

/**
 * One failure reserved against the address's window, unless the window is full (a known source
 * is counted but never refused). Shares auth.rate_limit_hits with the other buckets.
 */
async function reserveAddress(pool: pg.Pool, input: { ip: string; known: boolean; config: AuthConfig }): Promise<Reserved> {
  const rule = input.config.rateLimits.bruteForce;
  const subject = `ip:${input.ip}`;
  const result = await pool.query(
    `INSERT INTO auth.rate_limit_hits AS h (bucket, subject, window_started_at, hits) VALUES ('bruteForce', $1, now(), 1)
     ON CONFLICT (bucket, subject) DO UPDATE SET
       window_started_at = CASE WHEN h.window_started_at + make_interval(secs => $2) <= now() THEN now() ELSE h.window_started_at END,
       hits = CASE WHEN h.window_started_at + make_interval(secs => $2) <= now() THEN 1 ELSE h.hits + 1 END
     WHERE h.window_started_at + make_interval(secs => $2) <= now() OR h.hits < $3 OR $4
     RETURNING hits`,
    [subject, rule.intervalSeconds, rule.burst, input.known],
  );
  if (result.rowCount === 1) return { ok: true };
  const left = await pool.query<{ seconds: number }>(
    `SELECT extract(epoch FROM window_started_at + make_interval(secs => $2) - now())::float8 AS seconds
     FROM auth.rate_limit_hits WHERE bucket = 'bruteForce' AND subject = $1`,
    [subject, rule.intervalSeconds],
  );
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(left.rows[0]?.seconds ?? rule.intervalSeconds)) };
}

async function giveBackAddress(pool: pg.Pool, ip: string): Promise<void> {
  await pool.query("UPDATE auth.rate_limit_hits SET hits = hits - 1 WHERE bucket = 'bruteForce' AND subject = $1 AND hits > 0", [`ip:${ip}`]);
}

/**
 * Counts one attempt on the subject when it is not waiting, and sets when the next may come.
 * `n` is the count after this attempt (1 again after a day of silence).
 */
async function reserveSubject(pool: pg.Pool, input: { subject: string; config: AuthConfig }): Promise<Reserved> {
  const { freeFailures, maxDelaySeconds } = input.config.signInThrottle;
  const n = 'CASE WHEN t.last_attempt_at < now() - make_interval(secs => $4) THEN 1 ELSE t.failures + 1 END';
  const delay = (count: string) => `CASE WHEN ${count} <= $2 THEN 0 ELSE least($3::float8, power(2::float8, least(${count} - $2 - 1, 40))) END`;
  const result = await pool.query(
    `INSERT INTO auth.signin_throttle AS t (subject, failures, last_attempt_at, next_attempt_at)
     VALUES ($1, 1, now(), now() + make_interval(secs => ${delay('1')}))
     ON CONFLICT (subject) DO UPDATE SET
       failures = ${n},
       last_attempt_at = now(),
       next_attempt_at = now() + make_interval(secs => ${delay(n)})
     WHERE t.next_attempt_at <= now()
     RETURNING failures`,
    [input.subject, freeFailures, maxDelaySeconds, MEMORY_SECONDS],
  );
  if (result.rowCount === 1) return { ok: true };
  const left = await pool.query<{ seconds: number }>(
    'SELECT extract(epoch FROM next_attempt_at - now())::float8 AS seconds FROM auth.signin_throttle WHERE subject = $1',
    [input.subject],
  );
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(left.rows[0]?.seconds ?? 1)) };
}

/** The throttle's account key for an e-mail address. @example emailAccount('A@B.in') -> 'email:a@b.in' */
export function emailAccount(email: string): string {
  return `email:${email.toLowerCase()}`;
}

/** The throttle's account key for a user id (TOTP, current-password checks). */
export function userAccount(userId: string): string {
  return `user:${userId}`;
}
