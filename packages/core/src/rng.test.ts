import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createRng, createRngFromState, InvalidSeedError } from './rng';
import type { Rng } from './rng';

/** xoshiro128** written a second way (BigInt, straight from the published algorithm) to check the port. */
function referenceXoshiro(seedState: readonly bigint[], count: number): number[] {
  const mask = 0xffffffffn;
  const rotl = (value: bigint, bits: bigint): bigint => ((value << bits) | (value >> (32n - bits))) & mask;
  const s = [...seedState];
  const out: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const [s0, s1, s2, s3] = s as [bigint, bigint, bigint, bigint];
    out.push(Number((rotl((s1 * 5n) & mask, 7n) * 9n) & mask));
    const t = (s1 << 9n) & mask;
    const n2 = s2 ^ s0;
    const n3 = s3 ^ s1;
    const n1 = s1 ^ n2;
    const n0 = s0 ^ n3;
    s[0] = n0;
    s[1] = n1;
    s[2] = n2 ^ t;
    s[3] = rotl(n3, 11n);
  }
  return out;
}

function draw(rng: Rng, count: number): number[] {
  return Array.from({ length: count }, () => rng.nextUint32());
}

function moments(values: readonly number[]): { mean: number; variance: number; excessKurtosis: number } {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  let second = 0;
  let fourth = 0;
  for (const value of values) {
    const deviation = value - mean;
    second += deviation * deviation;
    fourth += deviation ** 4;
  }
  const variance = second / values.length;
  return { mean, variance, excessKurtosis: fourth / values.length / (variance * variance) - 3 };
}

describe('xoshiro128** port', () => {
  it('matches the algorithm by hand for state [1, 2, 3, 4]: first outputs 11520 then 0', () => {
    const rng = createRngFromState([1, 2, 3, 4]);
    expect(rng.nextUint32()).toBe(11520);
    expect(rng.nextUint32()).toBe(0);
  });

  it('matches an independent BigInt implementation for arbitrary states', () => {
    fc.assert(
      fc.property(fc.tuple(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), fc.integer({ min: 1, max: 0xffffffff })), (state) => {
        const ours = draw(createRngFromState(state), 50);
        expect(ours).toEqual(referenceXoshiro(state.map(BigInt), 50));
      }),
      { numRuns: 50 },
    );
  });

  it('refuses an all-zero state', () => {
    expect(() => createRngFromState([0, 0, 0, 0])).toThrow(InvalidSeedError);
  });
});

describe('createRng', () => {
  it('gives the same numbers for the same seed and different numbers for different seeds', () => {
    expect(draw(createRng('vyuha'), 20)).toEqual(draw(createRng('vyuha'), 20));
    expect(draw(createRng(42), 20)).toEqual(draw(createRng('42'), 20));
    expect(draw(createRng('vyuha'), 20)).not.toEqual(draw(createRng('vyuhb'), 20));
    expect(draw(createRng(1), 20)).not.toEqual(draw(createRng(2), 20));
  });

  it('refuses a non-finite number as seed, naming the seed', () => {
    expect(() => createRng(Number.NaN)).toThrow(/seed/);
  });

  it('keeps next() in [0, 1) and nextUint32() a whole number below 2^32 for any seed', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer()), (seed) => {
        const rng = createRng(seed);
        for (let index = 0; index < 200; index += 1) {
          const uniform = rng.next();
          expect(uniform).toBeGreaterThanOrEqual(0);
          expect(uniform).toBeLessThan(1);
          const whole = rng.nextUint32();
          expect(Number.isInteger(whole) && whole >= 0 && whole < 2 ** 32).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('draws uniforms with mean 1/2 and variance 1/12', () => {
    const rng = createRng('uniform');
    const values = Array.from({ length: 200_000 }, () => rng.next());
    const { mean, variance } = moments(values);
    expect(mean).toBeCloseTo(0.5, 2);
    expect(variance).toBeCloseTo(1 / 12, 3);
  });

  it('draws normals with mean 0, variance 1 and no excess kurtosis', () => {
    const rng = createRng('normal');
    const values = Array.from({ length: 200_000 }, () => rng.normal());
    const { mean, variance, excessKurtosis } = moments(values);
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(variance - 1)).toBeLessThan(0.015);
    expect(Math.abs(excessKurtosis)).toBeLessThan(0.1);
    // About 4.55% of a normal lies beyond two standard deviations.
    const beyondTwo = values.filter((value) => Math.abs(value) > 2).length / values.length;
    expect(beyondTwo).toBeGreaterThan(0.042);
    expect(beyondTwo).toBeLessThan(0.049);
  });

  it('draws Student-t with variance v/(v-2) and fat tails', () => {
    const rng = createRng('student');
    const degrees = 6;
    const values = Array.from({ length: 300_000 }, () => rng.studentT(degrees));
    const { mean, variance, excessKurtosis } = moments(values);
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(variance - degrees / (degrees - 2)) / (degrees / (degrees - 2))).toBeLessThan(0.04);
    // The theoretical excess kurtosis of t(6) is 6 / (6 - 4) = 3; the sample value is noisy but clearly positive.
    expect(excessKurtosis).toBeGreaterThan(1.5);
    expect(() => rng.studentT(0)).toThrow(/degreesOfFreedom/);
  });
});

describe('fork', () => {
  it('does not depend on how many numbers the parent drew', () => {
    const fresh = createRng('parent');
    const used = createRng('parent');
    draw(used, 1000);
    used.normal();
    expect(draw(used.fork('NIFTY 50'), 30)).toEqual(draw(fresh.fork('NIFTY 50'), 30));
  });

  it('gives different, uncorrelated streams for different labels and differs from the parent', () => {
    const parent = createRng('parent');
    const first = parent.fork('a');
    const second = parent.fork('b');
    const firstValues = Array.from({ length: 50_000 }, () => first.normal());
    const secondValues = Array.from({ length: 50_000 }, () => second.normal());
    let product = 0;
    for (let index = 0; index < firstValues.length; index += 1) product += firstValues[index]! * secondValues[index]!;
    expect(Math.abs(product / firstValues.length)).toBeLessThan(0.02);
    expect(draw(parent.fork('a'), 10)).not.toEqual(draw(createRng('parent'), 10));
  });

  it('nests deterministically', () => {
    expect(draw(createRng(7).fork('x').fork('y'), 10)).toEqual(draw(createRng(7).fork('x').fork('y'), 10));
    expect(draw(createRng(7).fork('x').fork('y'), 10)).not.toEqual(draw(createRng(7).fork('y').fork('x'), 10));
  });
});
