/**
 * A price with its sensitivities, in trader units: theta per calendar day (annual theta / 365),
 * vega per one volatility point (0.01), rho per one percent of rate (0.01).
 */
export interface OptionGreeks {
  readonly price: number;
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
  readonly rho: number;
}

/** Calendar days in the year used for theta and for time to expiry. */
export const DAYS_PER_YEAR = 365;
/** Vega and rho are quoted per 0.01 of volatility and of rate. */
export const POINT = 0.01;
