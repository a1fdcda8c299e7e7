// User administration (/users/list, /users/edit) as a client meets it: the platform on a seeded
// database (spec-server.ts, the actions of start.ts), demo users signed in over HTTP, POST
// /v1/graphql; rows and the audit trail (migration 0028) read back with SQL. Covers credit and
// licence grants with their trail, tier and permission changes, a disabled user refused at
// sign-in and refresh, support's masked view at the API, and every refused caller or argument
// leaving the database as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoEmail } from '../../src/db/seed/demo-users';
import { dataOf, startSpecServer, type GraphqlBody, type SpecServer } from './spec-server';

let server: SpecServer;

const USER_ROW = 'user_id name masked email tier permissions disabled active_brokers last_sign_in_at created_at';
const LIST = `query ($filter: admin_users_filter, $limit: Int) { admin_users(filter: $filter, limit: $limit) { total rows { ${USER_ROW} } } }`;
const DETAIL = `query ($id: uuid!) { admin_user(user_id: $id) {
  user { ${USER_ROW} }
  security { password_set mfa security_keys personal_access_tokens { id live } }
  brokers { broker client_id active investment_paise has_secret }
  grants { id category credits utilized expiry live }
  licences { licence_type total_credits utilized_credits expire_on activated_on }
  audit { actor_name action before after }
} }`;
const GRANT = `mutation ($userId: uuid!, $category: String!, $credits: Int!, $expiry: date!) {
  admin_grant_credit(user_id: $userId, category: $category, credits: $credits, expiry: $expiry) { id category credits utilized expiry live } }`;
const EXTEND = `mutation ($id: uuid!, $category: String!, $add: Int, $expiry: date) {
  admin_extend_grant(grant_id: $id, category: $category, add_credits: $add, expiry: $expiry) { id credits expiry } }`;
const ACCESS = `mutation ($userId: uuid!, $tier: String, $permissions: [String!], $disabled: Boolean) {
  admin_set_user_access(user_id: $userId, tier: $tier, permissions: $permissions, disabled: $disabled) { user_id tier permissions disabled } }`;
const OWN_CREDITS = `query ($userId: uuid!, $today: date!) {
  user_credits_aggregate(where: { user_id: { _eq: $userId }, category: { _eq: "BACKTEST" }, subcategory: { _eq: "CANDLES" }, expiry: { _gte: $today } }) {
    aggregate { sum { credits } max { expiry } }
  }
}`;

function istToday(): string {
  return new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);
}

function daysFromToday(days: number): string {
  return new Date(Date.parse(`${istToday()}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function errorOf(body: GraphqlBody): { code: string | undefined; message: string; path: string | undefined } {
  const error = body.errors?.[0];
  if (error === undefined) throw new Error(`expected an error, got ${JSON.stringify(body)}`);
  return { code: error.extensions?.code, message: error.message, path: error.extensions?.path };
}

/** What a refused call must leave as it was. */
async function snapshot(): Promise<string> {
  const tables = await Promise.all([
    server.db.pool.query('SELECT id, user_id, credits, expiry FROM user_credits ORDER BY id'),
    server.db.pool.query('SELECT id, user_id, available, utilized, expiry FROM deployed_strategies ORDER BY id'),
    server.db.pool.query('SELECT user_id, permission FROM user_permissions ORDER BY 1, 2'),
    server.db.pool.query('SELECT user_id, tier FROM users ORDER BY 1'),
    server.db.pool.query('SELECT id, disabled, default_role FROM auth.users ORDER BY 1'),
    server.db.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE entity = 'user_admin'`),
  ]);
  return JSON.stringify(tables.map((table) => table.rows));
}

async function as(role: 'administrator' | 'superadmin' | 'support' | 'trial' | 'manager', call: { query: string; variables?: Record<string, unknown> }): Promise<GraphqlBody> {
  return server.graphql(call, { token: await server.token(role) });
}

async function signInStatus(email: string): Promise<{ status: number; error?: string; refreshToken?: string }> {
  const response = await fetch(`${server.origin}/v1/auth/signin/email-password`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { session?: { refreshToken?: string } | null; error?: string };
  return { status: response.status, ...(body.error ? { error: body.error } : {}), ...(body.session?.refreshToken ? { refreshToken: body.session.refreshToken } : {}) };
}

async function refreshStatus(refreshToken: string): Promise<{ status: number; error?: string }> {
  const response = await fetch(`${server.origin}/v1/auth/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken }),
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, ...(body.error ? { error: body.error } : {}) };
}

beforeAll(async () => {
  server = await startSpecServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('credit and licence grants', () => {
  it('an administrator grants BACKTEST credits: the row, its trail (who, what, after) and the user\'s own credit aggregate', async () => {
    const trial = await server.userId('trial');
    const administrator = await server.userId('administrator');
    const expiry = daysFromToday(10);
    const granted = dataOf(await as('administrator', { query: GRANT, variables: { userId: trial, category: 'BACKTEST', credits: 5_000, expiry } }))
      .admin_grant_credit as { id: string; category: string; credits: number; expiry: string; live: boolean };
    expect(granted).toMatchObject({ category: 'BACKTEST', credits: 5_000, expiry, live: true });

    const { rows: audit } = await server.db.pool.query<{ actor_user_id: string; action: string; before: unknown; after: { credits: number; expiry: string } }>(
      `SELECT actor_user_id, action, before, after FROM audit_log WHERE entity = 'user_admin' AND entity_id = $1 ORDER BY id DESC LIMIT 1`, [trial]);
    expect(audit[0]).toMatchObject({ actor_user_id: administrator, action: 'user_credits.insert', before: null, after: { credits: 5_000, expiry } });

    // The figures the user's credit notice reads (docs/PRODUCT.md section 7), as the user.
    const own = dataOf(await as('trial', { query: OWN_CREDITS, variables: { userId: trial, today: istToday() } }));
    expect(own.user_credits_aggregate).toEqual({ aggregate: { sum: { credits: 5_000 }, max: { expiry } } });

    const detail = dataOf(await as('administrator', { query: DETAIL, variables: { id: trial } })).admin_user as {
      licences: Array<{ licence_type: string; total_credits: number; expire_on: string | null }>;
      audit: Array<{ actor_name: string; action: string }>;
    };
    expect(detail.licences.find((licence) => licence.licence_type === 'backtest')).toMatchObject({ total_credits: 5_000, expire_on: expiry });
    expect(detail.audit[0]).toMatchObject({ actor_name: 'Arjun Malhotra', action: 'user_credits.insert' });
  });

  it('a STRATEGIES grant gives deployable slots and the licence dates; an extension adds slots and moves the expiry, with before and after', async () => {
    const basic = await server.userId('basic');
    const granted = dataOf(await as('superadmin', { query: GRANT, variables: { userId: basic, category: 'STRATEGIES', credits: 2, expiry: daysFromToday(30) } }))
      .admin_grant_credit as { id: string; utilized: number };
    expect(granted.utilized).toBe(0);
    const extended = dataOf(await as('superadmin', { query: EXTEND, variables: { id: granted.id, category: 'STRATEGIES', add: 3, expiry: daysFromToday(60) } }))
      .admin_extend_grant;
    expect(extended).toEqual({ id: granted.id, credits: 5, expiry: daysFromToday(60) });
    const { rows } = await server.db.pool.query(
      `SELECT d.available, d.expiry::text AS slots_expiry, c.credits::int AS credits, c.expiry::text AS licence_expiry, c.category, c.subcategory
         FROM deployed_strategies d JOIN user_credits c ON c.id = d.id WHERE d.id = $1`, [granted.id]);
    expect(rows[0]).toEqual({
      available: 5, slots_expiry: daysFromToday(60), credits: 5, licence_expiry: daysFromToday(60), category: 'STRATEGIES', subcategory: 'DEPLOYED',
    });
    const { rows: trail } = await server.db.pool.query<{ action: string; before: { available: number }; after: { available: number } }>(
      `SELECT action, before, after FROM audit_log WHERE entity = 'user_admin' AND entity_id = $1 AND action = 'deployed_strategies.update'`, [basic]);
    expect(trail.map((row) => [row.before.available, row.after.available])).toEqual([[2, 5]]);
    const licence = (await server.db.pool.query(`SELECT total_credits::int AS total, expire_on::text AS expire_on FROM licences WHERE user_id = $1 AND licence_type = 'strategy'`, [basic])).rows[0];
    expect(licence).toEqual({ total: 5, expire_on: daysFromToday(60) });
  });

  it('bad arguments are refused naming the argument, and nothing changes', async () => {
    const trial = await server.userId('trial');
    const before = await snapshot();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ userId: trial, category: 'BACKTEST', credits: 0, expiry: daysFromToday(5) }, 'credits'],
      [{ userId: trial, category: 'BACKTEST', credits: 100, expiry: daysFromToday(-1) }, 'expiry'],
      [{ userId: trial, category: 'CANDLES', credits: 100, expiry: daysFromToday(5) }, 'category'],
      [{ userId: trial, category: 'STRATEGIES', credits: 5_000, expiry: daysFromToday(5) }, 'credits'],
    ];
    for (const [variables, argument] of cases) {
      const error = errorOf(await as('administrator', { query: GRANT, variables }));
      expect(error.code).toBe('validation-failed');
      expect(error.path).toBe(`$.selectionSet.admin_grant_credit.args.${argument}`);
      expect(error.message.startsWith(`${argument}: `)).toBe(true);
    }
    const seeded = (await server.db.pool.query<{ id: string; expiry: string }>(
      `SELECT id, expiry::text AS expiry FROM deployed_strategies WHERE user_id = $1`, [await server.userId('manager')])).rows[0];
    const earlier = errorOf(await as('administrator', { query: EXTEND, variables: { id: seeded?.id, category: 'STRATEGIES', expiry: istToday() } }));
    expect(earlier.message).toContain('expiry: an extension cannot bring the expiry forward');
    expect(await snapshot()).toBe(before);
  });

  it('refused for a trader, a manager and support (no such field), and for an administrator granting itself', async () => {
    const trial = await server.userId('trial');
    const before = await snapshot();
    for (const role of ['trial', 'manager', 'support'] as const) {
      const error = errorOf(await as(role, { query: GRANT, variables: { userId: trial, category: 'BACKTEST', credits: 10, expiry: daysFromToday(5) } }));
      expect(error.code).toBe('validation-failed');
      expect(error.message).toContain('admin_grant_credit');
    }
    const self = errorOf(await as('administrator', {
      query: GRANT, variables: { userId: await server.userId('administrator'), category: 'BACKTEST', credits: 10, expiry: daysFromToday(5) },
    }));
    expect(self.message).toContain('user_id: you cannot change your own access');
    const list = errorOf(await as('trial', { query: LIST }));
    expect(list.code).toBe('validation-failed');
    expect(await snapshot()).toBe(before);
  });
});

describe('tier, permissions and disabling', () => {
  it('an administrator changes a tier and permissions: the token\'s role follows, the trail records both, staff stay out of its reach', async () => {
    const demo = await server.userId('demo');
    const changed = dataOf(await as('administrator', { query: ACCESS, variables: { userId: demo, tier: 'advanced', permissions: ['strategy:manual', 'strategy:backtest'] } }))
      .admin_set_user_access;
    expect(changed).toEqual({ user_id: demo, tier: 'advanced', permissions: ['strategy:backtest', 'strategy:manual'], disabled: false });
    const { rows: auth } = await server.db.pool.query(`SELECT default_role FROM auth.users WHERE id = $1`, [demo]);
    expect(auth[0]).toEqual({ default_role: 'advanced' });
    const { rows: trail } = await server.db.pool.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity = 'user_admin' AND entity_id = $1 AND actor_user_id = $2 ORDER BY id`,
      [demo, await server.userId('administrator')]);
    expect(trail.map((row) => row.action)).toEqual(['users.update', 'user_permissions.delete', 'user_permissions.insert']);

    const before = await snapshot();
    const promote = errorOf(await as('administrator', { query: ACCESS, variables: { userId: demo, tier: 'superadmin' } }));
    expect(promote).toMatchObject({ code: 'validation-failed', path: '$.selectionSet.admin_set_user_access.args.tier' });
    const staff = errorOf(await as('administrator', { query: ACCESS, variables: { userId: await server.userId('superadmin'), disabled: true } }));
    expect(staff.code).toBe('access-denied');
    const unknown = errorOf(await as('administrator', { query: ACCESS, variables: { userId: demo, permissions: ['strategy:everything'] } }));
    expect(unknown.message).toContain('permissions: must each be one of');
    expect(await snapshot()).toBe(before);
  });

  it('a disabled user can neither sign in nor refresh; enabled again, they sign in', async () => {
    const email = demoEmail('backtest');
    const userId = await server.userId('backtest');
    const session = await signInStatus(email);
    expect(session.status).toBe(200);
    dataOf(await as('superadmin', { query: ACCESS, variables: { userId, disabled: true } }));
    expect(await signInStatus(email)).toMatchObject({ status: 401, error: 'disabled-user' });
    expect((await refreshStatus(session.refreshToken as string)).status).toBe(401);
    const { rows } = await server.db.pool.query<{ actor_user_id: string; after: unknown }>(
      `SELECT actor_user_id, after FROM audit_log WHERE entity = 'user_admin' AND entity_id = $1 AND action = 'auth.users.disabled' ORDER BY id`, [userId]);
    expect(rows).toEqual([{ actor_user_id: await server.userId('superadmin'), after: { disabled: true } }]);
    const listed = dataOf(await as('administrator', { query: LIST, variables: { filter: { disabled: true } } })).admin_users as { rows: Array<{ user_id: string }> };
    expect(listed.rows.map((row) => row.user_id)).toEqual([userId]);

    dataOf(await as('superadmin', { query: ACCESS, variables: { userId, disabled: false } }));
    expect((await signInStatus(email)).status).toBe(200);
  });
});

describe('support sees masked names and no secrets', () => {
  it('the list masks every name but its own, shows no e-mail, and a search cannot find a clear name', async () => {
    const page = dataOf(await as('support', { query: LIST, variables: { limit: 100 } })).admin_users as {
      total: number; rows: Array<{ user_id: string; name: string; masked: boolean; email: string | null }>;
    };
    const own = await server.userId('support');
    const { rows: clear } = await server.db.pool.query<{ user_id: string; name: string }>('SELECT user_id, name FROM users');
    const clearNames = new Map(clear.map((row) => [row.user_id, row.name]));
    expect(page.rows.length).toBe(page.total);
    for (const row of page.rows) {
      expect(row.email).toBeNull();
      if (row.user_id === own) {
        expect(row).toMatchObject({ name: 'Siddharth Banerjee', masked: false });
      } else {
        expect(row.masked).toBe(true);
        expect(row.name).not.toBe(clearNames.get(row.user_id));
        expect(row.name).toMatch(/^(..\*{4}..|\*+)$/);
      }
    }
    const trial = await server.userId('trial');
    expect(page.rows.find((row) => row.user_id === trial)?.name).toBe('Aa****ma');
    const probe = dataOf(await as('support', { query: LIST, variables: { filter: { search: 'Aarav' } } })).admin_users as { total: number };
    expect(probe.total).toBe(0);
    const staffSearch = dataOf(await as('administrator', { query: LIST, variables: { filter: { search: 'Aarav' } } })).admin_users as { rows: Array<{ name: string; email: string }> };
    expect(staffSearch.rows).toEqual([expect.objectContaining({ name: 'Aarav Sharma', email: demoEmail('trial') })]);
  });

  it("a user's page: masked name and client ids, the trail without before/after or clear names", async () => {
    // By e-mail: an earlier test made the demo user advanced too.
    const advanced = (await server.db.pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail('advanced')])).rows[0]?.id as string;
    const detail = dataOf(await as('support', { query: DETAIL, variables: { id: advanced } })).admin_user as {
      user: { name: string; email: string | null };
      brokers: Array<{ client_id: string }>;
      audit: Array<{ actor_name: string | null; before: unknown; after: unknown }>;
    };
    expect(detail.user).toMatchObject({ name: 'Ro****ta', email: null });
    const { rows: clients } = await server.db.pool.query<{ client_id: string }>('SELECT client_id FROM user_brokers WHERE user_id = $1', [advanced]);
    expect(detail.brokers.length).toBe(clients.length);
    for (const broker of detail.brokers) expect(clients.map((row) => row.client_id)).not.toContain(broker.client_id);
    dataOf(await as('administrator', { query: GRANT, variables: { userId: advanced, category: 'BACKTEST', credits: 7, expiry: daysFromToday(3) } }));
    const after = dataOf(await as('support', { query: DETAIL, variables: { id: advanced } })).admin_user as typeof detail;
    expect(after.audit[0]).toEqual({ actor_name: 'Ar****ra', action: 'user_credits.insert', before: null, after: null });
    // Support writes nothing: the mutations are not in its schema.
    const write = errorOf(await as('support', { query: ACCESS, variables: { userId: advanced, disabled: true } }));
    expect(write.code).toBe('validation-failed');
  });
});
