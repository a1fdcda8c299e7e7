import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ExponentialMovingAverage, SimpleMovingAverage, WeightedMovingAverage } from './moving-averages';

describe('EMA', () => {
  it('is seeded with the SMA of the first period values, then moves by alpha = 2 / (period + 1)', () => {
    const ema = new ExponentialMovingAverage(3);
    ema.update(1);
    ema.update(2);
    expect(ema.output(0)).toBeNaN();
    ema.update(6);
    expect(ema.output(0)).toBe(3);
    // alpha = 0.5: 3 + 0.5 * (5 - 3) = 4.
    ema.update(5);
    expect(ema.output(0)).toBe(4);
  });
});

describe('WMA', () => {
  it('weighs the latest value most: (1*1 + 2*2 + 3*6) / 6', () => {
    const wma = new WeightedMovingAverage(3);
    for (const value of [1, 2, 6]) wma.update(value);
    expect(wma.output(0)).toBe(23 / 6);
    // Window 2, 6, 4: (2 + 12 + 12) / 6.
    wma.update(4);
    expect(wma.output(0)).toBe(26 / 6);
  });

  it('matches the from-scratch weighted mean on long random series (incremental numerator + rebuild)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 500 }), (period, values) => {
        const wma = new WeightedMovingAverage(period);
        values.forEach((value, index) => {
          wma.update(value);
          if (index + 1 < period) return;
          let numerator = 0;
          for (let weight = 1; weight <= period; weight += 1) numerator += weight * (values[index + 1 - period + weight - 1] as number);
          // Between rebuilds (every `period` values) the numerator carries rounding from values
          // that have just left: the bound is relative to the largest value of the last two windows.
          let recent = 0;
          for (let back = 0; back < 2 * period && back <= index; back += 1) recent = Math.max(recent, Math.abs(values[index - back] as number));
          const divisor = (period * (period + 1)) / 2;
          expect(Math.abs(wma.output(0) - numerator / divisor)).toBeLessThanOrEqual(1e-12 * recent * period);
        });
      }),
    );
  });
});

describe('SMA', () => {
  it('ties exactly where the true means tie', () => {
    const first = new SimpleMovingAverage(3);
    const second = new SimpleMovingAverage(3);
    for (const value of [0.1, 0.2, 0.3]) first.update(value);
    for (const value of [0.3, 0.1, 0.2]) second.update(value);
    expect(first.output(0)).toBe(second.output(0));
  });
});
