// Amounts typed into the screens' money fields (investment, capital) as integer paise. The
// conversion is @vyuha/core's parseRupees (exact at the paisa: ₹1.005 is 101 paise); this file
// only adds the fields' rule that an empty field means no amount (0).
import { paise, parseRupees, type Paise, type Result } from '@vyuha/core';

/**
 * A money field's value (Mantine's NumberInput gives a number, or text while typing) as paise,
 * 0 or more; an empty field is 0.
 * @example rupeesFieldToPaise('2,50,000.50') // { ok: true, value: 25000050 }
 * @example rupeesFieldToPaise('') // { ok: true, value: 0 }
 */
export function rupeesFieldToPaise(value: string | number): Result<Paise, string> {
  if (typeof value === 'string' && value.trim() === '') return { ok: true, value: paise(0) };
  return parseRupees(value);
}
