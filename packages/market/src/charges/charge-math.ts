import { paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { RATE_DENOMINATOR } from './charge-schedule';

// Exact charge arithmetic. A charge is value (paise) x rate (parts per 10^8): kept as the bigint
// numerator over 10^8 until it is rounded once. Paise x rate passes 2^53 quickly (Rs 1 crore of
// turnover is 10^9 paise; x 18_000_000 for GST is 1.8 x 10^16), hence bigint.

const DENOMINATOR = BigInt(RATE_DENOMINATOR);
const PAISE_PER_RUPEE = 100n;

/** The exact amount of a rate on a value, as a numerator over 10^8 paise. Both inputs are >= 0. */
export function exactAmount(value: bigint, rate: number): bigint {
  return value * BigInt(rate);
}

/** Rounds an exact numerator (over 10^8 paise, >= 0) to the nearest paisa, half up. */
export function roundToPaisa(numerator: bigint): bigint {
  return (numerator + DENOMINATOR / 2n) / DENOMINATOR;
}

/** Rounds an exact numerator (over 10^8 paise, >= 0) to the nearest rupee, half up, in paise. */
export function roundToRupee(numerator: bigint): bigint {
  const perRupee = DENOMINATOR * PAISE_PER_RUPEE;
  return ((numerator + perRupee / 2n) / perRupee) * PAISE_PER_RUPEE;
}

/** A bigint number of paise as `Paise`, refusing values beyond exact integer range. */
export function toPaise(amount: bigint): Paise {
  return paise(Number(amount));
}
