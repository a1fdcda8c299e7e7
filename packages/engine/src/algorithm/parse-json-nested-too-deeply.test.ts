// What broke: parseAlgorithmJson (the CLI's `--algo file.json`, `vyuha backtest-stored`) read
// deeply nested JSON by recursion without a bound, so 5,000 `[` already threw "Maximum call stack
// size exceeded" instead of an error naming the place. Now nesting past MAX_JSON_DEPTH (100) levels
// is an error at the bracket's line:column with the path to it. The other paths that feed
// documents to the engine (GraphQL's run_backtest reads the stored jsonb, the /algo editor reads
// it over GraphQL: both already parsed by JSON.parse, which does not recurse) reach
// validateAlgorithm and compileAlgorithm, which must refuse such values without recursing either.
import { describe, expect, it } from 'vitest';
import { compileAlgorithm, validateAlgorithm } from './compile';
import { formatAlgorithmError } from './document';
import { algorithmFromExpressions } from './from-expressions';
import { MAX_JSON_DEPTH } from './json-text';
import { parseAlgorithmJson } from './parse-json';

function errorsOf(text: string): string[] {
  const result = parseAlgorithmJson(text);
  return result.ok ? [] : result.error.map(formatAlgorithmError);
}

/** `levels` arrays inside each other around `inner`. */
function nestedArrays(levels: number, inner = '1'): string {
  return `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
}

describe('parseAlgorithmJson on deeply nested JSON', () => {
  it('answers "nested too deeply" for 100,000 open brackets instead of overflowing the stack', () => {
    // The 101st bracket (column 101) is one level too many.
    expect(errorsOf('['.repeat(100_000))).toEqual([
      '[0][0][0][0][0][0]…: 1:101: nested too deeply: arrays and objects may nest at most 100 levels',
    ]);
    expect(errorsOf('{"a":'.repeat(100_000))).toEqual([
      'a.a.a.a.a.a…: 1:501: nested too deeply: arrays and objects may nest at most 100 levels',
    ]);
  });

  it('names the field and the line:column where a document nests too deeply', () => {
    const document = algorithmFromExpressions({ entry: 'close > open' });
    const text = JSON.stringify(document, null, 2).replace('"x": 0', `"x": ${nestedArrays(5_000)}`);
    const [error] = errorsOf(text);
    const line = text.slice(0, text.indexOf('[[')).split('\n').length;
    const column = text.split('\n')[line - 1]!.indexOf('[[') + 1 + MAX_JSON_DEPTH - 4;
    expect(error).toBe(`nodes[0].position.x[0][0]…: ${line}:${column}: nested too deeply: arrays and objects may nest at most 100 levels`);
  });

  it('reads 100 levels and refuses 101', () => {
    // 100 levels are valid JSON (the document's shape is then wrong, which validation says).
    expect(errorsOf(nestedArrays(MAX_JSON_DEPTH)).join('\n')).not.toMatch(/nested too deeply/);
    expect(errorsOf(nestedArrays(MAX_JSON_DEPTH + 1))[0]).toMatch(/^\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]…: 1:101: nested too deeply/);
  });

  it('still reads an ordinary document', () => {
    const document = algorithmFromExpressions({ entry: 'crossover(sma(close, 10), sma(close, 20))', exit: 'close < open' });
    const result = parseAlgorithmJson(JSON.stringify(document));
    expect(result.ok).toBe(true);
  });
});

describe('documents already parsed (run_backtest from jsonb, the /algo editor over GraphQL)', () => {
  /** A value nested `levels` deep, alternating objects and arrays, built without recursion. */
  function deepValue(levels: number): unknown {
    let value: unknown = 1;
    for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { a: value };
    return value;
  }

  const places: ReadonlyArray<[string, (document: Record<string, unknown>, value: unknown) => void]> = [
    ['an unknown top-level field', (document, value) => { document['extra'] = value; }],
    ['nodes', (document, value) => { document['nodes'] = value; }],
    ['a node', (document, value) => { (document['nodes'] as unknown[])[0] = value; }],
    ['a node position', (document, value) => { ((document['nodes'] as Record<string, unknown>[])[0] as Record<string, unknown>)['position'] = value; }],
    ['an expression', (document, value) => { ((document['nodes'] as Record<string, unknown>[])[0] as Record<string, unknown>)['expression'] = value; }],
    ['edges', (document, value) => { document['edges'] = value; }],
    ['exits', (document, value) => { document['exits'] = value; }],
  ];

  it.each(places)('refuses a 200,000-level value in %s without overflowing', (_place, put) => {
    const document = JSON.parse(JSON.stringify(algorithmFromExpressions({ entry: 'close > open' }))) as Record<string, unknown>;
    put(document, deepValue(200_000));
    expect(validateAlgorithm(document).ok).toBe(false);
    expect(compileAlgorithm(document).ok).toBe(false);
  });
});
