import type { Result } from '@vyuha/core';
import { createRng, err, ok } from '@vyuha/core';
import type { AlgorithmError, AlgorithmParameter } from '../algorithm/document';
import { gridValues } from '../algorithm/parameter-grid-values';
import type { ParameterBindings, ParameterConstraint } from '../algorithm/parameters';
import { parameterConstraints } from '../algorithm/parameters';
import { readParameterList } from '../algorithm/validate-shape';

/*
 * The combinations a sweep runs (README.md, "Grid").
 *
 * Invariants:
 * - Order: the first parameter varies slowest, the last fastest (an odometer), each axis ascending
 *   from `from` to `to`; a sample keeps this order.
 * - A combination is valid when every constraint holds; only valid ones are returned or counted.
 * - At most MAX_SWEEP_COMBINATIONS are ever materialised; a larger grid is an error unless sampled.
 * - A sample is a function of (grid, constraints, count, seed) only: the same seed gives the same
 *   combinations on every machine (the core's seeded Rng, never Math.random).
 */

/** The most combinations one sweep runs. */
export const MAX_SWEEP_COMBINATIONS = 100_000;
/** The most combinations walked one by one to count or sample under constraints. */
export const MAX_ENUMERATED_COMBINATIONS = 10_000_000;

export interface GridSize {
  /** Every combination of the axes, before constraints. */
  readonly combinations: number;
  /** Those every constraint allows. */
  readonly valid: number;
}

export interface GridOptions {
  /** A seeded random sample of `count` distinct valid combinations instead of all of them. */
  readonly sample?: { readonly count: number; readonly seed: number };
}

interface Axes {
  readonly parameters: readonly AlgorithmParameter[];
  readonly values: readonly (readonly number[])[];
  readonly constraints: readonly ParameterConstraint[];
  readonly combinations: number;
}

function tooMany(what: string, count: { count: number; limit: number }, advice: string): AlgorithmError[] {
  const [has, limit] = [count.count.toLocaleString('en-US'), count.limit.toLocaleString('en-US')];
  return [{ path: 'parameters', message: `${what} has ${has} combinations, more than ${limit}: ${advice}` }];
}

function axesOf(parameters: readonly AlgorithmParameter[], constraints: readonly string[]): Result<Axes, AlgorithmError[]> {
  const read = readParameterList(parameters);
  if (read.parameters === undefined) return err(read.errors);
  if (read.parameters.length === 0) return err([{ path: 'parameters', message: 'a sweep needs at least one parameter' }]);
  const checked = parameterConstraints(read.parameters, constraints);
  if (!checked.ok) return err(checked.error);
  const values = read.parameters.map((parameter) => gridValues(parameter));
  const combinations = values.reduce((product, axis) => product * axis.length, 1);
  if (!Number.isSafeInteger(combinations)) return err(tooMany('the grid', { count: combinations, limit: Number.MAX_SAFE_INTEGER }, 'widen the steps'));
  return ok({ parameters: read.parameters, values, constraints: checked.value, combinations });
}

/** Calls `visit` with each combination of the chosen axes (declaration order, first slowest); other axes stay at their first value. */
function walk(axes: Axes, chosen: readonly number[], visit: (values: Float64Array) => void): void {
  const current = Float64Array.from(axes.values, (axis) => axis[0] as number);
  const digits = new Int32Array(axes.values.length);
  for (;;) {
    visit(current);
    let position = chosen.length - 1;
    for (; position >= 0; position -= 1) {
      const axis = chosen[position] as number;
      const values = axes.values[axis] as readonly number[];
      digits[axis] = (digits[axis] as number) + 1;
      if ((digits[axis] as number) < values.length) {
        current[axis] = values[digits[axis] as number] as number;
        break;
      }
      digits[axis] = 0;
      current[axis] = values[0] as number;
    }
    if (position < 0) return;
  }
}

function holdsAll(constraints: readonly ParameterConstraint[], values: Float64Array): boolean {
  for (const constraint of constraints) if (!constraint.holds(values)) return false;
  return true;
}

function allAxes(axes: Axes): number[] {
  return axes.values.map((_axis, index) => index);
}

/** Valid count: only the axes some constraint reads are walked; the others multiply. */
function countValid(axes: Axes): Result<number, AlgorithmError[]> {
  if (axes.constraints.length === 0) return ok(axes.combinations);
  const read = [...new Set(axes.constraints.flatMap((constraint) => constraint.reads))].sort((a, b) => a - b);
  const walked = read.reduce((product, axis) => product * (axes.values[axis] as readonly number[]).length, 1);
  if (walked > MAX_ENUMERATED_COMBINATIONS) {
    return err(tooMany('the part of the grid the constraints read', { count: walked, limit: MAX_ENUMERATED_COMBINATIONS }, 'widen the steps of the constrained parameters'));
  }
  let valid = 0;
  walk(axes, read, (values) => {
    if (holdsAll(axes.constraints, values)) valid += 1;
  });
  return ok(valid * (axes.combinations / walked));
}

/**
 * How many combinations the grid has, before and after constraints, without listing them.
 * @example gridSize([{ name: 'fast', default: 10, from: 5, to: 20, step: 5 }, { name: 'slow', default: 30, from: 10, to: 40, step: 10 }], ['$fast < $slow']) // ok({ combinations: 16, valid: 13 })
 */
export function gridSize(parameters: readonly AlgorithmParameter[], constraints: readonly string[] = []): Result<GridSize, AlgorithmError[]> {
  const axes = axesOf(parameters, constraints);
  if (!axes.ok) return axes;
  const valid = countValid(axes.value);
  return valid.ok ? ok({ combinations: axes.value.combinations, valid: valid.value }) : valid;
}

function bindingsOf(parameters: readonly AlgorithmParameter[], values: ArrayLike<number>): ParameterBindings {
  const bindings: Record<string, number> = {};
  parameters.forEach((parameter, index) => {
    bindings[parameter.name] = values[index] as number;
  });
  return bindings;
}

function sampleIssues(sample: NonNullable<GridOptions['sample']>): AlgorithmError[] {
  const issues: AlgorithmError[] = [];
  if (!Number.isSafeInteger(sample.count) || sample.count < 1 || sample.count > MAX_SWEEP_COMBINATIONS) {
    issues.push({ path: 'sample.count', message: `must be a whole number from 1 to ${MAX_SWEEP_COMBINATIONS}, got ${String(sample.count)}` });
  }
  if (!Number.isSafeInteger(sample.seed)) issues.push({ path: 'sample.seed', message: `must be a whole number, got ${String(sample.seed)}` });
  return issues;
}

/** The valid combinations in grid order, keeping each with `keep` (called in order, with the running count). */
function enumerate(axes: Axes, keep: () => boolean): ParameterBindings[] {
  const found: ParameterBindings[] = [];
  walk(axes, allAxes(axes), (values) => {
    if (holdsAll(axes.constraints, values) && keep()) found.push(bindingsOf(axes.parameters, values));
  });
  return found;
}

/** The combination at position `index` of the unconstrained grid (mixed radix, last axis fastest). */
function combinationAt(axes: Axes, index: number): ParameterBindings {
  const values = new Float64Array(axes.values.length);
  let rest = index;
  for (let axis = axes.values.length - 1; axis >= 0; axis -= 1) {
    const axisValues = axes.values[axis] as readonly number[];
    values[axis] = axisValues[rest % axisValues.length] as number;
    rest = Math.floor(rest / axisValues.length);
  }
  return bindingsOf(axes.parameters, values);
}

/**
 * `count` distinct valid combinations chosen uniformly, in grid order. Under MAX_ENUMERATED_COMBINATIONS:
 * selection sampling over the valid combinations (each kept with probability needed / remaining).
 * Larger and unconstrained: distinct positions drawn by Floyd's method, sorted.
 */
function sampleOf(axes: Axes, valid: number, sample: { count: number; seed: number }): Result<ParameterBindings[], AlgorithmError[]> {
  const rng = createRng(`sweep-sample:${sample.seed}`);
  if (axes.combinations <= MAX_ENUMERATED_COMBINATIONS) {
    let needed = sample.count;
    let remaining = valid;
    return ok(enumerate(axes, () => {
      const take = rng.next() * remaining < needed;
      remaining -= 1;
      if (take) needed -= 1;
      return take;
    }));
  }
  if (axes.constraints.length > 0) {
    return err(tooMany('the grid', { count: axes.combinations, limit: MAX_ENUMERATED_COMBINATIONS }, 'a constrained grid this large cannot be sampled; widen the steps'));
  }
  const chosen = new Set<number>();
  const total = axes.combinations;
  for (let top = total - sample.count; top < total; top += 1) {
    // A uniform whole number in 0..top from 53 random bits.
    const draw = Math.floor(((rng.nextUint32() >>> 5) * 67_108_864 + (rng.nextUint32() >>> 6)) / 9_007_199_254_740_992 * (top + 1));
    chosen.add(chosen.has(draw) ? top : draw);
  }
  return ok([...chosen].sort((a, b) => a - b).map((index) => combinationAt(axes, index)));
}

/**
 * Every valid combination (first parameter slowest), or with `sample` a seeded random sample of
 * `count` distinct ones in the same order (all of them when there are no more than `count`).
 * @example parameterGrid([{ name: 'fast', default: 5, from: 5, to: 10, step: 5 }], []) // ok([{ fast: 5 }, { fast: 10 }])
 */
export function parameterGrid(
  parameters: readonly AlgorithmParameter[],
  constraints: readonly string[] = [],
  options: GridOptions = {},
): Result<ParameterBindings[], AlgorithmError[]> {
  const issues = options.sample === undefined ? [] : sampleIssues(options.sample);
  if (issues.length > 0) return err(issues);
  const axes = axesOf(parameters, constraints);
  if (!axes.ok) return axes;
  const valid = countValid(axes.value);
  if (!valid.ok) return valid;
  const { sample } = options;
  if (sample !== undefined && sample.count < valid.value) return sampleOf(axes.value, valid.value, sample);
  if (valid.value > MAX_SWEEP_COMBINATIONS) {
    return err(tooMany('the grid (after constraints)', { count: valid.value, limit: MAX_SWEEP_COMBINATIONS }, 'narrow the ranges, widen the steps, add constraints or take a sample'));
  }
  if (axes.value.combinations > MAX_ENUMERATED_COMBINATIONS) {
    return err(tooMany('the grid (before constraints)', { count: axes.value.combinations, limit: MAX_ENUMERATED_COMBINATIONS }, 'narrow the ranges or widen the steps'));
  }
  return ok(enumerate(axes.value, () => true));
}
