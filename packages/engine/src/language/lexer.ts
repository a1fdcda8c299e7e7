import type { SourcePosition, SourceSpan } from './ast';
import type { ExpressionError } from './expression-error';
import { errorAt } from './expression-error';

/**
 * Tokens. `&&`, `||` and `!` are read as the keywords `and`, `or` and `not` (the same operator
 * at the same precedence), so the printer's canonical text uses only the words. A parameter is
 * `$` then a name (`$fast`); its token's value is the name without the `$`.
 */
export type TokenKind = 'number' | 'text' | 'name' | 'parameter' | 'keyword' | 'punctuation' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** The token's meaning: the name, the keyword (`and`), the operator (`>=`), the text's contents. */
  readonly value: string;
  /** The number of a number token; NaN otherwise. */
  readonly number: number;
  readonly span: SourceSpan;
}

const KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not']);
const SYMBOL_ALIASES: Readonly<Record<string, string>> = { '&&': 'and', '||': 'or', '!': 'not' };
const TWO_CHARACTER = ['>=', '<=', '==', '!=', '&&', '||'];
const ONE_CHARACTER = '()[],+-*/%<>!';
const NUMBER = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/** Thrown inside the lexer and parser; the public functions turn it into a Result. */
export class ExpressionSyntaxError extends Error {
  override readonly name = 'ExpressionSyntaxError';
  constructor(readonly detail: ExpressionError) {
    super(`${detail.line}:${detail.column}: ${detail.message}`);
  }
}

class Cursor {
  offset = 0;
  line = 1;
  column = 1;
  constructor(readonly text: string) {}

  position(): SourcePosition {
    return { offset: this.offset, line: this.line, column: this.column };
  }

  advance(count: number): void {
    for (let step = 0; step < count; step += 1) {
      if (this.text[this.offset] === '\n') {
        this.line += 1;
        this.column = 1;
      } else {
        this.column += 1;
      }
      this.offset += 1;
    }
  }
}

function fail(span: SourceSpan, message: string): never {
  throw new ExpressionSyntaxError(errorAt(span, message));
}

function skipWhitespace(cursor: Cursor): void {
  while (cursor.offset < cursor.text.length && /\s/.test(cursor.text[cursor.offset] ?? '')) cursor.advance(1);
}

function matchAt(pattern: RegExp, cursor: Cursor): string | undefined {
  pattern.lastIndex = cursor.offset;
  return pattern.exec(cursor.text)?.[0];
}

function readText(cursor: Cursor, start: SourcePosition): Token {
  const quote = cursor.text[cursor.offset] ?? '"';
  const close = cursor.text.indexOf(quote, cursor.offset + 1);
  const newline = cursor.text.indexOf('\n', cursor.offset + 1);
  if (close < 0 || (newline >= 0 && newline < close)) {
    cursor.advance(1);
    fail({ start, end: cursor.position() }, `unterminated text: no closing ${quote} on this line`);
  }
  const value = cursor.text.slice(cursor.offset + 1, close);
  cursor.advance(close + 1 - cursor.offset);
  return { kind: 'text', value, number: Number.NaN, span: { start, end: cursor.position() } };
}

/**
 * A literal whose value a double cannot hold: too large (it would be Infinity) or so small it
 * would silently be 0 although a digit of it is not. `1e400 > close` must not quietly mean
 * `Infinity > close`.
 */
function outOfRange(digits: string, value: number): string | undefined {
  if (!Number.isFinite(value)) return `number ${digits} is out of range (the largest is about 1.8e308)`;
  const mantissa = digits.replace(/[eE].*$/, '');
  if (value === 0 && /[1-9]/.test(mantissa)) return `number ${digits} is out of range (too small to tell from 0)`;
  return undefined;
}

function readNumber(cursor: Cursor, start: SourcePosition, digits: string): Token {
  cursor.advance(digits.length);
  const next = cursor.text[cursor.offset];
  if (next !== undefined && /[A-Za-z_.]/.test(next)) {
    const end = { ...cursor.position(), offset: cursor.offset + 1, column: cursor.column + 1 };
    fail({ start, end }, `malformed number: '${digits}' cannot be followed by '${next}'`);
  }
  const span = { start, end: cursor.position() };
  const value = Number(digits);
  const problem = outOfRange(digits, value);
  if (problem !== undefined) fail(span, problem);
  return { kind: 'number', value: digits, number: value, span };
}

function readParameter(cursor: Cursor, start: SourcePosition): Token {
  cursor.advance(1);
  const name = matchAt(NAME, cursor);
  if (name === undefined) {
    fail({ start, end: cursor.position() }, "expected a parameter name after '$' (a letter or '_', then letters, digits or '_'), as in $fast");
  }
  cursor.advance(name.length);
  return { kind: 'parameter', value: name, number: Number.NaN, span: { start, end: cursor.position() } };
}

function readSymbol(cursor: Cursor, start: SourcePosition): Token {
  const pair = cursor.text.slice(cursor.offset, cursor.offset + 2);
  const symbol = TWO_CHARACTER.includes(pair) ? pair : (cursor.text[cursor.offset] ?? '');
  if (symbol.length === 1 && !ONE_CHARACTER.includes(symbol)) {
    cursor.advance(1);
    const span = { start, end: cursor.position() };
    if (symbol === '=') fail(span, "unexpected '='; compare with '=='");
    if (symbol === '&') fail(span, "unexpected '&'; write 'and' (or '&&')");
    if (symbol === '|') fail(span, "unexpected '|'; write 'or' (or '||')");
    fail(span, `unexpected character '${symbol}'`);
  }
  cursor.advance(symbol.length);
  const alias = SYMBOL_ALIASES[symbol];
  const span = { start, end: cursor.position() };
  if (alias !== undefined) return { kind: 'keyword', value: alias, number: Number.NaN, span };
  return { kind: 'punctuation', value: symbol, number: Number.NaN, span };
}

function readToken(cursor: Cursor): Token {
  const start = cursor.position();
  const character = cursor.text[cursor.offset];
  if (character === undefined) return { kind: 'end', value: '', number: Number.NaN, span: { start, end: start } };
  if (character === '"' || character === "'") return readText(cursor, start);
  if (character === '$') return readParameter(cursor, start);
  const digits = matchAt(NUMBER, cursor);
  if (digits !== undefined) return readNumber(cursor, start, digits);
  const name = matchAt(NAME, cursor);
  if (name !== undefined) {
    cursor.advance(name.length);
    const kind = KEYWORDS.has(name) ? 'keyword' : 'name';
    return { kind, value: name, number: Number.NaN, span: { start, end: cursor.position() } };
  }
  return readSymbol(cursor, start);
}

/**
 * Splits source text into tokens, ending with one `end` token. Throws ExpressionSyntaxError.
 * @example tokenize('close[1]').map((t) => t.value) // ['close', '[', '1', ']', '']
 */
export function tokenize(text: string): Token[] {
  const cursor = new Cursor(text);
  const tokens: Token[] = [];
  for (;;) {
    skipWhitespace(cursor);
    const token = readToken(cursor);
    tokens.push(token);
    if (token.kind === 'end') return tokens;
  }
}
