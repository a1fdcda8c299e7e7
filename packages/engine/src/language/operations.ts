import type { ArithmeticOperator, ComparisonOperator } from './ast';

/*
 * The value semantics, shared by constant folding in the checker and by the evaluator, so a
 * folded constant and a computed value can never disagree.
 *
 * - Booleans are numbers 1 (true) and 0 (false); a boolean is never NaN.
 * - Division or remainder by zero is NaN (not Infinity): `close / volume > 2` is false on a
 *   bar without volume rather than true.
 * - Every comparison with NaN is false, `!=` included (an undefined value is not "different").
 */

/** a op b for the arithmetic operators. @example arithmetic('/', 1, 0) // NaN */
export function arithmetic(operator: ArithmeticOperator, left: number, right: number): number {
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return right === 0 ? Number.NaN : left / right;
    case '%':
      return right === 0 ? Number.NaN : left % right;
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
