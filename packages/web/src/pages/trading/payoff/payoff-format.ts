// How /payoff writes its numbers (the browser test formats the engine's results with these same
// functions and compares the text). Rupee amounts go through @vyuha/core's formatRupeesAmount.
import type { ProfitAndLossBounds } from '@vyuha/engine';
import { formatRupeesAmount } from '../../../format/format';

const LEVEL = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });
const fixedFormats = new Map<number, Intl.NumberFormat>();

/** A number with exactly `digits` decimals, en-IN grouping; no "-0". @example fixed(-1234.5, 2) // '-1,234.50' */
export function fixed(value: number, digits: number): string {
  let format = fixedFormats.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: 'negative' });
    fixedFormats.set(digits, format);
  }
  return format.format(value);
}

/** An index level (a breakeven, a strike). @example levelText(24123.456) // '24,123.46' */
export function levelText(level: number): string {
  return LEVEL.format(level);
}

/** The breakevens, or "none". @example breakevensText([23800.5, 24199.5]) // '23,800.5, 24,199.5' */
export function breakevensText(levels: readonly number[]): string {
  return levels.length === 0 ? 'none' : levels.map(levelText).join(', ');
}

/** A maximum profit or loss as the engine gives it (the lowest P&L is negative when money can be lost); "Unlimited" in words. */
export function boundText(value: ProfitAndLossBounds['maxProfit']): string {
  return value === 'unlimited' ? 'Unlimited' : formatRupeesAmount(value);
}

/** A probability between 0 and 1 as a percent with 2 decimals. @example probabilityText(0.5123) // '51.23%' */
export function probabilityText(probability: number): string {
  return `${fixed(probability * 100, 2)}%`;
}

/** The four greeks as the screen writes them (rupees per unit of spot, per day, per vol point). */
export const greekText = {
  delta: (value: number): string => fixed(value, 2),
  gamma: (value: number): string => fixed(value, 4),
  theta: (value: number): string => `${formatRupeesAmount(value)}/day`,
  vega: (value: number): string => `${formatRupeesAmount(value)}/vol pt`,
} as const;

export type GreekName = keyof typeof greekText;
export const GREEK_NAMES: readonly GreekName[] = ['delta', 'gamma', 'theta', 'vega'];

/** A volatility (decimal) as the IV input shows it, in vol points. @example volatilityPoints(0.1234) // 12.34 */
export function volatilityPoints(vol: number): number {
  return Math.round(vol * 10_000) / 100;
}

/**
 * A leg in words: long or short (not buy or sell: this names a holding, not an order), units, contract.
 * @example legText({ kind: 'option', optionType: 'CE', strike: 24500, quantity: -130 }) // 'Short 130 × 24,500 CE'
 */
export function legText(leg: { readonly kind: string; readonly optionType?: string; readonly strike?: number; readonly quantity: number }): string {
  const side = leg.quantity > 0 ? 'Long' : 'Short';
  const contract = leg.kind === 'future' ? 'FUT' : `${levelText(leg.strike ?? 0)} ${leg.optionType ?? ''}`;
  return `${side} ${Math.abs(leg.quantity).toLocaleString('en-IN')} × ${contract}`;
}
