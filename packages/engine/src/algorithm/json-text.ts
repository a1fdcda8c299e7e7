/**
 * A strict JSON reader (RFC 8259) that says where it failed as `line:column`, which JSON.parse
 * does not do portably. Duplicate keys are an error: in a saved algorithm they are always a
 * mistake, and JSON.parse would silently keep the last one.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON syntax error at a 1-based line and column. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  constructor(
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${line}:${column}: ${detail}`);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class JsonReader {
  private offset = 0;
  constructor(private readonly text: string) {}

  fail(message: string, at = this.offset): never {
    const { line, column } = this.locate(at);
    throw new JsonSyntaxError(line, column, message);
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
      result[key] = this.readValue();
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
      result.push(this.readValue());
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
