// /manageAccounts and acting for a user (issue 19 item 3) in a real browser, on an account of the
// test's own (a new basic user without broker accounts, so the demo world stays as it was):
// - the manager asks to link the user by e-mail; the test reads the consent e-mail from the SMTP
//   capture and opens its link as the user, who accepts;
// - the new user shows only with "Show all users" on (no active broker account); the manager acts
//   for them, renames them on /users/edit (one mutation), and sees it in "Recent actions taken for
//   this user"; the user sees it under "Actions taken by your manager";
// - the manager unlinks the user with a confirmation: acting stops, the user is e-mailed, and the
//   server refuses the acting header from then on; linked again, the user removes the manager on
//   /users/edit (Managers) and the manager is e-mailed;
// - a trader is refused at the route and at the API; a used consent link is no longer valid.
// Screenshots of /manageAccounts, the consent page and the user's Managers tab in both themes at both layouts.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD, demoEmail, LAYOUT_VIEWPORTS, layoutProblems, linkIn, mails, screenshot, screenshotLayouts, signIn, url, useBrowser, waitForMail,
} from './browser';
import { accessToken, newTrader, openDatabase, settleShell, signInAs, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const NAME = `Meera Linked ${SUFFIX}`;
const RENAMED = `Meera Renamed ${SUFFIX}`;

let pool: pg.Pool;
let user: TraderAccount;
let managerId: string;

async function graphqlAs(token: string, query: string, headers: Record<string, string> = {}): Promise<{ data?: unknown; errors?: Array<{ message: string; extensions: { code: string } }> }> {
  const response = await fetch(url('/v1/graphql'), {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }, body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions: { code: string } }> };
}

/**
 * A public page (no header, so no theme toggle) in both themes at both layouts, the theme chosen as a
 * visitor's is (the app store in sessionStorage); the layout problems found, by theme and width.
 */
async function publicLayoutProblems(page: Page, name: string, shown: Locator): Promise<string[]> {
  const problems: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((chosen) => sessionStorage.setItem('vyuha-app', JSON.stringify({ state: { theme: chosen }, version: 0 })), theme);
    await page.reload();
    await shown.waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    for (const viewport of LAYOUT_VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await screenshot(page, `${name}-${theme}-${viewport.width}x${viewport.height}`);
      for (const problem of await layoutProblems(page)) problems.push(`${theme} ${viewport.width}: ${problem.kind}: ${problem.detail}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  return problems;
}

// The "Show all users" switch is a stored setting that other tabs and the stored state can change
// under a click, so it is set by clicking until it reads as wanted rather than by one check().
async function showAllUsers(page: Page, on: boolean): Promise<void> {
  const toggle = page.getByLabel('Show all users (including those without an active broker account)');
  await expect.poll(async () => {
    if ((await toggle.isChecked()) !== on) await toggle.click({ force: true });
    return toggle.isChecked();
  }, { timeout: 10_000 }).toBe(on);
}

async function manageReady(page: Page): Promise<void> {
  await page.getByTestId('managed-users').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  // On a phone the side menu closes as a user would close it, and no toast stays over the page.
  await settleShell(page);
}

beforeAll(async () => {
  pool = openDatabase();
  user = await newTrader(pool, { email: `manage-${SUFFIX}@example.test`, password: `manage-${SUFFIX}-password`, tier: 'basic' });
  await pool.query('UPDATE users SET name = $2 WHERE user_id = $1', [user.userId, NAME]);
  const { rows } = await pool.query<{ user_id: string }>(`SELECT user_id FROM users WHERE tier = 'manager' ORDER BY name LIMIT 1`);
  managerId = rows[0]?.user_id as string;
});

afterAll(async () => {
  await pool?.query('DELETE FROM managers WHERE user_id = $1', [user.userId]);
  await pool?.end();
});

describe('manage accounts', () => {
  const session = useBrowser();
  let consentLink: URL;

  it('links a user with their consent by e-mail, acts for them, and sees the action in both audits', async () => {
    const { page, browser } = session();
    await signIn(page, 'manager');
    await page.goto(url('/manageAccounts'));
    await page.getByTestId('managed-users').waitFor();
    const since = (await mails(user.email)).length;
    await page.getByLabel('Link a user by e-mail').fill(user.email);
    await page.getByRole('button', { name: 'Send consent request' }).click();
    await page.getByTestId('link-request-sent').waitFor();
    const consent = await waitForMail(user.email, { since });
    expect(consent.subject).toContain('asks to manage your Vyuha account');
    consentLink = linkIn(consent);
    expect(consentLink.pathname).toBe('/manageAccounts/consent');
    expect(consentLink.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);

    // The user opens the link from the e-mail (no sign-in needed: the token is the proof), sees who asks, and accepts.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    try {
      const userPage = await context.newPage();
      await userPage.goto(consentLink.href);
      await userPage.getByTestId('consent-request').getByText('Ananya Deshpande').waitFor();
      expect(await publicLayoutProblems(userPage, 'manage-accounts-consent', userPage.getByTestId('consent-request'))).toEqual([]);
      await userPage.getByRole('button', { name: 'Accept' }).click();
      await userPage.getByTestId('consent-done').getByText('now manages your account').waitFor();
      await signInAs(userPage, user);
      expect((await pool.query('SELECT 1 FROM managers WHERE manager_id = $1 AND user_id = $2', [managerId, user.userId])).rowCount).toBe(1);

      // The manager: the new user has no active broker account, so only "Show all users" lists them.
      await page.reload();
      await page.getByTestId('managed-users').waitFor();
      await showAllUsers(page, false);
      await expect.poll(async () => page.getByTestId('managed-users').getByText(NAME).count()).toBe(0);
      await showAllUsers(page, true);
      const row = page.getByRole('row').filter({ hasText: NAME });
      await row.waitFor();
      await row.getByRole('button', { name: 'Act for this user' }).click();
      await page.waitForURL((address) => address.pathname === '/dashboard');

      // One mutation while acting: the user's name on their account page.
      await page.goto(url('/users/edit'));
      const nameField = page.getByLabel('Name');
      await expect.poll(async () => nameField.inputValue(), { timeout: 10_000 }).toBe(NAME);
      await nameField.fill(RENAMED);
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect.poll(async () => (await pool.query<{ name: string }>('SELECT name FROM users WHERE user_id = $1', [user.userId])).rows[0]?.name).toBe(RENAMED);

      await page.goto(url('/manageAccounts'));
      const audit = page.getByTestId('acting-audit');
      await audit.getByText('update_users_by_pk').waitFor({ timeout: 10_000 });
      expect(await audit.innerText()).toContain('AccountRename');
      const { rows } = await pool.query<{ actor_id: string; root_fields: string[]; outcome: string }>(
        'SELECT actor_id, root_fields, outcome FROM acting_audit WHERE subject_id = $1', [user.userId]);
      expect(rows).toEqual([{ actor_id: managerId, root_fields: ['update_users_by_pk'], outcome: 'ok' }]);
      await screenshotLayouts(page, 'manage-accounts-manager', manageReady);

      // The user's own page: who manages them and what the manager did.
      await userPage.goto(url('/users/edit?tab=managers'));
      await userPage.getByTestId('my-managers').getByText('Ananya Deshpande').waitFor();
      await userPage.getByTestId('acting-audit').getByText('update_users_by_pk').waitFor();
      await screenshotLayouts(userPage, 'manage-accounts-user-managers', async (shown) => {
        await shown.getByTestId('acting-audit').waitFor();
        await settleShell(shown);
      });
    } finally {
      await context.close();
    }
  });

  it('unlinks with a confirmation: acting stops, the user is e-mailed, the server refuses the header', async () => {
    const { page } = session();
    await signIn(page, 'manager');
    await page.goto(url('/manageAccounts'));
    await page.getByTestId('managed-users').waitFor();
    await showAllUsers(page, true);
    const row = page.getByRole('row').filter({ hasText: RENAMED });
    await row.getByRole('button', { name: 'Act for this user' }).click();
    await page.waitForURL((address) => address.pathname === '/dashboard');
    await page.goto(url('/manageAccounts'));
    await page.getByText('You are acting for').waitFor();
    const since = (await mails(user.email)).length;
    await page.getByRole('row').filter({ hasText: RENAMED }).getByRole('button', { name: 'Unlink' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unlink' }).click();
    await expect.poll(async () => page.getByText('You are acting for').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => page.getByRole('row').filter({ hasText: RENAMED }).count()).toBe(0);
    const notice = await waitForMail(user.email, { since });
    expect(notice.text).toContain('Ananya Deshpande removed the manager link');
    const token = await accessToken(demoEmail('manager'), DEMO_PASSWORD);
    const refused = await graphqlAs(token, '{ users { name } }', { 'x-hasura-role': 'manager', 'x-hasura-managed-user-id': user.userId });
    expect(refused.errors?.[0]?.extensions.code).toBe('access-denied');
  });

  it('lets the user remove their manager from /users/edit, with a confirmation; the manager is e-mailed', async () => {
    const { page } = session();
    await pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [managerId, user.userId]);
    await signInAs(page, user);
    await page.goto(url('/users/edit?tab=managers'));
    const row = page.getByTestId('my-managers').getByRole('row').filter({ hasText: 'Ananya Deshpande' });
    await row.waitFor();
    const since = (await mails(demoEmail('manager'))).length;
    await row.getByRole('button', { name: 'Unlink' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await pool.query('SELECT 1 FROM managers WHERE manager_id = $1 AND user_id = $2', [managerId, user.userId])).rowCount).toBe(1);
    await row.getByRole('button', { name: 'Unlink' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unlink' }).click();
    await page.getByText('Nobody manages your account.').waitFor();
    expect((await pool.query('SELECT 1 FROM managers WHERE manager_id = $1 AND user_id = $2', [managerId, user.userId])).rowCount).toBe(0);
    const notice = await waitForMail(demoEmail('manager'), { since });
    expect(notice.text).toContain(`${RENAMED} removed the manager link`);
  });

  it('shows a used consent link as no longer valid, and refuses a trader at the route and at the API', async () => {
    const { page } = session();
    await page.goto(consentLink.href);
    await page.getByTestId('consent-invalid').getByText('This link is no longer valid').waitFor();
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0);

    await signIn(page, 'basic');
    await page.goto(url('/manageAccounts'));
    await page.getByTestId('forbidden').waitFor();
    const token = await accessToken(demoEmail('basic'), DEMO_PASSWORD);
    const answer = await graphqlAs(token, 'mutation { request_manager_link(email: "someone@example.test") { email } }');
    expect(answer.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(answer.errors?.[0]?.message).toContain('request_manager_link');
  });
});
