import { describe, it, expect } from 'vitest';
import type { IndicatorBar } from './indicator';
import { CommodityChannelIndex, StochasticOscillator } from './oscillators';

function bar(high: number, low: number, close: number): IndicatorBar {
  return { time: 0, open: close, high, low, close, volume: 0 };
}

describe('Stochastic', () => {
  it('smooths raw %K into %K and %K into %D', () => {
    const stochastic = new StochasticOscillator({ period: 2, smooth: 2, signal: 2 });
    // Raw %K over two bars: bar 2: (15 - 10) / (20 - 10) = 50; bar 3: (18 - 10) / (20 - 10) = 80;
    // bar 4: (12 - 12) / (20 - 12) = 0. %K: bar 3 (50 + 80) / 2 = 65, bar 4 40. %D at bar 4: 52.5.
    const input = [bar(20, 10, 15), bar(20, 10, 15), bar(20, 12, 18), bar(16, 12, 12)];
    input.forEach((item) => stochastic.update(0, item));
    expect([stochastic.output(0), stochastic.output(1)]).toEqual([40, 52.5]);
  });

  it('reads 50 when the range is flat (close is both the high and the low)', () => {
    const stochastic = new StochasticOscillator({ period: 3, smooth: 1 });
    for (let index = 0; index < 3; index += 1) stochastic.update(0, bar(100, 100, 100));
    expect(stochastic.output(0)).toBe(50);
    expect(stochastic.output(1)).toBeNaN();
  });
});

describe('CCI', () => {
  it('divides the typical price deviation by 0.015 x the mean absolute deviation', () => {
    const cci = new CommodityChannelIndex(3);
    // Typical prices 10, 20, 30: mean 20, mean absolute deviation 20/3; CCI = 10 / (0.015 * 20/3) = 100.
    for (const typical of [10, 20, 30]) cci.update(0, bar(typical, typical, typical));
    expect(cci.output(0)).toBeCloseTo(100, 10);
  });

  it('is 0 over a flat window instead of 0 / 0', () => {
    const cci = new CommodityChannelIndex(2);
    cci.update(0, bar(5, 5, 5));
    cci.update(0, bar(5, 5, 5));
    expect(cci.output(0)).toBe(0);
  });
});
