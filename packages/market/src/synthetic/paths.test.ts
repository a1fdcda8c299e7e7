import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { bridgePath } from './paths';
import { intradayVarianceWeights } from './intraday-profile';
import { dayNumberOf, levelToTickPaise, planMonths } from './inputs';

describe('bridgePath', () => {
  it('moves the end by exactly the correction, the start not at all, and in between by the cumulative weight', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 1e-9, max: 1, noNaN: true })), { minLength: 1, maxLength: 50 }).filter((weights) => weights.some((weight) => weight > 0)),
        fc.double({ min: -2, max: 2, noNaN: true }),
        (weights, correction) => {
          const path = Float64Array.from({ length: weights.length + 1 }, (_, index) => Math.sin(index));
          const before = Float64Array.from(path);
          bridgePath(path, Float64Array.from(weights), correction);
          expect(path[0]).toBe(before[0]);
          expect(path[weights.length]! - before[weights.length]!).toBeCloseTo(correction, 9);
          const total = weights.reduce((sum, weight) => sum + weight, 0);
          let cumulative = 0;
          weights.forEach((weight, step) => {
            cumulative += weight;
            expect(path[step + 1]! - before[step + 1]!).toBeCloseTo(correction * (cumulative / total), 9);
          });
        },
      ),
    );
  });
});

describe('intradayVarianceWeights', () => {
  it('sums to 1 and is U-shaped for a normal session and for a one-hour muhurat session', () => {
    // In a one-hour session the close is never far away, so its middle is less quiet.
    for (const [minutes, closeOverMiddle] of [[375, 2.5], [60, 1.2]] as const) {
      const weights = intradayVarianceWeights(minutes);
      expect(weights.reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1, 12);
      const middle = weights[Math.floor(minutes / 2)]!;
      expect(weights[0]! / middle).toBeGreaterThan(3);
      expect(weights[minutes - 1]! / middle).toBeGreaterThan(closeOverMiddle);
    }
  });
});

describe('synthetic inputs', () => {
  it('rounds levels to the 0.05 tick in paise', () => {
    expect(levelToTickPaise(14.4475)).toBe(1445);
    expect(levelToTickPaise(40723.49)).toBe(4_072_350);
    expect(levelToTickPaise(11962.1)).toBe(1_196_210);
  });

  it('recognises real dates only', () => {
    expect(dayNumberOf('1970-01-02')).toBe(1);
    expect(dayNumberOf('2024-02-29')).toBe(19_782);
    expect(dayNumberOf('2023-02-29')).toBeUndefined();
    expect(dayNumberOf('2024-1-05')).toBeUndefined();
  });

  it('groups sessions by month and places the first bar at the IST open', () => {
    const months = planMonths([
      { date: '2024-01-31', openMinute: 555, closeMinute: 930 },
      { date: '2024-02-01', openMinute: 555, closeMinute: 930 },
      { date: '2024-03-02', openMinute: 555, closeMinute: 600 },
    ]);
    expect(months.map((month) => [month.month, month.barCount])).toEqual([['2024-01', 375], ['2024-02', 375], ['2024-03', 45]]);
    expect(new Date(months[2]!.sessions[0]!.firstBarTime).toISOString()).toBe('2024-03-02T03:45:00.000Z');
  });
});
