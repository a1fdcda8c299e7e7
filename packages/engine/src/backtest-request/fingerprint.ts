// A stable identity for unsaved algorithm documents: the same document (whatever its key order)
// always gives the same run key, so results can be matched to the cells that produced them.

function sortKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/** JSON with object keys sorted at every depth. @example canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }) // '{"a":[{"c":2,"d":1}],"b":1}' */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? 'null';
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

/**
 * 64-bit FNV-1a of the text's UTF-16 code units, as 16 hex digits: an identity, not a security hash.
 * @example fingerprint('') // 'cbf29ce484222325'
 */
export function fingerprint(text: string): string {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}
