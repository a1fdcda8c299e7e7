// Error placement in the editor: expression errors with line:column under their node, graph
// errors in the panel with the node they name, exit-rule errors under their field.
import { describe, expect, it } from 'vitest';
import type { AlgorithmDocument } from '@vyuha/engine';
import { errorCount, placeErrors } from './graph-errors';

function document(nodes: AlgorithmDocument['nodes'], edges: AlgorithmDocument['edges'], exits?: AlgorithmDocument['exits']): AlgorithmDocument {
  return { format: 'vyuha.algorithm', version: 1, nodes, edges, ...(exits === undefined ? {} : { exits }) };
}

const at = { x: 0, y: 0 };

describe('placeErrors', () => {
  it('a valid graph has no errors', () => {
    const errors = placeErrors(document(
      [{ id: 'c', type: 'condition', position: at, expression: 'crossover(ema(close, 9), ema(close, 21))' }, { id: 'b', type: 'buy', position: at }],
      [{ id: 'c-b', source: 'c', target: 'b' }],
    ));
    expect(errorCount(errors)).toBe(0);
  });

  it('puts an expression error with line:column under its node, once', () => {
    const errors = placeErrors(document(
      [{ id: 'c', type: 'condition', position: at, expression: 'crossover(ema(clsoe, 9), ema(close, 21))' }, { id: 'b', type: 'buy', position: at }],
      [{ id: 'c-b', source: 'c', target: 'b' }],
    ));
    expect(errors.byNode.get('c')).toEqual(["1:15: unknown name 'clsoe'; did you mean 'close'?"]);
    expect(errors.all).toHaveLength(1);
  });

  it('reports each broken expression even when another condition is empty', () => {
    const errors = placeErrors(document(
      [
        { id: 'a', type: 'condition', position: at, expression: '' },
        { id: 'b', type: 'condition', position: at, expression: 'close >' },
        { id: 'h', type: 'hold', position: at, until: 'close + 1' },
      ],
      [],
    ));
    expect(errors.byNode.get('a')?.[0]).toMatch(/^Write a condition/);
    expect(errors.byNode.get('b')?.[0]).toMatch(/^1:8: /);
    expect(errors.byNode.get('h')?.[0]).toMatch(/^1:1: /);
  });

  it('puts the number, division and nesting errors of the language under their node, with line:column', () => {
    const deep = `${'('.repeat(5000)}close${')'.repeat(5000)} > 1`;
    const errors = placeErrors(document(
      [
        { id: 'n', type: 'condition', position: at, expression: 'close > 1e400' },
        { id: 'd', type: 'condition', position: at, expression: 'close / 0 > 1' },
        { id: 'p', type: 'condition', position: at, expression: deep },
        { id: 'o', type: 'or', position: at },
        { id: 'b', type: 'buy', position: at },
      ],
      [{ id: 'n-o', source: 'n', target: 'o' }, { id: 'd-o', source: 'd', target: 'o' }, { id: 'p-o', source: 'p', target: 'o' }, { id: 'o-b', source: 'o', target: 'b' }],
    ));
    expect(errors.byNode.get('n')).toEqual(['1:9: number 1e400 is out of range (the largest is about 1.8e308)']);
    expect(errors.byNode.get('d')).toEqual(["1:9: division by zero: the right side of '/' is always 0"]);
    expect(errors.byNode.get('p')).toEqual(['1:101: expression nested too deeply (at most 100 levels)']);
    expect(errors.all).toHaveLength(3);
  });

  it('names the node of a graph error, and keeps errors of no node for the panel', () => {
    const errors = placeErrors(document([{ id: 'c', type: 'condition', position: at, expression: 'close > open' }, { id: 'b', type: 'buy', position: at }], []));
    expect(errors.byNode.get('b')).toEqual(['a buy node takes exactly one input (join several with an and/or node); it has 0']);
    const none = placeErrors(document([{ id: 'c', type: 'condition', position: at, expression: 'close > open' }], []));
    expect(none.all).toEqual([{ text: 'the algorithm has no buy, sell or exit node, so it can never act' }]);
  });

  it('checks $names against the declared parameters, and keeps graph errors while a range is wrong', () => {
    const swept: AlgorithmDocument = {
      ...document(
        [
          { id: 'c', type: 'condition', position: at, expression: 'crossover(sma(close, $fast), sma(close, $slow))' },
          { id: 'u', type: 'condition', position: at, expression: 'close > $level' },
          { id: 'b', type: 'buy', position: at },
        ],
        [{ id: 'c-b', source: 'c', target: 'b' }, { id: 'u-b', source: 'u', target: 'b' }],
      ),
      parameters: [{ name: 'fast', default: 10, from: 5, to: 20, step: 0 }, { name: 'slow', default: 30, from: 20, to: 60, step: 10 }],
      constraints: ['$fast < $slow'],
    };
    const errors = placeErrors(swept);
    expect(errors.byNode.get('c')).toBeUndefined();
    expect(errors.byNode.get('u')).toEqual(["1:9: unknown parameter '$level': declare it under Parameters (declared: $fast, $slow)"]);
    expect(errors.byNode.get('b')).toEqual(['a buy node takes exactly one input (join several with an and/or node); it has 2']);
    expect(errors.declarations.fields.get('0.step')).toBe('must be greater than 0, got 0');
    expect(errors.all.map((error) => error.text)).toContain('$fast step: must be greater than 0, got 0');
    expect(errorCount(errors)).toBe(3);
  });

  it('puts exit-rule errors under their field', () => {
    const errors = placeErrors(document(
      [{ id: 'c', type: 'condition', position: at, expression: 'close > open' }, { id: 'b', type: 'buy', position: at }],
      [{ id: 'c-b', source: 'c', target: 'b' }],
      { stopLoss: { unit: 'percent', value: 150 } },
    ));
    expect(errors.exits.get('stopLoss')).toBe('a percent stop must be below 100, got 150');
    expect(errorCount(errors)).toBe(1);
  });
});
