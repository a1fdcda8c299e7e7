// Every indicator trading-signals 8.3.0 also has, compared over 10k+ random bars to 1e-9 relative.
// Where the two definitions differ (EMA seeding, the first bar of DX/ADX, the +DM/-DM tie rule)
// the comparison starts after the difference has decayed below 1e-15 or uses data without ties.
import { describe, it, expect } from 'vitest';
import {
  ADX, ATR, BollingerBands as ReferenceBollinger, CCI, DonchianChannels, EMA, MACD, OBV, RSI, SMA,
  StochasticOscillator as ReferenceStochastic, SuperTrend as ReferenceSuperTrend, VWAP, WMA,
} from 'trading-signals';
import type { Indicator, IndicatorBar } from './indicator';
import { agrees, randomBars } from './indicator-test-support';
import { createIndicator } from './factory';
import { istEpochDay } from '@vyuha/core';

const BARS = randomBars({ count: 12_000, seed: 'trading-signals' });
const CONTINUOUS_BARS = randomBars({ count: 12_000, seed: 'continuous', paise: false });

interface Comparison {
  readonly ours: (bar: IndicatorBar, index: number) => number;
  readonly reference: (bar: IndicatorBar, index: number) => number | null | undefined;
  /** Bars to skip before comparing (decay of a different seed). */
  readonly from?: number;
}

/** Runs both over `bars`; returns how many bars were compared, after asserting each. */
function compare(bars: readonly IndicatorBar[], comparisons: readonly Comparison[]): number {
  let compared = 0;
  bars.forEach((bar, index) => {
    for (const comparison of comparisons) {
      const ours = comparison.ours(bar, index);
      const reference = comparison.reference(bar, index);
      if (index < (comparison.from ?? 0) || reference === null || reference === undefined) continue;
      if (!agrees(ours, reference)) expect.fail(`bar ${index}: ours ${ours}, trading-signals ${reference}`);
      compared += 1;
    }
  });
  return compared;
}

/** Bars after which (1 - alpha)^bars < 1e-15: a different seed no longer shows. */
function decay(alpha: number): number {
  return Math.ceil(Math.log(1e-15) / Math.log(1 - alpha));
}

function fed(indicator: Indicator, input: (bar: IndicatorBar) => number = (bar) => bar.close): (bar: IndicatorBar) => Indicator {
  return (bar) => {
    indicator.update(input(bar), bar);
    return indicator;
  };
}

describe('series indicators against trading-signals', () => {
  it.each([5, 20, 200])('SMA(%i) agrees from its first value', (period) => {
    const step = fed(createIndicator('sma', [period]));
    const reference = new SMA(period);
    expect(compare(BARS, [{ ours: (bar) => step(bar).output(0), reference: (bar) => reference.add(bar.close) }])).toBe(BARS.length - period + 1);
  });

  it.each([3, 20, 100])('WMA(%i) agrees from its first value', (period) => {
    const step = fed(createIndicator('wma', [period]));
    const reference = new WMA(period);
    expect(compare(BARS, [{ ours: (bar) => step(bar).output(0), reference: (bar) => reference.add(bar.close) }])).toBe(BARS.length - period + 1);
  });

  it.each([9, 21, 50])('EMA(%i) agrees once its seed (theirs: the first price; ours: the SMA) has decayed', (period) => {
    const step = fed(createIndicator('ema', [period]));
    const reference = new EMA(period);
    const from = period + decay(2 / (period + 1));
    expect(compare(BARS, [{ ours: (bar) => step(bar).output(0), reference: (bar) => reference.add(bar.close), from }])).toBe(BARS.length - from);
  });

  it.each([2, 14, 30])('RSI(%i) agrees from its first value (both Wilder, SMA-seeded)', (period) => {
    const step = fed(createIndicator('rsi', [period]));
    const reference = new RSI(period);
    expect(compare(BARS, [{ ours: (bar) => step(bar).output(0), reference: (bar) => reference.add(bar.close) }])).toBe(BARS.length - period);
  });

  it('MACD(12, 26, 9) line, signal and histogram agree once the EMA seeds have decayed', () => {
    const macd = createIndicator('macd', [12, 26, 9]);
    const reference = new MACD(new EMA(12), new EMA(26), new EMA(9));
    const from = 26 + decay(2 / 27);
    let last: ReturnType<MACD['add']> = null;
    const compared = compare(BARS, [
      { ours: (bar) => fed(macd)(bar).output(0), reference: (bar) => (last = reference.add(bar.close))?.macd, from },
      { ours: () => macd.output(1), reference: () => last?.signal, from },
      { ours: () => macd.output(2), reference: () => last?.histogram, from },
    ]);
    expect(compared).toBe(3 * (BARS.length - from));
  });

  it.each([[20, 2], [10, 1.5]])('Bollinger(%i, %d) agrees from its first value (population SD)', (period, deviations) => {
    const bands = createIndicator('bb', [period, deviations]);
    const reference = new ReferenceBollinger(period, deviations);
    let last: ReturnType<ReferenceBollinger['add']> = null;
    const compared = compare(BARS, [
      { ours: (bar) => fed(bands)(bar).output(0), reference: (bar) => (last = reference.add(bar.close))?.middle },
      { ours: () => bands.output(1), reference: () => last?.upper },
      { ours: () => bands.output(2), reference: () => last?.lower },
    ]);
    expect(compared).toBe(3 * (BARS.length - period + 1));
  });
});

describe('bar indicators against trading-signals', () => {
  it.each([1, 14])('ATR(%i) agrees from its first value (first TR = high - low, SMA seed)', (period) => {
    const step = fed(createIndicator('atr', [period]));
    const reference = new ATR(period);
    expect(compare(BARS, [{ ours: (bar) => step(bar).output(0), reference: (bar) => reference.add(bar) }])).toBe(BARS.length - period + 1);
  });

  it.each([[10, 3], [7, 1.5]])('SuperTrend(%i, %d) value and direction agree from the first value', (period, multiplier) => {
    const superTrend = createIndicator('supertrend', [period, multiplier]);
    const reference = new ReferenceSuperTrend({ interval: period, multiplier });
    let last: ReturnType<ReferenceSuperTrend['add']> = null;
    const compared = compare(BARS, [
      { ours: (bar) => fed(superTrend)(bar).output(0), reference: (bar) => (last = reference.add(bar))?.supertrend },
      { ours: () => superTrend.output(1), reference: () => (last === null ? null : last.trend === 'BULLISH' ? 1 : -1) },
    ]);
    // The series must actually exercise the ratchet and the flips for the comparison to mean anything.
    const flips = countFlips(createIndicator('supertrend', [period, multiplier]));
    expect(compared).toBe(2 * (BARS.length - period + 1));
    expect(flips).toBeGreaterThan(20);
  });

  it.each([2, 14])('Stochastic(%i, 3, 3) %K and %D agree (ranges never flat here)', (period) => {
    const stochastic = createIndicator('stoch', [period, 3, 3]);
    const reference = new ReferenceStochastic({ kPeriod: period, kSlowingPeriod: 3, dPeriod: 3 });
    let last: ReturnType<ReferenceStochastic['add']> = null;
    const compared = compare(BARS, [
      { ours: (bar) => fed(stochastic)(bar).output(0), reference: (bar) => (last = reference.add(bar))?.stochK },
      { ours: () => stochastic.output(1), reference: () => last?.stochD },
    ]);
    expect(compared).toBe(2 * (BARS.length - (period + 3 + 3 - 2) + 1));
  });

  it.each([5, 20])('CCI(%i) agrees from its first value', (period) => {
    const step = fed(createIndicator('cci', [period]));
    const reference = new CCI(period);
    expect(compare(BARS, [{ ours: (bar) => step(bar).output(0), reference: (bar) => reference.add(bar) }])).toBe(BARS.length - period + 1);
  });

  it.each([1, 20, 55])('Donchian(%i) upper, lower and middle agree', (period) => {
    const donchian = createIndicator('donchian', [period]);
    const reference = new DonchianChannels(period);
    let last: ReturnType<DonchianChannels['add']> = null;
    const compared = compare(BARS, [
      { ours: (bar) => fed(donchian)(bar).output(0), reference: (bar) => (last = reference.add(bar))?.upper },
      { ours: () => donchian.output(1), reference: () => last?.lower },
      { ours: () => donchian.output(2), reference: () => last?.middle },
    ]);
    expect(compared).toBe(3 * (BARS.length - period + 1));
  });

  it('OBV agrees from the second bar (theirs has no value on the first)', () => {
    const step = fed(createIndicator('obv', []));
    const reference = new OBV(2);
    expect(compare(BARS, [{ ours: (bar) => step(bar).output(0), reference: (bar) => reference.add(bar) }])).toBe(BARS.length - 1);
  });

  it('VWAP agrees with a trading-signals VWAP restarted every IST day', () => {
    const step = fed(createIndicator('vwap', []));
    let reference = new VWAP();
    let day = Number.NaN;
    const compared = compare(BARS, [{
      ours: (bar) => step(bar).output(0),
      reference: (bar) => {
        if (istEpochDay(bar.time) !== day) {
          day = istEpochDay(bar.time);
          reference = new VWAP();
        }
        return reference.add(bar);
      },
    }]);
    expect(compared).toBe(BARS.length);
  });

  it.each([5, 14])('ADX(%i), +DI and -DI agree once the first-bar difference has decayed (data without ties)', (period) => {
    // trading-signals feeds a zero +DM/-DM and a high - low TR for the very first bar, and gives both
    // +DM and -DM on a tie (up == down); Wilder (and we) start at the second bar and give 0 on a tie.
    // Continuous prices have no ties; the seed difference decays as (1 - 1/period)^bars.
    const adx = createIndicator('adx', [period]);
    const reference = new ADX(period);
    const from = 2 * period + 2 * decay(1 / period);
    const compared = compare(CONTINUOUS_BARS, [
      { ours: (bar) => fed(adx)(bar).output(0), reference: (bar) => reference.add(bar), from },
      { ours: () => adx.output(1), reference: () => 100 * (reference.pdi ?? Number.NaN), from },
      { ours: () => adx.output(2), reference: () => 100 * (reference.mdi ?? Number.NaN), from },
    ]);
    expect(compared).toBe(3 * (CONTINUOUS_BARS.length - from));
  });
});

function countFlips(superTrend: Indicator): number {
  let flips = 0;
  let previous = Number.NaN;
  for (const bar of BARS) {
    superTrend.update(bar.close, bar);
    const direction = superTrend.output(1);
    if (previous === previous && direction !== previous) flips += 1;
    previous = direction;
  }
  return flips;
}
