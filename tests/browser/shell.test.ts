// The signed-in shell in Chromium against the real server (issue: web app shell): each demo role's
// menu (docs/PRODUCT.md section 6), theme and density that persist, sign-out reaching another tab, the
// session-expired path, and the new-version notice.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_ROLES, demoEmail, screenshot, signIn, url, useBrowser, type DemoRole } from './browser';

/** docs/PRODUCT.md section 6's menu table, written out here independently of the app's own copy. */
const SPEC_MENU: Readonly<Record<string, readonly DemoRole[] | 'all'>> = {
  dashboard: 'all',
  chart: ['administrator', 'manager', 'superadmin', 'advanced', 'demo', 'backtest'],
  algo: ['advanced', 'demo', 'administrator', 'manager', 'superadmin', 'backtest'],
  backtest: ['advanced', 'demo', 'administrator', 'manager', 'superadmin', 'backtest'],
  strategies: ['advanced', 'demo', 'administrator', 'manager', 'superadmin', 'backtest'],
  baskets: ['advanced', 'demo', 'administrator', 'manager', 'superadmin', 'backtest'],
  subscriptions: ['trial', 'administrator', 'basic', 'manager', 'superadmin', 'advanced', 'demo', 'backtest'],
  userAccounts: ['manager', 'superadmin', 'backtest'],
  ensembleSync: ['administrator', 'superadmin'],
  reports: ['manager', 'superadmin'],
  // /payoff: shown when the exchange is NSE (the demo users' setting); the research roles (ARCHITECTURE.md).
  payoff: ['advanced', 'demo', 'administrator', 'manager', 'superadmin', 'backtest'],
};

function expectedMenu(role: DemoRole): string[] {
  return Object.entries(SPEC_MENU).filter(([, roles]) => roles === 'all' || roles.includes(role)).map(([entry]) => entry).sort();
}

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
});
afterAll(() => pool?.end());

async function userId(role: DemoRole): Promise<string> {
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail(role)]);
  if (!rows[0]) throw new Error(`no demo user ${role}`);
  return rows[0].id;
}

describe('the side menu of each role (docs/PRODUCT.md section 6)', () => {
  const session = useBrowser();

  it.each(DEMO_ROLES)('%s signs in and sees exactly its entries', async (role) => {
    const { page } = session();
    await signIn(page, role);
    await page.getByTestId('side-menu').waitFor();
    // Payoff appears once the exchange setting has loaded with the preferences.
    const entries = async (): Promise<string[]> => (await page.getByTestId('side-menu').locator('[data-testid^="menu-"]').evaluateAll(
      (links) => links.map((link) => (link.getAttribute('data-testid') ?? '').slice('menu-'.length)),
    )).sort();
    await expect.poll(entries, { timeout: 10_000 }).toEqual(expectedMenu(role));
    await screenshot(page, `menu-${role}`);
  });
});

describe('preferences', () => {
  const session = useBrowser();

  it('keeps the theme and density across a reload and a new sign-in (saved to the account)', async () => {
    const { page, context } = session();
    await signIn(page, 'advanced');
    await page.getByTestId('side-menu').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByTestId('theme-toggle').click();
    await page.getByText('Settings updated successfully').first().waitFor();
    await page.getByTestId('density-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.reload();
    await page.getByTestId('side-menu').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await screenshot(page, 'preferences-light-compact');
    // A new browser context has nothing stored: the theme comes back from the saved preferences.
    const other = await context.browser()?.newContext({ viewport: { width: 1280, height: 800 } });
    if (!other) throw new Error('no browser');
    const second = await other.newPage();
    await signIn(second, 'advanced');
    await second.getByTestId('side-menu').waitFor();
    await expect.poll(() => second.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    const saved = await pool.query<{ meta_data: { theme: string; density: string } }>(
      `SELECT meta_data FROM user_app_configs WHERE user_id = $1 AND category = 'application' AND subcategory = 'global'`, [await userId('advanced')]);
    expect(saved.rows[0]?.meta_data).toMatchObject({ theme: 'light', density: 'compact' });
    await other.close();
    // Back to the defaults for the other tests.
    await pool.query(`UPDATE user_app_configs SET meta_data = meta_data || '{"theme":"dark","density":"cozy"}' WHERE user_id = $1 AND subcategory = 'global'`, [await userId('advanced')]);
  });

  it('locks the dashboard mode to PAPER for the demo role and starts LIVE for others (docs/PRODUCT.md section 4)', async () => {
    const { page } = session();
    await signIn(page, 'demo');
    const mode = page.getByTestId('dashboard-mode');
    await mode.waitFor();
    await expect.poll(async () => mode.locator('input:checked').getAttribute('value')).toBe('PAPER');
    expect(await mode.locator('input[value="LIVE"]').isDisabled()).toBe(true);
  });
});

describe('sessions', () => {
  const session = useBrowser();

  it('signing out in one tab signs out the other', async () => {
    const { page, context } = session();
    await signIn(page, 'basic');
    await page.getByTestId('side-menu').waitFor();
    const other = await context.newPage();
    await other.goto(url('/subscriptions'));
    await other.getByTestId('side-menu').waitFor();
    await page.getByTestId('account-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL((address) => address.pathname === '/authenticate/signin');
    await other.waitForURL((address) => address.pathname === '/authenticate/signin', { timeout: 10_000 });
    // Both tabs forgot the refresh token (docs/PRODUCT.md section 4: removed 100 ms after the sign-out).
    await expect.poll(() => other.evaluate(() => localStorage.getItem('nhostRefreshToken'))).toBeNull();
  });

  it('signing out and leaving at once leaves no refresh token to try on the next page', async () => {
    const { page } = session();
    await signIn(page, 'basic');
    await page.getByTestId('side-menu').waitFor();
    await page.getByTestId('account-menu').click();
    await page.getByTestId('sign-out').click();
    // A navigation right after the click ends the page before the 100 ms cleanup runs: the revoked
    // token must already be gone, or the next page tries it (a refused POST /token, a console error).
    await page.goto(url('/authenticate/signin'));
    await page.getByTestId('signin-email').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('nhostRefreshToken'))).toBeNull();
  });

  it('a session whose refresh token is refused goes to sign-in with the spec message', async () => {
    const { page, consoleErrors } = session();
    // Chromium logs the refused refresh (HTTP 401) as a console error: that is the point of the test.
    consoleErrors.allow(/401|Unauthorized/);
    await page.clock.install();
    await signIn(page, 'trial');
    await page.getByTestId('side-menu').waitFor();
    // The server ends every session of the user; the next refresh is refused.
    await pool.query(`UPDATE auth.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [await userId('trial')]);
    // Past the refresh point of a 15-minute access token.
    await page.clock.fastForward('10:00');
    await page.getByText('Your session has expired. Please sign in again.').first().waitFor({ timeout: 15_000 });
    await page.waitForURL((address) => address.pathname === '/authenticate/signin');
    await screenshot(page, 'session-expired');
  });

  it('an unknown path inside the app shows Page not found and the path', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/dashboard/no-such-screen'));
    await page.getByText('Page not found').first().waitFor();
    expect(await page.locator('body').innerText()).toContain('/dashboard/no-such-screen');
  });
});

describe('a new deployed version (docs/PRODUCT.md section 4)', () => {
  const session = useBrowser();

  it('shows the refresh notice when /version.json changes', async () => {
    const { page } = session();
    await page.clock.install();
    let served = 'first';
    await page.route('**/version.json*', (route) => route.fulfill({ json: { version: `0.1.0+${served}`, updateMode: false } }));
    await signIn(page, 'advanced');
    await page.getByTestId('side-menu').waitFor();
    expect(await page.getByTestId('version-refresh').count()).toBe(0);
    served = 'second';
    // docs/PRODUCT.md section 9: the version is polled every 30 s.
    await page.clock.fastForward('00:31');
    await page.getByTestId('version-refresh').waitFor({ timeout: 10_000 });
    await screenshot(page, 'version-notice');
  });
});

describe('a manager acting for a managed user (docs/PRODUCT.md section 6)', () => {
  const session = useBrowser();

  it('switches to a managed user: requests carry x-hasura-managed-user-id, hide-in-mode entries go, and stopping brings them back', async () => {
    const { page } = session();
    const { rows } = await pool.query<{ name: string; user_id: string }>('SELECT name, user_id FROM users WHERE user_id = $1', [await userId('advanced')]);
    const managed = rows[0];
    if (!managed) throw new Error('no managed demo user');
    await signIn(page, 'manager');
    await page.getByTestId('side-menu').waitFor();
    await page.getByTestId('show-all-users').check({ force: true });
    await page.getByTestId('managed-user-switcher').click();
    const header = page.waitForRequest((request) => request.url().endsWith('/v1/graphql') && request.headers()['x-hasura-managed-user-id'] === managed.user_id);
    await page.getByRole('option', { name: managed.name }).click();
    await header;
    await page.getByTestId('stop-acting').waitFor();
    const entries = (): Promise<string[]> => page.getByTestId('side-menu').locator('[data-testid^="menu-"]').evaluateAll(
      (links) => links.map((link) => (link.getAttribute('data-testid') ?? '').slice('menu-'.length)).sort(),
    );
    await expect.poll(entries).toEqual(['baskets', 'dashboard', 'strategies', 'subscriptions']);
    await screenshot(page, 'manager-acting');
    await page.getByTestId('stop-acting').click();
    await expect.poll(entries).toEqual(expectedMenu('manager'));
    await pool.query(`UPDATE user_app_configs SET meta_data = meta_data || '{"showAllUsers":false}' WHERE user_id = $1 AND subcategory = 'global'`, [await userId('manager')]);
  });
});

describe('another user signing in in another tab (docs/PRODUCT.md section 2)', () => {
  const session = useBrowser();

  it('opens the session-refresh dialog in the first tab', async () => {
    const { page, context } = session();
    await signIn(page, 'basic');
    await page.getByTestId('side-menu').waitFor();
    const other = await context.newPage();
    await other.goto(url('/dashboard'));
    await other.getByTestId('side-menu').waitFor();
    await other.getByTestId('account-menu').click();
    await other.getByTestId('sign-out').click();
    await page.waitForURL((address) => address.pathname === '/authenticate/signin', { timeout: 10_000 });
    await signIn(other, 'trial');
    await page.getByTestId('session-refresh').waitFor({ timeout: 10_000 });
    await screenshot(page, 'session-refresh-dialog');
  });

  it('two tabs of one user hand a session over once, not back and forth', async () => {
    const { page, context } = session();
    // A listener of the tabs' channel in each page counts what the tabs announce to each other.
    await context.addInitScript(() => {
      const counter = window as unknown as { authMessages: number };
      counter.authMessages = 0;
      new BroadcastChannel('vyuha-auth').onmessage = () => { counter.authMessages += 1; };
    });
    await signIn(page, 'basic');
    await page.getByTestId('side-menu').waitFor();
    const other = await context.newPage();
    await other.goto(url('/dashboard'));
    await other.getByTestId('side-menu').waitFor();
    await other.waitForTimeout(1_500);
    // The second tab's import of the stored token is one announcement; an echo loop made hundreds a second.
    const heard = await page.evaluate(() => (window as unknown as { authMessages: number }).authMessages);
    expect(heard).toBeGreaterThanOrEqual(1);
    expect(heard).toBeLessThanOrEqual(3);
  });
});
