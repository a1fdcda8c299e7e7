import { describe, expect, it } from 'vitest';
import type { AlgorithmParameter } from '../algorithm/document';
import { gridSize, MAX_SWEEP_COMBINATIONS, parameterGrid } from './grid';

const FAST: AlgorithmParameter = { name: 'fast', default: 5, from: 5, to: 20, step: 5 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 30, from: 10, to: 40, step: 10 };
const PCT: AlgorithmParameter = { name: 'pct', default: 0.2, from: 0.1, to: 0.3, step: 0.1 };

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}

describe('parameterGrid', () => {
  it('lists every combination, first parameter slowest, values rounded to the grid', () => {
    const grid = unwrap(parameterGrid([FAST, PCT], []));
    expect(grid).toEqual([
      { fast: 5, pct: 0.1 }, { fast: 5, pct: 0.2 }, { fast: 5, pct: 0.3 },
      { fast: 10, pct: 0.1 }, { fast: 10, pct: 0.2 }, { fast: 10, pct: 0.3 },
      { fast: 15, pct: 0.1 }, { fast: 15, pct: 0.2 }, { fast: 15, pct: 0.3 },
      { fast: 20, pct: 0.1 }, { fast: 20, pct: 0.2 }, { fast: 20, pct: 0.3 },
    ]);
  });

  it('applies constraints and counts the same without listing', () => {
    const grid = unwrap(parameterGrid([FAST, SLOW], ['$fast < $slow', '$slow - $fast >= 10']));
    // fast 5: slow 20..40 (3); fast 10: 20..40 (3); fast 15: 30, 40 (2); fast 20: 30, 40 (2).
    expect(grid.map((combination) => `${combination['fast']}/${combination['slow']}`)).toEqual([
      '5/20', '5/30', '5/40', '10/20', '10/30', '10/40', '15/30', '15/40', '20/30', '20/40',
    ]);
    expect(unwrap(gridSize([FAST, SLOW], ['$fast < $slow', '$slow - $fast >= 10']))).toEqual({ combinations: 16, valid: 10 });
    // A third, unconstrained axis multiplies the count.
    expect(unwrap(gridSize([FAST, SLOW, PCT], ['$fast < $slow']))).toEqual({ combinations: 48, valid: 12 * 3 });
    expect(unwrap(parameterGrid([FAST, SLOW, PCT], ['$fast < $slow']))).toHaveLength(36);
  });

  it('draws a seeded sample: reproducible, distinct, valid, in grid order', () => {
    const parameters = [FAST, SLOW, { name: 'level', default: 50, from: 0, to: 100, step: 1 }];
    const constraints = ['$fast < $slow'];
    const all = unwrap(parameterGrid(parameters, constraints));
    const key = (combination: Readonly<Record<string, number>>): string => JSON.stringify(combination);
    const position = new Map(all.map((combination, index) => [key(combination), index]));
    const sample = unwrap(parameterGrid(parameters, constraints, { sample: { count: 50, seed: 42 } }));
    expect(sample).toHaveLength(50);
    expect(unwrap(parameterGrid(parameters, constraints, { sample: { count: 50, seed: 42 } }))).toEqual(sample);
    const indices = sample.map((combination) => position.get(key(combination)));
    expect(indices.every((index) => index !== undefined)).toBe(true);
    expect(new Set(indices).size).toBe(50);
    expect([...indices].sort((a, b) => (a as number) - (b as number))).toEqual(indices);
    const other = unwrap(parameterGrid(parameters, constraints, { sample: { count: 50, seed: 43 } }));
    expect(other).not.toEqual(sample);
    // Asking for at least the whole grid gives the whole grid.
    expect(unwrap(parameterGrid([FAST, SLOW], constraints, { sample: { count: 500, seed: 1 } }))).toHaveLength(12);
  });

  it('samples a huge unconstrained grid without listing it', () => {
    const wide = [0, 1, 2, 3].map((k): AlgorithmParameter => ({ name: `p${k}`, default: 0, from: 0, to: 999, step: 1 }));
    expect(unwrap(gridSize(wide, []))).toEqual({ combinations: 1e12, valid: 1e12 });
    const sample = unwrap(parameterGrid(wide, [], { sample: { count: 1000, seed: 9 } }));
    expect(sample).toHaveLength(1000);
    expect(new Set(sample.map((combination) => JSON.stringify(combination))).size).toBe(1000);
    const order = sample.map((combination) => ((combination['p0'] as number) * 1000 + (combination['p1'] as number)) * 1e6 + (combination['p2'] as number) * 1000 + (combination['p3'] as number));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(unwrap(parameterGrid(wide, [], { sample: { count: 1000, seed: 9 } }))).toEqual(sample);
  });

  it('refuses more than the cap, bad samples and bad constraints with clear errors', () => {
    const big = [0, 1].map((k): AlgorithmParameter => ({ name: `p${k}`, default: 0, from: 0, to: 400, step: 1 }));
    expect(parameterGrid(big, [])).toEqual({
      ok: false,
      error: [{ path: 'parameters', message: 'the grid (after constraints) has 160,801 combinations, more than 100,000: narrow the ranges, widen the steps, add constraints or take a sample' }],
    });
    expect(unwrap(parameterGrid(big, ['$p0 <= 100']))).toHaveLength(101 * 401);
    expect(MAX_SWEEP_COMBINATIONS).toBe(100_000);
    expect(parameterGrid([FAST], [], { sample: { count: 0, seed: 1.5 } })).toEqual({
      ok: false,
      error: [
        { path: 'sample.count', message: 'must be a whole number from 1 to 100000, got 0' },
        { path: 'sample.seed', message: 'must be a whole number, got 1.5' },
      ],
    });
    expect(parameterGrid([FAST], ['$fast < close'])).toEqual({
      ok: false,
      error: [{ path: 'constraints[0]', message: "a constraint reads only $parameters and numbers; 'close' is neither", line: 1, column: 9 }],
    });
    expect(parameterGrid([{ ...FAST, step: -1 }], []).ok).toBe(false);
    expect(parameterGrid([], []).ok).toBe(false);
  });
});
