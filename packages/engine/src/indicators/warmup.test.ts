import { describe, it, expect } from 'vitest';
import { createIndicator, indicatorNames, indicatorWarmup } from './factory';
import { randomBars } from './indicator-test-support';

const BARS = randomBars({ count: 400, seed: 'warm-up' });

// Bar-count indicators: ready after exactly `indicatorWarmup` bars, every output NaN before.
// (The day-based vwap, pivot, prev_day and orb are covered by sessions.test.ts.)
const CASES: readonly (readonly [name: string, parameters: readonly number[], warmup: number, outputs: number])[] = [
  ['sma', [20], 20, 1],
  ['ema', [20], 20, 1],
  ['wma', [10], 10, 1],
  ['rsi', [14], 15, 1],
  ['macd', [12, 26, 9], 34, 3],
  ['macd', [30, 5, 4], 33, 3],
  ['bb', [20, 2], 20, 3],
  ['atr', [14], 14, 1],
  ['supertrend', [10, 3], 10, 2],
  ['stoch_k', [14, 3], 16, 1],
  ['stoch', [14, 3, 3], 18, 2],
  ['adx', [14], 28, 3],
  ['cci', [20], 20, 1],
  ['donchian', [20], 20, 3],
  ['heikin_ashi', [], 1, 4],
  ['obv', [], 1, 1],
  ['sma', [1], 1, 1],
  ['rsi', [1], 2, 1],
];

describe('warm-up', () => {
  it.each(CASES)('%s(%j) is ready after exactly %i bars', (...[name, parameters, warmup, outputs]) => {
    expect(indicatorWarmup(name, parameters)).toBe(warmup);
    const indicator = createIndicator(name, parameters);
    BARS.forEach((bar, index) => {
      indicator.update(bar.close, bar);
      const seen = index + 1;
      expect(indicator.ready).toBe(seen >= warmup);
      for (let output = 0; output < outputs; output += 1) {
        if (seen < warmup) expect(indicator.output(output)).toBeNaN();
        else expect(Number.isFinite(indicator.output(output))).toBe(true);
      }
      expect(indicator.output(outputs)).toBeNaN();
    });
  });

  it('covers every indicator the factory knows (bar-count ones here, day-based in sessions.test.ts)', () => {
    const covered = new Set([...CASES.map(([name]) => name), 'vwap', 'pivot', 'prev_day', 'orb']);
    expect([...indicatorNames()].sort()).toEqual([...covered].sort());
  });
});

describe('createIndicator', () => {
  it('names the parameters when the count is wrong', () => {
    expect(() => createIndicator('macd', [12, 26])).toThrow('Indicator "macd" takes 3 parameter(s) (fast, slow, signal), got 2');
    expect(() => indicatorWarmup('vwap', [1])).toThrow('takes 0 parameter(s) (none), got 1');
  });

  it('rejects an unknown indicator, including inherited object keys', () => {
    expect(() => createIndicator('nope', [])).toThrow('Unknown indicator "nope"');
    expect(() => createIndicator('toString', [])).toThrow('Unknown indicator "toString"');
  });

  it('rejects a period that is not a whole number >= 1, naming it', () => {
    expect(() => createIndicator('sma', [0])).toThrow('period must be a whole number >= 1, got 0');
    expect(() => createIndicator('macd', [12, 2.5, 9])).toThrow('slow must be');
    expect(() => createIndicator('supertrend', [10, -1])).toThrow('multiplier must be');
  });
});
