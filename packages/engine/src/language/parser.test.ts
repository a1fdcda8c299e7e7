import { describe, expect, it } from 'vitest';
import { withoutSpans } from './ast';
import { formatExpressionError } from './expression-error';
import { MAX_EXPRESSION_DEPTH, parseExpression } from './parser';
import { printExpression } from './printer';

function syntaxError(source: string): string {
  const parsed = parseExpression(source);
  if (parsed.ok) throw new Error(`expected a syntax error in ${source}`);
  return formatExpressionError(parsed.error);
}

function tree(source: string): unknown {
  const parsed = parseExpression(source);
  if (!parsed.ok) throw new Error(formatExpressionError(parsed.error));
  return withoutSpans(parsed.value);
}

const name = (text: string) => ({ kind: 'name', name: text });
const number = (value: number) => ({ kind: 'number', value });

describe('parseExpression: syntax errors at exact positions', () => {
  it('points at the unclosed call and where it was opened', () => {
    expect(syntaxError('close > 1 and\n  sma(close, 10 > 2')).toBe("2:20: expected ')' to close the call opened at 2:6, found the end of the expression");
    expect(syntaxError('ema(close 5)')).toBe("1:11: expected ')' to close the call opened at 1:4, found '5'");
  });

  it('points at unclosed parentheses and lookbacks', () => {
    expect(syntaxError('(close > open')).toBe("1:14: expected ')' to close the '(' opened at 1:1, found the end of the expression");
    expect(syntaxError('close[1 open')).toBe("1:9: expected ']' to close the lookback opened at 1:6, found 'open'");
  });

  it('reports missing operands, stray tokens and bad characters', () => {
    expect(syntaxError('close >')).toBe("1:8: expected a number, a name or '(', found the end of the expression");
    expect(syntaxError('1 +* 2')).toBe("1:4: expected a number, a name or '(', found '*'");
    expect(syntaxError('close open')).toBe("1:7: unexpected 'open' after a complete expression");
    expect(syntaxError('close @ 2')).toBe("1:7: unexpected character '@'");
    expect(syntaxError('close = open')).toBe("1:7: unexpected '='; compare with '=='");
    expect(syntaxError('a & b')).toBe("1:3: unexpected '&'; write 'and' (or '&&')");
    expect(syntaxError('time() > "09:20')).toBe('1:10: unterminated text: no closing " on this line');
    expect(syntaxError('close > 1.5.2')).toBe("1:9: malformed number: '1.5' cannot be followed by '.'");
  });

  it('refuses chained comparisons with a hint', () => {
    expect(syntaxError('10 < close < 20')).toBe("1:12: comparisons cannot be chained: write 'a < b and b < c'");
  });

  it('counts lines and columns across newlines', () => {
    expect(syntaxError('close > open\nand\n\n   )')).toBe("4:4: expected a number, a name or '(', found ')'");
  });
});

describe('parseExpression: trees', () => {
  it('binds multiplication tighter than addition, both left-associative', () => {
    expect(tree('a - b - c * d')).toEqual({
      kind: 'binary', operator: '-',
      left: { kind: 'binary', operator: '-', left: name('a'), right: name('b') },
      right: { kind: 'binary', operator: '*', left: name('c'), right: name('d') },
    });
  });

  it('binds not looser than comparisons and tighter than and', () => {
    expect(tree('not a > b and c')).toEqual({
      kind: 'binary', operator: 'and',
      left: { kind: 'unary', operator: 'not', operand: { kind: 'binary', operator: '>', left: name('a'), right: name('b') } },
      right: name('c'),
    });
  });

  it('reads && || ! as and or not', () => {
    expect(tree('!a && b || c')).toEqual(tree('not a and b or c'));
  });

  it('parses lookback on any subexpression and unary minus below it', () => {
    expect(tree('-sma(close, 10)[2]')).toEqual({
      kind: 'unary', operator: '-',
      operand: { kind: 'lookback', target: { kind: 'call', callee: 'sma', arguments: [name('close'), number(10)] }, bars: number(2) },
    });
    expect(tree('(high - low)[1]')).toEqual({
      kind: 'lookback', target: { kind: 'binary', operator: '-', left: name('high'), right: name('low') }, bars: number(1),
    });
  });

  it('reads numbers with fractions and exponents, and text in either quote', () => {
    expect(tree('2.5e3')).toEqual(number(2500));
    expect(tree("'09:20'")).toEqual({ kind: 'text', value: '09:20' });
  });

  it('keeps spans: the call covers callee to closing parenthesis', () => {
    const parsed = parseExpression('x +\n  vwap( )');
    expect(parsed.ok && parsed.value.kind === 'binary' && parsed.value.right.span).toEqual({
      start: { offset: 6, line: 2, column: 3 },
      end: { offset: 13, line: 2, column: 10 },
    });
  });
});

describe('parseExpression: numbers a double cannot hold', () => {
  it('refuses 1e400 at its line:column instead of reading Infinity', () => {
    expect(syntaxError('close > 1e400')).toBe('1:9: number 1e400 is out of range (the largest is about 1.8e308)');
    expect(syntaxError(`close >\n  ${'9'.repeat(400)}`)).toBe(`2:3: number ${'9'.repeat(400)} is out of range (the largest is about 1.8e308)`);
  });

  it('refuses a non-zero literal that would silently be 0, and keeps the extremes that fit', () => {
    expect(syntaxError('close > 1e-400')).toBe('1:9: number 1e-400 is out of range (too small to tell from 0)');
    expect(tree('1.7976931348623157e308')).toEqual(number(Number.MAX_VALUE));
    expect(tree('5e-324')).toEqual(number(5e-324));
    expect(tree('0e400')).toEqual(number(0));
    expect(tree('0.000')).toEqual(number(0));
  });
});

describe('parseExpression: nesting is bounded, never a stack overflow', () => {
  const tooDeep = `expression nested too deeply (at most ${MAX_EXPRESSION_DEPTH} levels)`;

  it('refuses 5,000 nested parentheses at the first one too many', () => {
    const source = `${'('.repeat(5000)}close${')'.repeat(5000)} > 1`;
    expect(syntaxError(source)).toBe(`1:${MAX_EXPRESSION_DEPTH + 1}: ${tooDeep}`);
  });

  it('refuses deep unary minus, not, calls and lookbacks', () => {
    expect(syntaxError(`${'-'.repeat(5000)}close > 1`)).toBe(`1:${MAX_EXPRESSION_DEPTH + 1}: ${tooDeep}`);
    expect(syntaxError(`${'not '.repeat(5000)}close > 1`)).toBe(`1:${4 * MAX_EXPRESSION_DEPTH + 1}: ${tooDeep}`);
    expect(syntaxError(`${'abs('.repeat(5000)}close${')'.repeat(5000)}`)).toMatch(new RegExp(`: ${tooDeep.replace(/[()]/g, '\\$&')}$`));
    expect(syntaxError(`close${'[close'.repeat(5000)}${']'.repeat(5000)}`)).toMatch(/nested too deeply/);
  });

  it('refuses a long operator chain at the operator that makes the tree too deep', () => {
    // close + close + ...: the k-th '+' makes a tree k + 1 deep; the one at depth 101 is refused.
    const chain = `close${' + close'.repeat(5000)} > 1`;
    const column = 'close'.length + (MAX_EXPRESSION_DEPTH - 1) * ' + close'.length + 2;
    expect(syntaxError(chain)).toBe(`1:${column}: ${tooDeep}`);
    expect(syntaxError(`a${' and a'.repeat(20_000)}`)).toMatch(/nested too deeply/);
  });

  it(`accepts nesting up to ${MAX_EXPRESSION_DEPTH} levels, and the printer's text of such a tree parses back`, () => {
    const parenthesised = `${'('.repeat(MAX_EXPRESSION_DEPTH - 1)}close${')'.repeat(MAX_EXPRESSION_DEPTH - 1)} > 1`;
    expect(parseExpression(parenthesised).ok).toBe(true);
    const chain = parseExpression(`close${' + close'.repeat(MAX_EXPRESSION_DEPTH - 1)}`);
    expect(chain.ok).toBe(true);
    if (chain.ok) expect(tree(printExpression(chain.value))).toEqual(withoutSpans(chain.value));
    // 99 minus signs and the name: 100 levels.
    const negations = parseExpression(`${'-'.repeat(MAX_EXPRESSION_DEPTH - 1)}close`);
    expect(negations.ok).toBe(true);
    if (negations.ok) expect(tree(printExpression(negations.value))).toEqual(withoutSpans(negations.value));
  });

  // The test's timeout is the bound: no hang on a huge input (the lexer reads it once, the parser stops early).
  it('answers 200,000 nested parentheses without hanging', { timeout: 5_000 }, () => {
    expect(syntaxError(`${'('.repeat(200_000)}close${')'.repeat(200_000)}`)).toMatch(/nested too deeply/);
  });
});
