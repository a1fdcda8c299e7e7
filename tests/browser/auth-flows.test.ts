// Sign-in methods in Chromium against the real auth service: the TOTP step after a password, and
// a security-key sign-up and sign-in through Chromium's virtual authenticator (DevTools protocol).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { totpCode, totpStep } from '../../packages/server/src/auth/mfa/totp';
import { linkIn, mails, screenshot, url, useBrowser, waitForMail } from './browser';

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
});
afterAll(() => pool?.end());

async function authPost<T>(path: string, body: unknown, accessToken?: string): Promise<T> {
  const response = await fetch(url(`/v1/auth${path}`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A verified user with TOTP switched on through the auth API; returns the TOTP secret. */
async function userWithTotp(email: string, password: string): Promise<string> {
  await authPost('/signup/email-password', { email, password });
  await pool.query('UPDATE auth.users SET email_verified = true WHERE email = $1', [email]);
  const { session } = await authPost<{ session: { accessToken: string } }>('/signin/email-password', { email, password });
  const generated = await fetch(url('/v1/auth/mfa/totp/generate'), { headers: { authorization: `Bearer ${session.accessToken}` } });
  const { totpSecret } = (await generated.json()) as { totpSecret: string };
  // The previous 30 s step: the sign-in below uses the current one (a used step is never accepted again).
  await authPost('/user/mfa', { code: totpCode({ secret: totpSecret, step: totpStep(Date.now()) - 1 }), activeMfaType: 'totp' }, session.accessToken);
  return totpSecret;
}

describe('two-factor sign-in (docs/PRODUCT.md section 4: needsMfa)', () => {
  const session = useBrowser();

  it('asks for the authenticator code after the password, refuses a wrong one, and signs in with the right one', async () => {
    const { page, consoleErrors } = session();
    consoleErrors.allow(/401|Unauthorized/);
    const email = `mfa-${Date.now()}@example.in`;
    const password = 'two-factor-2026';
    const secret = await userWithTotp(email, password);
    await page.goto(url('/authenticate/signin'));
    await page.getByTestId('signin-email').fill(email);
    await page.getByTestId('signin-password').fill(password);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('mfa-code').waitFor();
    await screenshot(page, 'signin-mfa-step');
    const right = totpCode({ secret, step: totpStep(Date.now()) });
    await page.getByTestId('mfa-code').fill(right === '000000' ? '111111' : '000000');
    await page.getByTestId('mfa-submit').click();
    await page.getByTestId('signin-error').waitFor();
    await page.getByTestId('mfa-code').fill(totpCode({ secret, step: totpStep(Date.now()) }));
    await page.getByTestId('mfa-submit').click();
    await page.waitForURL((address) => address.pathname === '/dashboard', { timeout: 15_000 });
  });
});

describe("security keys through Chromium's virtual authenticator", () => {
  const session = useBrowser();

  it('signs up with a security key, verifies the e-mail, signs out, and signs in with the key', async () => {
    const { page, context } = session();
    const devtools = await context.newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const email = `key-${Date.now()}@example.in`;
    await page.goto(url('/authenticate/signup'));
    await page.getByText('Security key', { exact: true }).click();
    await page.getByTestId('signup-key-email').fill(email);
    const before = (await mails(email)).length;
    await page.getByTestId('signup-key-submit').click();
    await page.waitForURL((address) => address.pathname === '/authenticate/signup-success', { timeout: 15_000 });
    const stored = await pool.query('SELECT count(*)::int AS keys FROM auth.user_security_keys k JOIN auth.users u ON u.id = k.user_id WHERE u.email = $1', [email]);
    expect(stored.rows[0]).toEqual({ keys: 1 });
    // The verification link signs the new user in (through /v1/auth/verify and /authenticate/redirect).
    await page.goto(linkIn(await waitForMail(email, { since: before })).toString());
    await page.waitForURL((address) => address.pathname === '/dashboard', { timeout: 15_000 });
    await page.getByTestId('account-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL((address) => address.pathname === '/authenticate/signin');
    await page.getByText('Security key', { exact: true }).click();
    await page.getByTestId('security-key-email').fill(email);
    await page.getByTestId('security-key-submit').click();
    await page.waitForURL((address) => address.pathname === '/dashboard', { timeout: 15_000 });
    await screenshot(page, 'signed-in-with-security-key');
  });
});
