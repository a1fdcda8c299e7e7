import { describe, it, expect } from 'vitest';
import type { IndicatorBar } from './indicator';
import { HeikinAshi, OnBalanceVolume } from './price-transforms';

function bar(prices: readonly [open: number, high: number, low: number, close: number], volume = 0): IndicatorBar {
  const [open, high, low, close] = prices;
  return { time: 0, open, high, low, close, volume };
}

describe('Heikin-Ashi', () => {
  it('opens the first candle at (open + close) / 2 and chains the opens after', () => {
    const heikinAshi = new HeikinAshi();
    expect(heikinAshi.ready).toBe(false);
    heikinAshi.update(0, bar([100, 110, 95, 105]));
    // close (100 + 110 + 95 + 105) / 4 = 102.5; open (100 + 105) / 2 = 102.5; high 110; low 95.
    expect([0, 1, 2, 3].map((index) => heikinAshi.output(index))).toEqual([102.5, 110, 95, 102.5]);
    heikinAshi.update(0, bar([105, 108, 104, 106]));
    // open (102.5 + 102.5) / 2 = 102.5 (below the real low 104, so it is the HA low); close 423 / 4 = 105.75.
    expect([0, 1, 2, 3].map((index) => heikinAshi.output(index))).toEqual([102.5, 108, 102.5, 105.75]);
    expect(heikinAshi.ready).toBe(true);
  });
});

describe('OBV', () => {
  it('starts at 0 and adds or subtracts the volume with the close direction', () => {
    const obv = new OnBalanceVolume();
    const closes: readonly (readonly [number, number])[] = [[100, 50], [101, 10], [99, 30], [99, 70], [102, 5]];
    const expected = [0, 10, -20, -20, -15];
    closes.forEach(([close, volume], index) => {
      obv.update(close, bar([close, close, close, close], volume));
      expect(obv.output(0)).toBe(expected[index]);
    });
  });
});
