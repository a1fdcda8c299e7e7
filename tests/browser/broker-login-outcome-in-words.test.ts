// "Log in to broker" replaced the page with raw JSON ({"error":"not-implemented",...},
// {"error":"api-key-missing",...}). The login route now returns to the brokers tab with a code,
// and the page says in words what is missing and what to do. The advanced demo user has an
// Upstox account (no login adapter yet) and a Zerodha account without an API key.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoEmail, screenshot, signIn, url, useBrowser } from './browser';

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
});
afterAll(() => pool?.end());

describe('the broker login outcome on the account page', () => {
  const session = useBrowser();

  it('says plainly that only Zerodha logs in today, and what a Zerodha account without an API key needs', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/users/edit?tab=brokers'));

    await page.getByTestId('broker-login-3KX9QW').click();
    const notice = page.getByTestId('broker-login-notice');
    await notice.waitFor();
    expect(new URL(page.url()).search).toBe('?tab=brokers');
    expect(await notice.getAttribute('data-outcome')).toBe('not-supported');
    expect(await notice.textContent()).toContain('Logging in to Upstox is not supported yet: today only Zerodha (Kite Connect) logs in.');
    expect(await page.locator('body').textContent()).not.toContain('not-implemented');
    await screenshot(page, 'broker-login-not-supported');

    await page.getByTestId('broker-login-ZR7314').click();
    await expect.poll(() => notice.getAttribute('data-outcome'), { timeout: 15_000 }).toBe('api-key-missing');
    expect(await notice.textContent()).toContain('Zerodha (Kite Connect) account ZR7314 has no API key.');
    // A reload does not repeat it: the outcome left the address.
    await page.reload();
    await page.getByTestId('broker-status-ZR7314').waitFor();
    expect(await page.getByTestId('broker-login-notice').count()).toBe(0);
    expect(await page.getByTestId('broker-status-ZR7314').textContent()).toBe('Not verified');
  });

  it('shows only its own words for a crafted address', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/users/edit?tab=brokers&broker_login=error&code=Call%20+91%2099999&broker=Evil%20Bank&client_id=%3Cb%3Ex'));
    const notice = page.getByTestId('broker-login-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe('The broker login did not completeThe login to the broker failed (unknown). Try again; if it keeps failing, tell support.');
  });

  it("tells the owner of a client id the broker gave to another account what happened and what to do", async () => {
    const { page } = session();
    // What a login by another user leaves behind (broker-client-id-unique-per-user.test.ts makes it through the route).
    await pool.query(
      `INSERT INTO user_brokers (user_id, broker, client_id, active, ownership, ownership_checked_at)
       SELECT id, 'zerodha', 'CL9999', false, 'claimed_elsewhere', now() FROM auth.users WHERE email = $1`, [demoEmail('advanced')]);
    try {
      await signIn(page, 'advanced');
      await page.goto(url('/users/edit?tab=brokers'));
      const alert = page.getByTestId('broker-claimed-elsewhere');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Another Vyuha account logged in to Zerodha (Kite Connect) as CL9999');
      expect(await page.getByTestId('broker-status-CL9999').textContent()).toBe('Claimed elsewhere');
      expect(await page.getByRole('switch', { name: 'Active: zerodha CL9999' }).isDisabled()).toBe(true);
      await screenshot(page, 'broker-claimed-elsewhere');
    } finally {
      await pool.query(`DELETE FROM user_brokers WHERE client_id = 'CL9999'`);
    }
  });
});
