import { paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { RATE_DENOMINATOR } from './charge-schedule';

// Exact charge arithmetic. A charge is value (paise) x rate (parts per 10^8): kept as the bigint
// numerator over 10^8 until it is rounded once. Paise x rate passes 2^53 quickly (Rs 1 crore of
// turnover is 10^9 paise; x 18_000_000 for GST is 1.8 x 10^16), hence bigint.

const DENOMINATOR = BigInt(RATE_DENOMINATOR);
const PAISE_PER_RUPEE = 100n;
// Computed once: a bigint expression allocates a new bigint every time it is evaluated.
const HALF_PAISA = DENOMINATOR / 2n;
const PER_RUPEE = DENOMINATOR * PAISE_PER_RUPEE;
const HALF_RUPEE = PER_RUPEE / 2n;

/** The exact amount of a rate on a value, as a numerator over 10^8 paise. Both inputs are >= 0. */
export function exactAmount(value: bigint, rate: number): bigint {
  return value * BigInt(rate);
}

/** Rounds an exact numerator (over 10^8 paise, >= 0) to the nearest paisa, half up. */
export function roundToPaisa(numerator: bigint): bigint {
  return (numerator + HALF_PAISA) / DENOMINATOR;
}

/** Rounds an exact numerator (over 10^8 paise, >= 0) to the nearest rupee, half up, in paise. */
export function roundToRupee(numerator: bigint): bigint {
  return ((numerator + HALF_RUPEE) / PER_RUPEE) * PAISE_PER_RUPEE;
}

/** A bigint number of paise as `Paise`, refusing values beyond exact integer range. */
export function toPaise(amount: bigint): Paise {
  return paise(Number(amount));
}

// The same rounding in doubles, for whole numerators whose every intermediate is at most
// Number.MAX_SAFE_INTEGER (the caller checks): then each step is exact. `m % d` is exact for
// doubles, m - (m % d) is a multiple of d no larger than m (representable, so exact), and dividing
// it by d gives a whole number, which division returns exactly: floor(m / d) without rounding.
const HALF_PAISA_NUMBER = RATE_DENOMINATOR / 2;
const PER_RUPEE_NUMBER = RATE_DENOMINATOR * 100;
const HALF_RUPEE_NUMBER = PER_RUPEE_NUMBER / 2;

/** A whole numerator (over 10^8 paise) rounded to the paisa, half up, as `roundToPaisa`; undefined when a step would pass Number.MAX_SAFE_INTEGER. */
export function roundToPaisaNumber(numerator: number): number | undefined {
  const shifted = numerator + HALF_PAISA_NUMBER;
  if (shifted > Number.MAX_SAFE_INTEGER) return undefined;
  return (shifted - (shifted % RATE_DENOMINATOR)) / RATE_DENOMINATOR;
}

/** A whole numerator (over 10^8 paise) rounded to the rupee, half up, in paise, as `roundToRupee`; undefined when a step would pass Number.MAX_SAFE_INTEGER. */
export function roundToRupeeNumber(numerator: number): number | undefined {
  const shifted = numerator + HALF_RUPEE_NUMBER;
  if (shifted > Number.MAX_SAFE_INTEGER) return undefined;
  return ((shifted - (shifted % PER_RUPEE_NUMBER)) / PER_RUPEE_NUMBER) * 100;
}
