// The account page's two-factor, security-key and access-token sections in Chromium against the
// real auth service. What broke (issue 15, after items 6 and 9): a stolen token could switch on
// TOTP or add a first security key, then elevate with it; and (item 6's follow-up) mint a personal
// access token living a year. Now the server asks a session whose sign-in was more than 5 minutes
// ago for the current password (a refresh keeps the sign-in time), and the sections show that
// field with the reason under it; someone who just signed in is not asked.
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { totpCode, totpStep } from '../../packages/server/src/auth/mfa/totp';
import { screenshot, url, useBrowser } from './browser';

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
});
afterAll(() => pool?.end());

const PASSWORD = 'fresh proof passphrase';

/** A verified account of its own, signed in through the sign-in page. */
async function signedInAsNewUser(page: Page, prefix: string): Promise<string> {
  const email = `${prefix}-${Date.now()}@example.in`;
  const signUp = await fetch(url('/v1/auth/signup/email-password'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  expect(signUp.status).toBe(200);
  await pool.query('UPDATE auth.users SET email_verified = true WHERE email = $1', [email]);
  await page.goto(url('/authenticate/signin'));
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(PASSWORD);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((address) => !address.pathname.startsWith('/authenticate/'), { timeout: 15_000 });
  return email;
}

/**
 * As if the sign-in happened 10 minutes ago, then opens `path`: the page load refreshes the
 * session (one load at a time: two loads racing with one refresh token would look like a reuse).
 */
async function openAsOldSession(page: Page, input: { email: string; path: string }): Promise<void> {
  await pool.query("UPDATE auth.refresh_tokens SET signed_in_at = now() - interval '10 minutes' WHERE user_id = (SELECT id FROM auth.users WHERE email = $1)", [input.email]);
  await page.goto(url(input.path));
}

async function withVirtualAuthenticator(page: Page): Promise<void> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

async function securityKeys(email: string): Promise<number> {
  const found = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.user_security_keys k JOIN auth.users u ON u.id = k.user_id WHERE u.email = $1', [email]);
  return found.rows[0]?.n ?? 0;
}

describe('enrolling a new factor (users/edit, "Two-factor" and "Security keys")', () => {
  const session = useBrowser();

  it('adds a security key at once right after signing in, without asking for the password', async () => {
    const { page } = session();
    await withVirtualAuthenticator(page);
    const email = await signedInAsNewUser(page, 'fresh-key');
    await page.goto(url('/users/edit?tab=security-keys'));
    await page.getByLabel('Nickname').fill('laptop key');
    await page.getByTestId('security-key-add').click();
    await page.getByText('Added on this visit').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('security-key-current-password').count()).toBe(0);
    expect(await securityKeys(email)).toBe(1);
  });

  it('asks an old session for the current password before adding a security key', async () => {
    const { page, consoleErrors } = session();
    consoleErrors.allow(/400|Bad Request/);
    await withVirtualAuthenticator(page);
    const email = await signedInAsNewUser(page, 'old-key');
    await openAsOldSession(page, { email, path: '/users/edit?tab=security-keys' });
    await page.getByTestId('security-key-add').click();
    await page.getByText('For your safety, enter your current password').waitFor({ timeout: 15_000 });
    expect(await securityKeys(email)).toBe(0);
    await screenshot(page, 'account-security-key-needs-current-password');
    await page.getByTestId('security-key-current-password').fill(PASSWORD);
    await page.getByTestId('security-key-add').click();
    await page.getByText('Added on this visit').waitFor({ timeout: 15_000 });
    expect(await securityKeys(email)).toBe(1);
  });

  it('asks an old session for the current password before switching two-factor sign-in on, and says when it is wrong', async () => {
    const { page, consoleErrors } = session();
    consoleErrors.allow(/400|401|Bad Request|Unauthorized/);
    const email = await signedInAsNewUser(page, 'old-totp');
    await openAsOldSession(page, { email, path: '/users/edit?tab=two-factor' });
    await page.getByTestId('totp-setup').click();
    const secret = (await page.getByTestId('totp-secret').textContent({ timeout: 15_000 })) ?? '';
    const code = () => totpCode({ secret, step: totpStep(Date.now()) });
    await page.getByTestId('totp-code').fill(code());
    await page.getByTestId('totp-activate').click();
    await page.getByText('For your safety, enter your current password').waitFor({ timeout: 15_000 });
    await page.getByTestId('totp-current-password').fill('not the passphrase');
    await page.getByTestId('totp-activate').click();
    await page.getByText('The current password is not right').waitFor({ timeout: 15_000 });
    await screenshot(page, 'account-two-factor-wrong-current-password');
    const off = await pool.query('SELECT active_mfa_type FROM auth.users WHERE email = $1', [email]);
    expect(off.rows).toEqual([{ active_mfa_type: null }]);
    await page.getByTestId('totp-current-password').fill(PASSWORD);
    await page.getByTestId('totp-code').fill(code());
    await page.getByTestId('totp-activate').click();
    await page.getByText('On (authenticator app)').waitFor({ timeout: 15_000 });
    const on = await pool.query('SELECT active_mfa_type FROM auth.users WHERE email = $1', [email]);
    expect(on.rows).toEqual([{ active_mfa_type: 'totp' }]);
  });
});

async function personalAccessTokens(email: string): Promise<number> {
  const found = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM auth.refresh_tokens t JOIN auth.users u ON u.id = t.user_id WHERE u.email = $1 AND t.type = 'pat'", [email]);
  return found.rows[0]?.n ?? 0;
}

describe('creating a personal access token (users/edit, "Access tokens")', () => {
  const session = useBrowser();

  it('creates a token at once right after signing in, without asking for the password', async () => {
    const { page } = session();
    const email = await signedInAsNewUser(page, 'fresh-pat');
    await page.goto(url('/users/edit?tab=tokens'));
    await page.getByLabel('Name').fill('fresh script');
    await page.getByTestId('pat-create').click();
    await page.getByTestId('new-pat').filter({ hasText: /^[0-9a-f-]{36}$/ }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('pat-current-password').count()).toBe(0);
    expect(await personalAccessTokens(email)).toBe(1);
  });

  it('asks an old session for the current password before creating a token, and says when it is wrong', async () => {
    const { page, consoleErrors } = session();
    consoleErrors.allow(/400|401|Bad Request|Unauthorized/);
    const email = await signedInAsNewUser(page, 'old-pat');
    await openAsOldSession(page, { email, path: '/users/edit?tab=tokens' });
    await page.getByLabel('Name').fill('old session script');
    await page.getByTestId('pat-create').click();
    await page.getByText('For your safety, enter your current password').waitFor({ timeout: 15_000 });
    expect(await personalAccessTokens(email)).toBe(0);
    await page.getByTestId('pat-current-password').fill('not the passphrase');
    await page.getByTestId('pat-create').click();
    await page.getByText('The current password is not right').waitFor({ timeout: 15_000 });
    await screenshot(page, 'account-access-token-needs-current-password');
    expect(await personalAccessTokens(email)).toBe(0);
    await page.getByTestId('pat-current-password').fill(PASSWORD);
    await page.getByTestId('pat-create').click();
    const token = (await page.getByTestId('new-pat').filter({ hasText: /^[0-9a-f-]{36}$/ }).textContent({ timeout: 15_000 })) ?? '';
    expect(await personalAccessTokens(email)).toBe(1);
    // The token shown is a working one.
    const signIn = await fetch(url('/v1/auth/signin/pat'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ personalAccessToken: token }) });
    expect(signIn.status).toBe(200);
  });
});
