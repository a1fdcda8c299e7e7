import { istEpochMs, isoDate, paise, rupeesToPaise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { isTradingDay } from '@vyuha/market';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeMetrics } from './compute-metrics';
import { MetricsInputError } from './metrics-input';
import type { DailyResult, MetricsInput, RoundTripTrade } from './metrics-input';

// A worked example a trader can check by hand. Capital Rs 1,00,000; the week of 1-5 Jan 2024
// (all five are NSE trading days). Net P&L by day: +1,000, -500, +2,000, nothing, +500.
const capital = rupeesToPaise(100_000);
const from = isoDate('2024-01-01');
const to = isoDate('2024-01-05');

function day(date: string, rupees: { net: number; charges: number; orders: number }): DailyResult {
  const charges = rupeesToPaise(rupees.charges);
  const netPnl = rupeesToPaise(rupees.net);
  return { date: isoDate(date), netPnl, grossPnl: paise(netPnl + charges), charges, orders: rupees.orders };
}

function trade(date: string, times: [string, string], rupees: number): RoundTripTrade {
  const when = isoDate(date);
  return { entryTime: istEpochMs(when, times[0]), exitTime: istEpochMs(when, times[1]), netPnl: rupeesToPaise(rupees), charges: rupeesToPaise(40) };
}

const days = [
  day('2024-01-01', { net: 1_000, charges: 80, orders: 4 }),
  day('2024-01-02', { net: -500, charges: 40, orders: 2 }),
  day('2024-01-03', { net: 2_000, charges: 40, orders: 2 }),
  day('2024-01-05', { net: 500, charges: 80, orders: 4 }),
];

// In the order they closed: win, loss, loss, win, win, win.
const trades = [
  trade('2024-01-01', ['09:20', '10:00'], 1_200),
  trade('2024-01-01', ['11:00', '12:00'], -200),
  trade('2024-01-02', ['09:30', '14:00'], -500),
  trade('2024-01-03', ['09:20', '15:15'], 2_000),
  trade('2024-01-05', ['09:20', '10:00'], 300),
  trade('2024-01-05', ['10:30', '11:00'], 200),
];

const input: MetricsInput = { capital, period: { from, to }, days, trades, barsInMarket: 30, totalBars: 375, candlesProcessed: 375 };

describe('metrics of a hand-computed week', () => {
  const metrics = computeMetrics(input);

  it('sum money exactly and give the return on capital', () => {
    expect(metrics.netPnl).toBe(rupeesToPaise(3_000));
    expect(metrics.chargesPaid).toBe(rupeesToPaise(240));
    expect(metrics.grossPnl).toBe(rupeesToPaise(3_240));
    expect(metrics.endingEquity).toBe(rupeesToPaise(103_000));
    expect(metrics.returnPercent).toBeCloseTo(3, 12);
    expect(metrics.orders).toBe(12);
    expect(metrics.tradingDays).toBe(5);
    expect(metrics.calendarDays).toBe(5);
  });

  it('annualise growth over calendar days (ACT/365)', () => {
    // 1.03 ^ (365 / 5) - 1
    expect(metrics.cagrPercent).toBeCloseTo((1.03 ** 73 - 1) * 100, 6);
  });

  it('find the drawdown of day 2 and its recovery on day 3', () => {
    // Peak Rs 1,01,000 after day 1; Rs 1,00,500 after day 2; back above on day 3.
    expect(metrics.maxDrawdown).toBe(rupeesToPaise(500));
    expect(metrics.maxDrawdownPercent).toBeCloseTo((500 / 101_000) * 100, 12);
    expect(metrics.maxDrawdownPeakDate).toBe('2024-01-01');
    expect(metrics.maxDrawdownTroughDate).toBe('2024-01-02');
    expect(metrics.maxDrawdownRecoveryDate).toBe('2024-01-03');
    expect(metrics.maxDrawdownDurationDays).toBe(2);
    expect(metrics.drawdownRecovered).toBe(true);
  });

  it('compute Sharpe and Sortino over all five trading days, the empty Thursday as 0', () => {
    // Returns 0.01, -0.005, 0.02, 0, 0.005: mean 0.006; squared deviations sum to 370e-6,
    // sample variance 92.5e-6. Downside: only -0.005, so sqrt(25e-6 / 5).
    expect(metrics.sharpe).toBeCloseTo((0.006 / Math.sqrt(92.5e-6)) * Math.sqrt(252), 9);
    expect(metrics.sortino).toBeCloseTo((0.006 / Math.sqrt(5e-6)) * Math.sqrt(252), 9);
    expect(metrics.calmar).toBeCloseTo(((1.03 ** 73 - 1) * 100) / ((500 / 101_000) * 100), 6);
  });

  it('take a risk-free rate off each day', () => {
    const withRate = computeMetrics({ ...input, riskFreeRate: 0.063 });
    // Shifting every return by the same amount leaves the deviation alone: mean 0.006 - 0.00025.
    expect(withRate.sharpe).toBeCloseTo(((0.006 - 0.063 / 252) / Math.sqrt(92.5e-6)) * Math.sqrt(252), 9);
  });

  it('count wins, losses and streaks of trades in exit order', () => {
    expect(metrics.trades).toBe(6);
    expect(metrics.winRate).toBeCloseTo(4 / 6, 15);
    expect(metrics.grossProfit).toBe(rupeesToPaise(3_700));
    expect(metrics.grossLoss).toBe(rupeesToPaise(-700));
    expect(metrics.profitFactor).toBeCloseTo(3_700 / 700, 12);
    expect(metrics.expectancy).toBe(rupeesToPaise(500));
    expect(metrics.averageWin).toBe(rupeesToPaise(925));
    expect(metrics.averageLoss).toBe(rupeesToPaise(-350));
    expect(metrics.largestWin).toBe(rupeesToPaise(2_000));
    expect(metrics.largestLoss).toBe(rupeesToPaise(-500));
    expect(metrics.longestWinStreak).toBe(3);
    expect(metrics.longestLossStreak).toBe(2);
  });

  it('count winning and losing days; a flat day breaks a streak', () => {
    expect([metrics.winningDays, metrics.losingDays, metrics.longestWinningDayStreak, metrics.longestLosingDayStreak]).toEqual([3, 1, 1, 1]);
  });

  it('report exposure and candles', () => {
    expect(metrics.exposurePercent).toBeCloseTo(8, 12);
    expect(metrics.candlesProcessed).toBe(375);
  });

  it('survive JSON: unbounded ratios are the string "infinite"', () => {
    const winner = computeMetrics({ ...input, days: [days[0] as DailyResult], trades: [trades[0] as RoundTripTrade] });
    expect(winner.profitFactor).toBe('infinite');
    expect(winner.sortino).toBe('infinite');
    expect(winner.calmar).toBe('infinite');
    expect(JSON.parse(JSON.stringify(winner))).toEqual(winner);
  });

  it('give null where a ratio is undefined: no trades, no spread', () => {
    const idle = computeMetrics({ ...input, days: [], trades: [], barsInMarket: 0, totalBars: 0 });
    expect([idle.winRate, idle.profitFactor, idle.expectancy, idle.sharpe, idle.sortino, idle.calmar, idle.exposurePercent]).toEqual([null, null, null, null, null, null, null]);
    expect(idle.maxDrawdown).toBe(0);
    expect(idle.drawdownRecovered).toBe(true);
  });
});

describe('drawdown from the per-bar equity', () => {
  it('see an intraday dip the daily closes hide', () => {
    const bar = (date: string, time: string) => istEpochMs(isoDate(date), time);
    const equity = {
      times: Float64Array.of(bar('2024-01-01', '10:00'), bar('2024-01-01', '15:00'), bar('2024-01-02', '12:00'), bar('2024-01-02', '15:29'), bar('2024-01-03', '15:29'), bar('2024-01-05', '15:29')),
      equity: Float64Array.of(101_000_00, 101_000_00, 98_000_00, 100_500_00, 102_500_00, 103_000_00),
    };
    const metrics = computeMetrics({ ...input, equity });
    expect(metrics.maxDrawdown).toBe(rupeesToPaise(3_000));
    expect(metrics.maxDrawdownTroughDate).toBe('2024-01-02');
    expect(metrics.maxDrawdownDurationDays).toBe(2);
  });

  it('flag a drawdown that never recovers and run its duration to the last day', () => {
    const losing = computeMetrics({ ...input, days: [days[0] as DailyResult, day('2024-01-02', { net: -2_000, charges: 40, orders: 2 })], trades: [] });
    expect(losing.drawdownRecovered).toBe(false);
    expect(losing.maxDrawdownRecoveryDate).toBeNull();
    expect(losing.maxDrawdownPeakDate).toBe('2024-01-01');
    expect(losing.maxDrawdownDurationDays).toBe(4);
  });

  it('count a fall from the starting capital from before the first day', () => {
    const first = computeMetrics({ ...input, days: [day('2024-01-01', { net: -100, charges: 0, orders: 1 })], trades: [] });
    expect(first.maxDrawdownPeakDate).toBeNull();
    expect(first.maxDrawdownDurationDays).toBe(5);
  });
});

describe('bad metrics input', () => {
  it('names the field', () => {
    const wrongNet = { ...input, days: [{ ...(days[0] as DailyResult), netPnl: paise(1) }] };
    expect(() => computeMetrics(wrongNet)).toThrow(/days\[0\]\.netPnl: must equal grossPnl - charges/);
    expect(() => computeMetrics({ ...input, days: [...days].reverse() })).toThrow(MetricsInputError);
    expect(() => computeMetrics({ ...input, days: [day('2024-01-06', { net: 1, charges: 0, orders: 1 })] })).toThrow(/days\[0\]\.date: 2024-01-06 is not a trading day/);
    expect(() => computeMetrics({ ...input, barsInMarket: 400 })).toThrow(/barsInMarket/);
    expect(() => computeMetrics({ ...input, capital: paise(0) })).toThrow(/capital/);
    expect(() => computeMetrics({ ...input, period: { from: to, to: from } })).toThrow(/period\.to/);
  });
});

// Properties over random runs: January 2024 (21 trading days) with random days and trades.
const january = { from: isoDate('2024-01-01'), to: isoDate('2024-01-31') };
const dayArbitrary = fc.record({ net: fc.integer({ min: -5_000_000, max: 5_000_000 }), charges: fc.integer({ min: 0, max: 10_000 }), orders: fc.integer({ min: 0, max: 30 }) });
const runArbitrary = fc.record({
  capital: fc.integer({ min: 1, max: 1e10 }),
  picks: fc.array(fc.tuple(fc.integer({ min: 1, max: 31 }), dayArbitrary), { maxLength: 31 }),
  trades: fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 40 }),
});

function randomInput(run: { capital: number; picks: [number, { net: number; charges: number; orders: number }][]; trades: number[] }): MetricsInput {
  const byDate = new Map<IsoDate, DailyResult>();
  for (const [dayOfMonth, values] of run.picks) {
    const date = isoDate(`2024-01-${String(dayOfMonth).padStart(2, '0')}`);
    if (!isTradingDay('NSE', date)) continue; // weekends, Republic Day, 22-Jan-2024
    byDate.set(date, { date, netPnl: paise(values.net), grossPnl: paise(values.net + values.charges), charges: paise(values.charges), orders: values.orders });
  }
  const days = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  const start = istEpochMs(january.from, '09:15');
  const trades = run.trades.map((pnl, index) => ({ entryTime: start + index * 60_000, exitTime: start + index * 60_000 + 30_000, netPnl: paise(pnl), charges: paise(0) }));
  return { capital: paise(run.capital), period: january, days, trades, barsInMarket: 0, totalBars: 100, candlesProcessed: 100 };
}

describe('metric invariants', () => {
  it('max drawdown >= 0, win rate in [0, 1], sum of daily = net, streaks within the counts', () => {
    fc.assert(fc.property(runArbitrary, (run) => {
      const built = randomInput(run);
      const metrics = computeMetrics(built);
      expect(metrics.maxDrawdown).toBeGreaterThanOrEqual(0);
      expect(metrics.maxDrawdownPercent).toBeGreaterThanOrEqual(0);
      if (metrics.winRate !== null) {
        expect(metrics.winRate).toBeGreaterThanOrEqual(0);
        expect(metrics.winRate).toBeLessThanOrEqual(1);
      }
      expect(metrics.netPnl).toBe(built.days.reduce((sum, entry) => sum + entry.netPnl, 0));
      expect(metrics.grossPnl - metrics.chargesPaid).toBe(metrics.netPnl);
      expect(metrics.grossProfit + metrics.grossLoss).toBe(built.trades.reduce((sum, entry) => sum + entry.netPnl, 0));
      expect(metrics.longestWinStreak).toBeLessThanOrEqual(metrics.winningTrades);
      expect(metrics.longestLossStreak).toBeLessThanOrEqual(metrics.losingTrades);
      expect(metrics.winningDays + metrics.losingDays).toBeLessThanOrEqual(metrics.tradingDays);
      expect(metrics.maxDrawdownDurationDays).toBeGreaterThanOrEqual(0);
      expect(metrics.maxDrawdownDurationDays).toBeLessThanOrEqual(metrics.tradingDays);
    }));
  });
});
