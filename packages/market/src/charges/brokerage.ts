import { paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { exactAmount, roundToPaisa } from './charge-math';
import { InvalidChargesInputError } from './charges-input-error';

/**
 * What a broker charges per executed order. `flat`: a fixed amount per order (Rs 20 at most
 * Indian discount brokers). `percentage`: `percent` of the order's value or `cap`, whichever is
 * lower, as discount brokers price futures (0.03% or Rs 20).
 */
export type BrokeragePlan =
  | { readonly kind: 'flat'; readonly perOrder: Paise }
  | { readonly kind: 'percentage'; readonly percent: number; readonly cap: Paise };

/** Rs 20 per executed order: the typical discount broker's price for index options and futures. */
export const DEFAULT_BROKERAGE_PLAN: BrokeragePlan = { kind: 'flat', perOrder: paise(2_000) };

/** Percentages are held to 6 decimals (one part in 10^8 of the value), the schedule's resolution. */
const RATE_PER_PERCENT = 1_000_000;

function wholePaise(value: number, field: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidChargesInputError(field, `must be a whole, non-negative number of paise, got ${value}`);
  }
  return BigInt(value);
}

function percentAsRate(percent: number): number {
  const scaled = Number((percent * RATE_PER_PERCENT).toPrecision(15));
  if (!Number.isFinite(percent) || percent < 0 || percent > 100 || !Number.isInteger(scaled)) {
    throw new InvalidChargesInputError('brokerage.percent', `must be a percentage from 0 to 100 with at most 6 decimals, got ${percent}`);
  }
  return scaled;
}

/**
 * The brokerage on one executed order of `orderValue` paise, rounded to the paisa half up.
 * @example brokerageFor({ kind: 'percentage', percent: 0.03, cap: paise(2_000) }, 5_000_000n) // 1500n (0.03% of Rs 50,000 = Rs 15 < Rs 20)
 */
export function brokerageFor(plan: BrokeragePlan, orderValue: bigint): bigint {
  if (plan.kind === 'flat') return wholePaise(plan.perOrder, 'brokerage.perOrder');
  const cap = wholePaise(plan.cap, 'brokerage.cap');
  const byPercent = roundToPaisa(exactAmount(orderValue, percentAsRate(plan.percent)));
  return byPercent < cap ? byPercent : cap;
}
