/**
 * The client's calls to its second-level store, each failure handled one way: reported to `onStoreError` and counted,
 * the client going on from memory; or, without a handler, thrown to the question that needed the store.
 */

import type { RetrievalResult } from '../shared/types.js';
import { checkStoredOrigin, type RobotsStore, type StoredOrigin } from '../store/store.js';

/** What a store error is reported to (see {@link RobotsClientOptions.onStoreError}). */
/**
 * Called when a store call fails and the client goes on without it. `operation`: `get` and `set` (the record), `lease`
 * (claiming the fetch lease: this process then fetches the origin itself), and the calls whose failure changes no
 * answer: `renew` (the heartbeat of a held lease), `release` (giving it up; it expires on its own) and `subscribe`
 * (the store's wake-ups; waiters then read the store now and then).
 */
export type StoreErrorHandler = (
  error: unknown,
  operation: 'get' | 'set' | 'lease' | 'renew' | 'release' | 'subscribe',
  origin: string,
) => void;

/** The store's counters in the client's stats. */
interface StoreCounters {
  storeReads: number;
  storeWrites: number;
  storeErrors: number;
}

/** Reads and writes of one store, and the reporting of its failures. */
export class StoreAccess {
  constructor(
    private readonly store: RobotsStore,
    private readonly onError: StoreErrorHandler | undefined,
    private readonly counters: StoreCounters,
  ) {}

  /**
   * The origin's stored history; empty when there is none, or when the read failed and was reported.
   * @throws the store's error when there is no `onStoreError`, and a `TypeError` for a record that is no history.
   */
  async read(origin: string): Promise<readonly RetrievalResult[]> {
    this.counters.storeReads++;
    try {
      const record = await this.store.get(origin);
      return record === undefined ? [] : checkStoredOrigin(record, origin).history;
    } catch (error) {
      this.failed(error, 'get', origin);
      return [];
    }
  }

  /**
   * Replaces the origin's record; a failed write, reported, is skipped.
   * @throws the store's error when there is no `onStoreError`.
   */
  async write(record: StoredOrigin): Promise<void> {
    this.counters.storeWrites++;
    try {
      await this.store.set(record.origin, record);
    } catch (error) {
      this.failed(error, 'set', record.origin);
    }
  }

  /** Counts a read (or a write) made through another call of the store (a lease claim, a publish). */
  counted(write = false): void {
    if (write) this.counters.storeWrites++;
    else this.counters.storeReads++;
  }

  /**
   * A store call failed and the client goes on without it: counted and reported.
   * @throws `error` itself when there is no `onStoreError` (the question that needed the store rejects).
   */
  failed(error: unknown, operation: 'get' | 'set' | 'lease', origin: string): void {
    if (this.onError === undefined) throw error;
    this.counters.storeErrors++;
    this.onError(error, operation, origin);
  }

  /** A store call failed whose failure changes nothing (a lease that expires on its own): counted, and reported if asked. */
  noted(error: unknown, operation: 'renew' | 'release' | 'subscribe', origin: string): void {
    this.counters.storeErrors++;
    this.onError?.(error, operation, origin);
  }
}
