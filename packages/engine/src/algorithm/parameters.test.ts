import { describe, expect, it } from 'vitest';
import { runBacktest } from '../backtest/run-backtest';
import { crossoverDocument, sessionSeries, SWEEP_CONFIG } from '../sweep/sweep-test-support';
import { algorithmAnalyser, analyseAlgorithm } from './analyse';
import { algorithmCompiler, compileAlgorithm, validateAlgorithm } from './compile';
import type { AlgorithmDocument, AlgorithmError } from './document';
import { formatAlgorithmError } from './document';
import { algorithmFromExpressions } from './from-expressions';
import type { ParameterBindings } from './parameters';
import type { CheckedNode } from '../language/checked';
import { parameterGrid } from '../sweep/grid';

function errorsOf(document: unknown, parameters?: ParameterBindings): string[] {
  const checked = validateAlgorithm(document, parameters === undefined ? {} : { parameters });
  return checked.ok ? [] : checked.error.map((error: AlgorithmError) => formatAlgorithmError(error));
}

function withParameters(entry: string, parameters: unknown, constraints?: unknown): unknown {
  return { ...algorithmFromExpressions({ entry }), parameters, ...(constraints === undefined ? {} : { constraints }) };
}

const LEVEL = { name: 'level', default: 60, from: 50, to: 70, step: 5 };

describe('algorithm parameters: declarations', () => {
  it('accepts declared parameters, used or not, with a constraint', () => {
    const unused = { name: 'spare', default: 1, from: 0, to: 2, step: 0.5 };
    expect(errorsOf(withParameters('rsi(close, 14) > $level', [LEVEL, unused], ['$level > $spare']))).toEqual([]);
    expect(errorsOf(crossoverDocument())).toEqual([]);
  });

  it('names the field of each bad range', () => {
    const parameters = [
      { name: 'a', default: 1, from: 0, to: 10, step: 0 },
      { name: 'b', default: 1, from: 5, to: 2, step: 1 },
      { name: 'c', default: 11, from: 0, to: 10, step: 1 },
      { name: 'd', default: 1, from: 0, to: 10, step: 3 },
      { name: '$e', default: 1, from: 0, to: 1, step: 1 },
      { name: 'a', default: 1, from: 0, to: 1, step: 1 },
      { name: 'g', default: '1', from: 0, to: 1, step: 1, colour: 'red' },
    ];
    expect(errorsOf(withParameters('close > open', parameters))).toEqual([
      'parameters[0].step: must be greater than 0, got 0',
      'parameters[1].to: must not be below from (5), got 2',
      'parameters[2].default: must be within from..to (0..10), got 11',
      'parameters[3].step: (to - from) / step must be a whole number (within 1e-9): (10 - 0) / 3 = 3.3333333333333335',
      `parameters[4].name: a parameter name is a letter or '_' then letters, digits or '_'; got "$e" (write the name without '$': "e")`,
      'parameters[6].colour: unknown field (allowed: name, default, from, to, step)',
      'parameters[6].default: expected a number, got the text "1"',
      "parameters[5].name: duplicate parameter 'a' (also parameters[0])",
    ]);
  });

  it('accepts a decimal grid whose step count is whole within 1e-9', () => {
    expect(errorsOf(withParameters('close > open * (1 + $pct / 100)', [{ name: 'pct', default: 0.3, from: 0.1, to: 0.7, step: 0.1 }]))).toEqual([]);
  });

  it('reports an undeclared $name at its line:column, with a suggestion', () => {
    expect(errorsOf(withParameters('rsi(close, 14) >\n  $levle', [LEVEL]))).toEqual([
      "nodes[0].expression: 2:3: unknown parameter '$levle'; did you mean 'level'?: declare it under \"parameters\"",
    ]);
    expect(errorsOf(algorithmFromExpressions({ entry: 'close > $x' }))).toEqual([
      "nodes[0].expression: 1:9: unknown parameter '$x': declare it under \"parameters\"",
    ]);
  });

  it('checks constraints: parameters and numbers only, declared names, a condition', () => {
    const constraints = ['$level > close', '$levl < 60', '$level + 1', '$level >', 'abs($level - 60) <= 10 and not $level == 55'];
    expect(errorsOf(withParameters('close > $level', [LEVEL], constraints))).toEqual([
      "constraints[0]: 1:10: a constraint reads only $parameters and numbers; 'close' is neither",
      "constraints[1]: 1:1: unknown parameter '$levl'; did you mean 'level'?: declare it under \"parameters\"",
      'constraints[2]: 1:1: the expression must be a condition (true or false), but it is a number',
      "constraints[3]: 1:9: expected a number, a name or '(', found the end of the expression",
    ]);
  });
});

describe('algorithm parameters: binding', () => {
  const document = withParameters('sma(close, $period) > close and rsi(close, 14) > $level', [
    { name: 'period', default: 10, from: 5, to: 20, step: 2.5 },
    LEVEL,
  ], ['$period < $level']);

  it('binds defaults when nothing is bound, and any grid value', () => {
    expect(errorsOf(document)).toEqual([]);
    expect(errorsOf(document, { period: 15, level: 70 })).toEqual([]);
  });

  it('refuses values off the range or grid, undeclared names, and broken constraints, naming the parameter', () => {
    expect(errorsOf(document, { period: 25 })).toEqual(['parameters[0]: $period = 25 is outside its range 5 to 20 by 2.5']);
    expect(errorsOf(document, { level: 62 })).toEqual(['parameters[1]: $level = 62 is not on its grid 50 to 70 by 5 (the nearest value below is 60)']);
    expect(errorsOf(document, { levels: 60 })).toEqual(["parameters: no parameter '$levels' is declared; did you mean 'level'? (declared: $period, $level)"]);
    expect(errorsOf(document, { level: Number.NaN })).toEqual(['parameters[1]: $level: the bound value must be a finite number, got NaN']);
    const tight = { ...(document as AlgorithmDocument), constraints: ['$period > 12'] };
    expect(errorsOf(tight)).toEqual(['constraints[0]: $period = 10, $level = 60 break the constraint $period > 12']);
  });

  it('a value that makes an indicator call invalid is an error at the $name, naming it', () => {
    expect(errorsOf(document, { period: 7.5 })).toEqual([
      'nodes[0].expression: 1:12: the period of sma must be a whole number; got 7.5 ($period = 7.5)',
    ]);
  });

  it('compiles a bound document to exactly the run of the document with the numbers written in', () => {
    const series = sessionSeries({ days: 12, seed: 7 });
    const bound = compileAlgorithm(crossoverDocument(), { parameters: { fast: 10, slow: 20 } });
    const written = compileAlgorithm(crossoverDocument({
      entry: 'crossover(sma(close, 10), sma(close, 20))',
      exit: 'crossunder(sma(close, 10), sma(close, 20))',
    }));
    if (!bound.ok || !written.ok) throw new Error('both documents compile');
    expect(bound.value.warmup).toBe(written.value.warmup);
    const fromBound = runBacktest({ series, program: bound.value, config: SWEEP_CONFIG });
    const fromWritten = runBacktest({ series, program: written.value, config: SWEEP_CONFIG });
    expect(fromBound.trades.length).toBeGreaterThan(3);
    expect(fromBound.orders).toEqual(fromWritten.orders);
    expect(fromBound.fills).toEqual(fromWritten.fills);
    expect(fromBound.trades).toEqual(fromWritten.trades);
    expect(fromBound.days).toEqual(fromWritten.days);
    expect(fromBound.equity).toEqual(fromWritten.equity);
    expect(fromBound.summary).toEqual(fromWritten.summary);
    const other = compileAlgorithm(crossoverDocument(), { parameters: { fast: 5, slow: 30 } });
    if (!other.ok) throw new Error('5/30 compiles');
    expect(runBacktest({ series, program: other.value, config: SWEEP_CONFIG }).trades).not.toEqual(fromBound.trades);
  });
});

describe('algorithm parameters: one document, many bindings', () => {
  it('algorithmCompiler gives what compileAlgorithm gives for each binding: the same errors in the same order, the same runs', () => {
    const series = sessionSeries({ days: 8, seed: 11 });
    const levels = withParameters('sma(close, $period) > close and rsi(close, 14) > $level', [{ name: 'period', default: 10, from: 5, to: 20, step: 2.5 }, LEVEL], ['$period < $level']);
    const documents: unknown[] = [
      levels,
      { ...(levels as AlgorithmDocument), constraints: ['$period > 12'] },
      crossoverDocument(),
      // Errors no binding changes: an undeclared name, a syntax error, a bad declaration, no document at all.
      withParameters('close > $undeclared', [LEVEL]),
      withParameters('close > > $level', [LEVEL]),
      withParameters('close > open', [{ name: 'a', default: 1, from: 0, to: 10, step: 0 }]),
      { nodes: 'none' },
    ];
    const bindings: Array<ParameterBindings | undefined> = [
      undefined, {}, { period: 15, level: 70 }, { period: 25 }, { level: 62 }, { levels: 60 }, { level: Number.NaN }, { period: 7.5 }, { period: 17.5, level: 55 },
      { fast: 10, slow: 20 }, { fast: 5, slow: 30 }, { fast: 30, slow: 20 }, { fast: 11 },
    ];
    let compiledRuns = 0;
    let refused = 0;
    for (const document of documents) {
      const compile = algorithmCompiler(document);
      for (const bound of bindings) {
        const many = compile(bound);
        const one = compileAlgorithm(document, bound === undefined ? {} : { parameters: bound });
        expect(many.ok).toBe(one.ok);
        if (!many.ok || !one.ok) {
          expect(many.ok ? [] : many.error).toEqual(one.ok ? [] : one.error);
          refused += 1;
          continue;
        }
        expect(many.value.warmup).toBe(one.value.warmup);
        expect(many.value.document).toEqual(one.value.document);
        const fromMany = runBacktest({ series, program: many.value, config: SWEEP_CONFIG });
        const fromOne = runBacktest({ series, program: one.value, config: SWEEP_CONFIG });
        expect(fromMany.fills).toEqual(fromOne.fills);
        expect(fromMany.summary).toEqual(fromOne.summary);
        compiledRuns += 1;
      }
    }
    // Both branches were taken often (the comparison is not vacuous).
    expect(compiledRuns).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(30);
  });
});

describe('algorithm parameters: one check for many bindings', () => {
  // Every binding of each grid, and bindings the checks refuse: off the grid, outside a bound the
  // checker holds the value to (a window of 0 bars, a period the indicator refuses), undeclared.
  const N = { name: 'n', default: 10, from: 0, to: 40, step: 5 };
  const K = { name: 'k', default: 2, from: 0, to: 6, step: 1 };
  const R = { name: 'r', default: 30, from: 10, to: 90, step: 20 };
  const holdDocument = (until: string): unknown => ({
    ...algorithmFromExpressions({ entry: 'rsi(close, 14) < $r' }),
    nodes: [
      { id: 'entry', type: 'condition', position: { x: 0, y: 0 }, expression: 'rsi(close, 14) < $r' },
      { id: 'held', type: 'hold', position: { x: 150, y: 0 }, until },
      { id: 'buy', type: 'buy', position: { x: 300, y: 0 } },
    ],
    edges: [{ id: 'e1', source: 'entry', target: 'held' }, { id: 'e2', source: 'held', target: 'buy' }],
    parameters: [N, K, R],
  });
  const traced = [
    withParameters('crossover(sma(close, $n), ema(close, $k)) and rsi(close, 14) < $r', [N, K, R], ['$k < $n']),
    withParameters('close > highest(high, $n)[$k] or close[$k] < lowest(low, $n) * 2', [N, K, R]),
    withParameters('max(close, $r) > sma(close, 10) and $r <= rsi(close, 14) and close - $k > open', [N, K, R]),
    withParameters('bb_upper(close, $n, $k) < close and bb_lower(close, 20, 2) > low', [N, K, R]),
    holdDocument('close < sma(close, $n) - $k'),
  ];
  // A value folded into a constant, a divisor, a lookback of a constant: each binding checked afresh.
  const untraced = [
    withParameters('close > $n * 2', [N, K, R]),
    withParameters('close / $k > open', [N, K, R]),
    withParameters('sma(close, 10) > 5[$k] and close > $r', [N, K, R]),
    withParameters('$k < $n and close > open', [N, K, R]),
  ];
  const grid = parameterGrid([N, K, R], []);
  if (!grid.ok) throw new Error('the grid is valid');
  const bindings: Array<ParameterBindings | undefined> = [
    ...grid.value, undefined, {}, { n: 12 }, { k: 7 }, { r: Number.NaN }, { m: 3 }, { n: 5, k: 5 }, { n: 40, k: 6, r: 90 },
  ];

  it('gives the analysis analyseAlgorithm gives, binding by binding, errors included', () => {
    let same = 0;
    let refused = 0;
    for (const document of [...traced, ...untraced]) {
      const analyse = algorithmAnalyser(document);
      for (const bound of bindings) {
        const many = analyse(bound);
        const one = analyseAlgorithm(document, bound === undefined ? {} : { parameters: bound });
        expect(many).toStrictEqual(one);
        if (one.ok) same += 1;
        else refused += 1;
      }
    }
    expect(same).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(200);
  });

  it('checks a traced document once: its bindings share the parts of the tree no value reaches', () => {
    const shared = (document: unknown): boolean => {
      const analyse = algorithmAnalyser(document);
      const first = analyse({ n: 15, k: 3, r: 50 });
      const second = analyse({ n: 20, k: 4, r: 70 });
      if (!first.ok || !second.ok) throw new Error('both bindings are valid');
      const roots = (analysed: typeof first.value): CheckedNode[] => [...analysed.expressions.values(), ...analysed.untils.values()].map((checked) => checked.root);
      const leaves = (node: CheckedNode): CheckedNode[] => (node.kind === 'field' ? [node] : Object.values(node).flatMap((part) => (isCheckedNode(part) ? leaves(part) : [])));
      const [a, b] = [roots(first.value).flatMap(leaves), roots(second.value).flatMap(leaves)];
      return a.length > 0 && a.length === b.length && a.every((leaf, index) => leaf === b[index]);
    };
    for (const document of traced) expect(shared(document)).toBe(true);
    for (const document of untraced) expect(shared(document)).toBe(false);
  });
});

function isCheckedNode(value: unknown): value is CheckedNode {
  return typeof value === 'object' && value !== null && 'kind' in value && 'type' in value;
}
