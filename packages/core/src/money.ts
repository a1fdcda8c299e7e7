// Money as integer paise, and the only conversions between rupees and paise in the code base.
// Rupees arrive as text a person typed, as a number read from a form or a file, or as a float a
// model computed; every one of them becomes paise here, rounded once, half away from zero, at the
// paisa of the decimal the value stands for (so ₹1.005 is 101 paise although 1.005 * 100 is
// 100.49999999999999 in binary floating point). Display lives in money-format.ts.
import { TO_INTEGER } from './to-integer';
import { err, ok, type Result } from './result';

declare const paiseBrand: unique symbol;

/** Money in integer paise (1 rupee = 100 paise): the only form money takes in storage and P&L math. */
export type Paise = number & { readonly [paiseBrand]: 'Paise' };

/** Raised where a value that is not a whole, safe number of paise tries to enter the system. */
export class InvalidMoneyError extends Error {
  override readonly name = 'InvalidMoneyError';
}

/**
 * Brands a whole number of paise, refusing NaN, fractions and values beyond exact integer range.
 * @example paise(2_050) // 2050 paise = ₹20.50
 */
export function paise(value: number): Paise {
  if (!Number.isSafeInteger(value)) {
    throw new InvalidMoneyError(`Money must be a whole number of paise within ±${Number.MAX_SAFE_INTEGER}, got ${value}`);
  }
  return (value === 0 ? 0 : value) as Paise;
}

// A signed decimal with an optional exponent, as String(number) writes it or a person types it.
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Paise of decimal text, rounded half away from zero at the paisa; undefined when it is no decimal or too large. */
function decimalTextToPaise(text: string): number | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const exponent = Number(exponentText);
  if (!Number.isSafeInteger(exponent) || exponent > 400) return undefined;
  if (exponent < -400) return 0;
  const all = `${whole}${fraction}`;
  const digits = all.replace(/^0+/, '');
  if (digits === '') return 0;
  // Where the decimal point falls in `digits` once the value is scaled to paise (x 10^2).
  const scaledPoint = whole.length + exponent + 2 - (all.length - digits.length);
  if (scaledPoint > 16) return undefined;
  const kept = scaledPoint <= 0 ? '' : digits.slice(0, scaledPoint).padEnd(scaledPoint, '0');
  const firstDropped = scaledPoint < 0 ? 0 : Number(digits[scaledPoint] ?? '0');
  const magnitude = (kept === '' ? 0 : Number(kept)) + (firstDropped >= 5 ? 1 : 0);
  if (!Number.isSafeInteger(magnitude)) return undefined;
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * Rupees to paise, rounding half away from zero at the paisa of the decimal the value stands for.
 * A number is read as the shortest decimal that names it (what a person typed), text as written
 * (`'1500.5'`, `'-0.25'`, `'1e3'`). Throws InvalidMoneyError for NaN, infinities, text that is no
 * decimal and amounts beyond ±90,071,992,547,409.91 rupees. For what a person types into a form
 * (grouping commas, the rupee sign, a message instead of a throw) use `parseRupees`.
 * @example rupeesToPaise(20.5) // 2050
 * @example rupeesToPaise(1.005) // 101
 * @example rupeesToPaise('-0.125') // -13
 */
export function rupeesToPaise(rupees: number | string): Paise {
  if (typeof rupees === 'string') return decimalToPaiseOrThrow(rupees.trim(), rupees);
  const scaled = rupees * 100;
  // The nearest whole number, ties to even (to-integer.ts): a tie, NaN, an infinity or a
  // magnitude where this is not exact all fail the test below, which is all the rounding decides.
  const rounded = scaled + TO_INTEGER - TO_INTEGER;
  // The product is within about 2.3e-16 (relative) of the decimal's own x 100: unless it lies that
  // close to a half, it rounds the way the decimal does, and no text is needed. NaN, infinities and
  // amounts beyond ±5e14 paise never pass this test and take the careful path.
  if (Math.abs(rounded - scaled) < 0.5 - (Math.abs(scaled) * 1e-15 + 1e-12)) return (rounded + 0) as Paise;
  return nearHalfToPaise(rupees);
}

/** The careful path of `rupeesToPaise` for a number: refuses what is not finite, reads the rest as decimal text. */
function nearHalfToPaise(rupees: number): Paise {
  if (!Number.isFinite(rupees)) throw new InvalidMoneyError(`Money must be a finite number of rupees, got ${rupees}`);
  const value = decimalTextToPaise(String(rupees));
  if (value === undefined) throw new InvalidMoneyError(`Money must be within ±${Number.MAX_SAFE_INTEGER} paise, got ${rupees} rupees`);
  return paise(value);
}

function decimalToPaiseOrThrow(text: string, original: string): Paise {
  const value = decimalTextToPaise(text);
  if (value === undefined) throw new InvalidMoneyError(`Money must be a decimal number of rupees, got "${original}"`);
  return paise(value);
}

/**
 * Paise as a number of rupees, for a form field or a float model (options, charts).
 * @example paiseToRupees(150_050) // 1500.5
 */
export function paiseToRupees(amount: number): number {
  return amount / 100;
}

export interface ParseRupeesOptions {
  /** Accept amounts below zero (a loss limit, an adjustment). Default false. */
  readonly allowNegative?: boolean;
}

// Digits with optional en-IN or Western grouping commas, an optional fraction; sign and ₹ in front.
const TYPED_RUPEES = /^([+-]?)\s*₹?\s*(\d[\d,]*)?(?:\.(\d+))?$/;

/**
 * What a person typed as rupees (`'2,50,000.50'`, `'₹1.005'`, `'-40'`), or a number from a numeric
 * field, as paise; an error message saying what is wrong otherwise. Rounds as `rupeesToPaise`.
 * @example parseRupees('1,500.5') // { ok: true, value: 150050 }
 * @example parseRupees('12abc') // { ok: false, error: 'must be an amount in rupees such as 1500.50, got "12abc"' }
 */
export function parseRupees(input: string | number, options: ParseRupeesOptions = {}): Result<Paise, string> {
  let amount: Paise;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return err(`must be an amount in rupees, got ${input}`);
    try {
      amount = rupeesToPaise(input);
    } catch {
      return err(`must be at most ₹${Math.floor(Number.MAX_SAFE_INTEGER / 100)} in size, got ${input}`);
    }
  } else {
    const text = input.trim();
    const match = TYPED_RUPEES.exec(text);
    if (text === '' || !match || (match[2] === undefined && match[3] === undefined)) {
      return err(`must be an amount in rupees such as 1500.50, got "${input}"`);
    }
    const value = decimalTextToPaise(`${match[1] ?? ''}${(match[2] ?? '0').replaceAll(',', '')}.${match[3] ?? '0'}`);
    if (value === undefined) return err(`must be at most ₹${Math.floor(Number.MAX_SAFE_INTEGER / 100)} in size, got "${input}"`);
    amount = paise(value);
  }
  if (amount < 0 && options.allowNegative !== true) return err(`must not be negative, got ${String(input).trim()}`);
  return ok(amount);
}
