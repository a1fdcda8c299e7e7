import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { totpCode, totpStep } from '../../src/auth/mfa/totp';
import { createSigningKeys } from '../../src/auth/signing-keys';
import { CLIENT_URL, hasuraClaims, linkIn, request, startCoreServer, type CoreServer } from './support/core-server';

// Issue 15 item 6. What broke: `POST /user/password` (no ticket) and `POST /user/email/change`
// needed only a Bearer token, so anyone holding one (a leaked token, a stolen laptop's tab)
// could take the account over. Now each needs the current password (`currentPassword`, ours), or
// an access token elevated in the last 5 minutes (security key or the new `POST /elevate/totp`).
// The forgot-password paths (a reset ticket, or the session a reset link starts) need neither.

let server: CoreServer;
const email = 'meera.iyer@example.in';
const password = 'first passphrase of meera';

beforeAll(async () => {
  server = await startCoreServer();
  await request(`${server.authUrl}/signup/email-password`, { body: { email, password } });
  await server.pool.query('UPDATE auth.users SET email_verified = true WHERE email = $1', [email]);
});
afterAll(() => server.close());

async function signIn(secret: string): Promise<{ accessToken: string; refreshToken: string; user: { id: string } }> {
  const answer = await request(`${server.authUrl}/signin/email-password`, { body: { email, password: secret } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.session;
}

async function canSignIn(secret: string): Promise<boolean> {
  const answer = await request(`${server.authUrl}/signin/email-password`, { body: { email, password: secret } });
  return answer.status === 200 && answer.body.session !== null;
}

describe('changing the password', () => {
  it('is refused with only a Bearer token, naming the missing field', async () => {
    const session = await signIn(password);
    const answer = await request(`${server.authUrl}/user/password`, { body: { newPassword: 'taken over passphrase' }, token: session.accessToken });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid-request');
    expect(answer.body.message).toMatch(/^currentPassword: /);
    expect(await canSignIn('taken over passphrase')).toBe(false);
    expect(await canSignIn(password)).toBe(true);
  });

  it('is refused with a wrong current password', async () => {
    const session = await signIn(password);
    const answer = await request(`${server.authUrl}/user/password`, { body: { newPassword: 'taken over passphrase', currentPassword: 'a wrong guess here' }, token: session.accessToken });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid-email-password');
    expect(answer.body.message).toMatch(/^currentPassword: /);
    expect(await canSignIn(password)).toBe(true);
  });

  it('works with the current password, from the unchanged Nhost client too', async () => {
    const nhost = server.nhost();
    await nhost.auth.signInEmailPassword({ email, password });
    // The Nhost client sends the body as given: our extra field passes through.
    await nhost.auth.changeUserPassword({ newPassword: 'second passphrase of meera', currentPassword: password } as { newPassword: string });
    expect(await canSignIn('second passphrase of meera')).toBe(true);
    const session = await signIn('second passphrase of meera');
    const back = await request(`${server.authUrl}/user/password`, { body: { newPassword: password, currentPassword: 'second passphrase of meera' }, token: session.accessToken });
    expect(back.body).toBe('OK');
  });

  it('slows down guesses of the current password made with a stolen token', async () => {
    const session = await signIn(password);
    const statuses: number[] = [];
    for (let guess = 0; guess < 7; guess += 1) {
      statuses.push((await request(`${server.authUrl}/user/password`, { body: { newPassword: 'taken over passphrase', currentPassword: `guess number ${guess}` }, token: session.accessToken })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    await server.pool.query('DELETE FROM auth.signin_throttle');
  });
});

describe('changing the e-mail', () => {
  it('is refused with only a Bearer token and works with the current password', async () => {
    const session = await signIn(password);
    const refused = await request(`${server.authUrl}/user/email/change`, { body: { newEmail: 'thief@example.org' }, token: session.accessToken });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^currentPassword: /);
    expect(server.mail.countFor('thief@example.org')).toBe(0);
    const pending = await server.pool.query('SELECT new_email FROM auth.users WHERE email = $1', [email]);
    expect(pending.rows).toEqual([{ new_email: null }]);

    const accepted = await request(`${server.authUrl}/user/email/change`, {
      body: { newEmail: 'meera.new@example.org', currentPassword: password, options: { redirectTo: CLIENT_URL } }, token: session.accessToken,
    });
    expect(accepted.body).toBe('OK');
    expect((await server.mail.waitFor('meera.new@example.org')).subject).toMatch(/new email/i);
  });
});

describe('a fresh elevation instead of the password', () => {
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('elevates with a TOTP code (POST /elevate/totp) and then changes the password without it', async () => {
    const session = await signIn(password);
    // TOTP on, using the code of the current step; the elevation uses the next step's code.
    await server.pool.query('UPDATE auth.users SET totp_secret = $2 WHERE email = $1', [email, secret]);
    const step = totpStep(Date.now());
    const activated = await request(`${server.authUrl}/user/mfa`, { body: { code: totpCode({ secret, step }), activeMfaType: 'totp' }, token: session.accessToken });
    expect(activated.body).toBe('OK');

    const wrong = await request(`${server.authUrl}/elevate/totp`, { body: { otp: '000000' }, token: session.accessToken });
    expect(wrong.body.error).toBe('invalid-totp');
    const missing = await request(`${server.authUrl}/elevate/totp`, { body: {}, token: session.accessToken });
    expect(missing.body).toMatchObject({ status: 400, error: 'invalid-request' });
    expect(missing.body.message).toMatch(/^otp: /);

    const elevated = await request(`${server.authUrl}/elevate/totp`, { body: { otp: totpCode({ secret, step: step + 1 }) }, token: session.accessToken });
    expect(elevated.status, JSON.stringify(elevated.body)).toBe(200);
    const token = elevated.body.session.accessToken as string;
    expect(hasuraClaims(token)['x-hasura-auth-elevated']).toBe(session.user.id);
    const changed = await request(`${server.authUrl}/user/password`, { body: { newPassword: 'elevated passphrase meera' }, token });
    expect(changed.body).toBe('OK');
    expect(await canSignIn('elevated passphrase meera')).toBe(false); // TOTP is on: a ticket, not a session
    const ticketed = await request(`${server.authUrl}/signin/email-password`, { body: { email, password: 'elevated passphrase meera' } });
    expect(ticketed.body.mfa.ticket).toMatch(/^mfaTotp:/);
  });

  it('refuses an elevation older than 5 minutes', async () => {
    const current = 'elevated passphrase meera';
    const userId = (await server.pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [email])).rows[0]?.id ?? '';
    // A genuinely signed elevated token, issued 6 minutes ago and still unexpired.
    const keys = createSigningKeys({ pool: server.pool, config: readAuthConfig({}) });
    const nowSeconds = Math.floor(Date.now() / 1000);
    const stale = await keys.sign({
      sub: userId, iss: 'hasura-auth', iat: nowSeconds - 360, exp: nowSeconds + 540,
      'https://hasura.io/jwt/claims': {
        'x-hasura-user-id': userId, 'x-hasura-default-role': 'trial', 'x-hasura-allowed-roles': ['trial', 'user', 'me'],
        'x-hasura-user-is-anonymous': 'false', 'x-hasura-auth-elevated': userId,
      },
    });
    expect((await request(`${server.authUrl}/user`, { token: stale })).status).toBe(200);
    const refused = await request(`${server.authUrl}/user/password`, { body: { newPassword: 'stale elevation passphrase' }, token: stale });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^currentPassword: /);
    const withPassword = await request(`${server.authUrl}/user/password`, { body: { newPassword: password, currentPassword: current }, token: stale });
    expect(withPassword.body).toBe('OK');
    await server.pool.query("UPDATE auth.users SET active_mfa_type = NULL, totp_secret = NULL WHERE email = $1", [email]);
  });
});

describe('forgot password', () => {
  it('still works with a reset ticket and no current password', async () => {
    const since = server.mail.countFor(email);
    await request(`${server.authUrl}/user/password/reset`, { body: { email } });
    const ticket = linkIn(await server.mail.waitFor(email, { since })).searchParams.get('ticket') ?? '';
    expect((await request(`${server.authUrl}/user/password`, { body: { newPassword: 'reset by ticket passphrase', ticket } })).body).toBe('OK');
    expect(await canSignIn('reset by ticket passphrase')).toBe(true);
  });

  it('works once from the session a reset link starts (the web app\'s path), and ends the other sessions', async () => {
    const other = await signIn('reset by ticket passphrase');
    const since = server.mail.countFor(email);
    await request(`${server.authUrl}/user/password/reset`, { body: { email } });
    const followed = await fetch(linkIn(await server.mail.waitFor(email, { since })), { redirect: 'manual' });
    const refreshToken = new URL(followed.headers.get('location') ?? '').searchParams.get('refreshToken') ?? '';
    const session = (await request(`${server.authUrl}/token`, { body: { refreshToken } })).body;
    const changed = await request(`${server.authUrl}/user/password`, { body: { newPassword: 'reset by link passphrase' }, token: session.accessToken });
    expect(changed.body).toBe('OK');
    expect(await canSignIn('reset by link passphrase')).toBe(true);
    // The grant is spent: the same session cannot change it again without the password.
    const again = await request(`${server.authUrl}/user/password`, { body: { newPassword: 'third change passphrase' }, token: session.accessToken });
    expect(again.status).toBe(400);
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: other.refreshToken } })).body.error).toBe('invalid-refresh-token');
    // A session from a plain sign-in carries no such grant.
    const plain = await signIn('reset by link passphrase');
    expect((await request(`${server.authUrl}/user/password`, { body: { newPassword: 'third change passphrase' }, token: plain.accessToken })).status).toBe(400);
  });
});
