import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BareExpression, BinaryOperator } from './ast';
import { withoutSpans } from './ast';
import { parseExpression } from './parser';
import { printExpression } from './printer';

const BINARY_OPERATORS: BinaryOperator[] = ['+', '-', '*', '/', '%', '>', '>=', '<', '<=', '==', '!=', 'and', 'or'];

/** Random syntax trees (not necessarily well-typed: the printer and parser do not care). */
const expressionArbitrary: fc.Arbitrary<BareExpression> = fc.letrec<{ expression: BareExpression }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.nat({ max: 1000 }).map((value): BareExpression => ({ kind: 'number', value })),
      fc.double({ min: 0, max: 1e25, noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0)).map((value): BareExpression => ({ kind: 'number', value })),
      fc.constantFrom('close', 'open', 'entry_price', 'x_1').map((name): BareExpression => ({ kind: 'name', name })),
      fc.constantFrom('09:20', '15:15').map((value): BareExpression => ({ kind: 'text', value })),
    ),
    fc.record({ callee: fc.constantFrom('sma', 'crossover', 'time'), arguments: fc.array(tie('expression'), { maxLength: 3 }) }).map(
      ({ callee, arguments: args }): BareExpression => ({ kind: 'call', callee, arguments: args }),
    ),
    fc.record({ target: tie('expression'), bars: tie('expression') }).map(({ target, bars }): BareExpression => ({ kind: 'lookback', target, bars })),
    fc.record({ operator: fc.constantFrom('-' as const, 'not' as const), operand: tie('expression') }).map(
      ({ operator, operand }): BareExpression => ({ kind: 'unary', operator, operand }),
    ),
    fc.record({ operator: fc.constantFrom(...BINARY_OPERATORS), left: tie('expression'), right: tie('expression') })
      .map(({ operator, left, right }): BareExpression => ({ kind: 'binary', operator, left, right })),
  ),
})).expression;

/** Comparisons do not chain in the grammar, so a comparison directly inside one is printed in parentheses. */
function reparse(text: string): BareExpression {
  const parsed = parseExpression(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.line}:${parsed.error.column}: ${parsed.error.message}`);
  return withoutSpans(parsed.value);
}

describe('printExpression', () => {
  it('prints canonical text with only the parentheses the tree needs', () => {
    const cases: Array<[string, string]> = [
      ['(close>open)&&!(volume<1e6)', 'close > open and not volume < 1000000'],
      ['((a + b)) * c', '(a + b) * c'],
      ['a - (b - c)', 'a - (b - c)'],
      ['(a - b) - c', 'a - b - c'],
      ['a or (b or c)', 'a or (b or c)'],
      ['not (a and b)', 'not (a and b)'],
      ['-(close[1])', '-close[1]'],
      ['(-close)[1]', '(-close)[1]'],
      ["time()>='09:20'", 'time() >= "09:20"'],
      ['(a > b) == (c > d)', '(a > b) == (c > d)'],
      ['sma( close ,10 )[ 2 ]', 'sma(close, 10)[2]'],
    ];
    for (const [source, printed] of cases) expect(printExpression(reparse(source))).toBe(printed);
  });

  it('parse(print(tree)) is the tree, for random trees', () => {
    fc.assert(
      fc.property(expressionArbitrary, (tree) => {
        expect(reparse(printExpression(tree))).toEqual(tree);
      }),
      { numRuns: 2000 },
    );
  });

  it('print(parse(text)) parses to the same tree, and printing is idempotent', () => {
    fc.assert(
      fc.property(expressionArbitrary, (tree) => {
        const text = printExpression(tree);
        const once = reparse(text);
        const printedAgain = printExpression(once);
        expect(printedAgain).toBe(text);
        expect(reparse(printedAgain)).toEqual(once);
      }),
      { numRuns: 500 },
    );
  });
});
