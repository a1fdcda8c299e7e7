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
// Number.MAX_SAFE_INTEGER (the caller checks): then each step is exact (wholeQuotient).
const HALF_PAISA_NUMBER = RATE_DENOMINATOR / 2;
const PER_RUPEE_NUMBER = RATE_DENOMINATOR * 100;
const HALF_RUPEE_NUMBER = PER_RUPEE_NUMBER / 2;

/**
 * floor(m / d) for a whole m from 0 to Number.MAX_SAFE_INTEGER and a whole d > 0, exactly. The
 * rounded m / d lies between floor(m / d) and the next whole number (both representable, and
 * rounding keeps the order), so its floor is the answer, or one more should the division round up
 * to that next number; one more times d exceeds m (the product rounds to at least m + 1, which is
 * representable), and the check takes it back. A backtest rounds every fill's charges this way;
 * `m - (m % d)` gave the same, but `%` on doubles is a call into the C library, several times
 * slower (charge-math.test.ts compares both roundings with bigint division).
 * @example wholeQuotient(250_000_000, 100_000_000) // 2
 */
export function wholeQuotient(m: number, d: number): number {
  const quotient = Math.floor(m / d);
  return quotient * d > m ? quotient - 1 : quotient;
}

/** The largest whole numerator roundToPaisaNumber takes: adding the half paisa stays within Number.MAX_SAFE_INTEGER. */
export const PAISA_ROUNDABLE = Number.MAX_SAFE_INTEGER - HALF_PAISA_NUMBER;
/** The largest whole numerator roundToRupeeNumber takes. */
export const RUPEE_ROUNDABLE = Number.MAX_SAFE_INTEGER - HALF_RUPEE_NUMBER;

// The two roundings below leave the range check to their caller (one comparison each beside the
// caller's own): they stay small enough for V8 to inline wherever they are called. Called, not
// inlined, each double passed in and returned was a new heap number: four to six a fill.

/** A whole numerator (over 10^8 paise) from 0 to PAISA_ROUNDABLE rounded to the paisa, half up, as `roundToPaisa`. */
export function roundToPaisaNumber(numerator: number): number {
  return wholeQuotient(numerator + HALF_PAISA_NUMBER, RATE_DENOMINATOR);
}

/** A whole numerator (over 10^8 paise) from 0 to RUPEE_ROUNDABLE rounded to the rupee, half up, in paise, as `roundToRupee`. */
export function roundToRupeeNumber(numerator: number): number {
  return wholeQuotient(numerator + HALF_RUPEE_NUMBER, PER_RUPEE_NUMBER) * 100;
}
