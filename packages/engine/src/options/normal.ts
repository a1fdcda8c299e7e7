// The standard normal density and distribution, accurate to about 1e-16 relative everywhere the
// result is a normal double. The distribution follows W. J. Cody's rational Chebyshev
// approximations (Math. Comp. 1969; the ANORM routine of ACM TOMS 715) in three ranges: near zero
// a rational function of x^2, up to sqrt(32) a rational function times exp(-x^2/2), beyond that
// an asymptotic rational function of 1/x^2. The tail value is computed directly (never 1 - cdf),
// so cdf(-10) keeps its full relative precision.

const INVERSE_SQRT_TWO_PI = 0.398_942_280_401_432_677_94;

/** Range boundaries of Cody's approximation. */
const NEAR_ZERO_LIMIT = 0.662_91;
const MIDDLE_LIMIT = 5.656_854_249_492_380_2; // sqrt(32)
/** Below this the tail underflows to zero in double precision. */
const UNDERFLOW_LIMIT = 38.5;

const NEAR_ZERO_NUMERATOR = [2.235_252_035_460_683_928_7, 161.028_231_068_555_878_81, 1_067.689_485_460_370_958_2, 18_154.981_253_343_561_249, 0.065_682_337_918_207_449_113] as const;
const NEAR_ZERO_DENOMINATOR = [47.202_581_904_688_241_87, 976.098_551_737_776_693_22, 10_260.932_208_618_978_205, 45_507.789_335_026_729_956] as const;
const MIDDLE_NUMERATOR = [
  0.398_941_512_088_134_667_64, 8.883_149_794_388_375_941_2, 93.506_656_132_177_855_979, 597.270_276_394_800_262_26,
  2_494.537_585_290_372_671_1, 6_848.190_450_536_282_332_6, 11_602.651_437_647_350_124, 9_842.714_838_383_978_021_8,
  1.076_557_677_372_019_231_7e-8,
] as const;
const MIDDLE_DENOMINATOR = [
  22.266_688_044_328_115_691, 235.387_901_782_624_998_61, 1_519.377_599_407_554_805, 6_485.558_298_266_760_755,
  18_615.571_640_885_098_091, 34_900.952_721_145_977_266, 38_912.003_286_093_271_411, 19_685.429_676_859_990_727,
] as const;
const TAIL_NUMERATOR = [0.215_898_534_057_956_99, 0.127_401_161_160_247_363_9, 0.022_235_277_870_649_807, 0.001_421_619_193_227_893_466, 2.911_287_495_116_879_2e-5, 0.023_073_441_764_940_173_03] as const;
const TAIL_DENOMINATOR = [1.284_260_096_144_911_21, 0.468_238_212_480_865_118, 0.065_988_137_868_928_551_5, 0.003_782_396_332_027_582_44, 7.297_515_550_839_662_05e-5] as const;

/** The standard normal density. @example normalPdf(0) // 0.3989422804014327 */
export function normalPdf(x: number): number {
  return INVERSE_SQRT_TWO_PI * gaussianFactor(x);
}

/** The standard normal distribution function P(Z <= x). @example normalCdf(-1) // 0.15865525393145705 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const magnitude = Math.abs(x);
  if (magnitude <= NEAR_ZERO_LIMIT) return 0.5 + x * nearZeroRatio(x * x);
  const tail = upperTail(magnitude);
  return x > 0 ? 1 - tail : tail;
}

/** exp(-x^2/2) without the rounding error of squaring a large x: split x into a part with few bits and a remainder. */
function gaussianFactor(x: number): number {
  const magnitude = Math.abs(x);
  if (magnitude > UNDERFLOW_LIMIT) return 0;
  const head = Math.trunc(magnitude * 16) / 16;
  const remainder = (magnitude - head) * (magnitude + head);
  return Math.exp(-head * head * 0.5) * Math.exp(-remainder * 0.5);
}

/** (cdf(x) - 1/2) / x for |x| <= 0.66291, as a rational function of x^2. */
function nearZeroRatio(square: number): number {
  const a = NEAR_ZERO_NUMERATOR;
  const b = NEAR_ZERO_DENOMINATOR;
  let numerator = a[4] * square;
  let denominator = square;
  numerator = (numerator + a[0]) * square;
  denominator = (denominator + b[0]) * square;
  numerator = (numerator + a[1]) * square;
  denominator = (denominator + b[1]) * square;
  numerator = (numerator + a[2]) * square;
  denominator = (denominator + b[2]) * square;
  return (numerator + a[3]) / (denominator + b[3]);
}

/** P(Z > y) for y > 0.66291, computed directly so small tails keep their relative precision. */
function upperTail(magnitude: number): number {
  if (magnitude > UNDERFLOW_LIMIT) return 0;
  return gaussianFactor(magnitude) * (magnitude <= MIDDLE_LIMIT ? middleRatio(magnitude) : asymptoticRatio(magnitude));
}

function middleRatio(y: number): number {
  const c = MIDDLE_NUMERATOR;
  const d = MIDDLE_DENOMINATOR;
  let numerator = c[8] * y;
  let denominator = y;
  for (let i = 0; i < 7; i += 1) {
    numerator = (numerator + c[i]!) * y;
    denominator = (denominator + d[i]!) * y;
  }
  return (numerator + c[7]) / (denominator + d[7]);
}

function asymptoticRatio(y: number): number {
  const p = TAIL_NUMERATOR;
  const q = TAIL_DENOMINATOR;
  const inverseSquare = 1 / (y * y);
  let numerator = p[5] * inverseSquare;
  let denominator = inverseSquare;
  for (let i = 0; i < 4; i += 1) {
    numerator = (numerator + p[i]!) * inverseSquare;
    denominator = (denominator + q[i]!) * inverseSquare;
  }
  const correction = (inverseSquare * (numerator + p[4])) / (denominator + q[4]);
  return (INVERSE_SQRT_TWO_PI - correction) / y;
}
