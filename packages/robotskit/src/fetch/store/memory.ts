/**
 * `createMemoryRobotsStore`: a {@link RobotsStore} in one process's memory, bounded by origin count, with fetch leases,
 * so that several clients of one process share their fetches (and tests have a store with every method).
 */

import { LruMap } from '../shared/lru.js';
import { positiveInteger } from '../shared/options.js';
import type { LeaseClaim, OriginWrittenListener, RobotsStore, StoredOrigin } from './store.js';

/** Options of {@link createMemoryRobotsStore}. */
export interface MemoryRobotsStoreOptions {
  /**
   * Keep at most this many origins, forgetting the least recently used.
   * @default 10000
   */
  readonly maxOrigins?: number;
}

/**
 * A {@link RobotsStore} in memory, bounded by origin count (LRU). Records are kept as given, not copied. It has every
 * optional method (fetch leases, claims, publishing and wake-ups), so clients of one process sharing it fetch each
 * origin once between them, and tests have a reference for each.
 */
export function createMemoryRobotsStore(
  options: MemoryRobotsStoreOptions = {},
): Required<RobotsStore> & { readonly size: number } {
  const maxOrigins = positiveInteger(options.maxOrigins, 10_000, 'maxOrigins');
  const records = new LruMap<string, StoredOrigin>(maxOrigins, Number.POSITIVE_INFINITY);
  const leases = new Map<string, { holder: string; expires: number }>();
  const listeners = new Set<OriginWrittenListener>();
  const acquire = (origin: string, holder: string, ttlMs: number): boolean => {
    const now = Date.now();
    const lease = leases.get(origin);
    if (lease !== undefined && lease.holder !== holder && lease.expires > now) return false;
    leases.set(origin, { holder, expires: now + ttlMs });
    if (leases.size > maxOrigins) {
      for (const [key, value] of leases) if (value.expires <= now) leases.delete(key);
    }
    return true;
  };
  const release = (origin: string, holder: string): void => {
    if (leases.get(origin)?.holder === holder) leases.delete(origin);
  };
  // Listeners are called on a later microtask, as a store's message would arrive: never inside the caller's call.
  const wake = (origin: string, record: StoredOrigin | undefined): void => {
    if (listeners.size === 0) return;
    queueMicrotask(() => {
      for (const listener of listeners) listener(origin, record);
    });
  };
  return {
    get size() {
      return records.size;
    },
    get: (origin) => records.get(origin),
    set: (origin, record) => {
      records.set(origin, record, 0);
    },
    acquireLease: acquire,
    releaseLease(origin, holder) {
      const held = leases.get(origin)?.holder === holder;
      release(origin, holder);
      if (held) wake(origin, undefined);
    },
    claimLease(origin, holder, ttlMs, now): LeaseClaim {
      const record = records.get(origin);
      if (record?.nextFetchAt !== undefined && record.nextFetchAt > now)
        return { lease: 'fresh', record, leaseLeftMs: 0 };
      if (acquire(origin, holder, ttlMs)) return { lease: 'held', record, leaseLeftMs: 0 };
      return { lease: 'elsewhere', record, leaseLeftMs: Math.max(1, leases.get(origin)!.expires - Date.now()) };
    },
    publish(origin, record, holder) {
      records.set(origin, record, 0);
      release(origin, holder);
      wake(origin, record);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
