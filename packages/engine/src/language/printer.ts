import type { BareExpression, BinaryOperator, Expression } from './ast';
import { binaryPrecedence, isComparisonOperator, PRECEDENCE, precedenceOf } from './ast';

type Printable = Expression | BareExpression;

/** Prints `expression`, in parentheses when it binds looser than `minimum`. */
function printAtLeast(expression: Printable, minimum: number): string {
  const text = print(expression);
  return precedenceOf(expression) < minimum ? `(${text})` : text;
}

function printBinary(operator: BinaryOperator, left: Printable, right: Printable): string {
  const level = binaryPrecedence(operator);
  // Left-associative: the left operand may share the level, the right may not. Comparisons do
  // not chain, so neither side may be a comparison without parentheses.
  const leftMinimum = isComparisonOperator(operator) ? level + 1 : level;
  return `${printAtLeast(left, leftMinimum)} ${operator} ${printAtLeast(right, level + 1)}`;
}

function printNumber(value: number): string {
  // String() gives the shortest text that reads back as the same double (with an exponent
  // for very large or small values, which the lexer accepts).
  if (value < 0 || Object.is(value, -0)) return `-${printNumber(-value)}`;
  return String(value);
}

function print(expression: Printable): string {
  switch (expression.kind) {
    case 'number':
      return printNumber(expression.value);
    case 'text':
      return `"${expression.value}"`;
    case 'name':
      return expression.name;
    case 'parameter':
      return `$${expression.name}`;
    case 'call':
      return `${expression.callee}(${expression.arguments.map((argument) => print(argument)).join(', ')})`;
    case 'lookback':
      return `${printAtLeast(expression.target, PRECEDENCE.postfix)}[${print(expression.bars)}]`;
    case 'unary':
      return expression.operator === 'not'
        ? `not ${printAtLeast(expression.operand, PRECEDENCE.not)}`
        : `-${printAtLeast(expression.operand, PRECEDENCE.negate)}`;
    case 'binary':
      return printBinary(expression.operator, expression.left, expression.right);
  }
}

/**
 * Canonical text of a tree: single spaces around binary operators, `and or not` as words, double
 * quotes, and only the parentheses the tree needs. Parsing the text gives the same tree.
 * @example printExpression(parse('(close>open)&&!(volume<1e6)')) // 'close > open and not volume < 1000000'
 */
export function printExpression(expression: Printable): string {
  return print(expression);
}
