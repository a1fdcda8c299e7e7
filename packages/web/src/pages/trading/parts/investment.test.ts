import { expect, test } from 'vitest';
import { currentInvestmentPaise, expiryState } from './investment';

test('the latest history entry wins over investment_amt (docs/PRODUCT.md section 5)', () => {
  expect(currentInvestmentPaise({
    investment_amt_paise: 100,
    investment_history: [{ date: '2025-06-01', amount_paise: 300 }, { date: '2025-01-01', amount_paise: 200 }],
  })).toBe(300);
});

test('an empty history falls back to investment_amt', () => {
  expect(currentInvestmentPaise({ investment_amt_paise: '2000000', investment_history: [] })).toBe(2_000_000);
});

test('expiring under 168 hours (docs/PRODUCT.md section 4)', () => {
  const now = Date.UTC(2025, 0, 1);
  const hour = 3_600_000;
  expect(expiryState(undefined, now)).toBe('none');
  expect(expiryState(now + 168 * hour, now)).toBe('active');
  expect(expiryState(now + 168 * hour - 1, now)).toBe('expiring');
  expect(expiryState(now, now)).toBe('expired');
});
