import { expect, test } from 'vitest';
import { checkSizing, followFigures, investmentTotalPaise, sizingText } from './subscription-model';

const row = (over: Partial<Parameters<typeof investmentTotalPaise>[0][number]>) => ({
  active: true, user_broker_id: null as string | null, investment_amt_paise: 0, investment_history: [], ...over,
});

test('the investment total counts active subscriptions on active brokers, latest history first (docs/PRODUCT.md section 5)', () => {
  // 300 (latest entry) + 100 (no history) = 400; the inactive subscription and the one on a turned-off broker are left out.
  expect(investmentTotalPaise([
    row({ investment_amt_paise: 50, investment_history: [{ date: '2026-01-01', amount_paise: 200 }, { date: '2026-03-01', amount_paise: 300 }] }),
    row({ investment_amt_paise: '100', user_broker_id: 'on' }),
    row({ investment_amt_paise: 1_000, active: false }),
    row({ investment_amt_paise: 2_000, user_broker_id: 'off' }),
    row({ investment_amt_paise: 4_000, user_broker_id: 'deleted' }),
  ], new Map([['on', true], ['off', false]]))).toBe(400);
});

test('sizing in words', () => {
  expect(sizingText({ sizing: 'quantity', quantity: 2, investment_amt_paise: 0, investment_history: [] })).toBe('2 units or lots');
  expect(sizingText({ sizing: 'investment', quantity: 1, investment_amt_paise: 50_000_000, investment_history: [] })).toBe('₹5,00,000.00 all-in');
});

test('the view figures fold several follower runs per day, newest day first', () => {
  const figures = followFigures([
    { date: '2026-11-26', pnl_paise: '1000', orders_count: 2 },
    { date: '2026-11-27', pnl_paise: '-300', orders_count: 1 },
    { date: '2026-11-27', pnl_paise: 100, orders_count: 3 },
  ], '2026-11-27');
  expect(figures).toEqual({
    fullPnlPaise: 800, pnlPaise: -200, fullOrders: 6, orders: 4,
    days: [{ date: '2026-11-27', pnlPaise: -200, orders: 4 }, { date: '2026-11-26', pnlPaise: 1000, orders: 2 }],
  });
  expect(followFigures([], '2026-11-27')).toMatchObject({ fullPnlPaise: 0, pnlPaise: 0, days: [] });
});

test('sizing checks name the field', () => {
  expect(checkSizing({ sizing: 'quantity', quantity: 0, investmentPaise: undefined })).toEqual({ quantity: 'Quantity must be a whole number of at least 1' });
  expect(checkSizing({ sizing: 'investment', quantity: 1, investmentPaise: 0 })).toEqual({ investment: 'Investment must be above ₹0' });
  expect(checkSizing({ sizing: 'investment', quantity: undefined, investmentPaise: 1 })).toEqual({});
});
