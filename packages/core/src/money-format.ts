// Money for people and for files, from integer paise, by integer arithmetic only (no Intl, so the
// server, the CLI and every browser write the same text):
// - `formatRupees`: the rupee sign, Indian grouping (lakh, crore) and two decimals: ₹12,34,567.89;
//   `compact` writes K (thousand), L (lakh), Cr (crore), KCr (thousand crore) and LCr (lakh crore)
//   with at most two decimals and no trailing zeros (₹1.23Cr), as en-IN compact notation does.
// - `formatPrice`: a price or an index level the same way without the rupee sign (24,123.45).
// - `paiseToRupeesText`: plain rupees with exactly two decimals for CSV and JSON (-123.45).
// Rounding is half away from zero, at the paisa for amounts and at the second decimal of the unit
// for the compact form; a rounding that reaches the next unit moves to it (₹99,999 -> ₹1L).
import { InvalidMoneyError, rupeesToPaise } from './money';

/** What a formatter shows for a value that is missing or not a finite number. */
export const MISSING_VALUE = '—';

const RUPEE = '₹';

export interface RupeeFormatOptions {
  /** K, L, Cr, KCr and LCr with at most two decimals (the spec's compact currency display). */
  readonly compact?: boolean;
}

// Compact units in paise, largest first.
const UNITS: ReadonlyArray<{ readonly paise: number; readonly suffix: string }> = [
  { paise: 1e14, suffix: 'LCr' },
  { paise: 1e12, suffix: 'KCr' },
  { paise: 1e9, suffix: 'Cr' },
  { paise: 1e7, suffix: 'L' },
  { paise: 1e5, suffix: 'K' },
];

/**
 * Indian digit grouping of a whole number's digits: the last three, then pairs.
 * @example groupIndianDigits('1234567') // '12,34,567'
 */
export function groupIndianDigits(digits: string): string {
  const lastThree = digits.slice(-3);
  const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return rest === '' ? lastThree : `${rest},${lastThree}`;
}

/** `magnitude / divisor` rounded half up, both whole and safe (the floating quotient is only a first guess). */
function roundedQuotient(magnitude: number, divisor: number): number {
  let quotient = Math.floor(magnitude / divisor);
  let remainder = magnitude - quotient * divisor;
  if (remainder < 0) {
    quotient -= 1;
    remainder += divisor;
  } else if (remainder >= divisor) {
    quotient += 1;
    remainder -= divisor;
  }
  return remainder * 2 >= divisor ? quotient + 1 : quotient;
}

/** Hundredths as text with at most two decimals and no trailing zeros: 123 -> '1.23', 120 -> '1.2', 100 -> '1'. */
function trimmedHundredths(hundredths: number): string {
  const whole = groupIndianDigits(String(Math.floor(hundredths / 100)));
  const fraction = String(hundredths % 100).padStart(2, '0').replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

function compactText(magnitude: number): string {
  const index = UNITS.findIndex((unit) => magnitude >= unit.paise);
  if (index < 0) return trimmedHundredths(magnitude);
  let unit = UNITS[index] as (typeof UNITS)[number];
  let hundredths = roundedQuotient(magnitude, unit.paise / 100);
  const larger = UNITS[index - 1];
  // ₹99,999 is 99.999K: two decimals make it 100K, which en-IN writes as 1L.
  if (larger !== undefined && hundredths * (unit.paise / 100) >= larger.paise) {
    unit = larger;
    hundredths = roundedQuotient(magnitude, unit.paise / 100);
  }
  return `${trimmedHundredths(hundredths)}${unit.suffix}`;
}

/**
 * Rupees from paise (a fraction of a paisa, as a model may give, rounds to the nearest paisa);
 * MISSING_VALUE for NaN, infinities and amounts beyond exact integers.
 * @example formatRupees(123456789) // '₹12,34,567.89'
 * @example formatRupees(-5) // '-₹0.05'
 * @example formatRupees(1234567800, { compact: true }) // '₹1.23Cr'
 */
export function formatRupees(amount: number, options: RupeeFormatOptions = {}): string {
  if (!Number.isFinite(amount)) return MISSING_VALUE;
  const magnitude = Math.round(Math.abs(amount));
  if (!Number.isSafeInteger(magnitude)) return MISSING_VALUE;
  // An amount that rounds to zero paise shows no sign.
  const sign = amount < 0 && magnitude > 0 ? '-' : '';
  if (options.compact === true) return `${sign}${RUPEE}${compactText(magnitude)}`;
  const digits = String(magnitude).padStart(3, '0');
  return `${sign}${RUPEE}${groupIndianDigits(digits.slice(0, -2))}.${digits.slice(-2)}`;
}

/**
 * A price or an index level from paise, as `formatRupees` writes amounts but without the rupee
 * sign (an index level is points, not money); MISSING_VALUE for what is not a finite, exact amount.
 * @example formatPrice(2_144_320) // '21,443.20'
 */
export function formatPrice(amount: number): string {
  const text = formatRupees(amount);
  return text === MISSING_VALUE ? text : text.replace(RUPEE, '');
}

/**
 * A float number of rupees (a payoff, a greek, a chart axis) formatted as `formatRupees` does,
 * after rounding to the paisa as `rupeesToPaise` does; MISSING_VALUE when it is not finite.
 * @example formatRupeesAmount(-1234.565) // '-₹1,234.57'
 * @example formatRupeesAmount(250000, { compact: true }) // '₹2.5L'
 */
export function formatRupeesAmount(rupees: number, options: RupeeFormatOptions = {}): string {
  if (!Number.isFinite(rupees)) return MISSING_VALUE;
  try {
    return formatRupees(rupeesToPaise(rupees), options);
  } catch {
    return MISSING_VALUE;
  }
}

/**
 * Whole paise as plain rupees with exactly two decimals, for files: no sign of the rupee, no
 * grouping. Throws InvalidMoneyError for anything but a safe whole number.
 * @example paiseToRupeesText(-12_345) // '-123.45'
 */
export function paiseToRupeesText(amount: number): string {
  if (!Number.isSafeInteger(amount)) throw new InvalidMoneyError(`paise must be a whole number, got ${amount}`);
  const digits = String(Math.abs(amount)).padStart(3, '0');
  return `${amount < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
