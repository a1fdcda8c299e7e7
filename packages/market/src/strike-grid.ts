// Strikes of an option chain sit on a grid of the index config's `ocStep` (50 for NIFTY, 100 for
// BANKNIFTY and SENSEX, 25 for MIDCPNIFTY). Integer arithmetic on the step count keeps the grid
// exact: no 24000.000000004 strikes.

function requireStep(step: number): void {
  if (!Number.isFinite(step) || step <= 0) throw new RangeError(`step must be a positive number, got ${step}`);
}

function requireSpot(spot: number): void {
  if (!Number.isFinite(spot) || spot <= 0) throw new RangeError(`spot must be a positive number, got ${spot}`);
}

/**
 * The at-the-money strike: the grid strike nearest the spot, a tie going up (as exchanges and
 * brokers round half up).
 * @example atmStrike(24_524.9, 50) // 24500; atmStrike(24_525, 50) // 24550
 */
export function atmStrike(spot: number, step: number): number {
  requireSpot(spot);
  requireStep(step);
  return Math.floor(spot / step + 0.5) * step;
}

/**
 * `count` strikes either side of the ATM strike plus the ATM itself (2 * count + 1 strikes,
 * ascending), dropping any at or below zero.
 * @example strikesAround(24_510, 50, 2) // [24400, 24450, 24500, 24550, 24600]
 */
export function strikesAround(spot: number, step: number, count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number >= 0, got ${count}`);
  const atmSteps = Math.round(atmStrike(spot, step) / step);
  const strikes: number[] = [];
  for (let offset = -count; offset <= count; offset += 1) {
    const steps = atmSteps + offset;
    if (steps > 0) strikes.push(steps * step);
  }
  return strikes;
}
