import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { ConfigError } from '../../src/config';
import { hasuraClaims, request, startCoreServer, type CoreServer } from './support/core-server';

// Issue 15 item 6, the PAT half. What broke: a session from `POST /signin/pat` was an ordinary
// session. It could change the password or e-mail, mint more PATs (so revoking the first one
// changed nothing), and its refresh token lived 30 days whatever the PAT's expiry or revocation.
// A PAT could also be made to last forever. Now a PAT session is marked (claim
// `x-hasura-auth-pat-id`, refresh tokens linked to the PAT), refused every account-changing call
// with 403 forbidden-pat-session, and ends when its PAT expires or is revoked; POST /pat refuses an
// expiry beyond AUTH_PAT_MAX_LIFETIME (default 365 days).

let server: CoreServer;
const email = 'pat.holder@example.in';
const password = 'pat holder passphrase';
let ownerToken = '';

beforeAll(async () => {
  server = await startCoreServer();
  await request(`${server.authUrl}/signup/email-password`, { body: { email, password } });
  await server.pool.query('UPDATE auth.users SET email_verified = true WHERE email = $1', [email]);
  ownerToken = (await request(`${server.authUrl}/signin/email-password`, { body: { email, password } })).body.session.accessToken;
});
afterAll(() => server.close());

const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString();

async function patSession(expiresAt: string): Promise<{ patId: string; session: { accessToken: string; accessTokenExpiresIn: number; refreshToken: string; refreshTokenId: string } }> {
  const created = await request(`${server.authUrl}/pat`, { body: { expiresAt, metadata: { name: 'robot' } }, token: ownerToken });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const signedIn = await request(`${server.authUrl}/signin/pat`, { body: { personalAccessToken: created.body.personalAccessToken } });
  expect(signedIn.status).toBe(200);
  return { patId: created.body.id, session: signedIn.body.session };
}

describe('a session signed in with a PAT', () => {
  it('can never change the password or e-mail, elevate, set up MFA or mint PATs', async () => {
    const { patId, session } = await patSession(inDays(7));
    const token = session.accessToken;
    expect(hasuraClaims(token)['x-hasura-auth-pat-id']).toBe(patId);
    expect((await request(`${server.authUrl}/user`, { token })).body.email).toBe(email);
    const refusals = [
      await request(`${server.authUrl}/user/password`, { body: { newPassword: 'robot chose this one', currentPassword: password }, token }),
      await request(`${server.authUrl}/user/email/change`, { body: { newEmail: 'robot@example.org', currentPassword: password }, token }),
      await request(`${server.authUrl}/pat`, { body: { expiresAt: inDays(30) }, token }),
      await request(`${server.authUrl}/elevate/totp`, { body: { otp: '123456' }, token }),
      await request(`${server.authUrl}/mfa/totp/generate`, { token }),
      await request(`${server.authUrl}/user/mfa`, { body: { code: '123456', activeMfaType: 'totp' }, token }),
    ];
    for (const refusal of refusals) {
      expect(refusal.body).toEqual({ status: 403, message: 'A session signed in with a personal access token cannot do this', error: 'forbidden-pat-session' });
    }
    // The marks survive a refresh.
    const refreshed = await request(`${server.authUrl}/token`, { body: { refreshToken: session.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect(hasuraClaims(refreshed.body.accessToken)['x-hasura-auth-pat-id']).toBe(patId);
    expect((await request(`${server.authUrl}/pat`, { body: { expiresAt: inDays(30) }, token: refreshed.body.accessToken })).body.error).toBe('forbidden-pat-session');
    expect((await request(`${server.authUrl}/signin/email-password`, { body: { email, password } })).status).toBe(200);
  });

  it('ends when the PAT is revoked: no refresh, no Bearer access', async () => {
    const { patId, session } = await patSession(inDays(7));
    expect((await request(`${server.authUrl}/user/pats/${patId}`, { method: 'DELETE', token: ownerToken })).body).toBe('OK');
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: session.refreshToken } })).body.error).toBe('invalid-refresh-token');
    const user = await request(`${server.authUrl}/user`, { token: session.accessToken });
    expect(user.status).toBe(401);
    expect(user.body.error).toBe('unauthenticated-user');
    const live = await server.pool.query("SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE pat_id = $1 AND revoked_at IS NULL", [patId]);
    expect(live.rows[0].n).toBe(0);
  });

  it('never outlives the PAT: tokens expire with it, and a PAT that expired ends the session', async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000);
    const { patId, session } = await patSession(expiresAt.toISOString());
    // The access token would live 15 minutes; the PAT has 10 left.
    expect(session.accessTokenExpiresIn).toBeLessThanOrEqual(600);
    expect(session.accessTokenExpiresIn).toBeGreaterThan(590);
    const claims = JSON.parse(Buffer.from(session.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
    expect(claims.exp).toBeLessThanOrEqual(Math.ceil(expiresAt.getTime() / 1000));
    const stored = await server.pool.query<{ expires_at: Date }>('SELECT expires_at FROM auth.refresh_tokens WHERE id = $1', [session.refreshTokenId]);
    expect(stored.rows[0]?.expires_at.getTime()).toBeLessThanOrEqual(expiresAt.getTime());

    await server.pool.query("UPDATE auth.refresh_tokens SET created_at = now() - interval '1 day', expires_at = now() - interval '1 second' WHERE id = $1", [patId]);
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: session.refreshToken } })).body.error).toBe('invalid-refresh-token');
    expect((await request(`${server.authUrl}/user`, { token: session.accessToken })).status).toBe(401);
  });
});

describe('the PAT lifetime', () => {
  it('refuses an expiry beyond the maximum (365 days by default), naming the field', async () => {
    const refused = await request(`${server.authUrl}/pat`, { body: { expiresAt: inDays(366) }, token: ownerToken });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid-request');
    expect(refused.body.message).toBe('expiresAt: must be at most 365 days from now (AUTH_PAT_MAX_LIFETIME)');
    const count = await server.pool.query("SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE type = 'pat' AND expires_at > now() + interval '365 days'");
    expect(count.rows[0].n).toBe(0);
    expect((await request(`${server.authUrl}/pat`, { body: { expiresAt: inDays(364) }, token: ownerToken })).status).toBe(200);
  });

  it('is configurable with AUTH_PAT_MAX_LIFETIME, and a bad value names the variable', () => {
    expect(readAuthConfig({}).patMaxLifetimeSeconds).toBe(365 * 86_400);
    expect(readAuthConfig({ AUTH_PAT_MAX_LIFETIME: '720h' }).patMaxLifetimeSeconds).toBe(30 * 86_400);
    expect(readAuthConfig({ AUTH_PAT_MAX_LIFETIME: '3600' }).patMaxLifetimeSeconds).toBe(3600);
    expect(() => readAuthConfig({ AUTH_PAT_MAX_LIFETIME: 'forever' })).toThrow(ConfigError);
    expect(() => readAuthConfig({ AUTH_PAT_MAX_LIFETIME: 'forever' })).toThrow(/AUTH_PAT_MAX_LIFETIME/);
  });
});
