import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { AuthConfig } from './config';
import type { CreateUserOptions, User, UserStore } from './context';
import { AuthError } from './errors';
import { inTransaction } from '../db/transaction';

/** The nine product tiers (docs/PRODUCT.md section 6); a profile's `tier` must be one of them. */
export const TIERS = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support'] as const;

type Queryable = pg.Pool | pg.PoolClient;

interface UserRow {
  id: string;
  created_at: Date;
  display_name: string;
  avatar_url: string;
  locale: string;
  email: string | null;
  email_verified: boolean;
  phone_number: string | null;
  phone_number_verified: boolean;
  is_anonymous: boolean;
  default_role: string;
  roles: string[];
  metadata: Record<string, unknown>;
  active_mfa_type: string | null;
}

const USER_SELECT = `
  SELECT u.id, u.created_at, u.display_name, u.avatar_url, u.locale, u.email::text AS email, u.email_verified,
         u.phone_number, u.phone_number_verified, u.is_anonymous, u.default_role, u.metadata, u.active_mfa_type,
         coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM auth.user_roles r WHERE r.user_id = u.id), '{}') AS roles
  FROM auth.users u`;

/** docs/AUTH-CONTRACT.md's User from a row. */
function toUser(row: UserRow): User {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    locale: row.locale,
    email: row.email,
    emailVerified: row.email_verified,
    phoneNumber: row.phone_number,
    phoneNumberVerified: row.phone_number_verified,
    isAnonymous: row.is_anonymous,
    defaultRole: row.default_role,
    roles: row.roles,
    metadata: row.metadata,
    activeMfaType: row.active_mfa_type,
  };
}

/** The user, or undefined. */
export async function loadUser(db: Queryable, userId: string): Promise<User | undefined> {
  const result = await db.query<UserRow>(`${USER_SELECT} WHERE u.id = $1`, [userId]);
  const row = result.rows[0];
  return row ? toUser(row) : undefined;
}

/** The user's permissions (docs/PRODUCT.md section 6), sorted. */
export async function loadPermissions(db: Queryable, userId: string): Promise<string[]> {
  const result = await db.query<{ permission: string }>('SELECT permission FROM user_permissions WHERE user_id = $1 ORDER BY permission', [userId]);
  return result.rows.map((row) => row.permission);
}

/** The UserStore of the context. */
export function createUserStore(options: { pool: pg.Pool; config: AuthConfig }): UserStore {
  const { pool, config } = options;
  const signUpRoles: UserStore['signUpRoles'] = (requested) => {
    const allowedRoles = requested.allowedRoles ?? config.userDefaultAllowedRoles;
    for (const role of allowedRoles) {
      if (!config.userDefaultAllowedRoles.includes(role)) throw new AuthError('role-not-allowed', `Role not allowed: ${role}`);
    }
    const defaultRole = requested.defaultRole ?? (allowedRoles.includes(config.userDefaultRole) ? config.userDefaultRole : allowedRoles[0]);
    if (defaultRole === undefined || !allowedRoles.includes(defaultRole)) throw new AuthError('default-role-must-be-in-allowed-roles');
    return { allowedRoles, defaultRole };
  };
  return {
    get: (userId, client) => loadUser(client ?? pool, userId),
    async findByEmail(email, client) {
      const result = await (client ?? pool).query<{ id: string; disabled: boolean; email_verified: boolean; is_anonymous: boolean }>(
        'SELECT id, disabled, email_verified, is_anonymous FROM auth.users WHERE email = $1', [email]);
      const row = result.rows[0];
      return row ? { id: row.id, disabled: row.disabled, emailVerified: row.email_verified, isAnonymous: row.is_anonymous } : undefined;
    },
    signUpRoles,
    create: (createOptions) => createUser({ pool, config, signUpRoles }, createOptions),
  };
}

async function createUser(
  deps: { pool: pg.Pool; config: AuthConfig; signUpRoles: UserStore['signUpRoles'] },
  options: CreateUserOptions,
): Promise<string> {
  const anonymous = options.isAnonymous ?? false;
  const roles = anonymous
    ? { allowedRoles: ['anonymous'], defaultRole: 'anonymous' }
    : deps.signUpRoles({ ...(options.allowedRoles ? { allowedRoles: options.allowedRoles } : {}), ...(options.defaultRole ? { defaultRole: options.defaultRole } : {}) });
  const run = async (client: pg.PoolClient): Promise<string> => {
    let inserted;
    try {
      inserted = await client.query<{ id: string }>(
        `INSERT INTO auth.users (email, phone_number, password_hash, email_verified, phone_number_verified, is_anonymous,
                                 display_name, locale, metadata, default_role)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [options.email ?? null, options.phoneNumber ?? null, options.passwordHash ?? null, options.emailVerified ?? false,
          options.phoneNumberVerified ?? false, anonymous, options.displayName ?? '', options.locale ?? deps.config.defaultLocale,
          JSON.stringify(options.metadata ?? {}), roles.defaultRole],
      );
    } catch (error) {
      // 23505 unique_violation: the e-mail (or phone) raced another sign-up.
      if ((error as { code?: string }).code === '23505') throw new AuthError('email-already-in-use');
      throw error;
    }
    const id = inserted.rows[0]?.id;
    if (!id) throw new Error('inserting a user returned no id');
    await client.query('INSERT INTO auth.user_roles (user_id, role) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [id, roles.allowedRoles]);
    if (!anonymous) await ensureProfile(client, { userId: id, name: profileName(options), tier: roles.defaultRole });
    return id;
  };
  if (options.client) return run(options.client);
  return inTransaction(deps.pool, run);
}

/** The product profile (public.users) every signed-up user has; its tier is the default role when that is a tier. */
export async function ensureProfile(client: pg.PoolClient, profile: { userId: string; name: string; tier: string }): Promise<void> {
  const tier = (TIERS as readonly string[]).includes(profile.tier) ? profile.tier : 'trial';
  await client.query(
    `INSERT INTO users (user_id, name, api_key, tier) VALUES ($1, $2, $3, $4) ON CONFLICT (user_id) DO NOTHING`,
    [profile.userId, profile.name, `vy_${randomBytes(16).toString('hex')}`, tier],
  );
}

function profileName(options: CreateUserOptions): string {
  if (options.displayName) return options.displayName;
  if (options.email) return options.email.split('@')[0] || options.email;
  return options.phoneNumber ?? 'User';
}

/** Runs `work` in a transaction on a pooled client (the server's one helper, re-exported for the auth modules). */
export { inTransaction };
