// Every screen in both themes, as test artifacts (.test-results/screenshots/screen-<theme>-<path>.png),
// and no console error on any of them (the harness fails a test on one).
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoEmail, screenshot, signIn, url, useBrowser } from './browser';

const PUBLIC_SCREENS = [
  '/', '/brokersInfo', '/privacy-policy', '/terms', '/report',
  '/authenticate/signin', '/authenticate/signup', '/authenticate/signup-success', '/authenticate/forgot-password',
  '/authenticate/forgot-password-confirmation', '/authenticate/reset-password-confirmation', '/no/such/page',
];

/** What a superadmin reaches (every menu entry, the account pages); user accounts also as the manager. */
const SIGNED_IN_SCREENS = [
  '/dashboard', '/positions', '/chart', '/algo', '/backtest', '/strategies', '/subscriptions', '/userAccounts', '/ensembleSync',
  '/baskets', '/reports', '/payoff', '/manageAccounts', '/users/edit', '/users/list',
];

const THEMES = ['dark', 'light'] as const;

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
});
afterAll(async () => {
  await pool?.query(`UPDATE user_app_configs SET meta_data = meta_data || '{"theme":"dark"}' WHERE subcategory = 'global' AND user_id = (SELECT id FROM auth.users WHERE email = $1)`, [demoEmail('superadmin')]);
  await pool?.end();
});

function fileName(theme: string, path: string): string {
  return `screen-${theme}-${path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')}`;
}

/** Waits until the page has drawn its content: no loader left and the network quiet. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('[aria-label="Loading"]').count(), { timeout: 15_000 }).toBe(0);
}

describe('every screen in both themes', () => {
  const session = useBrowser();

  it.each(THEMES)('public and auth screens, %s', async (theme) => {
    const { page } = session();
    // Signed out, the theme is the tab's own setting (the app store in sessionStorage).
    await page.addInitScript((chosen) => {
      sessionStorage.setItem('vyuha-app', JSON.stringify({ state: { theme: chosen }, version: 0 }));
    }, theme);
    for (const path of PUBLIC_SCREENS) {
      await page.goto(url(path));
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await screenshot(page, fileName(theme, path));
    }
  });

  it.each(THEMES)('signed-in screens as the superadmin, %s', async (theme) => {
    const { page } = session();
    // The theme is saved with the account (docs/PRODUCT.md section 4): set it before signing in.
    await pool.query(
      `UPDATE user_app_configs SET meta_data = meta_data || jsonb_build_object('theme', $2::text) WHERE subcategory = 'global' AND user_id = (SELECT id FROM auth.users WHERE email = $1)`,
      [demoEmail('superadmin'), theme],
    );
    await signIn(page, 'superadmin');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    for (const path of SIGNED_IN_SCREENS) {
      await page.goto(url(path));
      await page.getByTestId('side-menu').waitFor();
      await settled(page);
      await screenshot(page, fileName(theme, path));
    }
  });
});
