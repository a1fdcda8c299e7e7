// The marketplace's paper record, worked by hand. Capital Rs 1,000 (1_00_000 paise).
// Trade 1: buy 10 at Rs 100, sell 10 at Rs 110, charges 50 + 50 paise -> +10_000 - 100 = +9_900.
// Trade 2: short 5 at Rs 120, cover at Rs 150 (no charges) -> -15_000.
// Trade 3 (another run, same instrument): buy 1 at Rs 50, still open -> not a trade yet.
// Equity 1_00_000 -> 1_09_900 (peak) -> 94_900: drawdown 15_000 / 1_09_900 = 13.65 %.
// Return (9_900 - 15_000) / 1_00_000 = -5.1 %; win rate 1 of 2 = 50 %.
import { expect, it } from 'vitest';
import { paperRecord } from '../../src/trading/follow/paper-record';
import type { RecordFill } from '../../src/trading/follow/paper-record';

/** `[run, side, quantity, rupees, time, charges paise]` as a fill of instrument 7. */
const fill = (...[runId, side, quantity, rupees, atMs, chargesPaise = 0]: [string, 'BUY' | 'SELL', number, number, number, number?]): RecordFill => ({
  runId, instrumentId: 7, side, quantity, pricePaise: rupees * 100, chargesPaise, atMs,
});

it('folds fills into round trips, return, drawdown and win rate', () => {
  const record = paperRecord([
    fill('b', 'BUY', 1, 50, 5),
    fill('a', 'SELL', 10, 110, 2, 50),
    fill('a', 'BUY', 10, 100, 1, 50),
    fill('a', 'SELL', 5, 120, 3),
    fill('a', 'BUY', 5, 150, 4),
  ], 1_00_000);
  expect(record).toEqual({ trades: 2, pnlPaise: -5_100, returnPct: -5.1, maxDrawdownPct: 13.65, winRatePct: 50 });
});

it('has no rates before a closed trade, and no return without a capital', () => {
  expect(paperRecord([fill('a', 'BUY', 1, 50, 1)], 0)).toEqual({ trades: 0, pnlPaise: 0, returnPct: null, maxDrawdownPct: null, winRatePct: null });
});
