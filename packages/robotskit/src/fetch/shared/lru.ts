/**
 * A map that forgets its least recently used entries beyond a count and a total weight. Entries sit in a doubly
 * linked list in use order (oldest first) beside a `Map` for lookup: a hit relinks one node (a few pointer writes)
 * instead of deleting and re-inserting the key, which costs a hash deletion, an insertion and, now and then, a rehash
 * of the whole map.
 */

interface Node<K, V> {
  readonly key: K;
  value: V;
  weight: number;
  /** The entry used just before this one (toward the oldest), or null for the oldest. */
  older: Node<K, V> | null;
  /** The entry used just after this one (toward the newest), or null for the newest. */
  newer: Node<K, V> | null;
}

export class LruMap<K, V> {
  private readonly map = new Map<K, Node<K, V>>();
  private total = 0;
  /** The least recently used entry, first to go. */
  private oldest: Node<K, V> | null = null;
  /** The most recently used entry. */
  private newest: Node<K, V> | null = null;
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
    const node = this.map.get(key);
    if (node === undefined) return undefined;
    if (node !== this.newest) {
      this.unlink(node);
      this.append(node);
    }
    return node.value;
  }

  /** Adds or replaces a value, then drops the least recently used others until within bounds (never the new one). */
  set(key: K, value: V, weight: number): void {
    let node = this.map.get(key);
    if (node !== undefined) {
      this.total -= node.weight;
      node.value = value;
      node.weight = weight;
      if (node !== this.newest) {
        this.unlink(node);
        this.append(node);
      }
    } else {
      node = { key, value, weight, older: null, newer: null };
      this.map.set(key, node);
      this.append(node);
    }
    this.total += weight;
    let victim = this.oldest;
    while (victim !== null && (this.map.size > this.maxEntries || this.total > this.maxWeight)) {
      const next = victim.newer;
      if (victim !== node) {
        this.unlink(victim);
        this.map.delete(victim.key);
        this.total -= victim.weight;
        this.evictions++;
      }
      victim = next;
    }
  }

  delete(key: K): boolean {
    const node = this.map.get(key);
    if (node === undefined) return false;
    this.unlink(node);
    this.total -= node.weight;
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.oldest = null;
    this.newest = null;
    this.total = 0;
  }

  private unlink(node: Node<K, V>): void {
    if (node.older === null) this.oldest = node.newer;
    else node.older.newer = node.newer;
    if (node.newer === null) this.newest = node.older;
    else node.newer.older = node.older;
    node.older = null;
    node.newer = null;
  }

  private append(node: Node<K, V>): void {
    node.older = this.newest;
    node.newer = null;
    if (this.newest === null) this.oldest = node;
    else this.newest.newer = node;
    this.newest = node;
  }
}
