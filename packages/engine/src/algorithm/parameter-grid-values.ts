import type { AlgorithmParameter } from './document';

/*
 * The grid of one parameter: `from + k x step` for k = 0 .. steps, where steps = (to - from) / step
 * is a whole number within GRID_TOLERANCE. A value is on the grid when its k is whole within the
 * same tolerance, so `0.3` is on the grid of 0.1..0.5 by 0.1 although 0.1 + 2 x 0.1 is
 * 0.30000000000000004 in doubles. Grid values are rounded to the decimals `from` and `step` are
 * written with, so the sweep binds `0.3`, the number a trader would type.
 */

/** How far from whole a count of steps may be and still count as whole. */
export const GRID_TOLERANCE = 1e-9;

/** `count` when it is whole within GRID_TOLERANCE, else undefined. @example wholeCount(1.9999999999999998) // 2 */
export function wholeCount(count: number): number | undefined {
  const rounded = Math.round(count);
  return Math.abs(count - rounded) <= GRID_TOLERANCE ? rounded : undefined;
}

/** Digits after the decimal point of a number as String() writes it (`1e-7` has 7). */
function decimalsOf(value: number): number {
  const [mantissa = '', exponent] = String(Math.abs(value)).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/** The number of grid values, steps + 1 (the parameter is assumed valid). @example gridPointCount({ from: 5, to: 20, step: 5 }) // 4 */
export function gridPointCount(parameter: Pick<AlgorithmParameter, 'from' | 'to' | 'step'>): number {
  return (wholeCount((parameter.to - parameter.from) / parameter.step) ?? 0) + 1;
}

/** The k-th value of the grid, rounded to the decimals of `from` and `step`. @example gridValue({ from: 0.1, to: 0.5, step: 0.1 }, 2) // 0.3 */
export function gridValue(parameter: Pick<AlgorithmParameter, 'from' | 'step'>, k: number): number {
  const raw = parameter.from + k * parameter.step;
  const decimals = Math.max(decimalsOf(parameter.from), decimalsOf(parameter.step));
  return decimals > 15 ? raw : Number(raw.toFixed(decimals));
}

/** Every grid value in ascending order. @example gridValues({ name: 'n', default: 10, from: 5, to: 15, step: 5 }) // [5, 10, 15] */
export function gridValues(parameter: Pick<AlgorithmParameter, 'from' | 'to' | 'step'>): number[] {
  return Array.from({ length: gridPointCount(parameter) }, (_, k) => gridValue(parameter, k));
}

/** True when `value` is inside from..to and a whole number of steps from `from`. */
export function isOnGrid(parameter: Pick<AlgorithmParameter, 'from' | 'to' | 'step'>, value: number): boolean {
  if (!(value >= parameter.from && value <= parameter.to)) return false;
  return wholeCount((value - parameter.from) / parameter.step) !== undefined;
}
