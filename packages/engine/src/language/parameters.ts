import type { Expression, ParameterReference } from './ast';

/*
 * `$name` in a syntax tree: finding the references and replacing them by numbers. Binding makes a
 * number literal with the reference's span, so the tree is the one the parser would build from the
 * number written in (the checker then validates it as a constant, and errors keep pointing at the
 * `$name` in the source).
 */

/** Every `$name` in the tree, in source order (repeats included). @example parameterReferences(parse('$a < $b')).map((r) => r.name) // ['a', 'b'] */
export function parameterReferences(expression: Expression): ParameterReference[] {
  const found: ParameterReference[] = [];
  const visit = (node: Expression): void => {
    switch (node.kind) {
      case 'parameter':
        found.push(node);
        return;
      case 'number':
      case 'text':
      case 'name':
        return;
      case 'call':
        node.arguments.forEach(visit);
        return;
      case 'lookback':
        visit(node.target);
        visit(node.bars);
        return;
      case 'unary':
        visit(node.operand);
        return;
      case 'binary':
        visit(node.left);
        visit(node.right);
        return;
    }
  };
  visit(expression);
  return found;
}

/**
 * The tree with every `$name` found in `values` replaced by a number literal of that value (same
 * span); references not in `values` stay. A tree without references is returned as is.
 * @example printExpression(bindParameters(parse('sma(close, $n) > 0'), new Map([['n', 10]]))) // 'sma(close, 10) > 0'
 */
export function bindParameters(expression: Expression, values: ReadonlyMap<string, number>): Expression {
  switch (expression.kind) {
    case 'parameter': {
      const value = values.get(expression.name);
      return value === undefined ? expression : { kind: 'number', value, span: expression.span };
    }
    case 'number':
    case 'text':
    case 'name':
      return expression;
    case 'call':
      return { ...expression, arguments: expression.arguments.map((argument) => bindParameters(argument, values)) };
    case 'lookback':
      return { ...expression, target: bindParameters(expression.target, values), bars: bindParameters(expression.bars, values) };
    case 'unary':
      return { ...expression, operand: bindParameters(expression.operand, values) };
    case 'binary':
      return { ...expression, left: bindParameters(expression.left, values), right: bindParameters(expression.right, values) };
  }
}
