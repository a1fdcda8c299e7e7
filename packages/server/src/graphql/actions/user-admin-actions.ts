// User administration for /users/list and /users/edit (issue 19 item 5): list and read users
// (admin_users, admin_user), change a user's tier, permissions and disabled flag
// (admin_set_user_access), grant credits and licence slots (admin_grant_credit) and extend a grant
// (admin_extend_grant).
//
// Invariants:
// - Reads: administrator, superadmin and support; support reads through the mask of
//   user-admin-queries.ts (masked names, no e-mail, no client ids, no before/after). Writes:
//   administrator and superadmin only; every other role lacks the fields and the handlers refuse
//   them too. An administrator can neither change an administrator or superadmin nor make
//   anyone one (PROTECTED_TIERS); nobody changes their own access or grants themselves credits.
// - Every argument is checked before anything is written; a refused call names the argument and
//   changes nothing. A call's writes are one transaction.
// - The audit trail is written by the database (migration 0028) with the signed-in user as the
//   actor (`SET LOCAL vyuha.actor_id`): who, when, what, before and after, per changed row.
// - A BACKTEST grant is a user_credits row BACKTEST/CANDLES. A STRATEGIES grant is a
//   deployed_strategies row (the slots deploy takes) and a user_credits row STRATEGIES/DEPLOYED
//   with the same id (the licence's expiry and activation, docs/PRODUCT.md section 3).
// - A disabled user cannot sign in or refresh (the auth service reads auth.users.disabled at
//   every session issue, refresh and auth-API bearer check); an access token already issued
//   still works in GraphQL until it expires.
import { addDays, isIsoDate, istDate, type IsoDate } from '@vyuha/core';
import type pg from 'pg';
import { TIERS } from '../../auth/users';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { ADMINISTRATOR_ROLE, PROTECTED_TIERS, SUPERADMIN_ROLE, SUPPORT_ROLE } from '../metadata/roles';
import { GraphqlFailure, type GraphqlSession } from '../types';
import { isUuid, requireRole } from './session-access';
import { listUsers, userDetail, userRow, type AdminUserRow, type Reader, type UserListFilter } from './user-admin-queries';
import { inActorTransaction } from '../../trading/oms/order-rows';

export const ADMIN_USERS = 'admin_users';
export const ADMIN_USER = 'admin_user';
export const ADMIN_SET_USER_ACCESS = 'admin_set_user_access';
export const ADMIN_GRANT_CREDIT = 'admin_grant_credit';
export const ADMIN_EXTEND_GRANT = 'admin_extend_grant';

/** Who reads the users list and a user's page. */
export const USER_ADMIN_READ_ROLES: readonly string[] = [ADMINISTRATOR_ROLE, SUPERADMIN_ROLE, SUPPORT_ROLE];
/** Who changes users. */
export const USER_ADMIN_WRITE_ROLES: readonly string[] = [ADMINISTRATOR_ROLE, SUPERADMIN_ROLE];

/** The permissions of docs/PRODUCT.md section 6. */
export const USER_PERMISSIONS = ['strategy:backtest', 'strategy:deploy', 'strategy:manual'] as const;
export const GRANT_CATEGORIES = ['BACKTEST', 'STRATEGIES'] as const;
type GrantCategory = (typeof GRANT_CATEGORIES)[number];

/** Most rows one admin_users page returns. */
const MAX_PAGE = 100;
/** Most deployable strategies one grant gives; most candles one backtest grant gives. */
const MAX_SLOTS = 1_000;
const MAX_CANDLES = 1_000_000_000;
/** A grant runs out at most this many days from today. */
const MAX_GRANT_DAYS = 3_660;

const TYPES = `
"""A user as /users/list shows them; for support the name is masked (Ra****sh) and the e-mail is null."""
type admin_user_row {
  user_id: uuid!
  name: String!
  """True when name is shown masked."""
  masked: Boolean!
  email: String
  tier: String!
  permissions: [String!]!
  disabled: Boolean!
  active_brokers: Int!
  """The last interactive sign-in (UTC); null when never."""
  last_sign_in_at: timestamptz
  created_at: timestamptz!
}

type admin_users_page {
  total: Int!
  rows: [admin_user_row!]!
}

input admin_users_filter {
  """Part of the name (staff: or of the e-mail); support searches the masked name."""
  search: String
  tier: String
  has_active_brokers: Boolean
  """Signed in on or after this IST date."""
  signed_in_since: date
  never_signed_in: Boolean
  disabled: Boolean
}

type admin_user_pat {
  id: uuid!
  created_at: timestamptz!
  expires_at: timestamptz!
  live: Boolean!
}

type admin_user_security {
  password_set: Boolean!
  """The active second factor (totp), or null."""
  mfa: String
  security_keys: [String!]!
  personal_access_tokens: [admin_user_pat!]!
}

type admin_user_broker {
  user_broker_id: uuid!
  broker: String!
  """Masked for support."""
  client_id: String!
  active: Boolean!
  """The latest investment history entry, else investment_amt_paise (docs/PRODUCT.md section 5)."""
  investment_paise: Float!
  has_secret: Boolean!
}

"""A grant: BACKTEST (candles) or STRATEGIES (deployable strategy slots, with how many are in use)."""
type admin_user_grant {
  id: uuid!
  category: String!
  credits: Float!
  utilized: Int
  expiry: date!
  created_at: timestamptz!
  """Expiry today or later (IST): it counts."""
  live: Boolean!
}

"""docs/PRODUCT.md section 3's licence credits (the licences view)."""
type admin_user_licence {
  licence_type: String!
  total_credits: Float!
  utilized_credits: Float!
  expire_on: date
  activated_on: timestamptz
}

"""One change of the user's access or grants (support sees no before/after)."""
type admin_audit_entry {
  at: timestamptz!
  actor_name: String
  action: String!
  before: jsonb
  after: jsonb
}

type admin_user_detail {
  user: admin_user_row!
  security: admin_user_security!
  brokers: [admin_user_broker!]!
  grants: [admin_user_grant!]!
  licences: [admin_user_licence!]!
  audit: [admin_audit_entry!]!
}
`;

export interface UserAdminActionsOptions {
  readonly pool: pg.Pool;
  /** Epoch milliseconds; the wall clock by default (tests move "today"). */
  readonly now?: () => number;
}

const argumentPath = (action: string, name: string): string => `$.selectionSet.${action}.args.${name}`;

function refuse(action: string, name: string, message: string): never {
  throw new GraphqlFailure('validation-failed', `${name}: ${message}`, argumentPath(action, name));
}

/** The signed-in user (never the managed user: administration is not done "as" someone). */
function signedIn(session: GraphqlSession): string | null {
  const actor = session.variables['x-hasura-actor-id'] ?? session.variables['x-hasura-user-id'];
  return isUuid(actor) ? actor : null;
}

function readerOf(session: GraphqlSession): Reader {
  return { userId: signedIn(session), masked: !session.admin && session.role === SUPPORT_ROLE };
}

function optionalBoolean(action: string, args: Readonly<Record<string, unknown>>, name: string): boolean | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') refuse(action, name, `must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

function requiredUuid(action: string, args: Readonly<Record<string, unknown>>, name: string): string {
  const value = args[name];
  if (!isUuid(value)) refuse(action, name, `must be a user's id (a UUID), got ${JSON.stringify(value)}`);
  return value;
}

function listFilter(value: unknown): UserListFilter {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object') refuse(ADMIN_USERS, 'filter', 'must be an object');
  const raw = value as Readonly<Record<string, unknown>>;
  const path = (name: string): string => `filter.${name}`;
  const filter: { -readonly [K in keyof UserListFilter]: UserListFilter[K] } = {};
  if (raw.search !== undefined && raw.search !== null) {
    if (typeof raw.search !== 'string' || raw.search.length > 100) refuse(ADMIN_USERS, path('search'), 'must be text of at most 100 characters');
    filter.search = raw.search;
  }
  if (raw.tier !== undefined && raw.tier !== null) {
    if (typeof raw.tier !== 'string' || !(TIERS as readonly string[]).includes(raw.tier)) {
      refuse(ADMIN_USERS, path('tier'), `must be one of ${TIERS.join(', ')}, got ${JSON.stringify(raw.tier)}`);
    }
    filter.tier = raw.tier;
  }
  if (raw.signed_in_since !== undefined && raw.signed_in_since !== null) {
    if (typeof raw.signed_in_since !== 'string' || !isIsoDate(raw.signed_in_since)) {
      refuse(ADMIN_USERS, path('signed_in_since'), `must be a date YYYY-MM-DD, got ${JSON.stringify(raw.signed_in_since)}`);
    }
    filter.signedInSince = raw.signed_in_since;
  }
  const flags = { has_active_brokers: 'hasActiveBrokers', never_signed_in: 'neverSignedIn', disabled: 'disabled' } as const;
  for (const [name, key] of Object.entries(flags)) {
    const flag = optionalBoolean(ADMIN_USERS, raw, name);
    if (flag !== undefined) filter[key] = flag;
  }
  return filter;
}

function pageArgument(args: Readonly<Record<string, unknown>>, name: 'limit' | 'offset', bounds: { fallback: number; max: number }): number {
  const { fallback, max } = bounds;
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    refuse(ADMIN_USERS, name, `must be a whole number from 0 to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The target's current tier, refused when missing, the caller's own, or protected from an administrator. */
async function requireChangeable(
  client: pg.PoolClient,
  request: { action: string; session: GraphqlSession; userId: string; field?: string },
): Promise<{ tier: string }> {
  const field = request.field ?? 'user_id';
  const { rows } = await client.query<{ tier: string }>('SELECT tier FROM users WHERE user_id = $1 FOR UPDATE', [request.userId]);
  const row = rows[0];
  if (row === undefined) throw new GraphqlFailure('not-found', `user_id: no user ${request.userId}`, argumentPath(request.action, 'user_id'));
  if (!request.session.admin && request.userId === signedIn(request.session)) {
    refuse(request.action, field, 'you cannot change your own access or grant yourself credits: another administrator does');
  }
  if (!request.session.admin && request.session.role === ADMINISTRATOR_ROLE && (PROTECTED_TIERS as readonly string[]).includes(row.tier)) {
    throw new GraphqlFailure('access-denied', `${field}: an administrator cannot change a user of tier ${row.tier}`, argumentPath(request.action, field));
  }
  return row;
}

interface AccessChange {
  readonly userId: string;
  readonly tier?: string;
  readonly permissions?: readonly string[];
  readonly disabled?: boolean;
}

function accessChange(session: GraphqlSession, args: Readonly<Record<string, unknown>>): AccessChange {
  const action = ADMIN_SET_USER_ACCESS;
  const userId = requiredUuid(action, args, 'user_id');
  let tier: string | undefined;
  if (args.tier !== undefined && args.tier !== null) {
    if (typeof args.tier !== 'string' || !(TIERS as readonly string[]).includes(args.tier)) {
      refuse(action, 'tier', `must be one of ${TIERS.join(', ')}, got ${JSON.stringify(args.tier)}`);
    }
    if (!session.admin && session.role === ADMINISTRATOR_ROLE && (PROTECTED_TIERS as readonly string[]).includes(args.tier)) {
      refuse(action, 'tier', `an administrator cannot make anyone ${args.tier}`);
    }
    tier = args.tier;
  }
  let permissions: string[] | undefined;
  if (args.permissions !== undefined && args.permissions !== null) {
    if (!Array.isArray(args.permissions)) refuse(action, 'permissions', 'must be a list');
    const given = args.permissions as unknown[];
    const unknown = given.find((item) => typeof item !== 'string' || !(USER_PERMISSIONS as readonly string[]).includes(item));
    if (unknown !== undefined) refuse(action, 'permissions', `must each be one of ${USER_PERMISSIONS.join(', ')}, got ${JSON.stringify(unknown)}`);
    permissions = [...new Set(given as string[])].sort();
  }
  const disabled = optionalBoolean(action, args, 'disabled');
  if (tier === undefined && permissions === undefined && disabled === undefined) {
    refuse(action, 'tier', 'give at least one of tier, permissions or disabled');
  }
  return { userId, ...(tier === undefined ? {} : { tier }), ...(permissions === undefined ? {} : { permissions }), ...(disabled === undefined ? {} : { disabled }) };
}

async function setAccess(pool: pg.Pool, invocation: ActionInvocation): Promise<AdminUserRow> {
  const { session } = invocation;
  requireRole(session, USER_ADMIN_WRITE_ROLES, ADMIN_SET_USER_ACCESS);
  const change = accessChange(session, invocation.args);
  const actor = signedIn(session);
  return inActorTransaction(pool, actor, async (client) => {
    await requireChangeable(client, { action: ADMIN_SET_USER_ACCESS, session, userId: change.userId });
    if (change.tier !== undefined) await client.query('UPDATE users SET tier = $2 WHERE user_id = $1 AND tier <> $2', [change.userId, change.tier]);
    if (change.permissions !== undefined) {
      await client.query('DELETE FROM user_permissions WHERE user_id = $1 AND NOT (permission = ANY ($2::text[]))', [change.userId, change.permissions]);
      await client.query(
        'INSERT INTO user_permissions (user_id, permission) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [change.userId, change.permissions]);
    }
    if (change.disabled !== undefined) {
      await client.query('UPDATE auth.users SET disabled = $2 WHERE id = $1 AND disabled <> $2', [change.userId, change.disabled]);
    }
    const row = await userRow(client, { userId: actor, masked: false }, change.userId);
    if (row === undefined) throw new Error(`the user ${change.userId} just changed is missing`);
    return row;
  });
}

function todayOf(options: UserAdminActionsOptions): IsoDate {
  return istDate((options.now ?? Date.now)());
}

function expiryArgument(action: string, value: unknown, today: IsoDate): IsoDate {
  if (typeof value !== 'string' || !isIsoDate(value)) refuse(action, 'expiry', `must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  if (value < today) refuse(action, 'expiry', `must be today (${today}) or later, got ${value}`);
  const latest = addDays(today, MAX_GRANT_DAYS);
  if (value > latest) refuse(action, 'expiry', `must be at most ${MAX_GRANT_DAYS} days ahead (${latest}), got ${value}`);
  return value;
}

function categoryArgument(action: string, value: unknown): GrantCategory {
  if (typeof value !== 'string' || !(GRANT_CATEGORIES as readonly string[]).includes(value)) {
    refuse(action, 'category', `must be BACKTEST (candles) or STRATEGIES (deployable strategy slots), got ${JSON.stringify(value)}`);
  }
  return value as GrantCategory;
}

function amountArgument(action: string, argument: { name: string; value: unknown }, request: { category: GrantCategory; min: number }): number {
  const { name, value } = argument;
  const max = request.category === 'BACKTEST' ? MAX_CANDLES : MAX_SLOTS;
  const unit = request.category === 'BACKTEST' ? 'candles' : 'strategy slots';
  if (typeof value !== 'number' || !Number.isInteger(value) || value < request.min || value > max) {
    refuse(action, name, `must be a whole number of ${unit} from ${request.min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

export interface GrantRow {
  readonly id: string;
  readonly category: GrantCategory;
  readonly credits: number;
  readonly utilized: number | null;
  readonly expiry: string;
  readonly created_at: string;
  readonly live: boolean;
}

async function grantRow(client: pg.PoolClient, category: GrantCategory, id: string): Promise<GrantRow> {
  const stamp = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')`;
  const live = `expiry >= (now() AT TIME ZONE 'Asia/Kolkata')::date`;
  const { rows } = category === 'BACKTEST'
    ? await client.query<GrantRow>(
      `SELECT id, 'BACKTEST' AS category, credits::float8 AS credits, NULL::int AS utilized, expiry::text AS expiry, ${stamp} AS created_at, ${live} AS live
         FROM user_credits WHERE id = $1`, [id])
    : await client.query<GrantRow>(
      `SELECT id, 'STRATEGIES' AS category, available::float8 AS credits, utilized, expiry::text AS expiry, ${stamp} AS created_at, ${live} AS live
         FROM deployed_strategies WHERE id = $1`, [id]);
  const row = rows[0];
  if (row === undefined) throw new Error(`the grant ${id} just written is missing`);
  return row;
}

async function grantCredit(options: UserAdminActionsOptions, invocation: ActionInvocation): Promise<GrantRow> {
  const action = ADMIN_GRANT_CREDIT;
  const { session, args } = invocation;
  requireRole(session, USER_ADMIN_WRITE_ROLES, action);
  const userId = requiredUuid(action, args, 'user_id');
  const category = categoryArgument(action, args.category);
  const credits = amountArgument(action, { name: 'credits', value: args.credits }, { category, min: 1 });
  const expiry = expiryArgument(action, args.expiry, todayOf(options));
  return inActorTransaction(options.pool, signedIn(session), async (client) => {
    await requireChangeable(client, { action, session, userId });
    if (category === 'BACKTEST') {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, $2, $3, 'BACKTEST', 'CANDLES') RETURNING id`,
        [userId, credits, expiry]);
      return grantRow(client, category, (rows[0] as { id: string }).id);
    }
    const { rows } = await client.query<{ id: string }>(
      'INSERT INTO deployed_strategies (user_id, available, expiry) VALUES ($1, $2, $3) RETURNING id', [userId, credits, expiry]);
    const id = (rows[0] as { id: string }).id;
    await client.query(
      `INSERT INTO user_credits (id, user_id, credits, expiry, category, subcategory) VALUES ($1, $2, $3, $4, 'STRATEGIES', 'DEPLOYED')`,
      [id, userId, credits, expiry]);
    return grantRow(client, category, id);
  });
}

async function extendGrant(options: UserAdminActionsOptions, invocation: ActionInvocation): Promise<GrantRow> {
  const action = ADMIN_EXTEND_GRANT;
  const { session, args } = invocation;
  requireRole(session, USER_ADMIN_WRITE_ROLES, action);
  const grantId = requiredUuid(action, args, 'grant_id');
  const category = categoryArgument(action, args.category);
  const addCredits = args.add_credits === undefined || args.add_credits === null
    ? 0 : amountArgument(action, { name: 'add_credits', value: args.add_credits }, { category, min: 0 });
  const today = todayOf(options);
  const expiry = args.expiry === undefined || args.expiry === null ? undefined : expiryArgument(action, args.expiry, today);
  if (addCredits === 0 && expiry === undefined) refuse(action, 'add_credits', 'give credits to add, a new expiry, or both');
  const table = category === 'BACKTEST' ? 'user_credits' : 'deployed_strategies';
  const amount = category === 'BACKTEST' ? 'credits' : 'available';
  return inActorTransaction(options.pool, signedIn(session), async (client) => {
    const { rows } = await client.query<{ user_id: string; expiry: string; amount: number }>(
      `SELECT user_id, expiry::text AS expiry, ${amount}::float8 AS amount FROM ${table}
        WHERE id = $1 ${category === 'BACKTEST' ? `AND category = 'BACKTEST'` : ''} FOR UPDATE`, [grantId]);
    const grant = rows[0];
    if (grant === undefined) throw new GraphqlFailure('not-found', `grant_id: no ${category} grant ${grantId}`, argumentPath(action, 'grant_id'));
    await requireChangeable(client, { action, session, userId: grant.user_id, field: 'grant_id' });
    if (expiry !== undefined && expiry < grant.expiry) {
      refuse(action, 'expiry', `an extension cannot bring the expiry forward: the grant runs to ${grant.expiry}, got ${expiry}`);
    }
    const newAmount = grant.amount + addCredits;
    const maximum = category === 'BACKTEST' ? MAX_CANDLES : MAX_SLOTS;
    if (newAmount > maximum) refuse(action, 'add_credits', `the grant would hold ${newAmount}, more than ${maximum}`);
    const newExpiry = expiry ?? grant.expiry;
    await client.query(`UPDATE ${table} SET ${amount} = $2, expiry = $3 WHERE id = $1`, [grantId, newAmount, newExpiry]);
    if (category === 'STRATEGIES') {
      // The licence's expiry and activation live in the STRATEGIES/DEPLOYED credit of the same id.
      await client.query(
        `INSERT INTO user_credits (id, user_id, credits, expiry, category, subcategory) VALUES ($1, $2, $3, $4, 'STRATEGIES', 'DEPLOYED')
         ON CONFLICT (id) DO UPDATE SET credits = EXCLUDED.credits, expiry = EXCLUDED.expiry`,
        [grantId, grant.user_id, newAmount, newExpiry]);
    }
    return grantRow(client, category, grantId);
  });
}

/**
 * The user administration action declarations for the metadata (`Metadata.actions`).
 * @example userAdminActions({ pool }).map((action) => action.name) // ['admin_users', 'admin_user', 'admin_set_user_access', ...]
 */
export function userAdminActions(options: UserAdminActionsOptions): ActionDeclaration[] {
  const { pool } = options;
  return [
    {
      name: ADMIN_USERS,
      kind: 'query',
      field: `${ADMIN_USERS}(filter: admin_users_filter, limit: Int, offset: Int): admin_users_page!`,
      types: TYPES,
      description: 'Users for /users/list, searched and filtered, by name (support: masked names, no e-mail).',
      roles: USER_ADMIN_READ_ROLES,
      handler: async (invocation) => {
        requireRole(invocation.session, USER_ADMIN_READ_ROLES, ADMIN_USERS);
        const filter = listFilter(invocation.args.filter);
        const limit = pageArgument(invocation.args, 'limit', { fallback: 25, max: MAX_PAGE });
        const offset = pageArgument(invocation.args, 'offset', { fallback: 0, max: 1_000_000 });
        return listUsers(pool, { reader: readerOf(invocation.session), filter, limit, offset });
      },
    },
    {
      name: ADMIN_USER,
      kind: 'query',
      field: `${ADMIN_USER}(user_id: uuid!): admin_user_detail`,
      types: '',
      description: "One user for /users/edit: profile, security, broker accounts, grants, licence figures and the administration trail; null when there is no such user.",
      roles: USER_ADMIN_READ_ROLES,
      handler: async (invocation) => {
        requireRole(invocation.session, USER_ADMIN_READ_ROLES, ADMIN_USER);
        const userId = requiredUuid(ADMIN_USER, invocation.args, 'user_id');
        return (await userDetail(pool, readerOf(invocation.session), userId)) ?? null;
      },
    },
    {
      name: ADMIN_SET_USER_ACCESS,
      kind: 'mutation',
      field: `${ADMIN_SET_USER_ACCESS}(user_id: uuid!, tier: String, permissions: [String!], disabled: Boolean): admin_user_row!`,
      types: '',
      description: "Changes a user's tier, permissions (the whole list) and disabled flag; a disabled user cannot sign in or refresh. "
        + 'An administrator cannot change administrators or superadmins, nor make anyone one; nobody changes their own access.',
      roles: USER_ADMIN_WRITE_ROLES,
      handler: (invocation) => setAccess(pool, invocation),
    },
    {
      name: ADMIN_GRANT_CREDIT,
      kind: 'mutation',
      field: `${ADMIN_GRANT_CREDIT}(user_id: uuid!, category: String!, credits: Int!, expiry: date!): admin_user_grant!`,
      types: '',
      description: 'Grants BACKTEST credits (candles) or STRATEGIES licence slots (deployable strategies) valid to expiry (IST date).',
      roles: USER_ADMIN_WRITE_ROLES,
      handler: (invocation) => grantCredit(options, invocation),
    },
    {
      name: ADMIN_EXTEND_GRANT,
      kind: 'mutation',
      field: `${ADMIN_EXTEND_GRANT}(grant_id: uuid!, category: String!, add_credits: Int, expiry: date): admin_user_grant!`,
      types: '',
      description: 'Extends a grant: adds credits (or slots) and/or moves its expiry later.',
      roles: USER_ADMIN_WRITE_ROLES,
      handler: (invocation) => extendGrant(options, invocation),
    },
  ];
}
