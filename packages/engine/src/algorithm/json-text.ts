/**
 * A strict JSON reader (RFC 8259) that says where it failed as `line:column`, which JSON.parse
 * does not do portably. Duplicate keys are an error: in a saved algorithm they are always a
 * mistake, and JSON.parse would silently keep the last one.
 *
 * The reader is recursive descent, so nesting is bounded: past MAX_JSON_DEPTH levels of arrays
 * and objects it stops with "nested too deeply" at the bracket's `line:column` and the path to
 * it, instead of overflowing the call stack (5,000 `[` did). A real document nests 4 levels.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The deepest nesting of arrays and objects the reader accepts (the expression language's bound too). */
export const MAX_JSON_DEPTH = 100;

/** A JSON syntax error at a 1-based line and column; `path` says where in the value, when it matters. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  readonly line: number;
  readonly column: number;
  readonly path: string;
  constructor(
    at: { readonly line: number; readonly column: number; readonly path?: string },
    readonly detail: string,
  ) {
    const path = at.path ?? '';
    super(`${path === '' ? '' : `${path}: `}${at.line}:${at.column}: ${detail}`);
    this.line = at.line;
    this.column = at.column;
    this.path = path;
  }
}

/** Path segments shown before the rest is elided. */
const SHOWN_PATH_SEGMENTS = 6;

/**
 * A value's path as the validation errors write it, shortened past a few segments.
 * @example jsonPath(['nodes', 0, 'position']) // 'nodes[0].position'
 */
export function jsonPath(segments: readonly (string | number)[]): string {
  const shown = segments.slice(0, SHOWN_PATH_SEGMENTS).reduce<string>(
    (path, segment) => (typeof segment === 'number' ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`),
    '',
  );
  return segments.length > SHOWN_PATH_SEGMENTS ? `${shown}…` : shown;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class JsonReader {
  private offset = 0;
  /** Keys and indexes from the document down to the value being read; its length is the depth. */
  private readonly path: (string | number)[] = [];
  constructor(private readonly text: string) {}

  fail(message: string, at = this.offset): never {
    throw new JsonSyntaxError(this.locate(at), message);
  }

  /** Refuses an array or object opened deeper than MAX_JSON_DEPTH (the path holds its parents). */
  private enter(): void {
    if (this.path.length < MAX_JSON_DEPTH) return;
    const detail = `nested too deeply: arrays and objects may nest at most ${MAX_JSON_DEPTH} levels`;
    throw new JsonSyntaxError({ ...this.locate(this.offset), path: jsonPath(this.path) }, detail);
  }

  private locate(at: number): { line: number; column: number } {
    let line = 1;
    let lineStart = 0;
    for (let index = 0; index < at; index += 1) {
      if (this.text[index] === '\n') {
        line += 1;
        lineStart = index + 1;
      }
    }
    return { line, column: at - lineStart + 1 };
  }

  private found(): string {
    const character = this.text[this.offset];
    return character === undefined ? 'the end of the text' : `'${character}'`;
  }

  skipWhitespace(): void {
    while (/[ \t\r\n]/.test(this.text[this.offset] ?? '')) this.offset += 1;
  }

  readDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.readValue();
    this.skipWhitespace();
    if (this.offset < this.text.length) this.fail(`unexpected ${this.found()} after the JSON value`);
    return value;
  }

  private readValue(): JsonValue {
    const character = this.text[this.offset];
    if (character === '{') return this.readObject();
    if (character === '[') return this.readArray();
    if (character === '"') return this.readString();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.offset)) {
        this.offset += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.offset;
    const number = NUMBER.exec(this.text)?.[0];
    if (number !== undefined) {
      this.offset += number.length;
      return Number(number);
    }
    return this.fail(`expected a JSON value, found ${this.found()}`);
  }

  private expect(character: string, context: string): void {
    this.skipWhitespace();
    if (this.text[this.offset] !== character) this.fail(`expected '${character}' ${context}, found ${this.found()}`);
    this.offset += 1;
  }

  private readObject(): JsonValue {
    this.enter();
    const open = this.offset;
    this.offset += 1;
    const result: { [key: string]: JsonValue } = {};
    this.skipWhitespace();
    if (this.text[this.offset] === '}') {
      this.offset += 1;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      const keyAt = this.offset;
      if (this.text[this.offset] !== '"') this.fail(`expected a property name in double quotes, found ${this.found()}`);
      const key = this.readString();
      if (Object.hasOwn(result, key)) this.fail(`duplicate key "${key}"`, keyAt);
      this.expect(':', `after the key "${key}"`);
      this.skipWhitespace();
      this.path.push(key);
      result[key] = this.readValue();
      this.path.pop();
      this.skipWhitespace();
      if (this.text[this.offset] === ',') {
        this.offset += 1;
        continue;
      }
      if (this.text[this.offset] === '}') {
        this.offset += 1;
        return result;
      }
      const opened = this.position(open);
      this.fail(`expected ',' or '}' to continue the object opened at ${opened}, found ${this.found()}`);
    }
  }

  private readArray(): JsonValue {
    this.enter();
    const open = this.offset;
    this.offset += 1;
    const result: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.offset] === ']') {
      this.offset += 1;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      this.path.push(result.length);
      result.push(this.readValue());
      this.path.pop();
      this.skipWhitespace();
      if (this.text[this.offset] === ',') {
        this.offset += 1;
        continue;
      }
      if (this.text[this.offset] === ']') {
        this.offset += 1;
        return result;
      }
      this.fail(`expected ',' or ']' to continue the array opened at ${this.position(open)}, found ${this.found()}`);
    }
  }

  private readString(): string {
    const start = this.offset;
    this.offset += 1;
    let value = '';
    for (;;) {
      const character = this.text[this.offset];
      if (character === undefined || character === '\n') this.fail('unterminated string', start);
      if (character === '"') {
        this.offset += 1;
        return value;
      }
      if (character < ' ') this.fail('control character in a string: escape it');
      if (character === '\\') {
        value += this.readEscape();
        continue;
      }
      value += character;
      this.offset += 1;
    }
  }

  private readEscape(): string {
    const kind = this.text[this.offset + 1] ?? '';
    if (kind === 'u') {
      const hex = this.text.slice(this.offset + 2, this.offset + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('expected four hex digits after \\u');
      this.offset += 6;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    const escaped = ESCAPES[kind];
    if (escaped === undefined) this.fail(`invalid escape '\\${kind}'`);
    this.offset += 2;
    return escaped;
  }

  private position(at: number): string {
    const { line, column } = this.locate(at);
    return `${line}:${column}`;
  }
}

/**
 * Parses JSON text; throws JsonSyntaxError with the line and column of the first problem.
 * @example parseJsonText('{"a": 1,}') // throws '1:9: expected a property name in double quotes, found \'}\''
 */
export function parseJsonText(text: string): JsonValue {
  return new JsonReader(text).readDocument();
}
