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
 *   primary    := number | text | name | name '(' (or (',' or)*)? ')' | '(' or ')'
 *
 * `not` binds looser than comparisons, so `not close > open` means `not (close > open)`.
 */

class Parser {
  private index = 0;
  constructor(private readonly tokens: readonly Token[]) {}

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
      left = { kind: 'binary', operator: token.value as BinaryOperator, left, right, span: join(left.span, right.span) };
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
    const operand = this.parseNot();
    return { kind: 'unary', operator: 'not', operand, span: join(keyword.span, operand.span) };
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
    return { kind: 'binary', operator: token.value, left, right, span: join(left.span, right.span) };
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
    const operand = this.parseNegate();
    return { kind: 'unary', operator: '-', operand, span: join(minus.span, operand.span) };
  }

  private parsePostfix(): Expression {
    let target = this.parsePrimary();
    while (this.at('punctuation', '[')) {
      const open = this.next();
      const bars = this.parseOr();
      const close = this.expectClosing(']', open, 'the lookback');
      target = { kind: 'lookback', target, bars, span: join(target.span, close.span) };
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
    if (token.kind === 'name') {
      this.next();
      return this.at('punctuation', '(') ? this.parseCall(token) : { kind: 'name', name: token.value, span: token.span };
    }
    if (token.kind === 'punctuation' && token.value === '(') {
      this.next();
      const inner = this.parseOr();
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
        args.push(this.parseOr());
        if (!this.at('punctuation', ',')) break;
        this.next();
      }
    }
    const close = this.expectClosing(')', open, 'the call');
    return { kind: 'call', callee: callee.value, calleeSpan: callee.span, arguments: args, span: join(callee.span, close.span) };
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
