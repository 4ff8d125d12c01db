/**
 * A map that forgets its least recently used entries beyond a count and a total weight. A JavaScript `Map` keeps
 * insertion order, so re-inserting on access makes its first key the least recently used one.
 */

export class LruMap<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;
  /** Entries dropped to stay within the bounds. */
  evictions = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Sum of the weights of the entries. */
  get weight(): number {
    return this.total;
  }

  /** The most recently used key (the map's last), which a hit need not move; undefined when unknown. */
  private newest: K | undefined = undefined;

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    // Moving the entry to the end is a delete and an insert: skipped when it already is the last (runs of one key).
    if (key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, slot);
      this.newest = key;
    }
    return slot.value;
  }

  /** Adds or replaces a value, then drops the least recently used others until within bounds (never the new one). */
  set(key: K, value: V, weight: number): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.total -= old.weight;
      this.map.delete(key);
    }
    this.map.set(key, { value, weight });
    this.newest = key;
    this.total += weight;
    for (const [k, slot] of this.map) {
      if (this.map.size <= this.maxEntries && this.total <= this.maxWeight) break;
      if (k === key) continue;
      this.map.delete(k);
      this.total -= slot.weight;
      this.evictions++;
    }
  }

  delete(key: K): boolean {
    const slot = this.map.get(key);
    if (slot === undefined) return false;
    if (key === this.newest) this.newest = undefined;
    this.total -= slot.weight;
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
    this.total = 0;
  }
}
