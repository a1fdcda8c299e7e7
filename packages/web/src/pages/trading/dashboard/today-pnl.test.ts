import { expect, test } from 'vitest';
import { replayOf, todayByStrategy, type TodayRow } from './today-pnl';

const row = (input: { run: string; strategy?: { strategy_id: string; name: string }; realised: number; charges: number; mtm: number; orders: number; status?: string }): TodayRow => ({
  run_id: input.run, date: '2026-11-27', realised_paise: input.realised, charges_paise: input.charges, mtm_paise: String(input.mtm),
  pnl_paise: input.realised + input.mtm - input.charges, orders_count: input.orders,
  run: { status: input.status ?? 'IN PROGRESS', strategy: input.strategy ?? null },
});

const ema = { strategy_id: 's1', name: 'EMA' };

// EMA has two runs today: booked (5,000 - 200) + (1,000 - 100) = 5,700, unrealised -300 + 0;
// a run of a deleted strategy: booked -2,000 - 50 = -2,050, unrealised 400.
test("today's P&L adds a strategy's runs, keeps booked and unrealised apart, and totals them", () => {
  const { strategies, total } = todayByStrategy([
    row({ run: 'r1', strategy: ema, realised: 5_000, charges: 200, mtm: -300, orders: 2 }),
    row({ run: 'r2', strategy: ema, realised: 1_000, charges: 100, mtm: 0, orders: 1, status: 'COMPLETE' }),
    row({ run: 'r3', realised: -2_000, charges: 50, mtm: 400, orders: 4, status: 'COMPLETE' }),
  ]);
  expect(strategies).toEqual([
    { key: 's1', strategyId: 's1', name: 'EMA', bookedPaise: 5_700, unrealisedPaise: -300, totalPaise: 5_400, orders: 3, running: true },
    { key: 'run:r3', strategyId: undefined, name: 'A deleted strategy', bookedPaise: -2_050, unrealisedPaise: 400, totalPaise: -1_650, orders: 4, running: false },
  ]);
  expect(total).toEqual({ bookedPaise: 3_650, unrealisedPaise: 100, totalPaise: 3_750, orders: 7 });
});

test('a replay is read from the run params; anything else is not one', () => {
  expect(replayOf({ replay: { from: '2026-10-30', to: '2026-10-30', speed: 600 } })).toEqual({ from: '2026-10-30', to: '2026-10-30', speed: 600 });
  expect(replayOf({ replay: null })).toBeUndefined();
  expect(replayOf({ mode: 'PAPER' })).toBeUndefined();
  expect(replayOf(null)).toBeUndefined();
});
