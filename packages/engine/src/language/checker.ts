import type { Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { BinaryExpression, Expression, SourceSpan, UnaryExpression } from './ast';
import { isComparisonOperator } from './ast';
import type { BarField, CheckedExpression, CheckedNode, PositionField, ValueType } from './checked';
import { BAR_FIELDS, POSITION_FIELDS } from './checked';
import { MAX_LOOKBACK_BARS } from './builtins';
import { checkCall, functionNames, isFunctionName, usageOf } from './check-calls';
import type { ExpressionError } from './expression-error';
import { errorAt } from './expression-error';
import { arithmetic, compare } from './operations';
import { parseExpression } from './parser';
import type { ArgumentBounds, ParameterTrace } from './parameter-trace';
import { didYouMean } from './suggest';

const TIME_OF_DAY = /^(\d{2}):(\d{2})$/;
const VALUE_NAMES: readonly string[] = [...BAR_FIELDS, ...POSITION_FIELDS];

/** How a type reads in a message. */
export function describeType(type: ValueType): string {
  if (type === 'number') return 'a number';
  if (type === 'boolean') return 'a condition (true or false)';
  return 'a time of day';
}

/** Walks a syntax tree, collecting every error rather than stopping at the first. */
export class Checker {
  readonly errors: ExpressionError[] = [];

  /** `trace`: check each `$name` as its value there and record where the values go (ParameterTrace). */
  constructor(readonly trace?: ParameterTrace) {}

  report(span: SourceSpan, message: string): undefined {
    this.errors.push(errorAt(span, message));
    return undefined;
  }

  /** The checked node, or undefined when an error was reported inside it. */
  check(expression: Expression): CheckedNode | undefined {
    switch (expression.kind) {
      case 'number':
        return { kind: 'constant', type: 'number', value: expression.value };
      case 'text':
        return this.checkTimeLiteral(expression.value, expression.span);
      case 'name':
        return this.checkName(expression.name, expression.span);
      case 'parameter':
        return this.trace?.constantOf(expression.name) ?? this.report(expression.span, `'$${expression.name}' is a parameter: it has a value only inside an algorithm that declares it under "parameters"`);
      case 'call':
        return checkCall(this, expression);
      case 'lookback':
        return this.checkLookback(expression.target, expression.bars);
      case 'unary':
        return this.checkUnary(expression);
      case 'binary':
        return this.checkBinary(expression);
    }
  }

  /** Checks `expression` and requires `type`; `role` names it in the message ("the left side of '+'"). */
  checkTyped(expression: Expression, type: ValueType, role: string): CheckedNode | undefined {
    const node = this.check(expression);
    if (node === undefined || node.type === type) return node;
    return this.report(expression.span, `${role} must be ${describeType(type)}, not ${describeType(node.type)}`);
  }

  /** A constant whole number in [minimum, maximum], for periods, windows and lookbacks. */
  checkConstant(expression: Expression, options: { role: string; minimum: number; maximum: number; integer: boolean }): number | undefined {
    return this.constantArgument(expression, options)?.value;
  }

  /**
   * checkConstant, with the parameter (its index in the trace) the value came from and the
   * bounds it was held to, for a traced check; `parameter` is undefined for a number written in.
   */
  constantArgument(expression: Expression, options: { role: string; minimum: number; maximum: number; integer: boolean }): { value: number; parameter: number | undefined; bounds: ArgumentBounds } | undefined {
    const node = this.checkTyped(expression, 'number', options.role);
    if (node === undefined) return undefined;
    const { role, minimum, maximum, integer } = options;
    if (node.kind !== 'constant') return this.report(expression.span, `${role} must be a constant number written in the expression`);
    if (integer && !Number.isInteger(node.value)) return this.report(expression.span, `${role} must be a whole number; got ${node.value}`);
    if (!(node.value >= minimum && node.value <= maximum)) {
      return this.report(expression.span, `${role} must be between ${minimum} and ${maximum}; got ${node.value}`);
    }
    return { value: node.value, parameter: this.trace?.parameterOf(node), bounds: { minimum, maximum, integer, nonZero: false } };
  }

  private checkTimeLiteral(text: string, span: SourceSpan): CheckedNode | undefined {
    const match = TIME_OF_DAY.exec(text);
    const hours = Number(match?.[1]);
    const minutes = Number(match?.[2]);
    if (match === null || hours > 23 || minutes > 59) {
      return this.report(span, `"${text}" is not a time of day: write "HH:MM" between "00:00" and "23:59"`);
    }
    return { kind: 'constant', type: 'time', value: hours * 60 + minutes };
  }

  private checkName(name: string, span: SourceSpan): CheckedNode | undefined {
    if ((BAR_FIELDS as readonly string[]).includes(name)) return { kind: 'field', type: 'number', field: name as BarField };
    if ((POSITION_FIELDS as readonly string[]).includes(name)) return { kind: 'position', type: 'number', field: name as PositionField };
    if (isFunctionName(name)) return this.report(span, `'${name}' is a function: write ${usageOf(name)}`);
    return this.report(span, `unknown name '${name}'${didYouMean(name, [...VALUE_NAMES, ...functionNames()])}`);
  }

  private checkLookback(targetExpression: Expression, barsExpression: Expression): CheckedNode | undefined {
    const target = this.check(targetExpression);
    const argument = this.constantArgument(barsExpression, { role: 'a lookback', minimum: 0, maximum: MAX_LOOKBACK_BARS, integer: true });
    if (target === undefined || argument === undefined) return undefined;
    const bars = argument.value;
    // A constant has the same value on every bar; looking back 0 bars is the value itself.
    if (target.kind === 'constant' || bars === 0) {
      if (argument.parameter !== undefined) this.trace?.decidesShape();
      return target;
    }
    const node: Extract<CheckedNode, { kind: 'lookback' }> = { kind: 'lookback', type: target.type, target, bars };
    if (argument.parameter !== undefined) this.trace?.bars(node, argument.parameter, { ...argument.bounds, nonZero: true });
    return node;
  }

  private checkUnary(expression: UnaryExpression): CheckedNode | undefined {
    if (expression.operator === '-') {
      const operand = this.checkTyped(expression.operand, 'number', "the operand of '-'");
      if (operand === undefined) return undefined;
      if (operand.kind === 'constant') {
        this.trace?.folded(operand);
        return { kind: 'constant', type: 'number', value: -operand.value };
      }
      return { kind: 'negate', type: 'number', operand };
    }
    const operand = this.checkTyped(expression.operand, 'boolean', "the operand of 'not'");
    if (operand === undefined) return undefined;
    if (operand.kind === 'constant') {
      this.trace?.folded(operand);
      return { kind: 'constant', type: 'boolean', value: operand.value === 0 ? 1 : 0 };
    }
    return { kind: 'not', type: 'boolean', operand };
  }

  private checkBinary(expression: BinaryExpression): CheckedNode | undefined {
    const { operator } = expression;
    if (operator === 'and' || operator === 'or') {
      const left = this.checkTyped(expression.left, 'boolean', `the left side of '${operator}'`);
      const right = this.checkTyped(expression.right, 'boolean', `the right side of '${operator}'`);
      if (left === undefined || right === undefined) return undefined;
      if (left.kind === 'constant' && right.kind === 'constant') {
        this.trace?.folded(left, right);
        const value = operator === 'and' ? left.value && right.value : left.value || right.value;
        return { kind: 'constant', type: 'boolean', value: value === 0 ? 0 : 1 };
      }
      return { kind: 'logical', type: 'boolean', operator, left, right };
    }
    if (isComparisonOperator(operator)) return this.checkComparison(expression);
    const left = this.checkTyped(expression.left, 'number', `the left side of '${operator}'`);
    const right = this.checkTyped(expression.right, 'number', `the right side of '${operator}'`);
    if (left === undefined || right === undefined) return undefined;
    // A divisor that is 0 on every bar is a mistake, not a rule: say so where it is written.
    if ((operator === '/' || operator === '%') && right.kind === 'constant') this.trace?.folded(right);
    if ((operator === '/' || operator === '%') && right.kind === 'constant' && right.value === 0) {
      const what = operator === '/' ? 'division' : 'remainder';
      return this.report(expression.right.span, `${what} by zero: the right side of '${operator}' is always 0`);
    }
    if (left.kind === 'constant' && right.kind === 'constant') {
      this.trace?.folded(left, right);
      const value = arithmetic(operator, left.value, right.value);
      if (Number.isNaN(value)) return this.report(expression.span, `this constant is out of range: ${left.value} ${operator} ${right.value} is too large for a number`);
      return { kind: 'constant', type: 'number', value };
    }
    return { kind: 'arithmetic', type: 'number', operator, left, right };
  }

  private checkComparison(expression: BinaryExpression): CheckedNode | undefined {
    const operator = expression.operator;
    if (!isComparisonOperator(operator)) return undefined;
    const left = this.check(expression.left);
    const right = this.check(expression.right);
    if (left === undefined || right === undefined) return undefined;
    const ordering = operator !== '==' && operator !== '!=';
    if (ordering && left.type === 'boolean') return this.report(expression.left.span, `'${operator}' orders numbers or times of day, not conditions`);
    if (ordering && right.type === 'boolean') return this.report(expression.right.span, `'${operator}' orders numbers or times of day, not conditions`);
    if (left.type !== right.type) {
      const hint = left.type === 'time' || right.type === 'time' ? ': compare time() with a text like "09:20"' : '';
      return this.report(expression.span, `cannot compare ${describeType(left.type)} with ${describeType(right.type)}${hint}`);
    }
    if (left.kind === 'constant' && right.kind === 'constant') {
      this.trace?.folded(left, right);
      return { kind: 'constant', type: 'boolean', value: compare(operator, left.value, right.value) };
    }
    return { kind: 'comparison', type: 'boolean', operator, left, right };
  }
}

/** Options of `checkExpression`. */
export interface CheckOptions {
  /** The type the whole expression must have (`boolean` for a condition). */
  readonly expect?: ValueType;
}

/**
 * Parses (when given text) and checks an expression: names, arity, types, constant parameters.
 * Returns every error found, each with its line and column.
 * @example checkExpression('clsoe > 10') // error '1:1: unknown name \'clsoe\'; did you mean \'close\'?'
 */
export function checkExpression(source: string | Expression, options: CheckOptions = {}): Result<CheckedExpression, ExpressionError[]> {
  let expression: Expression;
  if (typeof source === 'string') {
    const parsed = parseExpression(source);
    if (!parsed.ok) return err([parsed.error]);
    expression = parsed.value;
  } else {
    expression = source;
  }
  const checker = new Checker();
  const root = checker.check(expression);
  if (root !== undefined && options.expect !== undefined && root.type !== options.expect) {
    checker.report(expression.span, `the expression must be ${describeType(options.expect)}, but it is ${describeType(root.type)}`);
  }
  if (root === undefined || checker.errors.length > 0) return err(checker.errors);
  return ok({ root, type: root.type });
}
