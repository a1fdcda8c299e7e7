// What /users/list and /users/edit read about other users (the admin_users and admin_user
// actions), in SQL over the app profile (public.users) and the auth schema (e-mail, disabled,
// last sign-in, second factors, access tokens), which GraphQL does not expose.
//
// Invariants:
// - A masked reader (support) gets names through public.masked_name (migration 0028) computed in
//   SQL, searches against the masked name only (a search cannot probe the clear one), never an
//   e-mail address, broker client id or key, and never a before/after of the audit trail. Its
//   own row is shown in clear, as the GraphQL engine's mask does.
// - Nothing secret is ever selected: no password or token hashes, no TOTP secret, no broker
//   secret; a PAT is its id, dates and whether it is still live.
// - "Today" is the IST calendar date; credits count only when their expiry is today or later
//   (docs/PRODUCT.md section 5).
import type pg from 'pg';

/** Who reads: the signed-in user, and whether names come masked. */
export interface Reader {
  readonly userId: string | null;
  readonly masked: boolean;
}

export interface UserListFilter {
  readonly search?: string;
  readonly tier?: string;
  readonly hasActiveBrokers?: boolean;
  /** `YYYY-MM-DD` (IST): signed in on or after this date. */
  readonly signedInSince?: string;
  readonly neverSignedIn?: boolean;
  readonly disabled?: boolean;
}

export interface AdminUserRow {
  readonly user_id: string;
  readonly name: string;
  readonly masked: boolean;
  readonly email: string | null;
  readonly tier: string;
  readonly permissions: string[];
  readonly disabled: boolean;
  readonly active_brokers: number;
  readonly last_sign_in_at: string | null;
  readonly created_at: string;
}

const TIMESTAMP = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')`;

/** The name as the reader sees it: $1 is the reader's id, $2 whether names are masked. */
const NAME = `CASE WHEN $2::boolean AND u.user_id IS DISTINCT FROM $1::uuid THEN public.masked_name(u.name) ELSE u.name END`;

const ROW_COLUMNS = `
  u.user_id, ${NAME} AS name, ($2::boolean AND u.user_id IS DISTINCT FROM $1::uuid) AS masked,
  CASE WHEN $2::boolean THEN NULL ELSE a.email::text END AS email,
  u.tier,
  coalesce((SELECT array_agg(p.permission ORDER BY p.permission) FROM user_permissions p WHERE p.user_id = u.user_id), '{}') AS permissions,
  coalesce(a.disabled, false) AS disabled,
  (SELECT count(*)::int FROM user_brokers b WHERE b.user_id = u.user_id AND b.active) AS active_brokers,
  ${TIMESTAMP('a.last_seen')} AS last_sign_in_at,
  ${TIMESTAMP('u.created_at')} AS created_at`;

/** `%`, `_` and `\` are wildcards or the escape in ILIKE: a search matches them literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function whereOf(filter: UserListFilter, parameters: unknown[]): string {
  const conditions: string[] = [];
  const add = (value: unknown): string => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  const search = filter.search?.trim() ?? '';
  if (search !== '') {
    const pattern = add(likePattern(search));
    // A masked reader searches what it sees; staff also find users by e-mail.
    conditions.push(`(CASE WHEN $2::boolean THEN (${NAME}) ILIKE ${pattern} ELSE (u.name ILIKE ${pattern} OR a.email::text ILIKE ${pattern}) END)`);
  }
  if (filter.tier !== undefined) conditions.push(`u.tier = ${add(filter.tier)}`);
  if (filter.hasActiveBrokers !== undefined) {
    conditions.push(`${filter.hasActiveBrokers ? '' : 'NOT '}EXISTS (SELECT 1 FROM user_brokers b WHERE b.user_id = u.user_id AND b.active)`);
  }
  if (filter.signedInSince !== undefined) {
    conditions.push(`a.last_seen >= (${add(filter.signedInSince)}::date::timestamp AT TIME ZONE 'Asia/Kolkata')`);
  }
  if (filter.neverSignedIn === true) conditions.push('a.last_seen IS NULL');
  if (filter.disabled !== undefined) conditions.push(`coalesce(a.disabled, false) = ${add(filter.disabled)}`);
  return conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
}

/** One page of users, ordered by the name the reader sees, and how many match in all. */
export async function listUsers(
  db: pg.Pool,
  request: { reader: Reader; filter: UserListFilter; limit: number; offset: number },
): Promise<{ total: number; rows: AdminUserRow[] }> {
  const parameters: unknown[] = [request.reader.userId, request.reader.masked];
  const where = whereOf(request.filter, parameters);
  const from = 'FROM users u LEFT JOIN auth.users a ON a.id = u.user_id';
  // $1 and $2 are named even when no condition uses them, so their types are known.
  const counted = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total, $1::uuid AS reader, $2::boolean AS masked ${from} ${where}`, parameters);
  const limit = `$${parameters.length + 1}`;
  const offset = `$${parameters.length + 2}`;
  const { rows } = await db.query<AdminUserRow>(
    `SELECT ${ROW_COLUMNS} ${from} ${where} ORDER BY 2, u.user_id LIMIT ${limit} OFFSET ${offset}`,
    [...parameters, request.limit, request.offset]);
  return { total: counted.rows[0]?.total ?? 0, rows };
}

/** One user's row as the reader sees it, or undefined. */
export async function userRow(db: pg.Pool | pg.PoolClient, reader: Reader, userId: string): Promise<AdminUserRow | undefined> {
  const { rows } = await db.query<AdminUserRow>(
    `SELECT ${ROW_COLUMNS} FROM users u LEFT JOIN auth.users a ON a.id = u.user_id WHERE u.user_id = $3`,
    [reader.userId, reader.masked, userId]);
  return rows[0];
}

export interface UserDetail {
  readonly user: AdminUserRow;
  readonly security: {
    readonly password_set: boolean;
    readonly mfa: string | null;
    readonly security_keys: string[];
    readonly personal_access_tokens: Array<{ id: string; created_at: string; expires_at: string; live: boolean }>;
  };
  readonly brokers: Array<{
    user_broker_id: string; broker: string; client_id: string; active: boolean; investment_paise: number; has_secret: boolean;
  }>;
  readonly grants: Array<{
    id: string; category: string; credits: number; utilized: number | null; expiry: string; created_at: string; live: boolean;
  }>;
  readonly licences: Array<{
    licence_type: string; total_credits: number; utilized_credits: number; expire_on: string | null; activated_on: string | null;
  }>;
  readonly audit: Array<{ at: string; actor_name: string | null; action: string; before: unknown; after: unknown }>;
}

/** Everything /users/edit shows of one user, or undefined when there is no such user. */
export async function userDetail(db: pg.Pool, reader: Reader, userId: string): Promise<UserDetail | undefined> {
  const user = await userRow(db, reader, userId);
  if (user === undefined) return undefined;
  const [security, keys, pats, brokers, grants, licences, audit] = await Promise.all([
    db.query<{ password_set: boolean; mfa: string | null }>(
      'SELECT password_hash IS NOT NULL AS password_set, active_mfa_type AS mfa FROM auth.users WHERE id = $1', [userId]),
    db.query<{ nickname: string }>(
      `SELECT coalesce(nullif(nickname, ''), 'Security key') AS nickname FROM auth.user_security_keys WHERE user_id = $1 ORDER BY nickname`, [userId]),
    db.query<{ id: string; created_at: string; expires_at: string; live: boolean }>(
      `SELECT id, ${TIMESTAMP('created_at')} AS created_at, ${TIMESTAMP('expires_at')} AS expires_at,
              (revoked_at IS NULL AND expires_at > now()) AS live
         FROM auth.refresh_tokens WHERE user_id = $1 AND type = 'pat' ORDER BY created_at DESC`, [userId]),
    db.query<UserDetail['brokers'][number]>(
      `SELECT b.user_broker_id, b.broker,
              CASE WHEN $2::boolean THEN public.masked_name(b.client_id) ELSE b.client_id END AS client_id, b.active,
              coalesce((SELECT (e ->> 'amount_paise')::float8 FROM jsonb_array_elements(b.investment_history) e
                         ORDER BY e ->> 'date' DESC LIMIT 1), b.investment_amt_paise::float8) AS investment_paise,
              (b.api_secret_ciphertext IS NOT NULL) AS has_secret
         FROM user_brokers b WHERE b.user_id = $1 ORDER BY b.broker, b.client_id`, [userId, reader.masked && userId !== reader.userId]),
    db.query<UserDetail['grants'][number]>(
      `WITH today AS (SELECT (now() AT TIME ZONE 'Asia/Kolkata')::date AS day)
       SELECT c.id, 'BACKTEST' AS category, c.credits::float8 AS credits, NULL::int AS utilized, c.expiry::text AS expiry,
              ${TIMESTAMP('c.created_at')} AS created_at, c.expiry >= today.day AS live
         FROM user_credits c, today WHERE c.user_id = $1 AND c.category = 'BACKTEST'
       UNION ALL
       SELECT d.id, 'STRATEGIES', d.available::float8, d.utilized, d.expiry::text, ${TIMESTAMP('d.created_at')}, d.expiry >= today.day
         FROM deployed_strategies d, today WHERE d.user_id = $1
       ORDER BY 7 DESC, 5 DESC, 6 DESC`, [userId]),
    db.query<UserDetail['licences'][number]>(
      `SELECT licence_type, total_credits::float8 AS total_credits, utilized_credits::float8 AS utilized_credits,
              expire_on::text AS expire_on, ${TIMESTAMP('activated_on')} AS activated_on
         FROM licences WHERE user_id = $1 ORDER BY licence_type`, [userId]),
    db.query<UserDetail['audit'][number]>(
      `SELECT ${TIMESTAMP('l.at')} AS at,
              CASE WHEN actor.user_id IS NULL THEN NULL
                   WHEN $2::boolean AND actor.user_id IS DISTINCT FROM $3::uuid THEN public.masked_name(actor.name)
                   ELSE actor.name END AS actor_name,
              l.action,
              CASE WHEN $2::boolean THEN NULL ELSE l.before END AS before,
              CASE WHEN $2::boolean THEN NULL ELSE l.after END AS after
         FROM audit_log l LEFT JOIN users actor ON actor.user_id = l.actor_user_id
        WHERE l.entity = 'user_admin' AND l.entity_id = $1 ORDER BY l.at DESC, l.id DESC LIMIT 100`,
      [userId, reader.masked, reader.userId]),
  ]);
  const auth = security.rows[0];
  return {
    user,
    security: {
      password_set: auth?.password_set ?? false,
      mfa: auth?.mfa ?? null,
      security_keys: keys.rows.map((row) => row.nickname),
      personal_access_tokens: pats.rows,
    },
    brokers: brokers.rows,
    grants: grants.rows,
    licences: licences.rows,
    audit: audit.rows,
  };
}
