import { describe, it, expect } from 'vitest';
import { generateSyntheticMarket } from './generator';
import { joinSyntheticSeries } from './collect';
import type { SyntheticMonth, SyntheticSeries } from './types';
import { ANCHORS_2020, correlation, dailyView, istMinuteOf, sessions2020, standardDeviation } from './test-fixtures';

// Statistics a trader would check, measured on 2020 (a calm start, the Covid crash, the recovery)
// generated with the real month-end closes as anchors.
const MONTHS: SyntheticMonth[] = [...generateSyntheticMarket({ sessions: sessions2020(), seed: 'vyuha-demo', anchors: ANCHORS_2020 })];
const NIFTY = joinSyntheticSeries(MONTHS, 'NIFTY 50');
const DAYS = dailyView(NIFTY);

/** 1-minute log returns inside normal 09:15-15:30 sessions, grouped by where in the session they fall. */
function minuteReturns(series: SyntheticSeries): { all: number[]; firstHalfHour: number[]; lastHalfHour: number[]; midday: number[] } {
  const groups = { all: [] as number[], firstHalfHour: [] as number[], lastHalfHour: [] as number[], midday: [] as number[] };
  for (let bar = 1; bar < series.close.length; bar += 1) {
    const minute = istMinuteOf(series.time[bar]!);
    // Only consecutive minutes of a normal session: the first bar of a day carries no overnight gap here.
    if (minute < 555 || minute >= 930 || istMinuteOf(series.time[bar - 1]!) !== minute - 1) continue;
    const logReturn = Math.log(series.close[bar]! / series.close[bar - 1]!);
    groups.all.push(logReturn);
    if (minute < 585) groups.firstHalfHour.push(logReturn);
    else if (minute >= 900) groups.lastHalfHour.push(logReturn);
    else if (minute >= 705 && minute < 780) groups.midday.push(logReturn);
  }
  return groups;
}

function dailyReturns(series: SyntheticSeries): number[] {
  return DAYS.last.slice(1).map((last, day) => Math.log(series.close[last]! / series.close[DAYS.last[day]!]!));
}

function excessKurtosis(values: readonly number[]): number {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  let second = 0;
  let fourth = 0;
  for (const value of values) {
    second += (value - mean) ** 2;
    fourth += (value - mean) ** 4;
  }
  second /= values.length;
  return fourth / values.length / (second * second) - 3;
}

describe('synthetic market realism (2020, real anchors)', () => {
  const returns = minuteReturns(NIFTY);

  it('is U-shaped: the first and last half hours are clearly more volatile than midday', () => {
    const midday = standardDeviation(returns.midday);
    expect(standardDeviation(returns.firstHalfHour) / midday).toBeGreaterThan(1.4);
    expect(standardDeviation(returns.lastHalfHour) / midday).toBeGreaterThan(1.2);
  });

  it('gaps overnight: the open differs from the previous close by far more than a midday minute moves', () => {
    const gaps = DAYS.first.slice(1).map((first, day) => Math.log(NIFTY.open[first]! / NIFTY.close[DAYS.last[day]!]!));
    expect(standardDeviation(gaps) / standardDeviation(returns.midday)).toBeGreaterThan(5);
    expect(gaps.filter((gap) => gap !== 0).length / gaps.length).toBeGreaterThan(0.9);
  });

  it('has fat-tailed 1-minute returns (positive excess kurtosis)', () => {
    expect(excessKurtosis(returns.all)).toBeGreaterThan(3);
  });

  it('ties volatility to INDIA VIX: each month realised annualised vol stays within a loose band of the VIX level', () => {
    const realised: number[] = [];
    const vixLevels: number[] = [];
    for (const month of MONTHS) {
      const nifty = month.series.find((series) => series.instrument === 'NIFTY 50')!;
      const vix = month.series.find((series) => series.instrument === 'INDIA VIX')!;
      let sumOfSquares = 0;
      for (let bar = 1; bar < nifty.close.length; bar += 1) sumOfSquares += Math.log(nifty.close[bar]! / nifty.close[bar - 1]!) ** 2;
      const sessions = new Set(Array.from(nifty.time, (time) => Math.floor((time + 330 * 60_000) / 86_400_000))).size;
      realised.push(Math.sqrt((sumOfSquares * 252) / sessions));
      vixLevels.push(vix.close.reduce((sum, close) => sum + close, 0) / vix.close.length / 10_000);
    }
    realised.forEach((vol, month) => {
      const ratio = vol / vixLevels[month]!;
      expect(ratio, `month ${month + 1}: realised ${vol.toFixed(3)} vs VIX ${vixLevels[month]!.toFixed(3)}`).toBeGreaterThan(0.6);
      expect(ratio).toBeLessThan(1.2);
    });
    // March 2020 (VIX in the 60s) must be far more volatile than January (VIX near 15).
    expect(realised[2]! / realised[0]!).toBeGreaterThan(2);
    expect(correlation(realised, vixLevels)).toBeGreaterThan(0.9);
  });

  it('moves INDIA VIX against the market (negative daily correlation)', () => {
    expect(correlation(dailyReturns(NIFTY), dailyReturns(joinSyntheticSeries(MONTHS, 'INDIA VIX')))).toBeLessThan(-0.3);
  });

  it('correlates the indices like the real ones: BANK-NIFTY 0.6-0.85, SENSEX-NIFTY above 0.9', () => {
    const nifty = dailyReturns(NIFTY);
    const bank = correlation(nifty, dailyReturns(joinSyntheticSeries(MONTHS, 'NIFTY BANK')));
    expect(bank).toBeGreaterThan(0.6);
    expect(bank).toBeLessThan(0.85);
    expect(correlation(nifty, dailyReturns(joinSyntheticSeries(MONTHS, 'S&P BSE SENSEX')))).toBeGreaterThan(0.9);
    expect(correlation(dailyReturns(joinSyntheticSeries(MONTHS, 'NIFTY BANK')), dailyReturns(joinSyntheticSeries(MONTHS, 'NIFTY FIN SERVICE')))).toBeGreaterThan(0.85);
  });
});
