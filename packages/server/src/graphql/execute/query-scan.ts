/**
 * One linear pass over a query's text before graphql-js parses it: the parser recurses once per
 * nested `{`, `[` or `(` (a 25 KB document of `{a{a{a...` overflows the stack) and links every
 * comment from the syntax tree without counting it against `maxTokens`. Strings and comments are
 * skipped as the GraphQL lexer reads them, so brackets inside them do not count.
 */

/** Deepest nesting of `{`, `[` and `(` a query may have (selections and literal values together). */
export const MAX_BRACKET_NESTING = 128;

export interface QueryScanLimits {
  /** Deepest bracket nesting accepted. */
  readonly maxNesting: number;
  /** Most comments accepted. */
  readonly maxComments: number;
}

/**
 * The reason a query must not be parsed, or undefined.
 * @example scanQuery('{ a { b } }', { maxNesting: 1, maxComments: 10 }) -> 'brackets are nested more than 1 deep at offset 4'
 */
export function scanQuery(query: string, limits: QueryScanLimits): string | undefined {
  let depth = 0;
  let comments = 0;
  let index = 0;
  const { length } = query;
  // Jump from one character that matters to the next (a native search, not a loop per character).
  const special = /[#"{}[\]()]/g;
  while (index < length) {
    special.lastIndex = index;
    const found = special.exec(query);
    if (!found) break;
    index = found.index;
    const code = query.charCodeAt(index);
    if (code === HASH) {
      comments += 1;
      if (comments > limits.maxComments) return `more than ${limits.maxComments} comments`;
      index = lineEnd(query, index);
    } else if (code === QUOTE) {
      index = query.startsWith('"""', index) ? blockStringEnd(query, index + 3) : stringEnd(query, index + 1);
    } else {
      if (code === OPEN_BRACE || code === OPEN_BRACKET || code === OPEN_PAREN) {
        depth += 1;
        if (depth > limits.maxNesting) return `brackets are nested more than ${limits.maxNesting} deep at offset ${index}`;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET || code === CLOSE_PAREN) {
        depth = Math.max(0, depth - 1);
      }
      index += 1;
    }
  }
  return undefined;
}

const HASH = 35;
const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;
const RETURN = 13;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;

function lineEnd(query: string, from: number): number {
  let index = from;
  while (index < query.length) {
    const code = query.charCodeAt(index);
    if (code === NEWLINE || code === RETURN) return index + 1;
    index += 1;
  }
  return index;
}

/** After the closing quote of a string starting at `from` (just past its opening quote). */
function stringEnd(query: string, from: number): number {
  let index = from;
  while (index < query.length) {
    const code = query.charCodeAt(index);
    if (code === BACKSLASH) index += 2;
    else if (code === QUOTE) return index + 1;
    // A string cannot span lines: the parser reports it; resume scanning there.
    else if (code === NEWLINE || code === RETURN) return index;
    else index += 1;
  }
  return index;
}

/** After the closing `"""` of a block string whose body starts at `from` (`\"""` does not close it). */
function blockStringEnd(query: string, from: number): number {
  let index = from;
  while (index < query.length) {
    const next = query.indexOf('"""', index);
    if (next === -1) return query.length;
    if (query.charCodeAt(next - 1) !== BACKSLASH) return next + 3;
    index = next + 3;
  }
  return index;
}
