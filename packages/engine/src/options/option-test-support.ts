// fast-check arbitraries and finite differences shared by the option tests (not exported from the package).
import fc from 'fast-check';
import type { OptionType } from './option-input';

export const optionType = fc.constantFrom<OptionType>('call', 'put');

/** A contract in a sane range: underlying 50..200, moneyness 0.6..1.6, 2 weeks..2 years, vol 5%..100%. */
export const contract = fc.record({
  underlying: fc.double({ min: 50, max: 200, noNaN: true }),
  moneyness: fc.double({ min: 0.6, max: 1.6, noNaN: true }),
  years: fc.double({ min: 0.04, max: 2, noNaN: true }),
  vol: fc.double({ min: 0.05, max: 1, noNaN: true }),
  rate: fc.double({ min: -0.02, max: 0.15, noNaN: true }),
  dividendYield: fc.double({ min: 0, max: 0.06, noNaN: true }),
  type: optionType,
});

/** Central difference (f(x + h) - f(x - h)) / 2h. */
export function centralDifference(f: (x: number) => number, x: number, step: number): number {
  return (f(x + step) - f(x - step)) / (2 * step);
}

/** Second central difference (f(x + h) - 2 f(x) + f(x - h)) / h^2. */
export function secondDifference(f: (x: number) => number, x: number, step: number): number {
  return (f(x + step) - 2 * f(x) + f(x - step)) / (step * step);
}

/** |actual - expected| within an absolute-plus-relative tolerance, with a readable failure. */
export function expectClose(actual: number, expected: number, tolerance: number): void {
  const allowed = tolerance * (1 + Math.abs(expected));
  if (!(Math.abs(actual - expected) <= allowed)) {
    throw new Error(`expected ${actual} to be within ${allowed} of ${expected}`);
  }
}
