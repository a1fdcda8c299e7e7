/**
 * Hostile GraphQL requests of at most the body limit (1 MiB), as an outside tester sent them and
 * their relatives: fragment bombs, aliases, directives, deep and wide selections, introspection
 * aliased many times, token and comment floods, huge and deeply nested variables, batches. Each
 * is anonymous (no token needed) unless it says otherwise; `refused` says whether the engine must
 * answer it with a request error (true) or may run it (false). Shared by the abuse tests and the
 * benchmark (bench/graphql-abuse.bench.ts).
 */

export interface AbuseShape {
  readonly name: string;
  /** The JSON text of the body: one request or a batch. */
  readonly text: string;
  /**
   * Must be refused with a request error (`validation-failed`, `bad-request`); false: may run;
   * `{ after: n }`: a batch whose first n operations run and whose others are refused.
   */
  readonly refused: boolean | { readonly after: number };
}

const MIB = 1024 * 1024;

/** `levels` fragments, each spreading the next twice: the document expands to 2^levels fields. */
export function fragmentBomb(levels: number, options: { inline?: boolean; alias?: boolean } = {}): string {
  const parts = ['query { exchanges { ...F0 } }'];
  for (let level = 0; level < levels; level += 1) {
    const next = `...F${level + 1}`;
    const body = options.inline ? `... on exchanges { ${next} } ... on exchanges { ${next} }` : `${next} ${next}`;
    parts.push(`fragment F${level} on exchanges { ${body} }`);
  }
  parts.push(`fragment F${levels} on exchanges { ${options.alias ? 'a: exchange b: name' : 'exchange'} }`);
  return parts.join('\n');
}

/** `unit(0) unit(1) ...` up to about `bytes` characters. */
function filled(unit: (index: number) => string, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < bytes; index += 1) {
    const text = unit(index);
    parts.push(text);
    length += text.length + 1;
  }
  return parts.join(' ');
}

/** Fills a query up to about `bytes` by repeating `unit` inside `{ exchanges { ... } }`. */
function repeated(unit: (index: number) => string, bytes: number): string {
  return `{ exchanges { ${filled(unit, bytes)} } }`;
}

function nested(depth: number): string {
  return `${'{ a '.repeat(depth)}${'}'.repeat(depth)}`;
}

/**
 * Every response key repeated as often as allowed (8) under eight identical list relationships
 * with every column they have: the most work graphql-js's overlapping-fields rule can be given.
 */
export function largestAllowed(variant = 0): string {
  const leaves = 'date event exchange created_at __typename '.repeat(8);
  return `{ exchanges { ${Array.from({ length: 8 }, () => `holidays(limit: ${variant + 1}) { ${leaves}}`).join(' ')} ${'name '.repeat(8)} } }`;
}

const LARGEST_ALLOWED = largestAllowed();

/** Over 600 fields under fifteen aliased relationships: two of them pass the field limit together. */
function wideAllowed(variant: number): string {
  const leaves = 'date event exchange created_at __typename '.repeat(8);
  return `{ exchanges { ${Array.from({ length: 15 }, (_v, i) => `h${i}: holidays(limit: ${variant + 1}) { ${leaves}}`).join(' ')} } }`;
}

const INTROSPECTION_TYPES = '__schema { types { name fields { name args { name type { name } } type { name ofType { name } } } } }';

/** A list of short strings filling about `bytes` of JSON: `["100000", "100001", ...]`. */
function nameList(bytes: number): string[] {
  return Array.from({ length: Math.floor(bytes / 10) }, (_value, index) => String(100_000 + index));
}

/** An input object nested `depth` deep, as JSON text: `{"_and":[{"_and":[...]}]}` (too deep for JSON.stringify). */
function nestedWhere(depth: number): string {
  return `${'{"_and":['.repeat(depth)}{"exchange":{"_eq":"NSE"}}${']}'.repeat(depth)}`;
}

interface ShapeInput {
  readonly name: string;
  readonly body?: unknown;
  /** The body as JSON text, when JSON.stringify cannot make it. */
  readonly text?: string;
  readonly refused: boolean | { readonly after: number };
}

/** Every shape, each at most `bodyLimit` bytes of JSON. */
export function abuseShapes(bodyLimit = MIB): AbuseShape[] {
  const room = bodyLimit - 4096;
  const inputs: ShapeInput[] = [
    { name: 'fragment bomb, 40 levels (1 KB)', body: { query: fragmentBomb(40) }, refused: true },
    { name: 'fragment bomb, inline fragments', body: { query: fragmentBomb(40, { inline: true }) }, refused: true },
    { name: 'fragment bomb, aliased leaves', body: { query: fragmentBomb(40, { alias: true }) }, refused: true },
    { name: 'fragment bomb, 9 levels (512 copies of one field)', body: { query: fragmentBomb(9) }, refused: true },
    { name: 'fragment cycle', body: { query: 'query { exchanges { ...A } } fragment A on exchanges { ...B } fragment B on exchanges { ...A }' }, refused: true },
    { name: 'unused fragment bomb beside a small operation', body: { query: `query { exchanges { exchange } }\n${fragmentBomb(40).replace('query { exchanges { ...F0 } }', '')}` }, refused: true },
    { name: 'one field 1,000 times (the field limit)', body: { query: `{ exchanges { ${'exchange '.repeat(999)} } }` }, refused: true },
    { name: 'the costliest selection to validate (repeats at their limit)', body: { query: LARGEST_ALLOWED }, refused: false },
    { name: 'the costliest selection to validate, twice under aliases', body: { query: `{ ${[0, 1].map((n) => `a${n}: ${LARGEST_ALLOWED.slice(2, -2)}`).join(' ')} }` }, refused: false },
    { name: 'one field repeated to 1 MiB', body: { query: repeated(() => 'exchange', room) }, refused: true },
    { name: '1,000 aliases', body: { query: `{ exchanges { ${Array.from({ length: 1000 }, (_v, i) => `a${i}: exchange`).join(' ')} } }` }, refused: true },
    { name: 'aliases to 1 MiB', body: { query: repeated((i) => `a${i}: exchange`, room) }, refused: true },
    {
      name: 'conflicting aliases with sub-selections (overlap rule)',
      body: { query: `{ exchanges { ${Array.from({ length: 90 }, (_v, i) => `h: holidays(limit: ${i + 1}) { date }`).join(' ')} } }` },
      refused: true,
    },
    {
      name: 'many fragments on one selection (fragment pairs)',
      body: {
        query: `{ exchanges { ${Array.from({ length: 400 }, (_v, i) => `...P${i}`).join(' ')} } }\n`
          + Array.from({ length: 400 }, (_v, i) => `fragment P${i} on exchanges { holidays(limit: ${i + 1}) { date } }`).join('\n'),
      },
      refused: true,
    },
    { name: 'directives on every field to 1 MiB', body: { query: repeated(() => 'exchange @include(if: true) @skip(if: false)', room) }, refused: true },
    { name: 'selections nested 5,000 deep', body: { query: nested(5000) }, refused: true },
    { name: 'depth 12 below a relationship', body: { query: `{ exchanges { holidays { ${'a { '.repeat(8)}a${' }'.repeat(8)} } } }` }, refused: true },
    { name: 'comments to 1 MiB', body: { query: `${'#\n'.repeat(Math.floor(room / 3))}{ exchanges { exchange } }` }, refused: true },
    { name: 'one string literal of 1 MiB', body: { query: `{ exchanges(where: { name: { _eq: "${'x'.repeat(room - 100)}" } }) { exchange } }` }, refused: true },
    { name: 'one string literal of 200 KiB (allowed)', body: { query: `{ exchanges(where: { name: { _eq: "${'x'.repeat(200 * 1024)}" } }) { exchange } }` }, refused: false },
    {
      name: 'one string variable of 1 MiB (allowed)',
      body: { query: 'query ($name: String) { exchanges(where: { name: { _eq: $name } }) { exchange } }', variables: { name: 'x'.repeat(room - 200) } },
      refused: false,
    },
    { name: 'introspection aliased 20 times', body: { query: `{ ${Array.from({ length: 20 }, (_v, i) => `i${i}: ${INTROSPECTION_TYPES}`).join(' ')} }` }, refused: true },
    { name: 'introspection: types, fields, types, fields', body: { query: '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }' }, refused: true },
    { name: 'introspection aliased to 1 MiB', body: { query: `{ ${filled((i) => `i${i}: __schema { types { name } }`, room)} }` }, refused: true },
    {
      name: 'variables: 1 MiB list for _in',
      body: { query: 'query ($names: [String!]) { exchanges(where: { name: { _in: $names } }) { exchange } }', variables: { names: nameList(room) } },
      refused: true,
    },
    {
      name: 'variables: where nested 10,000 deep',
      text: `{"query":"query ($where: exchanges_bool_exp) { exchanges(where: $where) { exchange } }","variables":{"where":${nestedWhere(10_000)}}}`,
      refused: true,
    },
    {
      name: 'variables: 1 MiB of unused keys',
      body: { query: '{ exchanges { exchange } }', variables: Object.fromEntries(Array.from({ length: Math.floor(room / 15) }, (_v, i) => [`k${i}`, i])) },
      refused: true,
    },
    {
      name: 'variables: where nested 14 deep (allowed)',
      text: `{"query":"query ($where: exchanges_bool_exp) { exchanges(where: $where) { exchange } }","variables":{"where":${nestedWhere(14)}}}`,
      refused: false,
    },
    { name: 'batch of 20 fragment bombs', body: Array.from({ length: 20 }, () => ({ query: fragmentBomb(40) })), refused: true },
    { name: 'batch of 20 different 600-field selections (one operation\'s limits for all)', body: Array.from({ length: 20 }, (_v, i) => ({ query: wideAllowed(i) })), refused: { after: 1 } },
    { name: 'batch of 20 different costliest selections to validate', body: Array.from({ length: 20 }, (_v, i) => ({ query: largestAllowed(i) })), refused: { after: 2 } },
    { name: 'batch of 20 small queries', body: Array.from({ length: 20 }, (_v, i) => ({ query: `{ exchanges(limit: ${i + 1}) { exchange name } }` })), refused: false },
  ];
  return inputs.map((input) => {
    const text = input.text ?? JSON.stringify(input.body);
    const size = Buffer.byteLength(text);
    if (size > bodyLimit) throw new Error(`abuse shape "${input.name}" is ${size} bytes, over the body limit ${bodyLimit}`);
    return { name: input.name, text, refused: input.refused };
  });
}
