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

  it('names the node of a graph error, and keeps errors of no node for the panel', () => {
    const errors = placeErrors(document([{ id: 'c', type: 'condition', position: at, expression: 'close > open' }, { id: 'b', type: 'buy', position: at }], []));
    expect(errors.byNode.get('b')).toEqual(['a buy node takes exactly one input (join several with an and/or node); it has 0']);
    const none = placeErrors(document([{ id: 'c', type: 'condition', position: at, expression: 'close > open' }], []));
    expect(none.all).toEqual([{ text: 'the algorithm has no buy, sell or exit node, so it can never act' }]);
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
