import { describe, expect, it } from 'vitest';
import { barsFromRows } from '../backtest/test-support';
import type { BarRow } from '../backtest/test-support';
import { futuresContractRuns, FuturesPlanError } from './contract-schedule';

/** Bars of a day at the given IST times, all at 100 (prices do not matter here). */
function day(date: string, times: readonly string[]): BarRow[] {
  return times.map((time) => [`${date} ${time}`, 100, 100, 100, 100]);
}

// NIFTY's December 2024 contract expires Thursday 26-Dec-2024; January 2025's on 30-Jan-2025.
const AROUND_EXPIRY = [
  ...day('2024-12-24', ['14:45', '15:00', '15:15']), // 0-2
  ...day('2024-12-26', ['14:45', '15:00', '15:15']), // 3-5: expiry day
  ...day('2024-12-27', ['09:15', '09:30']), //          6-7
];

function runs(rows: readonly BarRow[], type: 'intraday' | 'swing', underlying: 'NIFTY' | 'FINNIFTY' = 'NIFTY') {
  const series = barsFromRows(rows);
  return futuresContractRuns({ underlying, time: series.time, length: series.length, type, rollTime: '15:15' })
    .map((run) => [run.tradingSymbol, run.expiry, run.from, run.to]);
}

describe('the near-month futures contract of each bar', () => {
  it('swing: the expiring contract until the roll time on its expiry day, the next month from the 15:15 bar', () => {
    expect(runs(AROUND_EXPIRY, 'swing')).toEqual([
      ['NIFTY24DECFUT', '2024-12-26', 0, 5],
      ['NIFTY25JANFUT', '2025-01-30', 5, 8],
    ]);
  });

  it('intraday: the whole expiry day trades the expiring contract; the next month starts the next session', () => {
    expect(runs(AROUND_EXPIRY, 'intraday')).toEqual([
      ['NIFTY24DECFUT', '2024-12-26', 0, 6],
      ['NIFTY25JANFUT', '2025-01-30', 6, 8],
    ]);
  });

  it('rolls at the expiry day\'s last bar when no bar is stamped at or after the roll time (coarse bars)', () => {
    // 75-minute bars: 09:15, 10:30, 11:45, 13:00, 14:15 (ends 15:30).
    const rows = [...day('2024-12-26', ['09:15', '10:30', '11:45', '13:00', '14:15']), ...day('2024-12-27', ['09:15'])];
    expect(runs(rows, 'swing')).toEqual([['NIFTY24DECFUT', '2024-12-26', 0, 4], ['NIFTY25JANFUT', '2025-01-30', 4, 6]]);
  });

  it('skips to the next month when the data has no bar on the expiry day', () => {
    const rows = [...day('2024-12-24', ['15:15']), ...day('2024-12-27', ['09:15'])];
    expect(runs(rows, 'swing')).toEqual([['NIFTY24DECFUT', '2024-12-26', 0, 1], ['NIFTY25JANFUT', '2025-01-30', 1, 2]]);
  });

  it('refuses a range that starts before the index\'s futures are known, naming the first date', () => {
    const rows = day('2020-06-01', ['09:15']);
    expect(() => runs(rows, 'swing', 'FINNIFTY')).toThrow(FuturesPlanError);
    expect(() => runs(rows, 'swing', 'FINNIFTY')).toThrow(/^dateRange: FINNIFTY futures are known from 2021-01-11 .*; the range starts 2020-06-01$/);
  });
});
