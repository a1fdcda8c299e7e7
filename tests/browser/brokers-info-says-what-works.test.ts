// /brokersInfo said "Backtests and paper trading work today" before paper trading existed; then it
// said paper and live trading were not there yet. LIVE trading through Zerodha now works, so it
// says exactly that: per broker (Zerodha: daily login and LIVE; every other: not available yet),
// what LIVE does at Kite, what a Zerodha account needs, and what is not yet (option legs LIVE).
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
    expect(text).toContain('backtests, charts and paper trading');
    expect(text).toContain('the daily login, which stores that day’s access token encrypted');
    expect(text).toContain('and LIVE trading through that account');
    expect(text).toContain('Not yet: option legs in LIVE trading (paper only).');
    expect(text).toContain('Brokers other than Zerodha are not available yet');
    expect(text).not.toMatch(/Not yet: paper trading/);
    const wholePage = (await page.locator('main, body').first().textContent()) ?? '';
    expect(wholePage).not.toMatch(/when live trading (opens|arrives)/i);
    for (const needed of ['/api/broker_login/zerodha/{client_id}', '/api/broker_postback/zerodha', 'static IP', 'algo id']) {
      expect(wholePage).toContain(needed);
    }
    expect(await page.getByText('Daily login and LIVE trading work').count()).toBe(1);
    expect(await page.getByText('Not available yet: login and LIVE refuse it').count()).toBe(11);
  });
});
