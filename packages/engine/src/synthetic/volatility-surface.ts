/**
 * The synthetic implied-volatility surface: a level from INDIA VIX, a term structure and a skew.
 * Modelling choices, not measured facts:
 * - INDIA VIX is a 30-day variance-swap style index that includes the wings, so at-the-money
 *   vol sits a little below it (ATM_SHARE_OF_VIX).
 * - Term structure: when vol is above its long-run level, short expiries are richer (stress is
 *   expected to fade); at or below it the curve is flat.
 * - Skew in standardised log-moneyness z = ln(K/F) / (atm * sqrt(t)): puts (z < 0) richer,
 *   calls cheaper, with a little smile on both wings.
 */
const ATM_SHARE_OF_VIX = 0.92;
const LONG_RUN_VOL = 0.15;
const REFERENCE_DAYS = 30;
const TERM_EXPONENT = 0.2;
const MAX_TERM_FACTOR = 1.6;
const SKEW_SLOPE = 0.08;
const SMILE_CURVATURE = 0.012;
/** Beyond six standard deviations the wing is held flat so far strikes do not explode. */
const MAX_STANDARDISED_MONEYNESS = 6;
/** An hour: keeps z finite on expiry day. */
const MIN_YEARS_FOR_SKEW = 1 / (365 * 24);

/** Inputs of the surface: VIX in points (e.g. 14.5), years to expiry, and ln(strike / forward). */
export interface SurfacePoint {
  readonly vix: number;
  readonly years: number;
  readonly logMoneyness: number;
}

/**
 * At-the-money vol for an expiry `years` away when INDIA VIX reads `vix`.
 * @example syntheticAtmVolatility(20, 30 / 365) // 0.184
 */
export function syntheticAtmVolatility(vix: number, years: number): number {
  const reference = (vix / 100) * ATM_SHARE_OF_VIX;
  if (reference <= LONG_RUN_VOL) return reference;
  const days = Math.max(years * 365, 0.25);
  const termFactor = Math.min(MAX_TERM_FACTOR, Math.pow(REFERENCE_DAYS / days, TERM_EXPONENT));
  return LONG_RUN_VOL + (reference - LONG_RUN_VOL) * termFactor;
}

/** Strike distance in at-the-money standard deviations, clamped to the flat wings. */
export function standardisedMoneyness(point: SurfacePoint): number {
  const atm = syntheticAtmVolatility(point.vix, point.years);
  const z = point.logMoneyness / (atm * Math.sqrt(Math.max(point.years, MIN_YEARS_FOR_SKEW)));
  return Math.max(-MAX_STANDARDISED_MONEYNESS, Math.min(MAX_STANDARDISED_MONEYNESS, z));
}

/**
 * Implied vol (annual, decimal) of a strike on the synthetic surface; calls and puts share it.
 * @example syntheticImpliedVolatility({ vix: 15, years: 0.1, logMoneyness: -0.05 }) > syntheticImpliedVolatility({ vix: 15, years: 0.1, logMoneyness: 0.05 }) // true
 */
export function syntheticImpliedVolatility(point: SurfacePoint): number {
  const atm = syntheticAtmVolatility(point.vix, point.years);
  const z = standardisedMoneyness(point);
  return atm * (1 - SKEW_SLOPE * z + SMILE_CURVATURE * z * z);
}
