/**
 * One linear pass over a JSON text before `JSON.parse`: how many values it holds and how deep it
 * nests. Parsing is fast per value but a 1 MiB object of 70,000 short keys still costs about 80
 * ms, and everything that follows (variable coercion, the SQL compiler) walks the values again.
 * Strings are skipped (escapes included), so brackets and commas inside them do not count.
 */

export interface JsonScanLimits {
  /** Most values (counted as commas plus opening brackets, plus one). */
  readonly maxValues: number;
  /** Deepest nesting of objects and arrays. */
  readonly maxDepth: number;
}

/**
 * The reason a JSON text is refused before parsing, or undefined. Text that is not JSON at all
 * passes: `JSON.parse` reports it.
 * @example scanJson('[[1,2]]', { maxValues: 10, maxDepth: 1 }) -> 'the JSON nests deeper than 1 levels (at offset 1)'
 */
export function scanJson(text: string, limits: JsonScanLimits): string | undefined {
  let values = 1;
  let depth = 0;
  const { length } = text;
  for (let index = 0; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = stringEnd(text, index + 1);
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      values += 1;
      if (depth > limits.maxDepth) return `the JSON nests deeper than ${limits.maxDepth} levels (at offset ${index})`;
      if (values > limits.maxValues) return `the JSON holds more than ${limits.maxValues} values`;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === COMMA) {
      values += 1;
      if (values > limits.maxValues) return `the JSON holds more than ${limits.maxValues} values`;
    }
  }
  return undefined;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** The index of the closing quote of a string whose body starts at `from` (the end of the text if none). */
function stringEnd(text: string, from: number): number {
  let index = from;
  for (;;) {
    const quote = text.indexOf('"', index);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let at = quote - 1; at >= from && text.charCodeAt(at) === BACKSLASH; at -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    index = quote + 1;
  }
}
