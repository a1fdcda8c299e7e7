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
  return value as Paise;
}

/**
 * Converts rupees (as typed by a person or read from a file) to paise, rounding half away from
 * zero at the paisa so that 0.1 + 0.2 rupees does not become 29.999… paise.
 * @example rupeesToPaise(20.5) // 2050
 */
export function rupeesToPaise(rupees: number): Paise {
  if (!Number.isFinite(rupees)) throw new InvalidMoneyError(`Money must be a finite number of rupees, got ${rupees}`);
  // 1.005 * 100 is 100.49999999999999 in binary floating point; cutting to 15 significant digits
  // first recovers the decimal the person meant (100.5) before rounding.
  const scaled = Number((rupees * 100).toPrecision(15));
  return paise(Math.sign(scaled) * Math.round(Math.abs(scaled)));
}
