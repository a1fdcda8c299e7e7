// A leg of a payoff position: an option or a future on one underlying, in units (not lots).
import { OptionInputError } from '../options/option-input';
import { expiryCloseEpochMs } from '../options/time-to-expiry';

/** NSE's names for a call (CE) and a put (PE). */
export type OptionRight = 'CE' | 'PE';

/** One leg. Quantity is signed units (+ long, - short); entryPrice is rupees per unit. */
export interface PayoffLeg {
  readonly kind: 'option' | 'future';
  /** Required for an option leg. */
  readonly optionType?: OptionRight;
  /** Required for an option leg, in rupees. */
  readonly strike?: number;
  /** 'YYYY-MM-DD'; the contract settles at the 15:30 IST close that day. */
  readonly expiry: string;
  readonly quantity: number;
  readonly entryPrice: number;
  /** The leg's own implied volatility (decimal), used to value it before expiry. */
  readonly iv?: number;
}

/** An option leg once checked: right and strike are present. */
export interface CheckedOptionLeg extends PayoffLeg {
  readonly kind: 'option';
  readonly optionType: OptionRight;
  readonly strike: number;
}

/** Throws an OptionInputError naming `legs[i].field` for the first malformed leg; needs at least one leg. */
export function checkLegs(legs: readonly PayoffLeg[]): void {
  if (legs.length === 0) throw new OptionInputError('legs', 'must hold at least one leg');
  legs.forEach((leg, index) => checkLeg(leg, `legs[${index}]`));
}

function checkLeg(leg: PayoffLeg, path: string): void {
  if (leg.kind !== 'option' && leg.kind !== 'future') throw new OptionInputError(`${path}.kind`, `must be "option" or "future", got ${JSON.stringify(leg.kind)}`);
  if (!Number.isFinite(leg.quantity)) throw new OptionInputError(`${path}.quantity`, `must be a finite number of units, got ${String(leg.quantity)}`);
  if (!(Number.isFinite(leg.entryPrice) && leg.entryPrice >= 0)) throw new OptionInputError(`${path}.entryPrice`, `must be a finite price >= 0, got ${String(leg.entryPrice)}`);
  if (leg.iv !== undefined && !(Number.isFinite(leg.iv) && leg.iv >= 0)) throw new OptionInputError(`${path}.iv`, `must be a finite volatility >= 0, got ${String(leg.iv)}`);
  try {
    expiryCloseEpochMs(leg.expiry);
  } catch (error) {
    throw new OptionInputError(`${path}.expiry`, (error as Error).message.replace(/^expiryDate /, ''));
  }
  if (leg.kind === 'future') return;
  if (leg.optionType !== 'CE' && leg.optionType !== 'PE') throw new OptionInputError(`${path}.optionType`, `must be "CE" or "PE" for an option leg, got ${JSON.stringify(leg.optionType)}`);
  if (leg.strike === undefined || !(Number.isFinite(leg.strike) && leg.strike > 0)) throw new OptionInputError(`${path}.strike`, `must be a positive strike for an option leg, got ${String(leg.strike)}`);
}

/** Narrows a checked leg to an option leg. */
export function isOptionLeg(leg: PayoffLeg): leg is CheckedOptionLeg {
  return leg.kind === 'option';
}

/** What one unit of the leg is worth at expiry with the underlying settling at `spot`. */
export function legValueAtExpiry(leg: PayoffLeg, spot: number): number {
  if (!isOptionLeg(leg)) return spot;
  return leg.optionType === 'CE' ? Math.max(0, spot - leg.strike) : Math.max(0, leg.strike - spot);
}

/** The leg's P&L in rupees at expiry: quantity x (value at expiry - entry price). */
export function legPayoffAtExpiry(leg: PayoffLeg, spot: number): number {
  return leg.quantity * (legValueAtExpiry(leg, spot) - leg.entryPrice);
}
