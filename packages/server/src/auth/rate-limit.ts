import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { AuthConfig, RateLimitBucket, RateLimitRule } from './config';
import type { RateLimiter } from './context';
import { AuthError } from './errors';

/**
 * Counts one hit of `subject` in `bucket` (fixed window, in PostgreSQL so every process shares
 * it) and returns the hits so far and the seconds until the window ends.
 */
export async function countHit(pool: pg.Pool, options: { bucket: string; subject: string; rule: RateLimitRule }): Promise<{ hits: number; retryAfterSeconds: number }> {
  const result = await pool.query<{ hits: number; retry_after: number }>(
    `INSERT INTO auth.rate_limit_hits AS h (bucket, subject, window_started_at, hits) VALUES ($1, $2, now(), 1)
     ON CONFLICT (bucket, subject) DO UPDATE SET
       window_started_at = CASE WHEN h.window_started_at + make_interval(secs => $3) <= now() THEN now() ELSE h.window_started_at END,
       hits = CASE WHEN h.window_started_at + make_interval(secs => $3) <= now() THEN 1 ELSE h.hits + 1 END
     RETURNING hits, extract(epoch FROM h.window_started_at + make_interval(secs => $3) - now())::float8 AS retry_after`,
    [options.bucket, options.subject, options.rule.intervalSeconds],
  );
  const row = result.rows[0];
  return { hits: row?.hits ?? 1, retryAfterSeconds: Math.max(1, Math.ceil(row?.retry_after ?? options.rule.intervalSeconds)) };
}

/**
 * The rate limiter of the context: request volume (global per IP, mail and SMS sent, sign-ups,
 * refreshes). Each hit counts per IP and, when an account is named (an e-mail, a phone number, a
 * user id), per account too, so mail to one address cannot be flooded from many IPs. Guessed
 * secrets are not counted here: the sign-in throttle (signin-throttle.ts) counts their failures
 * and slows them down without locking the owner out.
 */
export function createRateLimiter(options: { pool: pg.Pool; config: AuthConfig; log: FastifyBaseLogger }): RateLimiter {
  const { config, pool } = options;
  const check = async (bucket: RateLimitBucket, subject: string): Promise<void> => {
    const rule = config.rateLimits[bucket];
    const { hits, retryAfterSeconds } = await countHit(pool, { bucket, subject, rule });
    if (hits > rule.burst) {
      options.log.warn({ bucket, subjectKind: subject.split(':')[0] }, 'auth: rate limit reached');
      throw new AuthError('too-many-requests', undefined, { retryAfterSeconds });
    }
  };
  return {
    async hit(request, hitOptions) {
      if (!config.rateLimitEnabled) return;
      await check(hitOptions.bucket, `ip:${request.ip}`);
      if (hitOptions.account !== undefined) await check(hitOptions.bucket, `account:${hitOptions.account.toLowerCase()}`);
    },
  };
}
