/**
 * The intraday U-shape of volatility: Indian index futures and options move most in the first
 * half hour (overnight news being priced in) and again into the close (positions being squared
 * off), least around midday. Volatility at minute m of an n-minute session is
 * 1 + OPEN_BOOST * e^(-m / OPEN_DECAY) + CLOSE_BOOST * e^(-(n - 1 - m) / CLOSE_DECAY).
 */
const OPEN_BOOST = 1.6;
const OPEN_DECAY_MINUTES = 18;
const CLOSE_BOOST = 0.7;
const CLOSE_DECAY_MINUTES = 25;

const cache = new Map<number, Float64Array>();

/**
 * Each minute's share of a session's variance (the shares sum to 1), for a session of `minutes` bars.
 * @example intradayVarianceWeights(375)[0] > intradayVarianceWeights(375)[187] // true
 */
export function intradayVarianceWeights(minutes: number): Float64Array {
  const cached = cache.get(minutes);
  if (cached) return cached;
  const weights = new Float64Array(minutes);
  let total = 0;
  for (let minute = 0; minute < minutes; minute += 1) {
    const volatility = 1 + OPEN_BOOST * Math.exp(-minute / OPEN_DECAY_MINUTES) + CLOSE_BOOST * Math.exp(-(minutes - 1 - minute) / CLOSE_DECAY_MINUTES);
    weights[minute] = volatility * volatility;
    total += volatility * volatility;
  }
  for (let minute = 0; minute < minutes; minute += 1) weights[minute] = weights[minute]! / total;
  cache.set(minutes, weights);
  return weights;
}
