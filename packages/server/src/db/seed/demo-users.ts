import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type pg from 'pg';
import { execute } from './execute';

/** The nine product roles of docs/PRODUCT.md section 6; each demo user's tier is one of them. */
export const DEMO_ROLES = [
  'trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support',
] as const;

export type DemoRole = (typeof DEMO_ROLES)[number];

export type Permission = 'strategy:backtest' | 'strategy:deploy' | 'strategy:manual';

/** Every demo account signs in with this password (documented in docs/DATA-MODEL.md). */
export const DEMO_PASSWORD = 'vyuha-demo-2026';

export function demoEmail(role: DemoRole): string {
  return `${role}@demo.vyuha.in`;
}

const DISPLAY_NAMES: Readonly<Record<DemoRole, string>> = {
  trial: 'Aarav Sharma',
  basic: 'Priya Iyer',
  advanced: 'Rohan Mehta',
  demo: 'Kavya Reddy',
  backtest: 'Vikram Nair',
  manager: 'Ananya Deshpande',
  administrator: 'Arjun Malhotra',
  superadmin: 'Meera Krishnan',
  support: 'Siddharth Banerjee',
};

/**
 * Permissions per tier. Backtesting needs a tier that shows Backtest (docs/PRODUCT.md section 6 menu);
 * deploying needs one that shows Strategies and is not backtest-only; manual order entry is for
 * the tiers that trade for real or act for others. Support, trial and basic only follow
 * subscriptions, so they get none.
 */
export const ROLE_PERMISSIONS: Readonly<Record<DemoRole, readonly Permission[]>> = {
  trial: [],
  basic: [],
  advanced: ['strategy:backtest', 'strategy:deploy', 'strategy:manual'],
  demo: ['strategy:backtest', 'strategy:deploy'],
  backtest: ['strategy:backtest'],
  manager: ['strategy:backtest', 'strategy:deploy', 'strategy:manual'],
  administrator: ['strategy:backtest', 'strategy:deploy', 'strategy:manual'],
  superadmin: ['strategy:backtest', 'strategy:deploy', 'strategy:manual'],
  support: [],
};

/**
 * Session roles besides the tier: hasura-auth's `user` and `me`, which the GraphQL permissions
 * for "my own rows" are written against.
 */
const BASE_SESSION_ROLES = ['user', 'me'] as const;

export type DemoUserIds = ReadonlyMap<DemoRole, string>;

/** Creates (or finds) the nine demo users with roles and permissions; returns ids and rows inserted. */
export async function seedDemoUsers(client: pg.PoolClient): Promise<{ ids: DemoUserIds; inserted: number }> {
  const ids = new Map<DemoRole, string>();
  let inserted = 0;
  for (const role of DEMO_ROLES) {
    const created = await ensureAuthUser(client, role);
    ids.set(role, created.id);
    inserted += created.inserted;
    inserted += await ensureProfile(client, role, created.id);
  }
  return { ids, inserted };
}

async function ensureAuthUser(client: pg.PoolClient, role: DemoRole): Promise<{ id: string; inserted: number }> {
  const email = demoEmail(role);
  const existing = await client.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [email]);
  const existingId = existing.rows[0]?.id;
  // Hash only for users still to be created: argon2 is slow on purpose and a second run
  // must not touch the stored hash.
  if (existingId) return { id: existingId, inserted: 0 };
  const passwordHash = await hash(DEMO_PASSWORD);
  const result = await client.query<{ id: string }>(
    `INSERT INTO auth.users (email, password_hash, display_name, locale, email_verified, default_role, metadata)
     VALUES ($1, $2, $3, 'en', true, $4, '{"demo": true}')
     RETURNING id`,
    [email, passwordHash, DISPLAY_NAMES[role], role],
  );
  const id = result.rows[0]?.id;
  if (!id) throw new Error(`could not create the demo user ${email}`);
  return { id, inserted: 1 };
}

async function ensureProfile(client: pg.PoolClient, role: DemoRole, userId: string): Promise<number> {
  let inserted = await execute(client,
    `INSERT INTO users (user_id, name, api_key, tier) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO NOTHING`,
    [userId, DISPLAY_NAMES[role], `vy_${randomBytes(16).toString('hex')}`, role]);
  inserted += await execute(client,
    `INSERT INTO auth.user_roles (user_id, role) SELECT $1, unnest($2::text[])
     ON CONFLICT (user_id, role) DO NOTHING`,
    [userId, [role, ...BASE_SESSION_ROLES]]);
  inserted += await execute(client,
    `INSERT INTO user_permissions (user_id, permission) SELECT $1, unnest($2::text[])
     ON CONFLICT (user_id, permission) DO NOTHING`,
    [userId, ROLE_PERMISSIONS[role]]);
  return inserted;
}
