import type { Result } from '@vyuha/core';
import { err } from '@vyuha/core';
import { validateAlgorithm } from './compile';
import type { AlgorithmDocument, AlgorithmError } from './document';
import type { JsonValue } from './json-text';
import { JsonSyntaxError, parseJsonText } from './json-text';

/**
 * Reads an algorithm file: JSON syntax errors with `line:column` (path '', except nesting past
 * MAX_JSON_DEPTH levels, which names the path to it), then the document's validation errors with
 * their paths.
 * @example parseAlgorithmJson('{"format": ').ok // false; error '1:12: expected a JSON value, found the end of the text'
 */
export function parseAlgorithmJson(text: string): Result<AlgorithmDocument, AlgorithmError[]> {
  let value: JsonValue;
  try {
    value = parseJsonText(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return err([{ path: error.path, message: error.detail, line: error.line, column: error.column }]);
  }
  return validateAlgorithm(value);
}
