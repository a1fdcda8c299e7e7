/**
 * The syntax tree of Vyuha's expression language, as the parser builds it: names are not yet
 * resolved and nothing is type-checked (that is the checker's job). Every node carries the span of
 * source text it came from, so later stages can point at `line:column`.
 */

/** A place in the source text: `offset` counts UTF-16 code units from 0; line and column from 1. */
export interface SourcePosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** The source text a node came from, `end` exclusive. */
export interface SourceSpan {
  readonly start: SourcePosition;
  readonly end: SourcePosition;
}

/** A number literal. The parser only makes non-negative ones: `-5` is a negation of `5`. */
export interface NumberLiteral {
  readonly kind: 'number';
  readonly value: number;
  readonly span: SourceSpan;
}

/** A quoted literal; the language's only use is a time of day, `"09:20"`. */
export interface TextLiteral {
  readonly kind: 'text';
  readonly value: string;
  readonly span: SourceSpan;
}

/** A bare name: a bar field (`close`) or a position variable (`entry_price`). */
export interface NameReference {
  readonly kind: 'name';
  readonly name: string;
  readonly span: SourceSpan;
}

/**
 * A parameter of the algorithm, `$fast`: a number the document declares with a range. It is
 * replaced by its bound value (a number literal) before the checker sees the tree.
 */
export interface ParameterReference {
  readonly kind: 'parameter';
  /** The name without the `$`. */
  readonly name: string;
  readonly span: SourceSpan;
}

/** A function call: `sma(close, 10)`, `time()`. */
export interface CallExpression {
  readonly kind: 'call';
  readonly callee: string;
  readonly calleeSpan: SourceSpan;
  readonly arguments: readonly Expression[];
  readonly span: SourceSpan;
}

/** A lookback: `close[1]` is the close one bar before the current one. */
export interface LookbackExpression {
  readonly kind: 'lookback';
  readonly target: Expression;
  readonly bars: Expression;
  readonly span: SourceSpan;
}

export type UnaryOperator = '-' | 'not';

export interface UnaryExpression {
  readonly kind: 'unary';
  readonly operator: UnaryOperator;
  readonly operand: Expression;
  readonly span: SourceSpan;
}

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';
export type ComparisonOperator = '>' | '>=' | '<' | '<=' | '==' | '!=';
export type LogicalOperator = 'and' | 'or';
export type BinaryOperator = ArithmeticOperator | ComparisonOperator | LogicalOperator;

export interface BinaryExpression {
  readonly kind: 'binary';
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
  readonly span: SourceSpan;
}

export type Expression =
  | NumberLiteral
  | TextLiteral
  | NameReference
  | ParameterReference
  | CallExpression
  | LookbackExpression
  | UnaryExpression
  | BinaryExpression;

/**
 * Binding strength, loosest first. The printer and the parser share this table, so a printed
 * tree always parses back to the same tree.
 */
export const PRECEDENCE = {
  or: 1,
  and: 2,
  not: 3,
  comparison: 4,
  additive: 5,
  multiplicative: 6,
  negate: 7,
  postfix: 8,
  primary: 9,
} as const;

const COMPARISON_OPERATORS: ReadonlySet<string> = new Set(['>', '>=', '<', '<=', '==', '!=']);

/** True for `> >= < <= == !=`. */
export function isComparisonOperator(operator: string): operator is ComparisonOperator {
  return COMPARISON_OPERATORS.has(operator);
}

/** How tightly an expression binds (see PRECEDENCE). */
export function precedenceOf(expression: Expression | BareExpression): number {
  switch (expression.kind) {
    case 'number':
      // A negative literal (never parsed, but a caller may build one) prints as a negation.
      return expression.value < 0 || Object.is(expression.value, -0) ? PRECEDENCE.negate : PRECEDENCE.primary;
    case 'text':
    case 'name':
    case 'parameter':
    case 'call':
      return PRECEDENCE.primary;
    case 'lookback':
      return PRECEDENCE.postfix;
    case 'unary':
      return expression.operator === 'not' ? PRECEDENCE.not : PRECEDENCE.negate;
    case 'binary':
      return binaryPrecedence(expression.operator);
  }
}

/** Binding strength of a binary operator. */
export function binaryPrecedence(operator: BinaryOperator): number {
  if (operator === 'or') return PRECEDENCE.or;
  if (operator === 'and') return PRECEDENCE.and;
  if (isComparisonOperator(operator)) return PRECEDENCE.comparison;
  if (operator === '+' || operator === '-') return PRECEDENCE.additive;
  return PRECEDENCE.multiplicative;
}

/** The tree without its spans: what "the same tree" means when comparing parses. */
export type BareExpression =
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  | { kind: 'name'; name: string }
  | { kind: 'parameter'; name: string }
  | { kind: 'call'; callee: string; arguments: BareExpression[] }
  | { kind: 'lookback'; target: BareExpression; bars: BareExpression }
  | { kind: 'unary'; operator: UnaryOperator; operand: BareExpression }
  | { kind: 'binary'; operator: BinaryOperator; left: BareExpression; right: BareExpression };

/** Drops every span. @example withoutSpans(parse('close')) // { kind: 'name', name: 'close' } */
export function withoutSpans(expression: Expression): BareExpression {
  switch (expression.kind) {
    case 'number':
      return { kind: 'number', value: expression.value };
    case 'text':
      return { kind: 'text', value: expression.value };
    case 'name':
      return { kind: 'name', name: expression.name };
    case 'parameter':
      return { kind: 'parameter', name: expression.name };
    case 'call':
      return { kind: 'call', callee: expression.callee, arguments: expression.arguments.map(withoutSpans) };
    case 'lookback':
      return { kind: 'lookback', target: withoutSpans(expression.target), bars: withoutSpans(expression.bars) };
    case 'unary':
      return { kind: 'unary', operator: expression.operator, operand: withoutSpans(expression.operand) };
    case 'binary':
      return { kind: 'binary', operator: expression.operator, left: withoutSpans(expression.left), right: withoutSpans(expression.right) };
  }
}
