// /brokersInfo said "Backtests and paper trading work today": paper trading does not exist yet.
// It now says what works (Zerodha's daily login storing that day's token, backtests, charts) and
// what does not yet (paper and live trading; other brokers' logins).
import { describe, expect, it } from 'vitest';
import { url, useBrowser } from './browser';

describe('/brokersInfo', () => {
  const session = useBrowser();

  it('says exactly what works today and what does not yet', async () => {
    const { page } = session();
    await page.goto(url('/brokersInfo'));
    const status = page.getByTestId('live-trading-status');
    await status.waitFor();
    const text = (await status.textContent()) ?? '';
    expect(text).toContain("the daily Zerodha (Kite Connect) login, which stores that day’s access token encrypted");
    expect(text).toContain('backtests and charts');
    expect(text).toContain('Not yet: paper trading and live trading.');
    expect(text).toContain('Logging in to brokers other than Zerodha is not supported yet.');
    const wholePage = (await page.locator('main, body').first().textContent()) ?? '';
    expect(wholePage).not.toMatch(/paper trading (need no broker|work today)/i);
    expect(await page.getByText('Daily login works').count()).toBe(1);
  });
});
