// The account page's change-password and change-e-mail forms in Chromium against the real auth
// service. What broke (issue 15 item 6): the server changed either with a Bearer token alone, and
// the forms sent nothing more. Now the server needs the current password and the forms ask for
// it: a wrong one is shown under its field and changes nothing; the right one works.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, url, useBrowser, waitForMail, mails } from './browser';

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
});
afterAll(() => pool?.end());

async function signInStatus(email: string, password: string): Promise<number> {
  const response = await fetch(url('/v1/auth/signin/email-password'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return response.status;
}

describe('account credentials (users/edit, "E-mail and password")', () => {
  const session = useBrowser();

  it('asks for the current password, refuses a wrong one, and changes the password and e-mail with the right one', async () => {
    const { page, consoleErrors } = session();
    consoleErrors.allow(/401|Unauthorized/);
    const email = `credentials-${Date.now()}@example.in`;
    const password = 'first credentials passphrase';
    const signUp = await fetch(url('/v1/auth/signup/email-password'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(signUp.status).toBe(200);
    await pool.query('UPDATE auth.users SET email_verified = true WHERE email = $1', [email]);

    await page.goto(url('/authenticate/signin'));
    await page.getByTestId('signin-email').fill(email);
    await page.getByTestId('signin-password').fill(password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL((address) => !address.pathname.startsWith('/authenticate/'), { timeout: 15_000 });
    await page.goto(url('/users/edit?tab=sign-in'));

    await page.getByTestId('change-password-current').fill('not my password at all');
    await page.getByTestId('change-password-new').fill('second credentials passphrase');
    await page.getByTestId('change-password-repeat').fill('second credentials passphrase');
    await page.getByTestId('change-password-submit').click();
    await page.getByText('The current password is not right').waitFor({ timeout: 15_000 });
    await screenshot(page, 'account-change-password-wrong-current');
    expect(await signInStatus(email, password)).toBe(200);

    await page.getByTestId('change-password-current').fill(password);
    await page.getByTestId('change-password-submit').click();
    await page.getByText('Your password has been changed.').waitFor({ timeout: 15_000 });
    expect(await signInStatus(email, 'second credentials passphrase')).toBe(200);
    expect(await signInStatus(email, password)).toBe(401);

    const newEmail = `credentials-new-${Date.now()}@example.in`;
    const since = (await mails(newEmail)).length;
    await page.getByTestId('change-email-new').fill(newEmail);
    await page.getByTestId('change-email-current-password').fill('second credentials passphrase');
    await page.getByTestId('change-email-submit').click();
    await page.getByText('Check your inbox').waitFor({ timeout: 15_000 });
    expect((await waitForMail(newEmail, { since })).subject).toMatch(/new email/i);
  });
});
