// The sign-in tabs offered magic link and SMS code on a server that had them switched off, and
// both answered "This endpoint is disabled". The screens now show what GET /v1/auth/methods
// reports. The shared browser server has security keys on (relying party `localhost`) and magic
// link, SMS and guest sign-in off (hasura-auth's defaults); the demo world with everything on is
// first-hour.test.ts.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, screenshot, url, useBrowser } from './browser';

/** The tabs once the answer of /v1/auth/methods has arrived (it changes them). */
async function expectTabs(page: Page, labels: string[]): Promise<void> {
  await page.getByTestId('signin-email').waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('.mantine-SegmentedControl-label').allTextContents(), { timeout: 15_000 }).toEqual(labels);
}

describe('sign-in tabs', () => {
  const session = useBrowser();

  it('offer only the methods the server has on: here password and security key', async () => {
    const { page } = session();
    await page.goto(url('/authenticate/signin'));
    await expectTabs(page, ['Password', 'Security key']);
    expect(await page.getByTestId('signin-anonymous').count()).toBe(0);
    expect(await page.getByTestId('security-key-elsewhere').count()).toBe(0);
  });

  it('leave security keys out at an IP address and say where they work', async () => {
    const { page } = session();
    // The same server at 127.0.0.1: a browser refuses a relying party id there.
    const byAddress = baseUrl().replace('//localhost:', '//127.0.0.1:');
    await page.goto(`${byAddress}/authenticate/signin`);
    await expectTabs(page, []);
    const hint = page.getByTestId('security-key-elsewhere');
    await expect.poll(() => hint.textContent(), { timeout: 15_000 }).toBe(`Security keys work at ${baseUrl()}: browsers do not use them at an IP address.`);
    expect(await hint.locator('a').getAttribute('href')).toBe(`${baseUrl()}/authenticate/signin`);
    await screenshot(page, 'signin-at-ip-address');
    await page.goto(`${byAddress}/authenticate/signup`);
    await page.getByTestId('signup-email').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Security key', { exact: true }).count()).toBe(0);
    await page.getByTestId('security-key-elsewhere').waitFor();
  });
});
