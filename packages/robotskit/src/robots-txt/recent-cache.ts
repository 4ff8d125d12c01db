/**
 * A bounded cache by string key that holds its most recent entry in two fields and creates a Map only for a second
 * key. Most parsed files are asked about one crawler only: they keep no Map, and the repeated question is answered by
 * one string comparison instead of a hash lookup.
 */
export class RecentCache<V> {
  private lastKey: string | null = null;
  private lastValue: V | undefined = undefined;
  /** Every other entry (and possibly the recent one too); created for the second key. */
  private others: Map<string, V> | null = null;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get(key: string): V | undefined {
    if (key === this.lastKey) return this.lastValue;
    const value = this.others?.get(key);
    if (value !== undefined) this.remember(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.remember(key, value);
  }

  private remember(key: string, value: V): void {
    if (this.lastKey !== null && this.lastValue !== undefined) {
      this.others ??= new Map();
      // Bounded, so that a caller cycling through keys cannot grow it forever.
      if (!this.others.has(this.lastKey) && this.others.size >= this.limit) this.others.clear();
      this.others.set(this.lastKey, this.lastValue);
    }
    this.lastKey = key;
    this.lastValue = value;
  }
}
