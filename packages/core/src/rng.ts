/**
 * The seeded random-number port of the pure packages: xoshiro128** run on 32-bit integer
 * arithmetic (`Math.imul`, shifts, xor), so the same seed gives the same numbers on every machine
 * and in every JavaScript engine. Normal and Student-t draws use polar methods, which need only
 * `Math.log`, `Math.sqrt` and `Math.pow` (no trigonometry).
 */

/** A deterministic stream of random numbers; `fork` derives independent, named sub-streams. */
export interface Rng {
  /** A uniform number in [0, 1) with 32 bits of resolution. */
  next(): number;
  /** A uniform whole number in [0, 2^32). */
  nextUint32(): number;
  /** A standard normal draw (mean 0, variance 1). */
  normal(): number;
  /** A Student-t draw with the given degrees of freedom (> 0); fat-tailed, variance v/(v-2) when v > 2. */
  studentT(degreesOfFreedom: number): number;
  /**
   * An independent stream named `label`. It depends only on this stream's seed and the label,
   * never on how many numbers were drawn before, so adding a consumer does not move the others.
   */
  fork(label: string): Rng;
  /** The text this stream was seeded from (the root seed, then each fork label). */
  readonly seedKey: string;
}

/** Raised when a seed cannot be turned into a stream. */
export class InvalidSeedError extends Error {
  override readonly name = 'InvalidSeedError';
}

const TWO_TO_MINUS_32 = 1 / 4_294_967_296;
/** Separates fork labels inside a seed key; a control character no sensible label contains. */
const FORK_SEPARATOR = '\u001f';

/**
 * Creates a stream from a number (hashed as its decimal text, so `42` and `'42'` are one seed) or a string.
 * @example createRng('demo').nextUint32() // the same value on every machine
 */
export function createRng(seed: number | string): Rng {
  if (typeof seed === 'number' && !Number.isFinite(seed)) {
    throw new InvalidSeedError(`seed must be a finite number or a string, got ${seed}`);
  }
  return rngFromKey(String(seed));
}

/**
 * Creates a raw xoshiro128** stream from its four 32-bit state words (not all zero); meant for
 * checking the generator against the reference algorithm, use `createRng` otherwise.
 * @example createRngFromState([1, 2, 3, 4]).nextUint32() // 11520
 */
export function createRngFromState(state: readonly [number, number, number, number]): Rng {
  const words = Uint32Array.from(state);
  if ((words[0]! | words[1]! | words[2]! | words[3]!) === 0) {
    throw new InvalidSeedError('state must not be all zero: xoshiro128** would only ever return 0');
  }
  return new Xoshiro128StarStar(words, `state:${words.join(',')}`);
}

function rngFromKey(seedKey: string): Rng {
  return new Xoshiro128StarStar(stateFromText(seedKey), seedKey);
}

class Xoshiro128StarStar implements Rng {
  // Four words of state kept as plain numbers (int32 view) for speed; the invariant is that
  // they are never all zero, which seeding guarantees.
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  /** The second value of the last polar pair, or NaN when none is waiting. */
  private spareNormal = Number.NaN;

  constructor(
    state: Uint32Array,
    readonly seedKey: string,
  ) {
    this.s0 = state[0]! | 0;
    this.s1 = state[1]! | 0;
    this.s2 = state[2]! | 0;
    this.s3 = state[3]! | 0;
  }

  nextUint32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9);
    const shifted = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= shifted;
    this.s3 = rotateLeft(this.s3, 11);
    return result >>> 0;
  }

  next(): number {
    return this.nextUint32() * TWO_TO_MINUS_32;
  }

  normal(): number {
    if (!Number.isNaN(this.spareNormal)) {
      const spare = this.spareNormal;
      this.spareNormal = Number.NaN;
      return spare;
    }
    // Marsaglia's polar method: a point uniform in the unit disc gives two independent normals.
    for (;;) {
      const u = 2 * this.next() - 1;
      const v = 2 * this.next() - 1;
      const squaredRadius = u * u + v * v;
      if (squaredRadius >= 1 || squaredRadius === 0) continue;
      const scale = Math.sqrt((-2 * Math.log(squaredRadius)) / squaredRadius);
      this.spareNormal = v * scale;
      return u * scale;
    }
  }

  studentT(degreesOfFreedom: number): number {
    if (!(degreesOfFreedom > 0) || !Number.isFinite(degreesOfFreedom)) {
      throw new RangeError(`degreesOfFreedom must be a positive finite number, got ${degreesOfFreedom}`);
    }
    // Bailey's polar method (1994): exact Student-t from one point in the unit disc.
    for (;;) {
      const u = 2 * this.next() - 1;
      const v = 2 * this.next() - 1;
      const squaredRadius = u * u + v * v;
      if (squaredRadius >= 1 || squaredRadius === 0) continue;
      const power = Math.pow(squaredRadius, -2 / degreesOfFreedom);
      return u * Math.sqrt((degreesOfFreedom * (power - 1)) / squaredRadius);
    }
  }

  fork(label: string): Rng {
    return rngFromKey(`${this.seedKey}${FORK_SEPARATOR}${label}`);
  }
}

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

/** Hashes text to 128 bits (four lanes, each fed every UTF-16 unit), then spreads them with SplitMix32. */
function stateFromText(text: string): Uint32Array {
  let lane0 = 0x6a09e667 | 0;
  let lane1 = 0xbb67ae85 | 0;
  let lane2 = 0x3c6ef372 | 0;
  let lane3 = 0xa54ff53a | 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    lane0 = Math.imul(lane0 ^ unit, 0x01000193);
    lane1 = Math.imul(lane1 ^ unit, 0x5bd1e995);
    lane2 = Math.imul(rotateLeft(lane2 ^ unit, 13), 0x85ebca6b);
    lane3 = Math.imul(rotateLeft(lane3 ^ unit, 17), 0xc2b2ae35);
  }
  // The length enters too, so texts that hash alike by accident still differ when lengths do.
  lane0 ^= text.length;
  const state = new Uint32Array(4);
  let mixer = finalMix(lane0 ^ finalMix(lane1 ^ finalMix(lane2 ^ finalMix(lane3))));
  const lanes = [lane0, lane1, lane2, lane3];
  for (let word = 0; word < 4; word += 1) {
    mixer = (mixer + 0x9e3779b9) | 0;
    state[word] = finalMix(mixer ^ finalMix(lanes[word]!));
  }
  // SplitMix outputs are a bijection of distinct inputs, so all four being zero is practically
  // impossible; still, the invariant of xoshiro must hold for every text.
  if ((state[0]! | state[1]! | state[2]! | state[3]!) === 0) state[0] = 1;
  return state;
}

/** MurmurHash3's 32-bit finaliser: every input bit affects every output bit. */
function finalMix(value: number): number {
  let mixed = value | 0;
  mixed ^= mixed >>> 16;
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  mixed ^= mixed >>> 16;
  return mixed >>> 0;
}
