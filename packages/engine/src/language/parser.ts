import type { Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { BinaryOperator, Expression, SourceSpan } from './ast';
import { isComparisonOperator } from './ast';
import type { ExpressionError } from './expression-error';
import { errorAt, formatPosition } from './expression-error';
import type { Token } from './lexer';
import { ExpressionSyntaxError, tokenize } from './lexer';

/*
 * Grammar, loosest first (recursive descent, one function per level):
 *
 *   or         := and ('or' and)*
 *   and        := not ('and' not)*
 *   not        := 'not' not | comparison
 *   comparison := additive (('>' | '>=' | '<' | '<=' | '==' | '!=') additive)?   -- never chained
 *   additive   := multiplicative (('+' | '-') multiplicative)*
 *   multiplicative := negate (('*' | '/' | '%') negate)*
 *   negate     := '-' negate | postfix
 *   postfix    := primary ('[' or ']')*
 *   primary    := number | text | parameter | name | name '(' (or (',' or)*)? ')' | '(' or ')'
 *
 * `not` binds looser than comparisons, so `not close > open` means `not (close > open)`.
 *
 * Nesting is bounded (MAX_EXPRESSION_DEPTH) in two ways, both reported as "expression nested
 * too deeply" at the token that went one level too far: the parser's own recursion (each
 * parenthesis, call, lookback and unary operator descends one level), and the depth of the tree
 * it builds (a long chain `a + b + c + ...` is built by a loop but is as deep as it is long).
 * Every later stage (checker, printer, compiler) walks the tree recursively, so the bound keeps
 * them all far from the call stack's limit, in Node and in the browser.
 */

/** The deepest an expression may nest: levels of the tree, and parentheses, calls, lookbacks and unary operators inside each other. */
export const MAX_EXPRESSION_DEPTH = 100;

class Parser {
  private index = 0;
  /** How many groups and unary operators the parser is inside right now. */
  private level = 0;
  /** Tree depth of each node built (leaves are 1). */
  private readonly depths = new WeakMap<Expression, number>();
  constructor(private readonly tokens: readonly Token[]) {}

  /** Records a new node's depth (one more than its deepest child), failing at `at` past the bound. */
  private built<T extends Expression>(node: T, at: Token, children: readonly Expression[]): T {
    let deepest = 0;
    for (const child of children) deepest = Math.max(deepest, this.depths.get(child) ?? 1);
    if (deepest + 1 > MAX_EXPRESSION_DEPTH) tooDeep(at);
    this.depths.set(node, deepest + 1);
    return node;
  }

  /** Parses one nested level (inside `at`: a parenthesis, call, lookback or unary operator). */
  private nested<T>(at: Token, parse: () => T): T {
    this.level += 1;
    if (this.level > MAX_EXPRESSION_DEPTH) tooDeep(at);
    const result = parse();
    this.level -= 1;
    return result;
  }

  private peek(): Token {
    return this.tokens[this.index] ?? this.tokens[this.tokens.length - 1]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private at(kind: Token['kind'], value?: string): boolean {
    const token = this.peek();
    return token.kind === kind && (value === undefined || token.value === value);
  }

  parseWhole(): Expression {
    const expression = this.parseOr();
    const token = this.peek();
    if (token.kind !== 'end') fail(token, `unexpected ${describe(token)} after a complete expression`);
    return expression;
  }

  private parseLeftAssociative(operators: readonly string[], operand: () => Expression): Expression {
    let left = operand();
    for (;;) {
      const token = this.peek();
      const isOperator = (token.kind === 'keyword' || token.kind === 'punctuation') && operators.includes(token.value);
      if (!isOperator) return left;
      this.next();
      const right = operand();
      left = this.built({ kind: 'binary', operator: token.value as BinaryOperator, left, right, span: join(left.span, right.span) }, token, [left, right]);
    }
  }

  private parseOr(): Expression {
    return this.parseLeftAssociative(['or'], () => this.parseAnd());
  }

  private parseAnd(): Expression {
    return this.parseLeftAssociative(['and'], () => this.parseNot());
  }

  private parseNot(): Expression {
    if (!this.at('keyword', 'not')) return this.parseComparison();
    const keyword = this.next();
    const operand = this.nested(keyword, () => this.parseNot());
    return this.built({ kind: 'unary', operator: 'not', operand, span: join(keyword.span, operand.span) }, keyword, [operand]);
  }

  private parseComparison(): Expression {
    const left = this.parseAdditive();
    const token = this.peek();
    if (token.kind !== 'punctuation' || !isComparisonOperator(token.value)) return left;
    this.next();
    const right = this.parseAdditive();
    const after = this.peek();
    if (after.kind === 'punctuation' && isComparisonOperator(after.value)) {
      fail(after, `comparisons cannot be chained: write 'a ${token.value} b and b ${after.value} c'`);
    }
    return this.built({ kind: 'binary', operator: token.value, left, right, span: join(left.span, right.span) }, token, [left, right]);
  }

  private parseAdditive(): Expression {
    return this.parseLeftAssociative(['+', '-'], () => this.parseMultiplicative());
  }

  private parseMultiplicative(): Expression {
    return this.parseLeftAssociative(['*', '/', '%'], () => this.parseNegate());
  }

  private parseNegate(): Expression {
    if (!this.at('punctuation', '-')) return this.parsePostfix();
    const minus = this.next();
    const operand = this.nested(minus, () => this.parseNegate());
    return this.built({ kind: 'unary', operator: '-', operand, span: join(minus.span, operand.span) }, minus, [operand]);
  }

  private parsePostfix(): Expression {
    let target = this.parsePrimary();
    while (this.at('punctuation', '[')) {
      const open = this.next();
      const bars = this.nested(open, () => this.parseOr());
      const close = this.expectClosing(']', open, 'the lookback');
      target = this.built({ kind: 'lookback', target, bars, span: join(target.span, close.span) }, open, [target, bars]);
    }
    return target;
  }

  private parsePrimary(): Expression {
    const token = this.peek();
    if (token.kind === 'number') {
      this.next();
      return { kind: 'number', value: token.number, span: token.span };
    }
    if (token.kind === 'text') {
      this.next();
      return { kind: 'text', value: token.value, span: token.span };
    }
    if (token.kind === 'parameter') {
      this.next();
      return { kind: 'parameter', name: token.value, span: token.span };
    }
    if (token.kind === 'name') {
      this.next();
      return this.at('punctuation', '(') ? this.parseCall(token) : { kind: 'name', name: token.value, span: token.span };
    }
    if (token.kind === 'punctuation' && token.value === '(') {
      this.next();
      const inner = this.nested(token, () => this.parseOr());
      this.expectClosing(')', token, "the '('");
      return inner;
    }
    return fail(token, `expected a number, a name or '(', found ${describe(token)}`);
  }

  private parseCall(callee: Token): Expression {
    const open = this.next();
    const args: Expression[] = [];
    if (!this.at('punctuation', ')')) {
      for (;;) {
        args.push(this.nested(open, () => this.parseOr()));
        if (!this.at('punctuation', ',')) break;
        this.next();
      }
    }
    const close = this.expectClosing(')', open, 'the call');
    return this.built({ kind: 'call', callee: callee.value, calleeSpan: callee.span, arguments: args, span: join(callee.span, close.span) }, callee, args);
  }

  private expectClosing(symbol: string, open: Token, what: string): Token {
    const token = this.peek();
    if (token.kind === 'punctuation' && token.value === symbol) return this.next();
    return fail(token, `expected '${symbol}' to close ${what} opened at ${formatPosition(open.span.start)}, found ${describe(token)}`);
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the expression';
    case 'text':
      return `"${token.value}"`;
    case 'parameter':
      return `'$${token.value}'`;
    default:
      return `'${token.value}'`;
  }
}

function join(first: SourceSpan, last: SourceSpan): SourceSpan {
  return { start: first.start, end: last.end };
}

function fail(token: Token, message: string): never {
  throw new ExpressionSyntaxError(errorAt(token.span, message));
}

function tooDeep(token: Token): never {
  return fail(token, `expression nested too deeply (at most ${MAX_EXPRESSION_DEPTH} levels)`);
}

/**
 * Parses expression source into a syntax tree, or the first syntax error with its position.
 * @example parseExpression('close >').ok // false; error '1:8: expected a number, a name or '(', found the end of the expression'
 */
export function parseExpression(source: string): Result<Expression, ExpressionError> {
  try {
    return ok(new Parser(tokenize(source)).parseWhole());
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return err(error.detail);
    throw error;
  }
}
