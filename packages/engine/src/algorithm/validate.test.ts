import { describe, expect, it } from 'vitest';
import { compileAlgorithm, validateAlgorithm } from './compile';
import { formatAlgorithmError } from './document';
import { algorithmFromExpressions } from './from-expressions';
import { parseAlgorithmJson } from './parse-json';

function problems(document: unknown): string[] {
  const result = validateAlgorithm(document);
  return result.ok ? [] : result.error.map(formatAlgorithmError);
}

const at = { x: 10, y: 20 };
const base = { format: 'vyuha.algorithm', version: 1 };

describe('validateAlgorithm', () => {
  it('accepts a complete document and keeps editor fields', () => {
    const document = {
      ...base,
      nodes: [
        { id: 'c1', type: 'condition', position: at, label: 'Fast over slow', expression: 'crossover(sma(close, 10), sma(close, 20))' },
        { id: 'h1', type: 'hold', position: at, height: 20, candles: 3 },
        { id: 'c2', type: 'condition', position: at, expression: 'rsi(close, 14) > 55' },
        { id: 'a1', type: 'and', position: at },
        { id: 'buy', type: 'buy', position: at },
      ],
      edges: [
        { id: 'e1', source: 'c1', target: 'h1' },
        { id: 'e2', source: 'h1', target: 'a1' },
        { id: 'e3', source: 'c2', target: 'a1' },
        { id: 'e4', source: 'a1', target: 'buy' },
      ],
      exits: { stopLoss: { unit: 'percent', value: 1.5 }, target: { unit: 'points', value: 40 }, trailingStop: { unit: 'points', value: 15 } },
    };
    const result = validateAlgorithm(document);
    expect(result.ok && result.value).toEqual(document);
  });

  it('puts expression errors under their node with line and column', () => {
    const document = algorithmFromExpressions({ entry: 'close > 1', exit: 'close < sma(clsoe, 5)' });
    const result = validateAlgorithm(document);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toEqual([
      { path: 'nodes[2].expression', message: "unknown name 'clsoe'; did you mean 'close'?", nodeId: 'exit-condition', line: 1, column: 13 },
    ]);
    expect(problems(algorithmFromExpressions({ entry: 'close + 1' }))).toEqual([
      'nodes[0].expression: 1:1: the expression must be a condition (true or false), but it is a number',
    ]);
  });

  it('reports syntax errors in a hold node\'s until-expression', () => {
    const document = {
      ...base,
      nodes: [
        { id: 'c', type: 'condition', position: at, expression: 'close > open' },
        { id: 'h', type: 'hold', position: at, until: 'close <' },
        { id: 'b', type: 'buy', position: at },
      ],
      edges: [{ id: 'e1', source: 'c', target: 'h' }, { id: 'e2', source: 'h', target: 'b' }],
    };
    expect(problems(document)).toEqual(["nodes[1].until: 1:8: expected a number, a name or '(', found the end of the expression"]);
  });

  it('names missing nodes, cycles, wrong input counts and action outputs', () => {
    const document = {
      ...base,
      nodes: [
        { id: 'c', type: 'condition', position: at, expression: 'close > open' },
        { id: 'n', type: 'not', position: at },
        { id: 'o', type: 'or', position: at },
        { id: 'b', type: 'buy', position: at },
        { id: 's', type: 'sell', position: at },
      ],
      edges: [
        { id: 'e1', source: 'c', target: 'n' },
        { id: 'e2', source: 'o', target: 'n' },
        { id: 'e3', source: 'n', target: 'o' },
        { id: 'e4', source: 'c', target: 'x9' },
        { id: 'e5', source: 'b', target: 'c' },
        { id: 'e6', source: 'n', target: 'b' },
      ],
    };
    expect(problems(document)).toEqual([
      "edges[3].target: no node 'x9'",
      "edges[4].source: 'b' is a buy node: actions have no outputs",
      'nodes[1]: a not node takes exactly one input; it has 2',
      'nodes[2]: an or node needs at least two inputs; it has 1',
      'nodes[4]: a sell node takes exactly one input (join several with an and/or node); it has 0',
      'nodes[1]: the graph has a cycle: n -> o -> n',
    ]);
  });

  it('refuses inputs on conditions, duplicate ids and a graph without actions', () => {
    const document = {
      ...base,
      nodes: [
        { id: 'c', type: 'condition', position: at, expression: 'close > open' },
        { id: 'c', type: 'condition', position: at, expression: 'close > 1' },
        { id: 'd', type: 'condition', position: at, expression: 'close > 2' },
      ],
      edges: [{ id: 'e1', source: 'c', target: 'd' }],
    };
    expect(problems(document)).toEqual([
      "nodes[1].id: duplicate node id 'c' (also nodes[0])",
      'nodes[2]: a condition takes no inputs: its expression is its input; it has 1',
      'nodes: the algorithm has no buy, sell or exit node, so it can never act',
    ]);
  });

  it('refuses unknown fields, wrong kinds and bad exits with exact paths', () => {
    const document = {
      ...base,
      colour: 'red',
      nodes: [
        { id: 'c', type: 'condition', position: { x: 1 }, expression: 'close > 1', colour: 'blue' },
        { id: 'h', type: 'hold', position: at, candles: 2, until: 'close > 1' },
        { id: 'q', type: 'maybe', position: at },
      ],
      edges: [{ id: 'e1', source: 'c' }],
      exits: { stopLoss: { unit: 'rupees', value: 5 }, target: { unit: 'percent', value: -1 }, trailing: {} },
    };
    expect(problems(document)).toEqual([
      'colour: unknown field (allowed: format, version, nodes, edges, exits, parameters, constraints)',
      'nodes[0].colour: unknown field (allowed: id, type, position, label, width, height, expression)',
      'nodes[0].position.y: expected a number, got nothing (the field is missing)',
      'nodes[1]: a hold node needs exactly one of "candles" (a number of bars) and "until" (an expression)',
      'nodes[2].type: expected one of condition, and, or, not, hold, buy, sell, exit, got the text "maybe"',
      'edges[0].target: expected a non-empty text, got nothing (the field is missing)',
      'exits.trailing: unknown field (allowed: stopLoss, target, trailingStop)',
      'exits.stopLoss.unit: expected "points" or "percent", got the text "rupees"',
      'exits.target.value: must be greater than 0, got -1',
    ]);
  });

  it('refuses other formats and versions', () => {
    expect(problems({ format: 'other', version: 2, nodes: [], edges: [] })).toEqual([
      'format: expected "vyuha.algorithm", got the text "other"',
      'version: this engine reads version 1, got number 2',
    ]);
    expect(problems([])).toEqual(['expected an algorithm object, got an array']);
  });

  it('compileAlgorithm returns the same errors', () => {
    const compiled = compileAlgorithm(algorithmFromExpressions({ entry: 'rsi(close, 0) > 1' }));
    expect(!compiled.ok && compiled.error.map(formatAlgorithmError)).toEqual(['nodes[0].expression: 1:12: the period of rsi must be between 1 and 1000; got 0']);
  });
});

describe('parseAlgorithmJson', () => {
  it('reports JSON syntax errors with line and column', () => {
    const text = '{\n  "format": "vyuha.algorithm",\n  "version": 1,\n  "nodes": [,]\n}';
    const result = parseAlgorithmJson(text);
    expect(!result.ok && result.error.map(formatAlgorithmError)).toEqual(["4:13: expected a JSON value, found ','"]);
    const unclosed = parseAlgorithmJson('{"nodes": [1, 2}');
    expect(!unclosed.ok && unclosed.error.map(formatAlgorithmError)).toEqual(["1:16: expected ',' or ']' to continue the array opened at 1:11, found '}'"]);
    const duplicate = parseAlgorithmJson('{"format": 1,\n "format": 2}');
    expect(!duplicate.ok && duplicate.error.map(formatAlgorithmError)).toEqual(['2:2: duplicate key "format"']);
  });

  it('reads a valid file and validates it', () => {
    const document = algorithmFromExpressions({ entry: 'close > open', exit: 'close < open' });
    const result = parseAlgorithmJson(JSON.stringify(document, null, 2));
    expect(result.ok && result.value).toEqual(document);
    const invalid = parseAlgorithmJson(JSON.stringify({ ...document, version: 3 }));
    expect(!invalid.ok && invalid.error.map(formatAlgorithmError)).toEqual(['version: this engine reads version 1, got number 3']);
  });

  it('decodes escapes like JSON.parse', () => {
    const text = JSON.stringify({ ...algorithmFromExpressions({ entry: 'close > 1' }), nodes: [{ id: 'c\u00e9\n"', type: 'condition', position: at, label: 'tab\there \\ \u20b9', expression: 'close > 1' }, { id: 'b', type: 'buy', position: at }], edges: [{ id: 'e', source: 'c\u00e9\n"', target: 'b' }] });
    const result = parseAlgorithmJson(text);
    expect(result.ok && result.value).toEqual(JSON.parse(text));
  });
});
