import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PAISA_ROUNDABLE, roundToPaisa, roundToPaisaNumber, roundToRupee, roundToRupeeNumber, RUPEE_ROUNDABLE, wholeQuotient } from './charge-math';

const MAX = Number.MAX_SAFE_INTEGER;
const DIVISORS = [1, 3, 7, 100, 100_000_000, 10_000_000_000];

/** Whole numbers from 0 to MAX_SAFE_INTEGER, many of them next to a multiple of a divisor (where a rounded m / d can reach the next whole number). */
const wholes = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.double({ min: 0, max: MAX, noNaN: true }).map((value) => Math.floor(value)),
  fc.tuple(fc.constantFrom(...DIVISORS), fc.double({ min: 0, max: MAX, noNaN: true }), fc.integer({ min: -2, max: 2 }))
    .map(([d, value, offset]) => Math.min(MAX, Math.max(0, Math.floor(value / d) * d + offset))),
  fc.integer({ min: 0, max: 1_000 }).map((below) => MAX - below),
);

describe('wholeQuotient', () => {
  it('is floor(m / d) exactly, as bigint division gives it, up to Number.MAX_SAFE_INTEGER', () => {
    fc.assert(fc.property(wholes, fc.constantFrom(...DIVISORS), (m, d) => {
      expect(wholeQuotient(m, d)).toBe(Number(BigInt(m) / BigInt(d)));
    }), { numRuns: 20_000 });
    // Where m / d rounds up to a whole number: 2^53 - 1 over 3 and over 10^8.
    expect(wholeQuotient(MAX, 3)).toBe(Number(BigInt(MAX) / 3n));
    expect(wholeQuotient(MAX - 1, 100_000_000)).toBe(Number(BigInt(MAX - 1) / 100_000_000n));
  });
});

describe('rounding in doubles', () => {
  it('rounds a numerator to the paisa and to the rupee as the bigint arithmetic does, up to the largest each takes', () => {
    fc.assert(fc.property(wholes, (numerator) => {
      if (numerator <= PAISA_ROUNDABLE) expect(roundToPaisaNumber(numerator)).toBe(Number(roundToPaisa(BigInt(numerator))));
      if (numerator <= RUPEE_ROUNDABLE) expect(roundToRupeeNumber(numerator)).toBe(Number(roundToRupee(BigInt(numerator))));
    }), { numRuns: 20_000 });
    // The largest numerators: the half added reaches Number.MAX_SAFE_INTEGER exactly.
    expect([PAISA_ROUNDABLE + 50_000_000, RUPEE_ROUNDABLE + 5_000_000_000]).toEqual([MAX, MAX]);
    expect(roundToPaisaNumber(PAISA_ROUNDABLE)).toBe(Number(roundToPaisa(BigInt(PAISA_ROUNDABLE))));
    expect(roundToRupeeNumber(RUPEE_ROUNDABLE)).toBe(Number(roundToRupee(BigInt(RUPEE_ROUNDABLE))));
  });
});
