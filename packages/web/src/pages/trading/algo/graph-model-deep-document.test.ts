import { algorithmFromExpressions } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { placeErrors } from './graph-errors';
import { documentToFlow, flowToDocument, readStoredGraph } from './graph-model';

// The /algo editor opens a stored document as GraphQL gives it (already parsed by JSON.parse, which
// does not recurse). A document nested 200,000 levels deep somewhere (the CLI's parser now stops
// at 100; PostgreSQL keeps up to some 10,000) must open as "cannot be drawn" or with its errors
// shown, never overflow the stack in the engine's validation or the editor's own reading.

/** A value nested `levels` deep, alternating arrays and objects, built without recursion. */
function deepValue(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

function storedWith(put: (document: Record<string, unknown>, node: Record<string, unknown>) => void): unknown {
  const document = JSON.parse(JSON.stringify(algorithmFromExpressions({ entry: 'close > open' }))) as Record<string, unknown>;
  put(document, (document['nodes'] as Record<string, unknown>[])[0] as Record<string, unknown>);
  return document;
}

describe('the editor reading a deeply nested stored document', () => {
  it('opens a node whose position is nested deeply with the position errors shown', () => {
    // The value's outer level is an object, so the editor can draw the node (at no position) and
    // lists what is wrong. (Booleans only in expect: printing the value would itself recurse.)
    const opened = readStoredGraph(storedWith((_document, node) => { node['position'] = deepValue(200_000); }));
    expect(opened !== undefined).toBe(true);
    const texts = placeErrors(opened!).all.map((error) => error.text);
    expect(texts).toContain('unknown field (allowed: x, y)');
    expect(texts).toContain('expected a number, got nothing (the field is missing)');
  });

  it('does not draw a node whose position is a deeply nested array', () => {
    expect(readStoredGraph(storedWith((_document, node) => { node['position'] = [deepValue(199_999)]; })) === undefined).toBe(true);
  });

  it('draws a document with a deeply nested unknown field and shows the error, without overflowing', () => {
    const opened = readStoredGraph(storedWith((_document, node) => { node['colour'] = deepValue(200_000); }));
    expect(opened !== undefined).toBe(true);
    const errors = placeErrors(opened!);
    expect(errors.all.map((error) => error.text)).toContain('unknown field (allowed: id, type, position, label, width, height, expression)');
    expect(flowToDocument(documentToFlow(opened!)).nodes).toHaveLength(2);
  });

  it('opens nothing when the nodes themselves are nested deeply', () => {
    expect(readStoredGraph(storedWith((document) => { document['nodes'] = deepValue(200_000); })) === undefined).toBe(true);
  });
});
