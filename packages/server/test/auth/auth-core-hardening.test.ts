import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROLES, demoEmail, ROLE_PERMISSIONS } from '../../src/db/seed/demo-users';
import { windowClaims } from '../../src/auth/tier-windows';
import { hasuraClaims, request, startCoreServer, type CoreServer } from './support/core-server';

let server: CoreServer;

beforeAll(async () => {
  server = await startCoreServer({
    seeded: true,
    env: {
      AUTH_RATE_LIMIT_BRUTE_FORCE_BURST: '3',
      AUTH_RATE_LIMIT_BRUTE_FORCE_INTERVAL: '5m',
      AUTH_RATE_LIMIT_GLOBAL_BURST: '10000',
      AUTH_RATE_LIMIT_EMAIL_BURST: '1000',
      AUTH_RATE_LIMIT_TOKEN_BURST: '1000',
    },
  });
});
afterAll(() => server.close());

/** Each test signs in as if from its own IP, so the failures of one do not spill into another. */
async function clearRateLimits(): Promise<void> {
  await server.pool.query('DELETE FROM auth.rate_limit_hits');
  await server.pool.query('DELETE FROM auth.signin_throttle');
}

describe('the demo users', () => {
  it.each(DEMO_ROLES)('%s signs in; the token carries roles, tier, permissions and W claims', async (role) => {
    await clearRateLimits();
    const response = await request(`${server.authUrl}/signin/email-password`, { body: { email: demoEmail(role), password: DEMO_PASSWORD } });
    expect(response.status).toBe(200);
    const claims = hasuraClaims(response.body.session.accessToken);
    expect(claims['x-hasura-default-role']).toBe(role);
    expect([...claims['x-hasura-allowed-roles']].sort()).toEqual([role, 'me', 'user'].sort());
    expect(claims['x-hasura-user-id']).toBe(response.body.session.user.id);
    expect(claims['x-hasura-user-is-anonymous']).toBe('false');
    const permissions = [...ROLE_PERMISSIONS[role]].sort();
    expect(claims['x-hasura-permissions']).toBe(`{${permissions.map((permission) => `"${permission}"`).join(',')}}`);
    // Parsed the way the web client does (docs/PRODUCT.md section 6): strip quotes and braces, split on commas.
    const parsed = String(claims['x-hasura-permissions']).replace(/["{}]/g, '').split(',').filter((item) => item !== '');
    expect(parsed).toEqual(permissions);
    for (const [name, date] of Object.entries(windowClaims(role))) expect(claims[`x-hasura-${name}`]).toBe(date);
    expect(Object.keys(claims).filter((name) => /^x-hasura-W\d+m$/.test(name))).toHaveLength(11);
  });

  it('gives wider history to higher tiers', () => {
    expect(windowClaims('superadmin').W5m).toBe('2020-01-01');
    expect(windowClaims('demo').W5m).toBe('2023-01-01');
    expect(windowClaims('trial').W1m).toBe('2025-01-01');
    expect(windowClaims('unknown-role')).toEqual(windowClaims('trial'));
  });
});

describe('rate limits', () => {
  // The per-account slow-down has its own file (auth-signin-limits-do-not-lock-out-owner.test.ts);
  // here the per-address failure ceiling, lowered to 3 for the test.
  it('answers 429 with Retry-After once an address has failed the burst; successes do not count', async () => {
    await clearRateLimits();
    const signIn = (password: string) => request(`${server.authUrl}/signin/email-password`, { body: { email: demoEmail('basic'), password } });
    for (let index = 0; index < 5; index += 1) expect((await signIn(DEMO_PASSWORD)).status).toBe(200);
    const guess = (email: string) => request(`${server.authUrl}/signin/email-password`, { body: { email, password: 'wrong password here' } });
    for (const email of ['one@example.in', 'two@example.in', 'three@example.in']) expect((await guess(email)).status).toBe(401);
    const limited = await guess('four@example.in');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 429, error: 'too-many-requests' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(200);
    expect(retryAfter).toBeLessThanOrEqual(300);
    // An account that signed in from this address before is not refused; a stranger's account is.
    expect((await signIn(DEMO_PASSWORD)).status).toBe(200);
    await server.pool.query('DELETE FROM auth.signin_known_sources WHERE account = $1', [`email:${demoEmail('advanced')}`]);
    expect((await request(`${server.authUrl}/signin/email-password`, { body: { email: demoEmail('advanced'), password: DEMO_PASSWORD } })).status).toBe(429);
    const stored = await server.pool.query("SELECT hits FROM auth.rate_limit_hits WHERE bucket = 'bruteForce' AND subject = 'ip:127.0.0.1'");
    expect(stored.rows).toEqual([{ hits: 3 }]);
  });

  it('starts a new window once the old one has passed', async () => {
    await clearRateLimits();
    const attempt = () => request(`${server.authUrl}/signin/email-password`, { body: { email: 'nobody-here@example.in', password: 'wrong password here' } });
    for (let index = 0; index < 3; index += 1) await attempt();
    expect((await attempt()).status).toBe(429);
    await server.pool.query("UPDATE auth.rate_limit_hits SET window_started_at = now() - interval '6 minutes'");
    expect((await attempt()).status).toBe(401);
  });
});

describe('no account enumeration', () => {
  it('answers a reset for an unknown e-mail exactly as for a known one, and sends nothing', async () => {
    await clearRateLimits();
    const unknown = 'nobody-here@example.in';
    const known = demoEmail('advanced');
    const knownBefore = server.mail.countFor(known);
    const forUnknown = await request(`${server.authUrl}/user/password/reset`, { body: { email: unknown } });
    const forKnown = await request(`${server.authUrl}/user/password/reset`, { body: { email: known } });
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.body).toEqual(forKnown.body);
    expect(forKnown.body).toBe('OK');
    await server.mail.waitFor(known, { since: knownBefore });
    expect(server.mail.countFor(unknown)).toBe(0);
    const outbox = await server.pool.query('SELECT 1 FROM auth.outbox WHERE recipient = $1', [unknown]);
    expect(outbox.rowCount).toBe(0);
  });

  it('answers send-verification-email with "OK" whatever the account state', async () => {
    for (const email of ['nobody-here@example.in', demoEmail('advanced')]) {
      const response = await request(`${server.authUrl}/user/email/send-verification-email`, { body: { email } });
      expect(response.body).toBe('OK');
    }
  });

  it('takes as long to refuse an unknown e-mail as a wrong password (both hash)', async () => {
    const time = async (email: string): Promise<number> => {
      const started = performance.now();
      expect((await request(`${server.authUrl}/signin/email-password`, { body: { email, password: 'wrong password here' } })).status).toBe(401);
      return performance.now() - started;
    };
    await clearRateLimits();
    await time('warm-up@example.in');
    // Pairs, each after a reset of the counters (this file allows 3 failures per address), so the
    // shared machine's slow moments hit both sides alike; the median ratio is compared.
    const ratios: number[] = [];
    for (let pair = 0; pair < 7; pair += 1) {
      await clearRateLimits();
      const unknown = await time(`nobody-at-all-${pair}@example.in`);
      const known = await time(demoEmail('support'));
      ratios.push(unknown / known);
    }
    ratios.sort((a, b) => a - b);
    // Without the dummy hash an unknown e-mail is answered ~10x faster than argon2's verify.
    expect(ratios[3]).toBeGreaterThan(0.4);
  });
});

describe('disabled users', () => {
  it('cannot sign in, refresh, or use an access token already issued', async () => {
    await clearRateLimits();
    const email = demoEmail('manager');
    const session = (await request(`${server.authUrl}/signin/email-password`, { body: { email, password: DEMO_PASSWORD } })).body.session;
    await server.pool.query('UPDATE auth.users SET disabled = true WHERE email = $1', [email]);
    try {
      const signIn = await request(`${server.authUrl}/signin/email-password`, { body: { email, password: DEMO_PASSWORD } });
      expect(signIn.body).toEqual({ status: 401, message: 'User is disabled', error: 'disabled-user' });
      const wrong = await request(`${server.authUrl}/signin/email-password`, { body: { email, password: 'not the password at all' } });
      expect(wrong.body.error).toBe('invalid-email-password');
      const refresh = await request(`${server.authUrl}/token`, { body: { refreshToken: session.refreshToken } });
      expect(refresh.body.error).toBe('disabled-user');
      expect((await request(`${server.authUrl}/user`, { token: session.accessToken })).body.error).toBe('disabled-user');
      const failures = await server.pool.query("SELECT after->>'reason' AS reason FROM audit_log WHERE action = 'auth.signin_failed' AND entity_id = $1 ORDER BY id", [session.user.id]);
      expect(failures.rows.map((row: { reason: string }) => row.reason)).toEqual(['disabled-user', 'invalid-email-password']);
    } finally {
      await server.pool.query('UPDATE auth.users SET disabled = false WHERE email = $1', [email]);
    }
  });
});

describe('the audit log', () => {
  it('records sign-ins and failures with the IP', async () => {
    await clearRateLimits();
    const before = Number((await server.pool.query<{ max: string | null }>('SELECT max(id) FROM audit_log')).rows[0]?.max ?? 0);
    const ok = await request(`${server.authUrl}/signin/email-password`, { body: { email: demoEmail('demo'), password: DEMO_PASSWORD } });
    const userId = ok.body.session.user.id as string;
    await request(`${server.authUrl}/signin/email-password`, { body: { email: demoEmail('demo'), password: 'wrong password here' } });
    const rows = await server.pool.query<{ action: string; ip: string; after: { method: string } }>(
      'SELECT action, host(ip) AS ip, after FROM audit_log WHERE entity_id = $1 AND id > $2 ORDER BY id', [userId, before]);
    expect(rows.rows.map((row) => row.action)).toEqual(['auth.signin', 'auth.signin_failed']);
    expect(rows.rows[0]).toMatchObject({ ip: '127.0.0.1', after: { method: 'email-password' } });
  });
});

describe('AUTH_CONCEAL_ERRORS', () => {
  it('turns account-revealing errors into invalid-request', async () => {
    // Without e-mail verification a taken address is still refused (with it, it is answered as a new one).
    const concealed = await startCoreServer({ seeded: true, env: { AUTH_CONCEAL_ERRORS: 'true', AUTH_EMAIL_SIGNIN_EMAIL_VERIFIED_REQUIRED: 'false' } });
    try {
      const wrong = await request(`${concealed.authUrl}/signin/email-password`, { body: { email: demoEmail('trial'), password: 'wrong password here' } });
      expect(wrong.body).toEqual({ status: 400, message: 'The request payload is incorrect', error: 'invalid-request' });
      const taken = await request(`${concealed.authUrl}/signup/email-password`, { body: { email: demoEmail('trial'), password: 'long enough pass' } });
      expect(taken.body).toEqual({ status: 400, message: 'The request payload is incorrect', error: 'invalid-request' });
      // invalid-refresh-token stays: clients need it to end a dead session.
      const refresh = await request(`${concealed.authUrl}/token`, { body: { refreshToken: '00000000-0000-4000-8000-000000000000' } });
      expect(refresh.body.error).toBe('invalid-refresh-token');
    } finally {
      await concealed.close();
    }
  });
});
