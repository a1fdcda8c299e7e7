import { describe, expect, it } from 'vitest';
import { runBacktest } from '../backtest/run-backtest';
import { crossoverDocument, sessionSeries, SWEEP_CONFIG } from '../sweep/sweep-test-support';
import { algorithmCompiler, compileAlgorithm, validateAlgorithm } from './compile';
import type { AlgorithmDocument, AlgorithmError } from './document';
import { formatAlgorithmError } from './document';
import { algorithmFromExpressions } from './from-expressions';
import type { ParameterBindings } from './parameters';

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
