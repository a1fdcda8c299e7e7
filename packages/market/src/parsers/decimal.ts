// Exact decimal text -> integer paise, without going through a float: "101.25" is 10125 paise,
// "101.250" too, and "101.255" is refused rather than rounded (a price that is not a whole number
// of paise means the file is not what we think it is).

/** Largest price a candle column holds: int4 paise in storage (about Rs 2.1 crore per unit). */
export const MAX_PRICE_PAISE = 2_147_483_647;

/** A decimal number of paise, or the reason the text is not one. */
export type DecimalResult = { readonly ok: true; readonly paise: number } | { readonly ok: false; readonly reason: string };

const DIGIT_0 = 48;
const DIGIT_9 = 57;

/**
 * Parses rupees written as a plain decimal (optional leading minus) into integer paise.
 * @example parseRupeesToPaise('101.5') // { ok: true, paise: 10150 }
 */
export function parseRupeesToPaise(text: string): DecimalResult {
  let index = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45) {
    negative = true;
    index = 1;
  }
  let whole = 0;
  let wholeDigits = 0;
  for (; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < DIGIT_0 || code > DIGIT_9) break;
    whole = whole * 10 + (code - DIGIT_0);
    wholeDigits += 1;
  }
  let fraction = 0;
  let fractionDigits = 0;
  if (index < text.length && text.charCodeAt(index) === 46) {
    for (index += 1; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code < DIGIT_0 || code > DIGIT_9) break;
      fractionDigits += 1;
      if (fractionDigits <= 2) fraction = fraction * 10 + (code - DIGIT_0);
      else if (code !== DIGIT_0) return { ok: false, reason: `"${text}" is not a whole number of paise (more than 2 decimals)` };
    }
  }
  if (index !== text.length || (wholeDigits === 0 && fractionDigits === 0)) {
    return { ok: false, reason: text === '' ? 'is empty' : `"${text}" is not a decimal number` };
  }
  if (wholeDigits > 15) return { ok: false, reason: `"${text}" is too large` };
  const value = whole * 100 + (fractionDigits === 1 ? fraction * 10 : fraction);
  return { ok: true, paise: negative ? -value : value };
}

/** A whole, non-negative count (volume, open interest, contracts) or NaN. "12.0" is 12; "1e3" is NaN. */
export function parseCount(text: string): number {
  if (text === '' || !/^\d+(\.0*)?$/.test(text)) return Number.NaN;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : Number.NaN;
}
