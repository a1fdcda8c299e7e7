import { describe, expect, it } from 'vitest';
import type { Expression } from './ast';
import { withoutSpans } from './ast';
import { checkExpression } from './checker';
import { bindParameters, parameterReferences } from './parameters';
import { parseExpression } from './parser';
import { printExpression } from './printer';

function parse(source: string): Expression {
  const parsed = parseExpression(source);
  if (!parsed.ok) throw new Error(`${parsed.error.line}:${parsed.error.column}: ${parsed.error.message}`);
  return parsed.value;
}

describe('$parameters in the language', () => {
  it('parses $name wherever a number may stand and prints it back', () => {
    for (const source of [
      'sma(close, $fast) > sma(close, $slow)',
      'rsi(close, 14) > $level',
      'close > open * (1 + $pct / 100)',
      'close[$lag] < -$x_2',
      '$a_1 < $B9',
    ]) {
      const tree = parse(source);
      expect(printExpression(tree)).toBe(source);
      expect(withoutSpans(parse(printExpression(tree)))).toEqual(withoutSpans(tree));
    }
  });

  it('gives a parameter node its own span', () => {
    const tree = parse('close > $level');
    expect(parameterReferences(tree)).toEqual([
      { kind: 'parameter', name: 'level', span: { start: { offset: 8, line: 1, column: 9 }, end: { offset: 14, line: 1, column: 15 } } },
    ]);
  });

  it("refuses '$' without a name, at its position", () => {
    const parsed = parseExpression('close >\n  $ + 1');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect([parsed.error.line, parsed.error.column]).toEqual([2, 3]);
      expect(parsed.error.message).toContain("expected a parameter name after '$'");
    }
    const digit = parseExpression('close > $1');
    expect(digit.ok ? '' : `${digit.error.line}:${digit.error.column}`).toBe('1:9');
  });

  it('binds values as number literals with the same spans, leaving unknown names', () => {
    const tree = parse('sma(close, $fast) > sma(close, $slow) + $other');
    const bound = bindParameters(tree, new Map([['fast', 10], ['slow', 20]]));
    expect(printExpression(bound)).toBe('sma(close, 10) > sma(close, 20) + $other');
    expect(parameterReferences(bound).map((reference) => reference.name)).toEqual(['other']);
    const written = parse('sma(close, 10) > sma(close, 20)');
    const fully = bindParameters(parse('sma(close, $fast) > sma(close, $slow)'), new Map([['fast', 10], ['slow', 20]]));
    expect(withoutSpans(fully)).toEqual(withoutSpans(written));
  });

  it('the checker refuses an unbound parameter at its line:column', () => {
    const checked = checkExpression('close >\n $level');
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error.map((error) => `${error.line}:${error.column}`)).toEqual(['2:2']);
  });
});
