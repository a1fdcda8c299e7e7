// Every number /payoff shows, from the engine's payoff module (no second implementation here):
// breakevens, maximum profit and loss, the probability of profit, net and per-leg greeks, the
// P&L at a chosen price at expiry and at the valuation moment, and the chart's two curves.
//
// One volatility values every leg (the screen's IV input): legs handed over from the option
// chain carry their own IV, which is dropped here so that the input means what it says. Its
// default is the chain's at-the-money IV for the expiry, from INDIA VIX on the engine's synthetic
// surface (the same surface the chain prices with), at the chain's rate.
import {
  breakevens, expiryCloseEpochMs, netGreeks, payoffAtExpiry, payoffCurve, positionValue, probabilityOfProfit, profitAndLossBounds,
  SYNTHETIC_RATE, syntheticAtmVolatility, type NetGreeks, type PayoffLeg, type PayoffPoint, type ProfitAndLossBounds,
} from '@vyuha/engine';

export const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
/** Points on each curve besides the strikes, the spot and the breakevens. */
export const CURVE_STEPS = 200;
/** The chart reaches this share of the price beyond the outermost strike or spot. */
export const RANGE_MARGIN = 0.06;

/** What the numbers are computed for. */
export interface PayoffScenario {
  /** Legs of one index and one expiry. */
  readonly legs: readonly PayoffLeg[];
  /** The index's last price, rupees. */
  readonly spot: number;
  /** Annual volatility (decimal) for every leg; undefined: only the expiry figures. */
  readonly vol: number | undefined;
  /** The valuation moment, epoch ms ("today" on the curve). */
  readonly at: number;
  readonly rate?: number;
}

export interface PayoffFigures {
  readonly breakevens: number[];
  readonly bounds: ProfitAndLossBounds;
  /** Present with a volatility. */
  readonly probabilityOfProfit?: number;
  readonly net?: NetGreeks;
  readonly perLeg?: NetGreeks[];
}

/** The legs with their own IVs removed, so the scenario's volatility values each. */
export function withoutOwnVolatility(legs: readonly PayoffLeg[]): PayoffLeg[] {
  return legs.map((leg) => {
    const { iv: _own, ...rest } = leg;
    return rest;
  });
}

/** Calendar days from `at` to the expiry's 15:30 IST close, never negative. @example daysToExpiry('2026-12-01', Date.UTC(2026, 10, 30, 10)) // 1 */
export function daysToExpiry(expiry: string, at: number): number {
  return Math.max(0, expiryCloseEpochMs(expiry) - at) / DAY_MS;
}

/** The chain's at-the-money IV for `expiry` seen at `at` with INDIA VIX at `vix`, rounded to 0.01 vol points (what the input shows). */
export function chainVolatility(vix: number, expiry: string, at: number): number {
  const years = Math.max(0, expiryCloseEpochMs(expiry) - at) / YEAR_MS;
  return Math.round(syntheticAtmVolatility(vix, years) * 10_000) / 10_000;
}

const marketOf = (scenario: PayoffScenario, vol: number) => ({ nowEpochMs: scenario.at, spot: scenario.spot, rate: scenario.rate ?? SYNTHETIC_RATE, vol });

/** The figures of a scenario. Throws the engine's OptionInputError for legs it refuses. */
export function payoffFigures(scenario: PayoffScenario): PayoffFigures {
  const legs = withoutOwnVolatility(scenario.legs);
  const expiryFigures = { breakevens: breakevens(legs), bounds: profitAndLossBounds(legs) };
  if (scenario.vol === undefined) return expiryFigures;
  const market = marketOf(scenario, scenario.vol);
  const expiry = legs[0]?.expiry ?? '';
  return {
    ...expiryFigures,
    probabilityOfProfit: probabilityOfProfit(legs, { spot: scenario.spot, vol: scenario.vol, rate: market.rate, days: daysToExpiry(expiry, scenario.at) }),
    net: netGreeks(legs, market),
    perLeg: legs.map((leg) => netGreeks([leg], market)),
  };
}

/** The P&L if the index is at `price`: at expiry, and (with a volatility) at the valuation moment. */
export function payoffAtPrice(scenario: PayoffScenario, price: number): { atExpiry: number; atValuation?: number } {
  const legs = withoutOwnVolatility(scenario.legs);
  const atExpiry = payoffAtExpiry(legs, price);
  if (scenario.vol === undefined || !(price > 0)) return { atExpiry };
  return { atExpiry, atValuation: positionValue(legs, { ...marketOf(scenario, scenario.vol), spot: price }) };
}

/** The price range the chart covers: the strikes and the spot, with a margin either side. */
export function chartRange(scenario: PayoffScenario): { from: number; to: number } {
  const levels = [scenario.spot, ...scenario.legs.flatMap((leg) => (leg.strike === undefined ? [] : [leg.strike]))];
  const low = Math.min(...levels);
  const high = Math.max(...levels);
  const pad = Math.max(((low + high) / 2) * RANGE_MARGIN, 1);
  return { from: Math.max(0, low - pad), to: high + pad };
}

/** Fewest and most points a curve is drawn with. */
export const MIN_CHART_POINTS = 200;
export const MAX_CHART_POINTS = 3_000;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The evenly spaced prices the chart is drawn at. The chart library spaces points evenly, so the
 * grid is even and, when the strikes are whole numbers, its step divides every strike: each kink
 * of the expiry line then sits exactly on a grid point and the engine adds no uneven point.
 * @example chartGrid(straddleAt24000).steps // a whole number of steps of 10 or 5 points
 */
export function chartGrid(scenario: PayoffScenario): { from: number; to: number; steps: number } {
  const range = chartRange(scenario);
  const strikes = scenario.legs.flatMap((leg) => (leg.strike === undefined ? [] : [leg.strike]));
  const whole = strikes.length > 0 && strikes.every((strike) => Number.isSafeInteger(strike));
  if (!whole) return { ...range, steps: MIN_CHART_POINTS };
  // 100 joins the strikes so a lone strike (24,300) gives a round step (100), not itself.
  let step = [...strikes, 100].reduce(gcd);
  while ((range.to - range.from) / step < MIN_CHART_POINTS && (step % 2 === 0 || step % 5 === 0)) step /= step % 2 === 0 ? 2 : 5;
  const from = Math.max(0, Math.floor(range.from / step) * step);
  const to = Math.ceil(range.to / step) * step;
  const steps = Math.round((to - from) / step);
  return steps > MAX_CHART_POINTS ? { ...range, steps: MIN_CHART_POINTS } : { from, to, steps };
}

/** The chart's points from the engine's payoffCurve, ascending: at expiry, and at the valuation moment with a volatility. */
export function chartPoints(scenario: PayoffScenario): PayoffPoint[] {
  const legs = withoutOwnVolatility(scenario.legs);
  const market = scenario.vol === undefined ? {} : { market: { nowEpochMs: scenario.at, rate: scenario.rate ?? SYNTHETIC_RATE, vol: scenario.vol } };
  return payoffCurve(legs, { ...chartGrid(scenario), ...market });
}

/** The point of `points` (ascending) nearest to `price`: where the chart marks a level. */
export function nearestPoint(points: readonly PayoffPoint[], price: number): PayoffPoint | undefined {
  let best: PayoffPoint | undefined;
  for (const point of points) if (best === undefined || Math.abs(point.spot - price) < Math.abs(best.spot - price)) best = point;
  return best;
}
