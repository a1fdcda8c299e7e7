import type { IndicatorFunction } from '../indicators/indicator';
import { INDICATOR_FUNCTIONS, indicatorFunction } from '../indicators/functions';
import type { CallExpression, Expression } from './ast';
import type { BuiltinName } from './builtins';
import { BUILTIN_FUNCTIONS, builtinFunction, MAX_LOOKBACK_BARS } from './builtins';
import type { CheckedNode } from './checked';
import { BAR_FIELDS, POSITION_FIELDS } from './checked';
import type { Checker } from './checker';
import type { ArgumentBounds } from './parameter-trace';
import { didYouMean } from './suggest';

/** Every function a trader can call: the built-ins, then the indicator table. */
export function functionNames(): string[] {
  return [...BUILTIN_FUNCTIONS.map((builtin) => builtin.name), ...INDICATOR_FUNCTIONS.map((indicator) => indicator.name)];
}

/** True when `name` is a built-in or an indicator function. */
export function isFunctionName(name: string): boolean {
  return builtinFunction(name) !== undefined || indicatorFunction(name) !== undefined;
}

/** How an indicator call is written: `rsi(series, period = 14)`, `atr(period = 14)`. */
export function indicatorSignature(indicator: IndicatorFunction): string {
  const parameters = indicator.parameters.map((parameter) =>
    parameter.default === undefined ? parameter.name : `${parameter.name} = ${parameter.default}`,
  );
  const series = indicator.input === 'series' ? ['series'] : [];
  return `${indicator.name}(${[...series, ...parameters].join(', ')})`;
}

/** The signature of any function, for messages. */
export function usageOf(name: string): string {
  const builtin = builtinFunction(name);
  if (builtin !== undefined) return builtin.signature;
  const indicator = indicatorFunction(name);
  return indicator === undefined ? `${name}(...)` : indicatorSignature(indicator);
}

function plural(count: number): string {
  return count === 1 ? '1 argument' : `${count} arguments`;
}

/** Reports a wrong argument count; true when the count is acceptable. */
function checkArity(checker: Checker, call: CallExpression, range: { minimum: number; maximum: number }): boolean {
  const count = call.arguments.length;
  if (count >= range.minimum && count <= range.maximum) return true;
  const expected =
    range.minimum === range.maximum
      ? plural(range.minimum)
      : range.maximum === Number.POSITIVE_INFINITY
        ? `at least ${plural(range.minimum)}`
        : `${range.minimum} to ${plural(range.maximum)}`;
  checker.report(call.span, `${call.callee} takes ${expected}: ${usageOf(call.callee)}; got ${count}`);
  return false;
}

function argumentAt(call: CallExpression, index: number): Expression {
  return call.arguments[index] as Expression;
}

function checkIndicator(checker: Checker, call: CallExpression, indicator: IndicatorFunction): CheckedNode | undefined {
  const offset = indicator.input === 'series' ? 1 : 0;
  const required = indicator.parameters.filter((parameter) => parameter.default === undefined).length;
  if (!checkArity(checker, call, { minimum: offset + required, maximum: offset + indicator.parameters.length })) return undefined;
  const input = offset === 1 ? checker.checkTyped(argumentAt(call, 0), 'number', `the series of ${indicator.name}`) : undefined;
  const parameters: number[] = [];
  // A traced check (ParameterTrace): the arguments that are `$name`s.
  const fromParameters: Array<{ index: number; parameter: number; bounds: ArgumentBounds }> = [];
  let failed = offset === 1 && input === undefined;
  indicator.parameters.forEach((parameter, index) => {
    const argument = call.arguments[offset + index];
    if (argument === undefined) {
      parameters.push(parameter.default ?? Number.NaN);
      return;
    }
    const checked = checker.constantArgument(argument, {
      role: `the ${parameter.name} of ${indicator.name}`,
      minimum: parameter.minimum,
      maximum: parameter.maximum,
      integer: parameter.kind === 'integer',
    });
    if (checked === undefined) failed = true;
    else if (checked.parameter !== undefined) fromParameters.push({ index, parameter: checked.parameter, bounds: checked.bounds });
    parameters.push(checked?.value ?? Number.NaN);
  });
  if (failed) return undefined;
  const node: Extract<CheckedNode, { kind: 'indicator' }> = { kind: 'indicator', type: 'number', function: indicator, input, parameters };
  checker.trace?.indicator(node, fromParameters);
  return node;
}

function checkNumbers(checker: Checker, call: CallExpression): CheckedNode[] | undefined {
  const operands = call.arguments.map((argument, index) => checker.checkTyped(argument, 'number', `argument ${index + 1} of ${call.callee}`));
  return operands.every((operand) => operand !== undefined) ? (operands as CheckedNode[]) : undefined;
}

function foldMath(checker: Checker, name: 'abs' | 'min' | 'max', operands: readonly CheckedNode[]): CheckedNode {
  if (operands.every((operand) => operand.kind === 'constant')) {
    checker.trace?.folded(...operands);
    const values = operands.map((operand) => (operand.kind === 'constant' ? operand.value : Number.NaN));
    const value = name === 'abs' ? Math.abs(values[0] ?? Number.NaN) : name === 'min' ? Math.min(...values) : Math.max(...values);
    return { kind: 'constant', type: 'number', value };
  }
  return { kind: 'math', type: 'number', name, operands };
}

function checkBuiltin(checker: Checker, call: CallExpression, name: BuiltinName): CheckedNode | undefined {
  switch (name) {
    case 'time':
      return checkArity(checker, call, { minimum: 0, maximum: 0 }) ? { kind: 'time', type: 'time' } : undefined;
    case 'crossover':
    case 'crossunder': {
      if (!checkArity(checker, call, { minimum: 2, maximum: 2 })) return undefined;
      const operands = checkNumbers(checker, call);
      if (operands === undefined) return undefined;
      const [left, right] = operands as [CheckedNode, CheckedNode];
      return { kind: 'cross', type: 'boolean', direction: name === 'crossover' ? 'over' : 'under', left, right };
    }
    case 'abs':
    case 'min':
    case 'max': {
      const range = name === 'abs' ? { minimum: 1, maximum: 1 } : { minimum: 2, maximum: Number.POSITIVE_INFINITY };
      if (!checkArity(checker, call, range)) return undefined;
      const operands = checkNumbers(checker, call);
      return operands === undefined ? undefined : foldMath(checker, name, operands);
    }
    case 'highest':
    case 'lowest': {
      if (!checkArity(checker, call, { minimum: 2, maximum: 2 })) return undefined;
      const input = checker.checkTyped(argumentAt(call, 0), 'number', `the series of ${name}`);
      const role = `the bars of ${name}`;
      const bars = checker.constantArgument(argumentAt(call, 1), { role, minimum: 1, maximum: MAX_LOOKBACK_BARS, integer: true });
      if (input === undefined || bars === undefined) return undefined;
      if (input.kind === 'constant') {
        if (bars.parameter !== undefined) checker.trace?.decidesShape();
        return input;
      }
      const node: Extract<CheckedNode, { kind: 'extreme' }> = { kind: 'extreme', type: 'number', name, input, bars: bars.value };
      if (bars.parameter !== undefined) checker.trace?.bars(node, bars.parameter, bars.bounds);
      return node;
    }
  }
}

/** Checks a call to a built-in or an indicator; unknown functions get a suggestion. */
export function checkCall(checker: Checker, call: CallExpression): CheckedNode | undefined {
  const builtin = builtinFunction(call.callee);
  if (builtin !== undefined) return checkBuiltin(checker, call, builtin.name);
  const indicator = indicatorFunction(call.callee);
  if (indicator !== undefined) return checkIndicator(checker, call, indicator);
  if ((BAR_FIELDS as readonly string[]).includes(call.callee) || (POSITION_FIELDS as readonly string[]).includes(call.callee)) {
    return checker.report(call.span, `'${call.callee}' is not a function: write ${call.callee} without parentheses`);
  }
  return checker.report(call.calleeSpan, `unknown function '${call.callee}'${didYouMean(call.callee, functionNames())}`);
}
