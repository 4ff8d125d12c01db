/**
 * The product states an exploration has found, each stored once and numbered in the order found (breadth-first order,
 * so the queue is simply the numbers not yet explored), with the parent link and last character that rebuild its
 * shortest path.
 *
 * A state is a row of ints in one growing arena: [live count m, best ×4 (rule numbers, -1: none), then pattern id and
 * pattern state for each of the m live patterns in pattern order]. It is composed in {@link ProductStates.scratch}
 * and found again through an open-addressing hash table over the rows, so a key costs no string and no object.
 */

/** Ints before a state's live patterns: the live count and the four best rules. */
export const HEADER = 5;

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const g = new Int32Array(a.length * 2);
  g.set(a);
  return g;
}

/** The states found so far. */
export class ProductStates {
  /** Where the next state is composed before {@link ProductStates.add}: the row layout above. */
  readonly scratch: Int32Array;
  /** Every state's row, back to back. */
  arena = new Int32Array(1024);
  /** Ints of the arena in use (its memory, for the exploration's budget). */
  arenaLength = 0;
  /** How many states were found. */
  count = 0;
  /** Per state: where its row starts in the arena. */
  offsets = new Int32Array(64);
  private parents = new Int32Array(64);
  private lastCodes = new Int32Array(64);
  private hashes = new Int32Array(64);
  /** Open addressing: state number + 1, 0 for an empty slot. */
  private table = new Int32Array(128);

  /** For states of at most `patterns` live patterns. */
  constructor(patterns: number) {
    this.scratch = new Int32Array(HEADER + 2 * patterns);
  }

  /** Adds the state in `scratch`, reached from `parent` (-1: none) by `code`, unless it is known already. */
  add(parent: number, code: number): void {
    const scratch = this.scratch;
    const length = HEADER + 2 * scratch[0]!;
    const h = this.hashOf(length);
    const mask = this.table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot]!;
      if (entry === 0) break;
      if (this.hashes[entry - 1] === h && this.sameAsScratch(this.offsets[entry - 1]!, length)) return;
    }
    this.store(length, h, parent, code);
  }

  /** The path that first reached state `id`: its characters from the start, read back through the parent links. */
  pathOf(id: number): string {
    const codes: number[] = [];
    for (let at = id; at >= 0; at = this.parents[at]!) codes.push(this.lastCodes[at]!);
    codes.reverse();
    let path = '';
    for (const c of codes) path += String.fromCharCode(c);
    return path;
  }

  private hashOf(length: number): number {
    const scratch = this.scratch;
    let h = length;
    for (let i = 0; i < length; i++) {
      h = Math.imul(h ^ scratch[i]!, 0x9e3779b1);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return h ^ (h >>> 13);
  }

  private sameAsScratch(at: number, length: number): boolean {
    const arena = this.arena;
    const scratch = this.scratch;
    if (arena[at] !== scratch[0]) return false;
    for (let i = 1; i < length; i++) if (arena[at + i] !== scratch[i]) return false;
    return true;
  }

  private store(length: number, h: number, parent: number, code: number): void {
    if (this.arenaLength + length > this.arena.length) {
      const grown = new Int32Array(Math.max(this.arena.length * 2, this.arenaLength + length));
      grown.set(this.arena.subarray(0, this.arenaLength));
      this.arena = grown;
    }
    this.arena.set(this.scratch.subarray(0, length), this.arenaLength);
    if (this.count === this.offsets.length) {
      this.offsets = grow(this.offsets);
      this.parents = grow(this.parents);
      this.lastCodes = grow(this.lastCodes);
      this.hashes = grow(this.hashes);
    }
    const id = this.count++;
    this.offsets[id] = this.arenaLength;
    this.parents[id] = parent;
    this.lastCodes[id] = code;
    this.hashes[id] = h;
    this.arenaLength += length;
    if (this.count * 2 > this.table.length) {
      this.table = new Int32Array(this.table.length * 2);
      for (let i = 0; i < this.count; i++) this.place(i);
    } else this.place(id);
  }

  private place(id: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashes[id]! & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = id + 1;
  }
}
