// Validation shared by the option formulas. Every check names the field, so a bad value that
// reaches the maths from a form, a CSV or the CLI says which input was wrong.

/** A European option's right: a call (CE on NSE) or a put (PE). */
export type OptionType = 'call' | 'put';

/** An option-math input was NaN, infinite, negative or otherwise out of its domain. */
export class OptionInputError extends Error {
  override readonly name = 'OptionInputError';
  /** The offending input, e.g. `strike` or `legs[2].iv`. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`${field} ${problem}`);
    this.field = field;
  }
}

/** Throws unless `value` is a finite number greater than zero. */
export function checkPositive(value: number, field: string): void {
  if (!(Number.isFinite(value) && value > 0)) throw new OptionInputError(field, `must be a positive finite number, got ${String(value)}`);
}

/** Throws unless `value` is a finite number, zero or more. */
export function checkNonNegative(value: number, field: string): void {
  if (!(Number.isFinite(value) && value >= 0)) throw new OptionInputError(field, `must be a finite number >= 0, got ${String(value)}`);
}

/** Throws unless `value` is finite (rates and yields may be negative). */
export function checkFinite(value: number, field: string): void {
  if (!Number.isFinite(value)) throw new OptionInputError(field, `must be a finite number, got ${String(value)}`);
}

/** Throws unless `value` is 'call' or 'put'. */
export function checkOptionType(value: unknown, field: string): asserts value is OptionType {
  if (value !== 'call' && value !== 'put') throw new OptionInputError(field, `must be "call" or "put", got ${JSON.stringify(value)}`);
}

/** The terms every model shares besides the underlying's level: what is checked at each entry point. */
export interface ContractTerms {
  readonly strike: number;
  readonly years: number;
  readonly rate: number;
  readonly type: OptionType;
}

/**
 * Checks the underlying level (named `spot` or `forward`) and the shared contract terms, so each
 * model's price and implied-volatility entry points refuse bad input with the same field names.
 */
export function checkContractTerms(terms: ContractTerms, underlying: { readonly field: 'spot' | 'forward'; readonly value: number }): void {
  checkPositive(underlying.value, underlying.field);
  checkPositive(terms.strike, 'strike');
  checkNonNegative(terms.years, 'years');
  checkFinite(terms.rate, 'rate');
  checkOptionType(terms.type, 'type');
}

/** The dividend yield of a Black-Scholes input (0 when absent), checked. */
export function checkedDividendYield(dividendYield: number | undefined): number {
  const value = dividendYield ?? 0;
  checkFinite(value, 'dividendYield');
  return value;
}
