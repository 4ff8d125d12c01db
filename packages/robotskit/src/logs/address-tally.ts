/**
 * Which addresses each crawler row has seen, and what their verification said, kept small enough to stay in the
 * processor's cache. A row is one crawler (by name) at one site, and verification is asked per crawler and address, so
 * "has row (site, crawler) seen this address?" is "has the (crawler, address) pair, its *slot*, been seen at this
 * site?": each slot keeps one bit per site (a log of 100 sites: 16 bytes a slot, where a table of (row, address) pairs
 * was 32 bytes a pair and held 50 times more pairs than there are slots). A log of more than 256 sites keeps the
 * (slot, site) pairs in a set instead.
 *
 * A slot's verification is asked once, when the slot is made; its answer is kept beside it. A request whose slot has
 * its answer is counted under that answer at once (no count kept per row and address); one whose answer is still to
 * come is counted per (row, slot) in a small table, added to its row under the answer when the rows are made.
 */

import type { IdentifiedCrawler } from '../crawlers/identify.js';
import { IdCounts, PairCounts } from './address-set.js';
import type { VerificationStatus, Verifier } from './verify.js';

/** Verification answers as numbers (the index of each in a row's counts), then no answer asked, then one to come. */
export const STATUSES: readonly VerificationStatus[] = ['verified', 'spoofed', 'unverifiable'];
export const UNCHECKED = 3;
export const PENDING = 4;

/** Sites beyond which a slot's sites are kept in a set rather than as bits (8 words a slot). */
const MAX_BIT_SITES = 256;

/**
 * A crawler's slots: a dotted IPv4 address' by its number (`ipv4Key`: no string hashed, most logs' addresses), any
 * other's by its text.
 */
export interface CrawlerSlots {
  readonly byNumber: IdCounts;
  readonly byText: Map<string, number>;
}

export class AddressTally {
  /** Per crawler name, its slots. */
  private readonly tables = new Map<string, CrawlerSlots>();
  /** Per slot: its answer ({@link STATUSES} index, {@link UNCHECKED}, or {@link PENDING}), its address, why. */
  private status = new Uint8Array(1024);
  private readonly address: string[] = [];
  private readonly reasons: (string | undefined)[] = [];
  /** Per slot still {@link PENDING}, the answer to come. */
  private readonly answers: (Promise<void> | undefined)[] = [];
  slots = 0;
  /** Words of site bits per slot (0: sites kept in {@link seenPairs}). */
  private readonly words: number;
  private bits: Int32Array;
  private readonly seenPairs: PairCounts | null;
  /** Requests counted while their slot's answer was to come, per (row number, slot), and each pair's ordinal in its row. */
  pending = new PairCounts();
  pendingOrdinals: number[] = [];

  constructor(
    sites: number,
    private readonly verifier: Verifier | null,
  ) {
    this.words = sites > MAX_BIT_SITES ? 0 : (sites + 31) >> 5;
    this.bits = new Int32Array(this.words * 1024);
    this.seenPairs = this.words === 0 ? new PairCounts() : null;
  }

  /** The slots of a crawler name (a row keeps its own crawler's). */
  tableOf(name: string): CrawlerSlots {
    let table = this.tables.get(name);
    if (table === undefined) {
      table = { byNumber: new IdCounts(), byText: new Map() };
      this.tables.set(name, table);
    }
    return table;
  }

  /** The slot of address `ip` in `table` (`key` its number, -1 when it is not a dotted IPv4 one), -1 when none. */
  slotOf(table: CrawlerSlots, key: number, ip: string): number {
    if (key === -1) return table.byText.get(ip) ?? -1;
    const at = table.byNumber.find(key);
    return at < 0 ? -1 : table.byNumber.counts[at]!;
  }

  /**
   * Makes the slot of `crawler` and address `ip` (`own`: a copy of its own, not a cut of a block of log text; `key` as
   * {@link slotOf} takes it) and starts its verification.
   */
  addSlot(table: CrawlerSlots, key: number, crawler: IdentifiedCrawler, own: string): number {
    const slot = this.slots++;
    if (slot === this.status.length) {
      const status = new Uint8Array(slot * 2);
      status.set(this.status);
      this.status = status;
      if (this.words > 0) {
        const bits = new Int32Array(this.bits.length * 2);
        bits.set(this.bits);
        this.bits = bits;
      }
    }
    if (key === -1) table.byText.set(own, slot);
    else table.byNumber.add(key, slot);
    this.address.push(own);
    const verifier = this.verifier;
    if (verifier === null) {
      this.status[slot] = UNCHECKED;
      return slot;
    }
    // Most answers need no DNS question (a range file, or nothing can verify the crawler): counted under at once.
    const now = verifier.verifyNow(crawler, own);
    if (now !== null) {
      this.status[slot] = STATUSES.indexOf(now.status);
      this.reasons[slot] = now.reason;
      return slot;
    }
    this.status[slot] = PENDING;
    this.answers[slot] = verifier.verify(crawler, own).then(
      (answer) => {
        this.status[slot] = STATUSES.indexOf(answer.status);
        this.reasons[slot] = answer.reason;
        this.answers[slot] = undefined;
      },
      (error: unknown) => {
        this.status[slot] = STATUSES.indexOf('unverifiable');
        this.reasons[slot] = `verification failed: ${error instanceof Error ? error.message : String(error)}`;
        this.answers[slot] = undefined;
      },
    );
    return slot;
  }

  /** Marks `slot` seen at site `site` (not seen there before). */
  mark(slot: number, site: number): void {
    if (this.words === 0) this.seenPairs!.add(slot, site);
    else this.bits[slot * this.words + (site >> 5)]! |= 1 << (site & 31);
  }

  /** Whether `slot` was seen at site `site`. */
  seen(slot: number, site: number): boolean {
    if (this.words === 0) return this.seenPairs!.has(slot, site);
    return (this.bits[slot * this.words + (site >> 5)]! & (1 << (site & 31))) !== 0;
  }

  statusOf(slot: number): number {
    return this.status[slot]!;
  }

  /** The answer of `slot`, awaited when still to come (an index of {@link STATUSES}, or {@link UNCHECKED}). */
  async settle(slot: number): Promise<number> {
    const answer = this.answers[slot];
    if (answer !== undefined) await answer;
    return this.status[slot]!;
  }

  addressOf(slot: number): string {
    return this.address[slot]!;
  }

  /** What a row's reason says of `slot`: its address and why. */
  reasonOf(slot: number): string {
    return `${this.address[slot]}: ${this.reasons[slot] ?? ''}`;
  }

  /** Counts a request of row `row` whose slot's answer is to come (`ordinal` ≥ 0: the row's first from it). */
  countPending(row: number, slot: number, ordinal: number): void {
    if (ordinal < 0) {
      this.pending.increment(row, slot);
      return;
    }
    this.pending.add(row, slot);
    this.pendingOrdinals.push(ordinal);
  }

  /** Empties the table of requests counted while their answer was to come (added to their rows). */
  clearPending(): void {
    this.pending = new PairCounts();
    this.pendingOrdinals = [];
  }
}
