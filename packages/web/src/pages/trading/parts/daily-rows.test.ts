import { expect, test } from 'vitest';
import { summarise } from './daily-rows';

test('the summary counts winning and losing days and finds the best and worst', () => {
  const days = new Map([
    ['2025-01-01', { pnlPaise: 6_000, orders: 3 }],
    ['2025-01-02', { pnlPaise: -7_000, orders: 4 }],
    ['2025-01-03', { pnlPaise: 0, orders: 0 }],
  ]);
  expect(summarise(days)).toEqual({
    netPaise: -1_000, orders: 7, tradingDays: 3, winningDays: 1, losingDays: 1,
    best: { date: '2025-01-01', pnlPaise: 6_000 }, worst: { date: '2025-01-02', pnlPaise: -7_000 },
  });
});
