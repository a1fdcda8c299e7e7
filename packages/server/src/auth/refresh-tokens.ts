import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';

type Queryable = pg.Pool | pg.PoolClient;

/** SHA-256 of a refresh token or PAT: the only form stored (auth.refresh_tokens.refresh_token_hash). */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A new random secret token (a v4 UUID: 122 random bits, the shape clients expect). */
export function newToken(): string {
  return randomUUID();
}

/** How long the session a passwordReset link starts may change the password without the current one. */
export const PASSWORD_RESET_GRANT_SECONDS = 900;

export interface InsertRefreshTokenOptions {
  readonly userId: string;
  readonly expiresInSeconds: number;
  /** Continues a rotation chain; absent starts one. */
  readonly familyId?: string;
  /** A PAT session: linked to its PAT and never expiring after it. */
  readonly pat?: { readonly id: string; readonly expiresAt: Date };
  /** Until when the family may change the password once without the current one. */
  readonly passwordResetUntil?: Date | null;
  /**
   * When the family's interactive sign-in happened: now for a new family, the stored time on
   * rotation (a refresh never makes a session fresh again; credential-proof.ts).
   */
  readonly signedInAt: Date;
}

/** Stores a new regular refresh token. */
export async function insertRefreshToken(db: Queryable, options: InsertRefreshTokenOptions): Promise<{ id: string; token: string; familyId: string }> {
  const token = newToken();
  const result = await db.query<{ id: string; family_id: string }>(
    `INSERT INTO auth.refresh_tokens (user_id, refresh_token_hash, family_id, type, expires_at, pat_id, password_reset_until, signed_in_at)
     VALUES ($1, $2, coalesce($3::uuid, gen_random_uuid()), 'regular',
             least(now() + make_interval(secs => $4), coalesce($6::timestamptz, 'infinity')), $5, $7, $8)
     RETURNING id, family_id`,
    [
      options.userId, hashToken(token), options.familyId ?? null, options.expiresInSeconds, options.pat?.id ?? null, options.pat?.expiresAt ?? null,
      options.passwordResetUntil ?? null, options.signedInAt,
    ],
  );
  const row = result.rows[0];
  if (!row) throw new Error('inserting a refresh token returned no id');
  return { id: row.id, token, familyId: row.family_id };
}

interface StoredToken {
  id: string;
  user_id: string;
  family_id: string;
  type: 'regular' | 'pat';
  used_at: Date | null;
  revoked_at: Date | null;
  expired: boolean;
  disabled: boolean;
  /** The PAT of a PAT session, with its expiry and whether it is still live. */
  pat_id: string | null;
  pat_expires_at: Date | null;
  pat_live: boolean | null;
  /** Set while the family holds a password-reset grant (it may have passed). */
  password_reset_until: Date | null;
  password_reset_open: boolean;
  /** When the family was signed in (copied to every token of the family). */
  signed_in_at: Date;
}

/** The stored token with this secret (locked for update in a transaction), or undefined. */
export async function findToken(client: pg.PoolClient, token: string): Promise<StoredToken | undefined> {
  const result = await client.query<StoredToken>(
    `SELECT t.id, t.user_id, t.family_id, t.type, t.used_at, t.revoked_at, t.expires_at <= now() AS expired, u.disabled,
            t.pat_id, p.expires_at AS pat_expires_at, (p.revoked_at IS NULL AND p.expires_at > now()) AS pat_live,
            t.password_reset_until, coalesce(t.password_reset_until > now(), false) AS password_reset_open, t.signed_in_at
     FROM auth.refresh_tokens t JOIN auth.users u ON u.id = t.user_id LEFT JOIN auth.refresh_tokens p ON p.id = t.pat_id
     WHERE t.refresh_token_hash = $1 FOR UPDATE OF t`,
    [hashToken(token)],
  );
  return result.rows[0];
}

/** Whether the PAT is live (not revoked, not expired); for a PAT session's every Bearer request. */
export async function patIsLive(db: Queryable, patId: string): Promise<boolean> {
  const result = await db.query("SELECT 1 FROM auth.refresh_tokens WHERE id = $1 AND type = 'pat' AND revoked_at IS NULL AND expires_at > now()", [patId]);
  return result.rowCount === 1;
}

/** Uses up a family's password-reset grant; false when it has none open (spent, expired, never given). */
export async function spendPasswordResetGrant(db: Queryable, options: { familyId: string; userId: string }): Promise<boolean> {
  // The row lock makes a second request wait and then see the grant already spent.
  const result = await db.query(
    `WITH open AS (
       SELECT id FROM auth.refresh_tokens WHERE family_id = $1 AND user_id = $2 AND password_reset_until > now() FOR UPDATE)
     UPDATE auth.refresh_tokens SET password_reset_until = NULL
     WHERE family_id = $1 AND password_reset_until IS NOT NULL AND EXISTS (SELECT 1 FROM open)
     RETURNING id`,
    [options.familyId, options.userId],
  );
  return (result.rowCount ?? 0) > 0;
}

/** Revokes every live token of a family (a rotation chain: the session and all its descendants); returns how many. */
export async function revokeFamily(db: Queryable, familyId: string): Promise<number> {
  const result = await db.query(`UPDATE auth.refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL`, [familyId]);
  return result.rowCount ?? 0;
}

/** Revokes all of a user's regular refresh tokens (sign out everywhere); PATs are kept (they are revoked one by one). */
export async function revokeUserSessions(db: Queryable, userId: string): Promise<number> {
  const result = await db.query(`UPDATE auth.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND type = 'regular' AND revoked_at IS NULL`, [userId]);
  return result.rowCount ?? 0;
}

/** Revokes the user's regular refresh tokens except one family's (a password reset from that session). */
export async function revokeOtherSessions(db: Queryable, options: { userId: string; keepFamilyId: string }): Promise<number> {
  const result = await db.query(
    `UPDATE auth.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND type = 'regular' AND revoked_at IS NULL AND family_id <> $2`,
    [options.userId, options.keepFamilyId],
  );
  return result.rowCount ?? 0;
}

/** Marks a token used; false when another request used it first (then it is a reuse). */
export async function markUsed(client: pg.PoolClient, tokenId: string): Promise<boolean> {
  const result = await client.query('UPDATE auth.refresh_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL', [tokenId]);
  return result.rowCount === 1;
}

/** Creates a PAT (type 'pat', its own family) and returns its id and secret. */
export async function insertPersonalAccessToken(db: Queryable, options: { userId: string; expiresAt: Date; metadata: Record<string, unknown> | undefined }): Promise<{ id: string; token: string }> {
  const token = newToken();
  const result = await db.query<{ id: string }>(
    `INSERT INTO auth.refresh_tokens (user_id, refresh_token_hash, family_id, type, expires_at, metadata)
     VALUES ($1, $2, gen_random_uuid(), 'pat', $3, $4) RETURNING id`,
    [options.userId, hashToken(token), options.expiresAt, options.metadata === undefined ? null : JSON.stringify(options.metadata)],
  );
  const id = result.rows[0]?.id;
  if (!id) throw new Error('inserting a personal access token returned no id');
  return { id, token };
}

/** The owner's live PATs, newest first (never the secret: only its hash exists). */
export async function listPersonalAccessTokens(db: Queryable, userId: string): Promise<{ id: string; createdAt: string; expiresAt: string; metadata: Record<string, unknown> | null }[]> {
  const result = await db.query<{ id: string; created_at: Date; expires_at: Date; metadata: Record<string, unknown> | null }>(
    `SELECT id, created_at, expires_at, metadata FROM auth.refresh_tokens
     WHERE user_id = $1 AND type = 'pat' AND revoked_at IS NULL AND expires_at > now()
     ORDER BY created_at DESC, id`,
    [userId],
  );
  return result.rows.map((row) => ({ id: row.id, createdAt: row.created_at.toISOString(), expiresAt: row.expires_at.toISOString(), metadata: row.metadata }));
}

/** Revokes one of the owner's PATs and every session signed in with it; false when no such live PAT belongs to the user. */
export async function revokePersonalAccessToken(db: Queryable, options: { userId: string; tokenId: string }): Promise<boolean> {
  const result = await db.query(
    `UPDATE auth.refresh_tokens SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND type = 'pat' AND revoked_at IS NULL`,
    [options.tokenId, options.userId],
  );
  if (result.rowCount !== 1) return false;
  await db.query('UPDATE auth.refresh_tokens SET revoked_at = now() WHERE pat_id = $1 AND revoked_at IS NULL', [options.tokenId]);
  return true;
}
