import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalCdf, normalPdf } from './normal';

// Reference values computed with mpmath at 50 significant digits (ncdf, npdf).
const REFERENCE: ReadonlyArray<{ x: number; cdf: number; pdf: number }> = [
  { x: -1, cdf: 0.15865525393145705141, pdf: 0.2419707245191433498 },
  { x: -3, cdf: 0.0013498980316300945267, pdf: 0.0044318484119380071756 },
  { x: -5, cdf: 2.8665157187919391167e-7, pdf: 1.4867195147342977079e-6 },
  { x: -10, cdf: 7.619853024160526066e-24, pdf: 7.6945986267064193463e-23 },
  { x: -20, cdf: 2.7536241186062336951e-89, pdf: 5.5209483621597631896e-88 },
  { x: -37.5, cdf: 4.6053530095819548438e-308, pdf: 1.7282337322841052208e-306 },
  { x: 0.5, cdf: 0.69146246127401310364, pdf: 0.35206532676429947777 },
  { x: 2.5, cdf: 0.99379033467422386483, pdf: 0.017528300493568537362 },
];

function relativeError(actual: number, expected: number): number {
  return Math.abs(actual - expected) / Math.abs(expected);
}

describe('normalCdf and normalPdf', () => {
  it.each(REFERENCE)('match 50-digit references at x = $x to ~1e-15 relative, tails included', ({ x, cdf, pdf }) => {
    expect(relativeError(normalCdf(x), cdf)).toBeLessThan(1.5e-15);
    expect(relativeError(normalPdf(x), pdf)).toBeLessThan(1.5e-15);
  });

  it('is exactly one half at zero and saturates or underflows far out', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(40)).toBe(1);
    expect(normalCdf(-40)).toBe(0);
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1);
    expect(normalPdf(Number.POSITIVE_INFINITY)).toBe(0);
    expect(normalCdf(Number.NaN)).toBeNaN();
  });

  it('is symmetric: cdf(x) + cdf(-x) = 1', () => {
    fc.assert(fc.property(fc.double({ min: -30, max: 30, noNaN: true }), (x) => {
      expect(Math.abs(normalCdf(x) + normalCdf(-x) - 1)).toBeLessThan(2e-16 * 4);
    }));
  });

  it('is increasing and its slope is the density', () => {
    fc.assert(fc.property(fc.double({ min: -8, max: 8, noNaN: true }), (x) => {
      const step = 1e-5;
      const slope = (normalCdf(x + step) - normalCdf(x - step)) / (2 * step);
      expect(normalCdf(x + step)).toBeGreaterThanOrEqual(normalCdf(x));
      expect(Math.abs(slope - normalPdf(x))).toBeLessThan(1e-9);
    }));
  });

  it('is continuous across the boundaries of its three approximation ranges', () => {
    for (const boundary of [-0.66291, 0.66291, -Math.sqrt(32), Math.sqrt(32)]) {
      const left = normalCdf(boundary - 1e-12);
      const right = normalCdf(boundary + 1e-12);
      // Across 2e-12 the true rise is 2e-12 * pdf; a seam between ranges would add a jump beyond
      // the ~1e-15 accuracy of each side.
      const jump = right - left - 2e-12 * normalPdf(boundary);
      expect(Math.abs(jump)).toBeLessThan(2e-15 * right);
    }
  });
});
