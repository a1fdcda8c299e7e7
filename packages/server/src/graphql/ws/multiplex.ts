/**
 * Multiplexing: subscriptions whose LiveQuery has the same `sql` (same query shape and role)
 * but different parameters run as ONE statement over a JSON array of parameter sets, so a
 * thousand users watching "my credits" cost one query per change, not a thousand.
 *
 * The LiveQuery contract writes every parameter as `$n::<type>`; `$n` becomes
 * `(vyuha_live_params.v->>(n-1))` and the cast stays, so each value is read back from its text
 * form exactly as the driver would have sent it.
 */

/** The alias of the parameter sets inside the multiplexed statement (unlikely to clash with the engine's aliases). */
const PARAMS_ALIAS = 'vyuha_live_params';

/**
 * The multiplexed form of a LiveQuery's SQL, or undefined when it cannot be multiplexed (a
 * parameter without a cast). `$1` of the result is the JSON array of parameter sets (each an
 * array of texts); it returns one row per set: `i` (1-based position) and `result` (the field's JSON).
 * @example multiplexedSql('SELECT x FROM t WHERE id = $1::uuid')
 *   -> 'SELECT vyuha_live_params.i::int AS i, (SELECT x FROM t WHERE id = (vyuha_live_params.v->>0)::uuid)::text AS result FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS vyuha_live_params(v, i)'
 */
export function multiplexedSql(sql: string): string | undefined {
  const body = sql.trim().replace(/;\s*$/, '');
  if (/\$\d+(?!\d*::)/.test(body)) return undefined;
  const rewritten = body.replace(/\$(\d+)(?=::)/g, (_match, position: string) => `(${PARAMS_ALIAS}.v->>${Number(position) - 1})`);
  return `SELECT ${PARAMS_ALIAS}.i::int AS i, (${rewritten})::text AS result FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS ${PARAMS_ALIAS}(v, i)`;
}

/**
 * The text PostgreSQL receives for a parameter, as node-postgres would send it: dates as ISO
 * text, bytes as `\x` hex, arrays as array literals, other objects as JSON; null stays null.
 * @example parameterText([1, null, 'a"b']) -> '{"1",NULL,"a\\"b"}'
 */
export function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((item) => {
    if (Array.isArray(item)) return arrayLiteral(item);
    const text = parameterText(item);
    return text === null ? 'NULL' : `"${text.replace(/[\\"]/g, (match) => `\\${match}`)}"`;
  });
  return `{${items.join(',')}}`;
}

/** The `$1` of a multiplexed statement for these parameter sets. */
export function parameterSetsJson(parameterSets: readonly (readonly unknown[])[]): string {
  return JSON.stringify(parameterSets.map((params) => params.map(parameterText)));
}

/**
 * The payload of one subscription from the field's JSON text, built by concatenation (the
 * field's JSON is never parsed).
 * @example payloadText('credits', '[1]') -> '{"data":{"credits":[1]}}'
 */
export function payloadText(responseKey: string, fieldJson: string | null): string {
  return `{"data":{${JSON.stringify(responseKey)}:${fieldJson ?? 'null'}}}`;
}
