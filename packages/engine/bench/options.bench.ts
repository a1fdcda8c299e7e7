// Option-math throughput: Black-76 prices, prices with greeks, and implied-vol solves, each with a
// reference measured in the same run and printed as a ratio, so the figures survive a slower box.
import { black76ImpliedVolatility, black76Price, black76PriceAndGreeks, normalCdf } from '@vyuha/engine';

const COUNT = 1_000_000;
const IV_COUNT = 100_000;
const TARGET_SECONDS = 0.5;

/** A seeded linear congruential generator: the same inputs on every run. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

const uniform = seededUniform(20_260_127);
const forwards = new Float64Array(COUNT);
const strikes = new Float64Array(COUNT);
const years = new Float64Array(COUNT);
const vols = new Float64Array(COUNT);
const types: Array<'call' | 'put'> = new Array(COUNT);
for (let i = 0; i < COUNT; i += 1) {
  forwards[i] = 24_000 + 2_000 * uniform();
  strikes[i] = forwards[i]! * (0.8 + 0.4 * uniform());
  years[i] = (1 + 90 * uniform()) / 365;
  vols[i] = 0.08 + 0.4 * uniform();
  types[i] = uniform() < 0.5 ? 'call' : 'put';
}

function time(label: string, run: () => number): { seconds: number; checksum: number } {
  run(); // warm-up: let the JIT compile before measuring
  const start = performance.now();
  const checksum = run();
  const seconds = (performance.now() - start) / 1000;
  console.log(`${label.padEnd(46)} ${seconds.toFixed(3)} s`);
  return { seconds, checksum };
}

function perSecond(count: number, seconds: number): string {
  return `${Math.round(count / seconds).toLocaleString('en-IN')}/s`;
}

// Reference: the two normal-cdf evaluations every Black-76 price needs, and nothing else.
const cdfOnly = time(`reference: ${2 * COUNT} normalCdf`, () => {
  let sum = 0;
  for (let i = 0; i < COUNT; i += 1) sum += normalCdf(vols[i]! - 0.3) + normalCdf(0.1 - vols[i]!);
  return sum;
});

const prices = time(`${COUNT} black76Price`, () => {
  let sum = 0;
  for (let i = 0; i < COUNT; i += 1) {
    sum += black76Price({ forward: forwards[i]!, strike: strikes[i]!, years: years[i]!, vol: vols[i]!, rate: 0.065, type: types[i]! });
  }
  return sum;
});

const greeks = time(`${COUNT} black76PriceAndGreeks`, () => {
  let sum = 0;
  for (let i = 0; i < COUNT; i += 1) {
    const result = black76PriceAndGreeks({ forward: forwards[i]!, strike: strikes[i]!, years: years[i]!, vol: vols[i]!, rate: 0.065, type: types[i]! });
    sum += result.price + result.delta + result.gamma + result.theta + result.vega + result.rho;
  }
  return sum;
});

// Implied vol over a grid of the same contracts: the prices first (not timed), then the solves.
const marketPrices = new Float64Array(IV_COUNT);
for (let i = 0; i < IV_COUNT; i += 1) {
  marketPrices[i] = black76Price({ forward: forwards[i]!, strike: strikes[i]!, years: years[i]!, vol: vols[i]!, rate: 0.065, type: types[i]! });
}
let solved = 0;
let iterations = 0;
const solves = time(`${IV_COUNT} black76ImpliedVolatility`, () => {
  let sum = 0;
  solved = 0;
  iterations = 0;
  for (let i = 0; i < IV_COUNT; i += 1) {
    const result = black76ImpliedVolatility({ price: marketPrices[i]!, forward: forwards[i]!, strike: strikes[i]!, years: years[i]!, rate: 0.065, type: types[i]! });
    if (result.ok) {
      solved += 1;
      iterations += result.iterations;
      sum += result.vol;
    }
  }
  return sum;
});

console.log('');
console.log(`black76Price:            ${perSecond(COUNT, prices.seconds)}; 1M in ${prices.seconds.toFixed(3)} s (target < ${TARGET_SECONDS} s: ${prices.seconds < TARGET_SECONDS ? 'met' : 'MISSED'})`);
console.log(`  ratio to the cdf-only reference: ${(prices.seconds / cdfOnly.seconds).toFixed(2)}x`);
console.log(`black76PriceAndGreeks:   ${perSecond(COUNT, greeks.seconds)}; ratio to price only: ${(greeks.seconds / prices.seconds).toFixed(2)}x`);
console.log(`black76ImpliedVolatility: ${perSecond(IV_COUNT, solves.seconds)}; ${solved}/${IV_COUNT} solved, ${(iterations / Math.max(1, solved)).toFixed(1)} iterations on average`);
console.log(`  ratio to one black76Price: ${((solves.seconds / IV_COUNT) / (prices.seconds / COUNT)).toFixed(1)}x`);
console.log(`checksums ${cdfOnly.checksum.toFixed(3)} ${prices.checksum.toFixed(3)} ${greeks.checksum.toFixed(3)} ${solves.checksum.toFixed(3)}`);
