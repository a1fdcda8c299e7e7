/** A charges request that is not what it claims to be; `field` names the bad input (e.g. `trades[2].quantity`). */
export class InvalidChargesInputError extends Error {
  override readonly name = 'InvalidChargesInputError';
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.field = field;
  }
}
