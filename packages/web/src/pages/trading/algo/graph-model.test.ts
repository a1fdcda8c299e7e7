// The editor's mapping between the stored rule graph and React Flow: a round trip keeps the
// document, new nodes get readable ids and are wired from the selected node, hold nodes are
// HOLD_NODE_HEIGHT high.
import { describe, expect, it } from 'vitest';
import { algorithmFromExpressions, HOLD_NODE_HEIGHT, validateAlgorithm, type AlgorithmDocument } from '@vyuha/engine';
import { addRuleNode, canConnect, documentToFlow, flowToDocument, nextNodeId, parameterDeclarationsOf, readStoredGraph, removeRuleNodes, updateRuleData, type FlowGraph } from './graph-model';

const HELD: AlgorithmDocument = {
  format: 'vyuha.algorithm',
  version: 1,
  nodes: [
    { id: 'fast', type: 'condition', position: { x: 0, y: 0 }, label: 'Fast above', expression: 'crossover(ema(close, 9), ema(close, 21))' },
    { id: 'held', type: 'hold', position: { x: 340, y: 0 }, height: HOLD_NODE_HEIGHT, candles: 3 },
    { id: 'until', type: 'hold', position: { x: 340, y: 130 }, height: HOLD_NODE_HEIGHT, until: 'close < open' },
    { id: 'both', type: 'and', position: { x: 500, y: 0 } },
    { id: 'buy', type: 'buy', position: { x: 600, y: 0 } },
  ],
  edges: [
    { id: 'fast-held', source: 'fast', target: 'held' },
    { id: 'fast-until', source: 'fast', target: 'until' },
    { id: 'held-both', source: 'held', target: 'both' },
    { id: 'until-both', source: 'until', target: 'both' },
    { id: 'both-buy', source: 'both', target: 'buy' },
  ],
  exits: { stopLoss: { unit: 'percent', value: 1 } },
};

describe('documentToFlow / flowToDocument', () => {
  it('round-trips a document with conditions, holds, gates, an action and exits', () => {
    const flow = documentToFlow(HELD);
    expect(flowToDocument(flow, HELD.exits)).toEqual(HELD);
    expect(validateAlgorithm(flowToDocument(flow, HELD.exits)).ok).toBe(true);
  });

  it('draws hold nodes HOLD_NODE_HEIGHT (20) high and keeps the others free', () => {
    const flow = documentToFlow(HELD);
    expect(flow.nodes.find((node) => node.id === 'held')?.height).toBe(20);
    expect(flow.nodes.find((node) => node.id === 'fast')?.height).toBeUndefined();
  });

  it('stores dragged positions in whole pixels', () => {
    const flow = documentToFlow(algorithmFromExpressions({ entry: 'close > open' }));
    const moved: FlowGraph = { ...flow, nodes: flow.nodes.map((node) => ({ ...node, position: { x: 10.4, y: 20.6 } })) };
    expect(flowToDocument(moved).nodes[0]?.position).toEqual({ x: 10, y: 21 });
  });

  it('keeps a document\'s parameters and constraints through the canvas (a save never drops what a sweep varies)', () => {
    const swept: AlgorithmDocument = {
      ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
      parameters: [{ name: 'fast', default: 10, from: 5, to: 20, step: 5 }, { name: 'slow', default: 30, from: 20, to: 60, step: 10 }],
      constraints: ['$fast < $slow'],
    };
    const back = flowToDocument(documentToFlow(swept), {}, parameterDeclarationsOf(swept));
    expect(back.parameters).toEqual(swept.parameters);
    expect(back.constraints).toEqual(swept.constraints);
    expect(validateAlgorithm(back).ok).toBe(true);
    expect(flowToDocument(documentToFlow(swept))).not.toHaveProperty('parameters');
  });

  it('leaves exits out when none is set', () => {
    expect('exits' in flowToDocument({ nodes: [], edges: [] })).toBe(false);
  });
});

describe('editing', () => {
  it('names new nodes <kind>-<n> with the first free n', () => {
    expect(nextNodeId('condition', [])).toBe('condition-1');
    expect(nextNodeId('condition', [{ id: 'condition-1' }, { id: 'condition-3' }])).toBe('condition-2');
  });

  it('wires a new action from the selected condition, and selects the new node', () => {
    const first = addRuleNode({ nodes: [], edges: [] }, { kind: 'condition' });
    expect(first.id).toBe('condition-1');
    const second = addRuleNode(first, { kind: 'buy', from: 'condition-1' });
    expect(second.edges).toEqual([{ id: 'condition-1-buy-1', source: 'condition-1', target: 'buy-1' }]);
    expect(second.nodes.map((node) => [node.id, node.selected])).toEqual([['condition-1', false], ['buy-1', true]]);
    expect(second.nodes[1]?.position).toEqual({ x: 600, y: 0 });
  });

  it('does not wire from a node without an output, or into a condition', () => {
    const buy = addRuleNode({ nodes: [], edges: [] }, { kind: 'buy' });
    expect(addRuleNode(buy, { kind: 'sell', from: 'buy-1' }).edges).toEqual([]);
    const condition = addRuleNode({ nodes: [], edges: [] }, { kind: 'condition' });
    expect(addRuleNode(condition, { kind: 'condition', from: 'condition-1' }).edges).toEqual([]);
  });

  it('stacks new nodes of a column 130 apart', () => {
    const one = addRuleNode({ nodes: [], edges: [] }, { kind: 'condition' });
    const two = addRuleNode(one, { kind: 'condition' });
    expect(two.nodes.map((node) => node.position.y)).toEqual([0, 130]);
  });

  it('new hold nodes are 20 high and start at one candle', () => {
    const hold = addRuleNode({ nodes: [], edges: [] }, { kind: 'hold' });
    expect(hold.nodes[0]?.height).toBe(20);
    expect(flowToDocument(hold).nodes[0]).toMatchObject({ type: 'hold', candles: 1, height: 20 });
  });

  it('removing a node removes its edges', () => {
    const graph = addRuleNode(addRuleNode({ nodes: [], edges: [] }, { kind: 'condition' }), { kind: 'buy', from: 'condition-1' });
    expect(removeRuleNodes(graph, ['condition-1'])).toEqual({ nodes: [graph.nodes[1]], edges: [] });
  });

  it('updates one node\'s fields', () => {
    const graph = addRuleNode({ nodes: [], edges: [] }, { kind: 'condition' });
    const nodes = updateRuleData(graph.nodes, 'condition-1', { expression: 'close > open' });
    expect(flowToDocument({ nodes, edges: [] }).nodes[0]).toMatchObject({ expression: 'close > open' });
  });

  it('refuses loops, duplicates and edges out of actions or into conditions', () => {
    const graph = addRuleNode(addRuleNode({ nodes: [], edges: [] }, { kind: 'condition' }), { kind: 'buy', from: 'condition-1' });
    expect(canConnect(graph, { source: 'condition-1', target: 'buy-1' })).toBe(false);
    expect(canConnect(graph, { source: 'buy-1', target: 'condition-1' })).toBe(false);
    expect(canConnect(graph, { source: 'condition-1', target: 'condition-1' })).toBe(false);
    const more = addRuleNode(graph, { kind: 'sell' });
    expect(canConnect(more, { source: 'condition-1', target: 'sell-1' })).toBe(true);
  });
});

describe('readStoredGraph', () => {
  it('opens a valid document as validated', () => {
    expect(readStoredGraph(HELD)).toEqual(HELD);
  });

  it('opens a drawable document with errors, so the editor can show them', () => {
    const broken = { ...HELD, nodes: [{ id: 'c', type: 'condition', position: { x: 0, y: 0 }, expression: 'clsoe > 1' }], edges: [] };
    expect(readStoredGraph(broken)).toBe(broken);
  });

  it('refuses what it cannot draw', () => {
    expect(readStoredGraph(null)).toBeUndefined();
    expect(readStoredGraph({ ...HELD, version: 2 })).toBeUndefined();
    expect(readStoredGraph({ ...HELD, nodes: [{ id: 'x', type: 'wormhole', position: { x: 0, y: 0 } }] })).toBeUndefined();
    expect(readStoredGraph({ ...HELD, edges: [{ source: 'a' }] })).toBeUndefined();
  });
});
