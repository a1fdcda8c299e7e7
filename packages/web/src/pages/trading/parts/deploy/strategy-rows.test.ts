import { describe, expect, it } from 'vitest';
import { matchesFilters, statusCondition, tradingFigures, type RunRow } from './strategy-rows';

const TODAY = '2026-11-27';

function run(overrides: Partial<RunRow>): RunRow {
  return { run_id: 'r', kind: 'PAPER', status: 'IN PROGRESS', params: {}, daily_pnl: [], positions: [], ...overrides };
}

describe('tradingFigures', () => {
  it("sums today's P&L and orders of PAPER and LIVE runs on the market", () => {
    // 1,250.00 + (-300.50) rupees = 949.50 rupees; 3 + 1 orders.
    const figures = tradingFigures([
      run({ daily_pnl: [{ date: TODAY, pnl_paise: 125_000, orders_count: 3 }], positions: [{ net_quantity: 50 }, { net_quantity: 0 }] }),
      run({ kind: 'LIVE', status: 'COMPLETE', daily_pnl: [{ date: TODAY, pnl_paise: -30_050, orders_count: 1 }] }),
    ], TODAY);
    expect(figures).toEqual({ todayPnlPaise: 94_950, ordersToday: 4, openPositions: 1, replayDate: undefined });
  });

  it('never counts a BACKTEST run', () => {
    const figures = tradingFigures([run({ kind: 'BACKTEST', daily_pnl: [{ date: TODAY, pnl_paise: 1_000_000, orders_count: 9 }], positions: [{ net_quantity: 5 }] })], TODAY);
    expect(figures).toEqual({ todayPnlPaise: undefined, ordersToday: 0, openPositions: 0, replayDate: undefined });
  });

  it("ignores a market run's older days", () => {
    const figures = tradingFigures([run({ daily_pnl: [{ date: '2026-11-26', pnl_paise: 500, orders_count: 2 }] })], TODAY);
    expect(figures.todayPnlPaise).toBeUndefined();
    expect(figures.ordersToday).toBe(0);
  });

  it('takes the session a replay in progress is playing as its today, and nothing once it has ended', () => {
    const replay = { from: '2026-10-28', to: '2026-10-30', speed: 600 };
    const playing = run({ params: { replay }, daily_pnl: [{ date: '2026-10-29', pnl_paise: -700, orders_count: 2 }] });
    expect(tradingFigures([playing], TODAY)).toEqual({ todayPnlPaise: -700, ordersToday: 2, openPositions: 0, replayDate: '2026-10-29' });
    expect(tradingFigures([{ ...playing, status: 'COMPLETE' }], TODAY).todayPnlPaise).toBeUndefined();
  });
});

describe('filters', () => {
  it('Current is every status but STOPPED and ARCHIVED; Active narrows it to ACTIVE', () => {
    expect(statusCondition('current', 'all')).toEqual({ _nin: ['STOPPED', 'ARCHIVED'] });
    expect(statusCondition('current', 'active')).toEqual({ _eq: 'ACTIVE' });
    expect(['DRAFT', 'ACTIVE', 'PAUSED'].every((status) => matchesFilters(status, 'current', 'all'))).toBe(true);
    expect(matchesFilters('PAUSED', 'current', 'active')).toBe(false);
    expect(matchesFilters('STOPPED', 'current', 'all')).toBe(false);
  });

  it('History is STOPPED and ARCHIVED whatever Active says', () => {
    expect(statusCondition('history', 'active')).toEqual({ _in: ['STOPPED', 'ARCHIVED'] });
    expect(matchesFilters('ARCHIVED', 'history', 'active')).toBe(true);
    expect(matchesFilters('ACTIVE', 'history', 'all')).toBe(false);
  });
});
