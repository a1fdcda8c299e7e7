import type { ArithmeticOperator, ComparisonOperator } from './ast';

/*
 * The value semantics, shared by constant folding in the checker and by the evaluator, so a
 * folded constant and a computed value can never disagree.
 *
 * - Booleans are numbers 1 (true) and 0 (false); a boolean is never NaN.
 * - No value is ever infinite: an arithmetic result that is not a finite number is NaN
 *   (undefined). So division or remainder by zero is NaN, not Infinity: `close / volume > 2` is
 *   false on a bar without volume rather than true; so is a quotient too large for a double
 *   (a divisor of 1e-320) and a product that overflows.
 * - Every comparison with NaN is false, `!=` included (an undefined value is not "different").
 */

/** The value itself when finite, else NaN. `x - x` is 0 exactly for finite x (NaN for NaN and ±Infinity). */
export function finiteOrNaN(value: number): number {
  return value - value === 0 ? value : Number.NaN;
}

/** a op b for the arithmetic operators. @example arithmetic('/', 1, 0) // NaN */
export function arithmetic(operator: ArithmeticOperator, left: number, right: number): number {
  switch (operator) {
    case '+':
      return finiteOrNaN(left + right);
    case '-':
      return finiteOrNaN(left - right);
    case '*':
      return finiteOrNaN(left * right);
    case '/':
      return finiteOrNaN(left / right);
    case '%':
      return finiteOrNaN(left % right);
  }
}

/** a op b as 1 or 0; 0 whenever either side is NaN. @example compare('!=', NaN, 1) // 0 */
export function compare(operator: ComparisonOperator, left: number, right: number): number {
  if (left !== left || right !== right) return 0;
  switch (operator) {
    case '>':
      return left > right ? 1 : 0;
    case '>=':
      return left >= right ? 1 : 0;
    case '<':
      return left < right ? 1 : 0;
    case '<=':
      return left <= right ? 1 : 0;
    case '==':
      return left === right ? 1 : 0;
    case '!=':
      return left !== right ? 1 : 0;
  }
}
