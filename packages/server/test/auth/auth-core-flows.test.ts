import { FetchError } from '@nhost/nhost-js/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_URL, hasuraClaims, linkIn, request, startCoreServer, type CoreServer } from './support/core-server';

// The flows of docs/AUTH-CONTRACT.md driven by the unchanged Nhost client against the real app on loopback,
// with mail delivered over SMTP to a loopback server and its links followed.

let server: CoreServer;

beforeAll(async () => {
  // Rate limits stay on (the default); the bursts are raised so these flows never meet them.
  server = await startCoreServer({ env: { AUTH_RATE_LIMIT_GLOBAL_BURST: '10000', AUTH_RATE_LIMIT_BRUTE_FORCE_BURST: '1000', AUTH_RATE_LIMIT_EMAIL_BURST: '1000', AUTH_RATE_LIMIT_SIGNUPS_BURST: '1000' } });
});
afterAll(() => server.close());

/** Follows a /verify link from a mail; returns the redirect's query parameters. */
async function followVerifyLink(link: URL): Promise<URLSearchParams> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}`).toBe(CLIENT_URL);
  return location.searchParams;
}

async function errorOf(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FetchError) return { status: error.status, error: (error.body as { error: string }).error };
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('e-mail and password with the Nhost client', () => {
  const email = 'asha.rao@example.in';
  const password = 'correct horse battery';

  it('signs up, needs verification, verifies from the mail and signs in', async () => {
    const nhost = server.nhost();
    const signUp = await nhost.auth.signUpEmailPassword({ email, password, options: { displayName: 'Asha Rao', redirectTo: `${CLIENT_URL}/welcome` } });
    expect(signUp.body.session).toBeNull();

    const refused = await errorOf(nhost.auth.signInEmailPassword({ email, password }));
    expect(refused).toEqual({ status: 401, error: 'unverified-user' });

    const mail = await server.mail.waitFor(email);
    expect(mail.subject).toMatch(/verify/i);
    expect(mail.text).toContain('Hello Asha Rao');
    const link = linkIn(mail);
    expect(link.searchParams.get('type')).toBe('emailVerify');
    const params = await followVerifyLink(link);
    expect(params.get('type')).toBe('emailVerify');
    const refreshToken = params.get('refreshToken') ?? '';
    const session = (await nhost.auth.refreshToken({ refreshToken })).body;
    expect(session.user?.emailVerified).toBe(true);
    expect(session.refreshToken).not.toBe(refreshToken);

    // A verification link works once.
    const again = await followVerifyLink(link);
    expect(again.get('error')).toBe('invalid-ticket');

    const signIn = await nhost.auth.signInEmailPassword({ email, password });
    expect(signIn.body.session?.user?.email).toBe(email);
    const stored = nhost.getUserSession();
    expect(stored?.accessToken).toBe(signIn.body.session?.accessToken);
    expect(stored?.decodedToken['https://hasura.io/jwt/claims']?.['x-hasura-default-role']).toBe('trial');
    const user = await nhost.auth.getUser();
    expect(user.body).toMatchObject({ email, displayName: 'Asha Rao', defaultRole: 'trial', isAnonymous: false, emailVerified: true });
    expect([...user.body.roles].sort()).toEqual(['me', 'trial', 'user']);
  });

  it('refreshes: the session rotates and the old refresh token is spent', async () => {
    const nhost = server.nhost();
    const first = (await nhost.auth.signInEmailPassword({ email, password })).body.session;
    const refreshed = await nhost.refreshSession(0);
    expect(refreshed?.refreshToken).toBeDefined();
    expect(refreshed?.refreshToken).not.toBe(first?.refreshToken);
    expect(refreshed?.refreshTokenId).not.toBe(first?.refreshTokenId);
    const reused = await request(`${server.authUrl}/token`, { body: { refreshToken: first?.refreshToken } });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({ status: 401, message: 'Invalid or expired refresh token', error: 'invalid-refresh-token' });
  });

  it('changes the password with a Bearer token and the current password', async () => {
    const nhost = server.nhost();
    await nhost.auth.signInEmailPassword({ email, password });
    // The Bearer token alone is not enough (auth README, "Hardening"): our currentPassword passes through the client.
    expect(await errorOf(nhost.auth.changeUserPassword({ newPassword: 'a brand new passphrase' }))).toEqual({ status: 400, error: 'invalid-request' });
    await nhost.auth.changeUserPassword({ newPassword: 'a brand new passphrase', currentPassword: password } as { newPassword: string });
    expect(await errorOf(server.nhost().auth.signInEmailPassword({ email, password }))).toEqual({ status: 401, error: 'invalid-email-password' });
    const signIn = await server.nhost().auth.signInEmailPassword({ email, password: 'a brand new passphrase' });
    expect(signIn.body.session).not.toBeNull();
  });

  it('resets the password with the ticket from the mail; every session ends', async () => {
    const nhost = server.nhost();
    const before = (await nhost.auth.signInEmailPassword({ email, password: 'a brand new passphrase' })).body.session;
    const since = server.mail.countFor(email);
    expect((await server.nhost().auth.sendPasswordResetEmail({ email, options: { redirectTo: `${CLIENT_URL}/reset` } })).body).toBe('OK');
    const mail = await server.mail.waitFor(email, { since });
    const link = linkIn(mail);
    expect(link.searchParams.get('type')).toBe('passwordReset');
    const ticket = link.searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^passwordReset:[0-9a-f-]{36}$/);
    await server.nhost().auth.changeUserPassword({ newPassword: 'reset to this passphrase', ticket });
    expect((await server.nhost().auth.signInEmailPassword({ email, password: 'reset to this passphrase' })).body.session).not.toBeNull();
    expect(await errorOf(server.nhost().auth.changeUserPassword({ newPassword: 'once more passphrase', ticket }))).toEqual({ status: 401, error: 'invalid-ticket' });
    const stale = await request(`${server.authUrl}/token`, { body: { refreshToken: before?.refreshToken } });
    expect(stale.body.error).toBe('invalid-refresh-token');
  });

  it('resets the password through the /verify link (signed in by the redirect)', async () => {
    const since = server.mail.countFor(email);
    await server.nhost().auth.sendPasswordResetEmail({ email });
    const params = await followVerifyLink(linkIn(await server.mail.waitFor(email, { since })));
    expect(params.get('type')).toBe('passwordReset');
    const nhost = server.nhost();
    await nhost.auth.refreshToken({ refreshToken: params.get('refreshToken') ?? '' });
    expect(nhost.getUserSession()).not.toBeNull();
    await nhost.auth.changeUserPassword({ newPassword: 'after the link passphrase' });
    expect((await server.nhost().auth.signInEmailPassword({ email, password: 'after the link passphrase' })).body.session).not.toBeNull();
  });

  it('changes the e-mail after the new address confirms', async () => {
    const nhost = server.nhost();
    await nhost.auth.signInEmailPassword({ email, password: 'after the link passphrase' });
    const newEmail = 'asha.r@example.org';
    await nhost.auth.changeUserEmail({ newEmail, currentPassword: 'after the link passphrase', options: { redirectTo: CLIENT_URL } } as { newEmail: string });
    expect((await nhost.auth.getUser()).body.email).toBe(email);
    const mail = await server.mail.waitFor(newEmail);
    expect(mail.subject).toMatch(/new email/i);
    const params = await followVerifyLink(linkIn(mail));
    expect(params.get('type')).toBe('emailConfirmChange');
    expect((await nhost.auth.getUser()).body.email).toBe(newEmail);
    expect((await server.nhost().auth.signInEmailPassword({ email: newEmail, password: 'after the link passphrase' })).body.session).not.toBeNull();
  });

  it('signs out everywhere: every refresh token of the user stops working', async () => {
    const one = server.nhost();
    const two = server.nhost();
    const credentials = { email: 'asha.r@example.org', password: 'after the link passphrase' };
    const first = (await one.auth.signInEmailPassword(credentials)).body.session;
    const second = (await two.auth.signInEmailPassword(credentials)).body.session;
    await one.auth.signOut({ all: true });
    for (const session of [first, second]) {
      const response = await request(`${server.authUrl}/token`, { body: { refreshToken: session?.refreshToken } });
      expect(response.body.error).toBe('invalid-refresh-token');
    }
    expect(await auditCount('auth.signout')).toBeGreaterThan(0);
  });

  it('signs out one session only', async () => {
    const credentials = { email: 'asha.r@example.org', password: 'after the link passphrase' };
    const one = server.nhost();
    const keep = (await server.nhost().auth.signInEmailPassword(credentials)).body.session;
    const end = (await one.auth.signInEmailPassword(credentials)).body.session;
    await one.auth.signOut({ refreshToken: end?.refreshToken ?? '' });
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: end?.refreshToken } })).body.error).toBe('invalid-refresh-token');
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: keep?.refreshToken } })).status).toBe(200);
  });
});

async function auditCount(action: string): Promise<number> {
  const result = await server.pool.query<{ count: string }>('SELECT count(*) FROM audit_log WHERE action = $1', [action]);
  return Number(result.rows[0]?.count ?? 0);
}

describe('personal access tokens', () => {
  it('creates a PAT, signs in with it, lists and revokes it', async () => {
    const owner = server.nhost();
    await owner.auth.signUpEmailPassword({ email: 'pat.owner@example.in', password: 'pat owner passphrase' });
    await server.pool.query("UPDATE auth.users SET email_verified = true WHERE email = 'pat.owner@example.in'");
    await owner.auth.signInEmailPassword({ email: 'pat.owner@example.in', password: 'pat owner passphrase' });
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = (await owner.auth.createPAT({ expiresAt, metadata: { name: 'cli' } })).body;
    expect(created.personalAccessToken).toMatch(/^[0-9a-f-]{36}$/);

    const cli = server.nhost();
    const signIn = await cli.auth.signInPAT({ personalAccessToken: created.personalAccessToken });
    expect(signIn.body.session?.user?.email).toBe('pat.owner@example.in');

    const token = owner.getUserSession()?.accessToken ?? '';
    const listed = await request(`${server.authUrl}/user/pats`, { token });
    expect(listed.body).toEqual([{ id: created.id, createdAt: expect.any(String), expiresAt: new Date(expiresAt).toISOString(), metadata: { name: 'cli' } }]);
    // Only a hash is stored: the secret appears nowhere in the table.
    const stored = await server.pool.query("SELECT 1 FROM auth.refresh_tokens WHERE refresh_token_hash = sha256(convert_to($1, 'UTF8'))", [created.personalAccessToken]);
    expect(stored.rowCount).toBe(1);

    expect((await request(`${server.authUrl}/user/pats/${created.id}`, { method: 'DELETE', token })).body).toBe('OK');
    expect((await request(`${server.authUrl}/user/pats/${created.id}`, { method: 'DELETE', token })).body.error).toBe('not-found');
    expect(await errorOf(server.nhost().auth.signInPAT({ personalAccessToken: created.personalAccessToken }))).toEqual({ status: 401, error: 'invalid-pat' });
    expect((await request(`${server.authUrl}/user/pats`, { token })).body).toEqual([]);
  });

  it('refuses a PAT in the past and a PAT at /token', async () => {
    const owner = server.nhost();
    await owner.auth.signInEmailPassword({ email: 'pat.owner@example.in', password: 'pat owner passphrase' });
    const past = await errorOf(owner.auth.createPAT({ expiresAt: '2020-01-01T00:00:00Z' }));
    expect(past).toEqual({ status: 400, error: 'invalid-request' });
    const created = (await owner.auth.createPAT({ expiresAt: new Date(Date.now() + 86_400_000).toISOString() })).body;
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: created.personalAccessToken } })).body.error).toBe('invalid-refresh-token');
  });
});

describe('anonymous users', () => {
  it('signs in anonymously, then becomes a real account keeping its id', async () => {
    const nhost = server.nhost();
    const anonymous = (await nhost.auth.signInAnonymous({ displayName: 'Guest', locale: 'en' })).body.session;
    expect(anonymous?.user?.isAnonymous).toBe(true);
    const claims = hasuraClaims(anonymous?.accessToken ?? '');
    expect(claims['x-hasura-default-role']).toBe('anonymous');
    expect(claims['x-hasura-user-is-anonymous']).toBe('true');
    expect(await errorOf(nhost.auth.createPAT({ expiresAt: new Date(Date.now() + 86_400_000).toISOString() }))).toEqual({ status: 403, error: 'forbidden-anonymous' });

    const email = 'guest.converted@example.in';
    expect((await nhost.auth.deanonymizeUser({ signInMethod: 'email-password', email, password: 'converted passphrase' })).body).toBe('OK');
    const params = await followVerifyLink(linkIn(await server.mail.waitFor(email)));
    const signedIn = await server.nhost().auth.signInEmailPassword({ email, password: 'converted passphrase' });
    expect(params.get('type')).toBe('emailVerify');
    expect(signedIn.body.session?.user).toMatchObject({ id: anonymous?.user?.id, isAnonymous: false, defaultRole: 'trial', email });
    expect(hasuraClaims(signedIn.body.session?.accessToken ?? '')['x-hasura-user-is-anonymous']).toBe('false');
    const profile = await server.pool.query('SELECT tier FROM users WHERE user_id = $1', [anonymous?.user?.id]);
    expect(profile.rows).toEqual([{ tier: 'trial' }]);
    // The anonymous session ended with the conversion.
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: anonymous?.refreshToken } })).body.error).toBe('invalid-refresh-token');
  });

  it('refuses to deanonymize a user who is not anonymous', async () => {
    const nhost = server.nhost();
    await nhost.auth.signInEmailPassword({ email: 'guest.converted@example.in', password: 'converted passphrase' });
    const refused = await errorOf(nhost.auth.deanonymizeUser({ signInMethod: 'email-password', email: 'x@example.in', password: 'whatever passphrase' }));
    expect(refused).toEqual({ status: 400, error: 'user-not-anonymous' });
  });
});

describe('service endpoints and validation', () => {
  it('answers /healthz, /version, /.well-known/jwks.json and /token/verify', async () => {
    const nhost = server.nhost();
    expect((await nhost.auth.healthCheckGet()).body).toBe('OK');
    expect((await nhost.auth.getVersion()).body).toEqual({ version: '1.2.3+test' });
    const jwks = (await nhost.auth.getJWKs()).body;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    const session = (await nhost.auth.signInEmailPassword({ email: 'pat.owner@example.in', password: 'pat owner passphrase' })).body.session;
    expect((await nhost.auth.verifyToken({ token: session?.accessToken ?? '' })).body).toBe('OK');
  });

  it('names the field of a bad request', async () => {
    const bad = await request(`${server.authUrl}/signup/email-password`, { body: { email: 'not-an-email', password: 'long enough pass' } });
    expect(bad.body).toEqual({ status: 400, message: 'email: must be a valid email address', error: 'invalid-request' });
    const short = await request(`${server.authUrl}/signup/email-password`, { body: { email: 'short@example.in', password: 'eight888' } });
    expect(short.body).toMatchObject({ status: 400, error: 'password-too-short' });
    const long = await request(`${server.authUrl}/signup/email-password`, { body: { email: 'long@example.in', password: 'x'.repeat(257) } });
    expect(long.body).toEqual({ status: 400, message: 'password: must be at most 256 characters', error: 'invalid-request' });
    const role = await request(`${server.authUrl}/signup/email-password`, { body: { email: 'role@example.in', password: 'long enough pass', options: { allowedRoles: ['superadmin'] } } });
    expect(role.body).toMatchObject({ status: 400, error: 'role-not-allowed' });
    const redirect = await request(`${server.authUrl}/signup/email-password`, { body: { email: 'redirect@example.in', password: 'long enough pass', options: { redirectTo: 'https://evil.example.com/' } } });
    expect(redirect.body).toMatchObject({ status: 400, error: 'redirectTo-not-allowed' });
    // A taken address is answered as a new one while verification is required (no enumeration).
    const taken = await request(`${server.authUrl}/signup/email-password`, { body: { email: 'PAT.owner@example.in', password: 'long enough pass' } });
    expect(taken).toMatchObject({ status: 200, body: { session: null } });
    const json = await fetch(`${server.authUrl}/signin/email-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(await json.json()).toMatchObject({ status: 400, error: 'invalid-request' });
  });

  it('refuses a /verify redirect outside the allow list without redirecting', async () => {
    const response = await request(`${server.authUrl}/verify?type=emailVerify&ticket=verifyEmail:00000000-0000-4000-8000-000000000000&redirectTo=${encodeURIComponent('https://evil.example.com')}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('redirectTo-not-allowed');
  });
});
