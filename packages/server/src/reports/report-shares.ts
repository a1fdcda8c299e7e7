// Who may see whose trading report, and the read-only links to one (table report_shares, migration 0027).
//
// Invariants:
// - A manager reports on the users the `managers` table links to them, a superadmin on every user;
//   every other role on nobody. The same rule holds when a link is opened: the owner must still be
//   a manager or superadmin, and a manager's link covers only the users they still manage.
// - A token is 32 random bytes (256 bits) in base64url; only its SHA-256 is stored, and it is
//   answered once, when the link is made. A lookup compares hashes inside PostgreSQL's unique
//   index, so the time it takes says nothing about the token's text.
// - A revoked or expired link, an unknown token and a link whose owner may no longer report on any
//   of its users are the same answer to the reader: `undefined` (the caller says the link is no
//   longer valid, nothing more).
import { createHash, randomBytes } from 'node:crypto';
import type { IsoDate } from '@vyuha/core';
import type pg from 'pg';
import type { TradingMode } from './trading-report';

export const REPORT_ROLES: readonly string[] = ['manager', 'superadmin'];

/** The users `reporterId` may report on, in name order: their managed users, or everyone for a superadmin. */
export async function reportableUsers(db: pg.Pool | pg.ClientBase, reporter: { id: string; role: string }): Promise<Array<{ user_id: string; name: string }>> {
  if (reporter.role === 'superadmin') {
    return (await db.query<{ user_id: string; name: string }>('SELECT user_id, name FROM users ORDER BY name, user_id')).rows;
  }
  if (reporter.role !== 'manager') return [];
  const { rows } = await db.query<{ user_id: string; name: string }>(
    `SELECT u.user_id, u.name FROM managers m JOIN users u ON u.user_id = m.user_id WHERE m.manager_id = $1 ORDER BY u.name, u.user_id`,
    [reporter.id]);
  return rows;
}

export interface ReportShare {
  readonly share_id: string;
  readonly label: string;
  readonly user_ids: readonly string[];
  readonly user_names: readonly string[];
  readonly from: string;
  readonly to: string;
  readonly mode: TradingMode;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  /** Neither revoked nor expired. */
  readonly active: boolean;
}

const SHARE_COLUMNS = `s.share_id, s.label, s.user_ids::text[] AS user_ids,
  coalesce((SELECT array_agg(u.name ORDER BY u.name) FROM users u WHERE u.user_id = ANY(s.user_ids)), '{}') AS user_names,
  to_char(s.date_from, 'YYYY-MM-DD') AS "from", to_char(s.date_to, 'YYYY-MM-DD') AS "to", s.mode,
  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
  to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS expires_at,
  to_char(s.revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS revoked_at,
  (s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())) AS active`;

function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A new link; the token is in the answer and nowhere else. */
export async function createReportShare(db: pg.Pool, request: {
  ownerId: string; userIds: readonly string[]; from: IsoDate; to: IsoDate; mode: TradingMode; label: string; expiresAt: string | null;
}): Promise<{ share: ReportShare; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const { rows } = await db.query<ReportShare>(
    `WITH s AS (
       INSERT INTO report_shares (owner_id, token_sha256, label, user_ids, date_from, date_to, mode, expires_at)
       VALUES ($1, $2, $3, $4::uuid[], $5, $6, $7, $8) RETURNING *
     ) SELECT ${SHARE_COLUMNS} FROM s`,
    [request.ownerId, tokenHash(token), request.label, request.userIds, request.from, request.to, request.mode, request.expiresAt]);
  const share = rows[0];
  if (share === undefined) throw new Error('the report link just inserted was not returned');
  return { share, token };
}

/** The owner's links, newest first. */
export async function listReportShares(db: pg.Pool, ownerId: string): Promise<ReportShare[]> {
  const { rows } = await db.query<ReportShare>(
    `SELECT ${SHARE_COLUMNS} FROM report_shares s WHERE s.owner_id = $1 ORDER BY s.created_at DESC, s.share_id`, [ownerId]);
  return rows;
}

/** Revokes the owner's link (again: no change); undefined when the owner has no such link. */
export async function revokeReportShare(db: pg.Pool, request: { ownerId: string; shareId: string }): Promise<ReportShare | undefined> {
  await db.query('UPDATE report_shares SET revoked_at = now() WHERE share_id = $2 AND owner_id = $1 AND revoked_at IS NULL', [request.ownerId, request.shareId]);
  const { rows } = await db.query<ReportShare>(
    `SELECT ${SHARE_COLUMNS} FROM report_shares s WHERE s.share_id = $2 AND s.owner_id = $1`, [request.ownerId, request.shareId]);
  return rows[0];
}

/** What an open link shows: its scope, narrowed to the users its owner may still report on. */
export interface OpenedShare {
  readonly label: string;
  readonly userIds: readonly string[];
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly mode: TradingMode;
}

/** The scope behind a live token; undefined for anything else (unknown, revoked, expired, owner without the right). */
export async function openReportShare(db: pg.Pool, token: string): Promise<OpenedShare | undefined> {
  const { rows } = await db.query<{ label: string; user_ids: string[]; from: IsoDate; to: IsoDate; mode: TradingMode; owner_id: string; owner_tier: string }>(
    `SELECT s.label, s.user_ids::text[] AS user_ids, to_char(s.date_from, 'YYYY-MM-DD') AS "from", to_char(s.date_to, 'YYYY-MM-DD') AS "to",
            s.mode, s.owner_id, u.tier AS owner_tier
     FROM report_shares s JOIN users u ON u.user_id = s.owner_id
     WHERE s.token_sha256 = $1 AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())`,
    [tokenHash(token)]);
  const share = rows[0];
  if (share === undefined) return undefined;
  const allowed = new Set((await reportableUsers(db, { id: share.owner_id, role: share.owner_tier })).map((user) => user.user_id));
  const userIds = share.user_ids.filter((id) => allowed.has(id));
  if (userIds.length === 0) return undefined;
  return { label: share.label, userIds, from: share.from, to: share.to, mode: share.mode };
}
