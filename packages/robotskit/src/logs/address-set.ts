/**
 * Sets and counts of 32-bit integers in typed arrays, no object per member. `IdCounts`: a set (a crawler's IPv4
 * addresses by their number, each with its slot: `AddressTally`) in the order first added, each with a number kept
 * beside it. `PairCounts`: a count per pair (a row's version and a line; an address slot and a site, past 256 sites) in
 * one table for all rows (a log of 100 sites has thousands of rows: a map of counter objects per row was a third of the
 * analysis' time, a set per row still several reads of memory per request).
 */
export class IdCounts {
  /** The members in the order first added (the first {@link size} slots). */
  ids = new Int32Array(8);
  /** Each member's count (or number kept), at its position in {@link ids}. */
  counts = new Int32Array(8);
  size = 0;
  /**
   * Per slot, two numbers side by side (one memory read finds both): the member hashed there and its position + 1 (0:
   * empty). Sixteen slots and more, a power of two, at most half full.
   */
  private index = new Int32Array(32);
  private shift = 28;

  private slotOf(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> this.shift;
  }

  /** The position of `id` in {@link ids}, -1 when it is not a member. */
  find(id: number): number {
    const index = this.index;
    const mask = (index.length >> 1) - 1;
    let slot = this.slotOf(id);
    for (;;) {
      const at = index[2 * slot + 1]!;
      if (at === 0) return -1;
      if (index[2 * slot] === id) return at - 1;
      slot = (slot + 1) & mask;
    }
  }

  /** Adds `id` (not a member) with a count of `count` (any number kept beside it); its position. */
  add(id: number, count = 1): number {
    const pos = this.size;
    if (pos === this.ids.length) {
      const ids = new Int32Array(pos * 2);
      ids.set(this.ids);
      this.ids = ids;
      const counts = new Int32Array(pos * 2);
      counts.set(this.counts);
      this.counts = counts;
    }
    this.ids[pos] = id;
    this.counts[pos] = count;
    this.size = pos + 1;
    if (this.size > this.index.length >> 2) this.rehash();
    else this.place(pos);
    return pos;
  }

  /** Empties the set (its arrays kept at their size). */
  clear(): void {
    this.size = 0;
    this.index.fill(0);
  }

  private place(pos: number): void {
    const index = this.index;
    const mask = (index.length >> 1) - 1;
    const id = this.ids[pos]!;
    let slot = this.slotOf(id);
    while (index[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    index[2 * slot] = id;
    index[2 * slot + 1] = pos + 1;
  }

  private rehash(): void {
    this.index = new Int32Array(this.index.length * 2);
    this.shift--;
    for (let pos = 0; pos < this.size; pos++) this.place(pos);
  }
}

/**
 * Counts per pair of 32-bit integers (a row's (row, version) id and a line): one open-addressing table for all
 * rows, each slot four numbers side by side (the pair, its count, 0: empty, and when it was added), so that counting a
 * request is one read of memory where a set per row took several (its object, its index, its arrays: a log of 100 sites
 * has thousands of rows, and their sets did not stay in the processor's cache). The pairs are also kept in the order
 * added, one after the other, to be walked in that order at the end (see {@link countsInOrder}).
 */
export class PairCounts {
  private table = new Int32Array(4 * 1024);
  private shift = 22;
  /** How many pairs have a count. */
  size = 0;
  /** The pairs in the order added: the `k`th's numbers at `2k` and `2k + 1`. */
  pairs = new Int32Array(2 * 1024);

  private slotOf(a: number, b: number): number {
    return Math.imul(Math.imul(a, 0x85ebca6b) ^ b, 0x9e3779b1) >>> this.shift;
  }

  /** Where the pair is (its slot's first number), or the empty slot where it would go. */
  private at(a: number, b: number): number {
    const table = this.table;
    const mask = (table.length >> 2) - 1;
    let slot = this.slotOf(a, b);
    for (;;) {
      const i = slot << 2;
      if (table[i + 2] === 0 || (table[i] === a && table[i + 1] === b)) return i;
      slot = (slot + 1) & mask;
    }
  }

  /** Adds one to the pair's count when it has one; false (nothing counted) when it has none. */
  increment(a: number, b: number): boolean {
    const i = this.at(a, b);
    if (this.table[i + 2] === 0) return false;
    this.table[i + 2]!++;
    return true;
  }

  /** Whether the pair has a count. */
  has(a: number, b: number): boolean {
    return this.table[this.at(a, b) + 2] !== 0;
  }

  /** Gives the pair (which has none) a count of 1. */
  add(a: number, b: number): void {
    const k = this.size++;
    if (this.size > this.table.length >> 3) this.grow();
    if (2 * k + 2 > this.pairs.length) {
      const pairs = new Int32Array(this.pairs.length * 2);
      pairs.set(this.pairs);
      this.pairs = pairs;
    }
    this.pairs[2 * k] = a;
    this.pairs[2 * k + 1] = b;
    const i = this.at(a, b);
    this.table[i] = a;
    this.table[i + 1] = b;
    this.table[i + 2] = 1;
    this.table[i + 3] = k;
  }

  /** Each pair's count, in the order the pairs were added (one walk of the table). */
  countsInOrder(): Int32Array {
    const counts = new Int32Array(this.size);
    const table = this.table;
    for (let i = 0; i < table.length; i += 4) if (table[i + 2] !== 0) counts[table[i + 3]!] = table[i + 2]!;
    return counts;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    this.shift--;
    for (let i = 0; i < old.length; i += 4) {
      if (old[i + 2] === 0) continue;
      const j = this.at(old[i]!, old[i + 1]!);
      for (let n = 0; n < 4; n++) this.table[j + n] = old[i + n]!;
    }
  }
}
