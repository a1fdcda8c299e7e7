import { expect, test } from 'vitest';
import { foldDays, summarise } from './daily-rows';

test('runs of one day add up; the summary counts winning and losing days', () => {
  const days = foldDays([
    { run_id: 'a', date: '2025-01-01', pnl_paise: 10_000, orders_count: 2 },
    { run_id: 'b', date: '2025-01-01', pnl_paise: -4_000, orders_count: 1 },
    { run_id: 'a', date: '2025-01-02', pnl_paise: '-7000', orders_count: 4 },
    { run_id: 'a', date: '2025-01-03', pnl_paise: 0, orders_count: 0 },
  ]);
  expect(days.get('2025-01-01')).toEqual({ pnlPaise: 6_000, orders: 3 });
  expect(summarise(days)).toEqual({
    netPaise: -1_000, orders: 7, tradingDays: 3, winningDays: 1, losingDays: 1,
    best: { date: '2025-01-01', pnlPaise: 6_000 }, worst: { date: '2025-01-02', pnlPaise: -7_000 },
  });
});
