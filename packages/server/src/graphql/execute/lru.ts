/**
 * A least-recently-used cache bounded by bytes, not entries: each entry carries an estimate of
 * what it holds (its key's text, its value), and old entries go until the total fits. An entry
 * larger than `maxEntryBytes` is not kept at all: one 1 MB query must not push out hundreds of
 * ordinary ones. Recency is kept the "second chance" way: a hit only marks its entry; eviction
 * walks from the oldest, moving marked entries to the end (unmarked) and dropping the first
 * unmarked one. A hit therefore costs one map lookup, which matters on every request's path.
 */
interface Entry<V> {
  readonly value: V;
  readonly bytes: number;
  used: boolean;
}

export class ByteLruCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private total = 0;

  constructor(private readonly budget: { readonly maxBytes: number; readonly maxEntryBytes: number }) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** Keeps `value` under `key` unless it is larger than one entry may be; evicts old entries until the total fits. */
  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.budget.maxEntryBytes || bytes > this.budget.maxBytes) return;
    // New entries start marked: one pass of eviction does not take them before older unused ones.
    this.entries.set(key, { value, bytes, used: true });
    this.total += bytes;
    while (this.total > this.budget.maxBytes) this.evictOne();
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The estimated bytes held. */
  get bytes(): number {
    return this.total;
  }

  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      if (!entry.used) {
        this.delete(key);
        return;
      }
      // Used since it last came round: a second chance at the end of the line.
      entry.used = false;
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
  }
}

/**
 * Estimated heap bytes of a string: V8 keeps one byte per character for Latin-1 text, two
 * otherwise; the estimate assumes two (the worst case) plus the object header.
 * @example stringBytes('abc') -> 38
 */
export function stringBytes(text: string): number {
  return 32 + 2 * text.length;
}
