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

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, slot);
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
    this.total -= slot.weight;
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
