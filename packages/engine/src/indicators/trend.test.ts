import { describe, it, expect } from 'vitest';
import type { IndicatorBar } from './indicator';
import { AverageDirectionalIndex, AverageTrueRange, SuperTrend, trueRange } from './trend';

function bars(rows: readonly (readonly [open: number, high: number, low: number, close: number])[]): IndicatorBar[] {
  return rows.map(([open, high, low, close], index) => ({ time: index * 60_000, open, high, low, close, volume: 0 }));
}

describe('SuperTrend', () => {
  it('ratchets its bands and flips up then down (period 1, multiplier 1: ATR is the bar true range)', () => {
    const superTrend = new SuperTrend({ period: 1, multiplier: 1 });
    // bar: TR, hl2, basic upper/lower -> final upper/lower -> direction, line
    // 1: 4, 100,   104/96     -> 104/96  -> -1 (starts down), 104
    // 2: 4, 101,   105/97     -> 104/97  -> -1 (102 <= 104), 104 (upper does not rise)
    // 3: 6, 105,   111/99     -> 104/99  -> +1 (107 > 104: flip up), 99
    // 4: 7, 103.5, 110.5/96.5 -> 110.5/99 (previous close 107 broke the old upper; lower does not fall) -> +1 (100 >= 99), 99
    // 5: 4, 98,    102/94     -> 102/99  -> -1 (97 < 99: flip down), 102
    const expected = [[104, -1], [104, -1], [99, 1], [99, 1], [102, -1]];
    const input = bars([[100, 102, 98, 101], [101, 103, 99, 102], [102, 108, 102, 107], [107, 107, 100, 100], [100, 100, 96, 97]]);
    input.forEach((bar, index) => {
      superTrend.update(bar.close, bar);
      expect([superTrend.output(0), superTrend.output(1)]).toEqual(expected[index]);
    });
  });

  it('rejects a multiplier that is not positive', () => {
    expect(() => new SuperTrend({ period: 10, multiplier: 0 })).toThrow('multiplier must be a finite number > 0, got 0');
  });
});

describe('ATR', () => {
  it('seeds with the mean of the first true ranges, then smooths the Wilder way', () => {
    const atr = new AverageTrueRange(2);
    // TRs: 4 (high - low), 5 (high 105 - previous close 100), 3 -> (4 + 5) / 2 = 4.5, then (4.5 + 3) / 2 = 3.75.
    const input = bars([[100, 102, 98, 100], [101, 105, 101, 104], [104, 105, 102, 103]]);
    atr.update(0, input[0] as IndicatorBar);
    expect(atr.ready).toBe(false);
    atr.update(0, input[1] as IndicatorBar);
    expect(atr.output(0)).toBe(4.5);
    atr.update(0, input[2] as IndicatorBar);
    expect(atr.output(0)).toBe(3.75);
    expect(trueRange(input[1] as IndicatorBar, 100)).toBe(5);
  });
});

describe('ADX', () => {
  it('gives +DI 100 and ADX 100 in a steady rise, and no directional move on a tie', () => {
    const adx = new AverageDirectionalIndex(2);
    // Each bar 1 higher: up = 1, down = -1 -> +DM 1, -DM 0, TR 2 (the range; the gaps are 2 and 0),
    // so +DI = 100 * 1 / 2 = 50, -DI = 0, DX = 100 from bar 3, ADX = mean of two DX = 100 at bar 4.
    const rising = bars([[10, 11, 9, 10], [11, 12, 10, 11], [12, 13, 11, 12], [13, 14, 12, 13]]);
    for (const bar of rising) adx.update(0, bar);
    expect(adx.ready).toBe(true);
    expect([adx.output(0), adx.output(1), adx.output(2)]).toEqual([100, 50, 0]);
    // An outside bar with up == down == 2 moves neither DM (Wilder's tie rule): +DI decays.
    adx.update(0, { time: 9e6, open: 13, high: 16, low: 10, close: 13, volume: 0 });
    expect(adx.output(2)).toBe(0);
    expect(adx.output(1)).toBeLessThan(50);
  });
});
