// The harness end to end on what every build has: the server's own endpoints, the landing page and
// the error page for an unknown path (docs/PRODUCT.md section 2), in Debian's Chromium, with screenshots.
import { describe, expect, it } from 'vitest';
import { screenshot, url, useBrowser } from './browser';

describe('server endpoints', () => {
  it('/version.json gives the deployed version, uncached', async () => {
    const response = await fetch(url('/version.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { version?: unknown };
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('/healthz is ok with the database', async () => {
    const response = await fetch(url('/healthz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });
});

describe('pages', () => {
  const session = useBrowser();

  it('the landing page renders text, with no console errors', async () => {
    const { page } = session();
    const response = await page.goto(url('/'));
    expect(response?.status()).toBe(200);
    await page.waitForLoadState('networkidle');
    await expect.poll(async () => (await page.locator('#root').innerText()).trim().length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.title()).toContain('Vyuha');
    await screenshot(page, 'smoke-landing');
  });

  it('an unknown path shows "Page not found" followed by the path', async () => {
    const { page } = session();
    await page.goto(url('/no/such/page'));
    await page.getByText('Page not found').first().waitFor({ timeout: 10_000 });
    expect(await page.locator('body').innerText()).toMatch(/Page not found[\s\S]*\/no\/such\/page/);
    await screenshot(page, 'smoke-not-found');
  });

  it('the error page of a 404 asks "How did you get here?" (docs/PRODUCT.md section 2)', async () => {
    const { page } = session();
    await page.goto(url('/no/such/page'));
    await page.getByText('Page not found').first().waitFor({ timeout: 10_000 });
    const text = await page.locator('body').innerText();
    expect(text).toContain('How did you get here?');
    expect(text).toContain('Sorry we can\'t seem to find the page you\'re looking for.');
  });

  it('"Send me back" on the error page goes to /', async () => {
    const { page } = session();
    await page.goto(url('/no/such/page'));
    await page.getByRole('button', { name: 'Send me back' }).or(page.getByRole('link', { name: 'Send me back' })).first().click({ timeout: 10_000 });
    await page.waitForURL((address) => address.pathname === '/', { timeout: 10_000 });
    await screenshot(page, 'smoke-sent-back');
  });
});
