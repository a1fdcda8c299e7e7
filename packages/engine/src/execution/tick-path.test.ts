import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { candleTickPath, tickIsJump, tickTime, TICKS_PER_CANDLE } from './tick-path';

describe('candleTickPath', () => {
  it('goes open, low, high, close when the candle closed at or above its open', () => {
    const path = new Float64Array(TICKS_PER_CANDLE);
    candleTickPath({ open: 100, high: 104, low: 97, close: 101 }, path);
    expect([...path]).toEqual([100, 97, 104, 101]);
    candleTickPath({ open: 100, high: 100, low: 100, close: 100 }, path);
    expect([...path]).toEqual([100, 100, 100, 100]);
  });

  it('goes open, high, low, close when it closed below its open', () => {
    const path: number[] = [];
    candleTickPath({ open: 100, high: 104, low: 97, close: 99 }, path);
    expect(path).toEqual([100, 104, 97, 99]);
  });

  it('visits exactly the four prices, from the open to the close, its extremes in the middle (property)', () => {
    const candle = fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), fc.nat(500), fc.nat(500))
      .map(([open, close, up, down]) => ({ open, close, high: Math.max(open, close) + up, low: Math.max(1, Math.min(open, close) - down) }));
    fc.assert(fc.property(candle, (bar) => {
      const path: number[] = [];
      candleTickPath(bar, path);
      expect(path[0]).toBe(bar.open);
      expect(path[3]).toBe(bar.close);
      expect([path[1], path[2]].sort((a, b) => a! - b!)).toEqual([bar.low, bar.high]);
      // The first move from the open is toward the side the candle did not close on (or down on a flat close).
      expect(path[1]).toBe(bar.close >= bar.open ? bar.low : bar.high);
    }));
  });
});

describe('tick times and jumps', () => {
  it('splits the bar evenly from its start; the close tick comes before the bar ends', () => {
    const bar = { start: 1_000_000, end: 1_060_000 };
    expect([0, 1, 2, 3].map((tick) => tickTime(bar, tick))).toEqual([1_000_000, 1_015_000, 1_030_000, 1_045_000]);
  });

  it('rounds down to the millisecond on an uneven bar', () => {
    expect(tickTime({ start: 0, end: 10 }, 3)).toBe(7);
  });

  it('treats only the open as a jump', () => {
    expect([0, 1, 2, 3].map(tickIsJump)).toEqual([true, false, false, false]);
  });
});
