// /users/list and /users/edit?user=<id> (issue 19 item 5) in a real browser, on an account of the
// test's own (a new basic user, so the demo world stays as it was):
// - an administrator finds the user, grants BACKTEST credits in the form, and the user, signed in,
//   sees them in their alert figures (the shell's credit notice and the licences tab);
// - the administrator disables the user (sign-in refused by the auth API) and enables them again;
// - support sees only masked names on the list and on the user's page, and no e-mail;
// - a trader is refused at both routes and at the API.
// Screenshots of both screens in both themes at both layouts.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoEmail, screenshotLayouts, signIn, url, useBrowser } from './browser';
import { clearOfIstMidnight, istDay } from './ist-day';
import { accessToken, newTrader, openDatabase, signInAs, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const NAME = `Ramesh Test ${SUFFIX}`;
const MASKED = `Ra****${SUFFIX.slice(-2)}`;

let pool: pg.Pool;
let trader: TraderAccount;

async function signInStatus(email: string, password: string): Promise<number> {
  const response = await fetch(url('/v1/auth/signin/email-password'), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  return response.status;
}

async function openUser(page: Page): Promise<void> {
  await page.goto(url(`/users/edit?user=${trader.userId}`));
  await page.getByTestId('admin-licences').waitFor();
}

async function listReady(page: Page): Promise<void> {
  await page.getByTestId('users-table').waitFor();
}

/** A user's page shown from its top (the fixed header would cover a page scrolled by the grant form). */
async function editReady(page: Page): Promise<void> {
  await page.getByTestId('admin-licences').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
}

beforeAll(async () => {
  pool = openDatabase();
  trader = await newTrader(pool, { email: `users-admin-${SUFFIX}@example.test`, password: `users-admin-${SUFFIX}-password`, tier: 'basic' });
  await pool.query('UPDATE users SET name = $2 WHERE user_id = $1', [trader.userId, NAME]);
});

afterAll(async () => {
  await pool?.end();
});

describe('users administration', () => {
  // A licence's days left count from today in IST: never across its midnight.
  beforeEach(() => clearOfIstMidnight());
  const session = useBrowser();

  it('an administrator grants BACKTEST credits and the user sees them in their alert figures', async () => {
    const { page, browser } = session();
    await signIn(page, 'administrator');
    await page.goto(url('/users/list'));
    await page.getByTestId('users-search').fill(trader.email);
    const row = page.getByTestId('user-row').filter({ hasText: NAME });
    await row.waitFor();
    await expect.poll(async () => page.getByTestId('user-row').count(), { timeout: 10_000 }).toBe(1);
    await screenshotLayouts(page, 'users-list-administrator', listReady);
    await row.getByTestId('user-name').click();
    await page.getByTestId('admin-licences').waitFor();
    expect(await page.getByTestId('admin-user-name').textContent()).toBe(NAME);

    // Refused in the form, naming the field; nothing granted.
    await page.getByTestId('grant-credits').fill('0');
    await page.getByTestId('grant-submit').click();
    await page.getByText('Enter a whole number of candles above 0').waitFor();

    const expiry = istDay(10);
    await page.getByTestId('grant-credits').fill('1000');
    await page.getByTestId('grant-expiry').fill(expiry);
    await page.getByTestId('grant-submit').click();
    const backtest = page.getByTestId('licence-backtest');
    await expect.poll(async () => backtest.getByTestId('licence-total').textContent(), { timeout: 10_000 }).toBe('1,000');
    expect(await backtest.getByTestId('licence-days-left').textContent()).toBe('10');
    await page.getByTestId('audit-row').filter({ hasText: 'user_credits.insert' }).filter({ hasText: 'Arjun Malhotra' }).waitFor();
    await screenshotLayouts(page, 'users-edit-administrator', editReady);

    // The user, signed in elsewhere: the shell's credit notice and their own licences tab.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    try {
      const userPage = await context.newPage();
      await signInAs(userPage, trader);
      const notice = userPage.getByTestId('credit-notice');
      await notice.getByText('Backtest credits: 0% used, 10 days left').waitFor({ timeout: 15_000 });
      await userPage.goto(url('/users/edit?tab=licences'));
      const own = userPage.getByTestId('licence-backtest');
      await expect.poll(async () => own.getByTestId('licence-total').textContent(), { timeout: 10_000 }).toBe('1,000');
      expect(await own.getByTestId('licence-days-left').textContent()).toBe('10');
    } finally {
      await context.close();
    }
    const { rows } = await pool.query<{ credits: string; expiry: string }>(
      `SELECT credits::text, expiry::text FROM user_credits WHERE user_id = $1`, [trader.userId]);
    expect(rows).toEqual([{ credits: '1000', expiry }]);
  });

  it('an administrator disables the user (sign-in refused) and enables them again', async () => {
    const { page } = session();
    await signIn(page, 'administrator');
    await openUser(page);
    await page.getByTestId('disable-user').click();
    // The dialog's button: the page's own button has the same name, and `.last()` could find it
    // before the dialog opened (a second click, a second dialog).
    await page.getByRole('dialog').getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByTestId('enable-user').waitFor();
    expect(await signInStatus(trader.email, trader.password)).toBe(401);

    await page.goto(url('/users/list'));
    await page.getByTestId('users-status').click();
    await page.getByRole('option', { name: 'Disabled' }).click();
    await page.getByTestId('user-row').filter({ hasText: NAME }).getByTestId('user-status').filter({ hasText: 'disabled' }).waitFor();

    await openUser(page);
    await page.getByTestId('enable-user').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByTestId('disable-user').waitFor();
    expect(await signInStatus(trader.email, trader.password)).toBe(200);
    await page.getByTestId('audit-row').filter({ hasText: 'auth.users.disabled' }).nth(1).waitFor();
  });

  it('support sees only masked names and no e-mail, on the list and on a user\'s page', async () => {
    const { page } = session();
    await signIn(page, 'support');
    await page.goto(url('/users/list'));
    await page.getByTestId('users-table').waitFor();
    const { rows: clear } = await pool.query<{ name: string }>(`SELECT name FROM users WHERE name <> 'Siddharth Banerjee'`);
    const shown = await page.getByTestId('users-table').innerText();
    for (const { name } of clear) expect(shown).not.toContain(name);
    expect(shown).not.toContain('@');
    await page.getByTestId('users-search').fill('Aa****ma');
    await page.getByTestId('user-row').filter({ hasText: 'Aa****ma' }).waitFor();
    await page.getByTestId('users-search').fill(MASKED);
    await page.getByTestId('user-row').filter({ hasText: MASKED }).waitFor();
    await screenshotLayouts(page, 'users-list-support', listReady);

    await page.getByTestId('user-row').filter({ hasText: MASKED }).getByTestId('user-name').click();
    await page.getByTestId('admin-licences').waitFor();
    const body = await page.locator('main').innerText();
    expect(body).toContain(MASKED);
    expect(body).not.toContain(NAME);
    expect(body).not.toContain(trader.email);
    expect(body).not.toContain('Arjun Malhotra');
    expect(await page.getByTestId('grant-form').count()).toBe(0);
    expect(await page.getByTestId('disable-user').count()).toBe(0);
    await screenshotLayouts(page, 'users-edit-support', editReady);

    // The other screens support can open show no other user's name either.
    const { rows: demoNames } = await pool.query<{ name: string }>(
      `SELECT u.name FROM users u JOIN auth.users a ON a.id = u.user_id WHERE a.email LIKE '%@demo.vyuha.in' AND a.email <> $1`, [demoEmail('support')]);
    for (const path of ['/dashboard', '/users/edit', '/users/edit?tab=licences']) {
      await page.goto(url(path));
      await page.getByTestId('side-menu').waitFor();
      await page.waitForLoadState('networkidle');
      const text = await page.locator('body').innerText();
      for (const { name } of demoNames) expect(text, `${path} shows ${name}`).not.toContain(name);
    }
  });

  it('a trader is refused at /users/list, at another user\'s page and at the API', async () => {
    const { page } = session();
    await signIn(page, 'basic');
    await page.goto(url('/users/list'));
    await page.getByTestId('forbidden').waitFor();
    await page.goto(url(`/users/edit?user=${trader.userId}`));
    await page.getByTestId('forbidden').waitFor();
    const token = await accessToken(demoEmail('basic'), DEMO_PASSWORD);
    const response = await fetch(url('/v1/graphql'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ admin_users { total rows { name } } }' }),
    });
    const answer = (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions: { code: string } }> };
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(answer.errors?.[0]?.message).toContain('admin_users');
  });
});
