// Test-only fixtures for the synthetic market's tests (not exported from the package).
import { istDate } from '@vyuha/core';
import type { SyntheticAnchor, SyntheticSeries, SyntheticSession } from './types';

/** NSE weekday trading holidays of 2020 (data/market/holidays.csv). */
export const HOLIDAYS_2020 = [
  '2020-02-21', '2020-03-10', '2020-04-02', '2020-04-06', '2020-04-10', '2020-04-14',
  '2020-05-01', '2020-05-25', '2020-10-02', '2020-11-16', '2020-11-30', '2020-12-25',
];

/** Special sessions of 2020 (data/market/special-sessions.csv): Saturday budget day and the muhurat hour. */
export const SPECIAL_SESSIONS_2020: readonly SyntheticSession[] = [
  { date: '2020-02-01', openMinute: 555, closeMinute: 930 },
  { date: '2020-11-14', openMinute: 1095, closeMinute: 1155 },
];

/** The 2020 trading sessions: weekdays 09:15-15:30 except holidays, plus the special sessions. */
export function sessions2020(): SyntheticSession[] {
  const sessions: SyntheticSession[] = [...SPECIAL_SESSIONS_2020];
  for (let day = Date.UTC(2020, 0, 1); day <= Date.UTC(2020, 11, 31); day += 86_400_000) {
    const date = new Date(day);
    const weekday = date.getUTCDay();
    const text = date.toISOString().slice(0, 10);
    if (weekday === 0 || weekday === 6 || HOLIDAYS_2020.includes(text)) continue;
    sessions.push({ date: text, openMinute: 555, closeMinute: 930 });
  }
  return sessions.sort((left, right) => (left.date < right.date ? -1 : 1));
}

/** Real month-end closes of 2020 from data/market/index-monthly-closes.csv (NIFTY MID SELECT has none). */
export const ANCHORS_2020: readonly SyntheticAnchor[] = [
  ['2020-01', 11962.1, 30833.6, 14316.9, 40723.49, 17.3675],
  ['2020-02', 11201.75, 29147.15, 13566.45, 38297.29, 23.235],
  ['2020-03', 8597.75, 19144.0, 9317.3, 29468.49, 64.4075],
  ['2020-04', 9859.9, 21534.5, 10570.8, 33717.62, 33.9875],
  ['2020-05', 9580.3, 19297.25, 9527.05, 32424.1, 30.22],
  ['2020-06', 10302.1, 21370.15, 10561.9, 34915.8, 29.1175],
  ['2020-07', 11073.45, 21640.05, 10728.85, 37606.89, 24.1925],
  ['2020-08', 11387.5, 23754.35, 11389.0, 38628.29, 22.835],
  ['2020-09', 11247.55, 21451.8, 10622.4, 38067.93, 19.53],
  ['2020-10', 11642.4, 23900.9, 11636.05, 39614.07, 24.7525],
  ['2020-11', 12968.95, 29609.05, 14293.15, 44149.72, 19.8175],
  ['2020-12', 13981.75, 31264.05, 15208.0, 47751.33, 21.095],
].flatMap(([month, nifty, bank, financials, sensex, vix]) => [
  { month: month as string, index: 'NIFTY 50', close: nifty as number },
  { month: month as string, index: 'NIFTY BANK', close: bank as number },
  { month: month as string, index: 'NIFTY FIN SERVICE', close: financials as number },
  { month: month as string, index: 'NIFTY MID SELECT', close: null },
  { month: month as string, index: 'S&P BSE SENSEX', close: sensex as number },
  { month: month as string, index: 'INDIA VIX', close: vix as number },
]);

/** Minute of the day in IST of an epoch-ms bar time. */
export function istMinuteOf(time: number): number {
  return (((time / 60_000 + 330) % 1440) + 1440) % 1440;
}

/** IST date (YYYY-MM-DD) of an epoch-ms bar time. */
export function istDateOf(time: number): string {
  return istDate(time);
}

/** Daily closes and the indices of each day's first and last bar. */
export function dailyView(series: SyntheticSeries): { dates: string[]; first: number[]; last: number[] } {
  const dates: string[] = [];
  const first: number[] = [];
  const last: number[] = [];
  for (let bar = 0; bar < series.time.length; bar += 1) {
    const date = istDateOf(series.time[bar]!);
    if (dates[dates.length - 1] !== date) {
      if (dates.length > 0) last.push(bar - 1);
      dates.push(date);
      first.push(bar);
    }
  }
  if (dates.length > 0) last.push(series.time.length - 1);
  return { dates, first, last };
}

/** Pearson correlation of two equally long samples. */
export function correlation(left: readonly number[], right: readonly number[]): number {
  const count = left.length;
  const meanLeft = left.reduce((sum, value) => sum + value, 0) / count;
  const meanRight = right.reduce((sum, value) => sum + value, 0) / count;
  let covariance = 0;
  let varianceLeft = 0;
  let varianceRight = 0;
  for (let index = 0; index < count; index += 1) {
    const deviationLeft = left[index]! - meanLeft;
    const deviationRight = right[index]! - meanRight;
    covariance += deviationLeft * deviationRight;
    varianceLeft += deviationLeft * deviationLeft;
    varianceRight += deviationRight * deviationRight;
  }
  return covariance / Math.sqrt(varianceLeft * varianceRight);
}

/** Sample standard deviation (population form; samples here are large). */
export function standardDeviation(values: readonly number[]): number {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
}
