/**
 * One load of an origin: what memory or the store holds when it is still fresh, else a fetch (under the fleet's lease
 * when the store has leases), its result kept in memory and written to the store. Never fails open: a fetch that
 * fails is a `disallow-all` result like any other, and the policy decides what it means.
 */

import { type AvailabilityOptions, compactHistory, refreshSchedule } from '../policy/availability.js';
import type { Clock, RetrievalResult } from '../shared/types.js';
import type { ClientCounters } from './counters.js';
import { Fleet, type FleetHost, type FleetSettings, type Leases, latestAt } from './fleet.js';
import type { Limiter } from './limiter.js';
import type { CachedOrigin, OriginCache } from './origin-cache.js';
import type { StoreAccess } from './store-access.js';

/** Whether a load has decided to fetch (rather than use what the store had): a recrawl joins only such a load. */
export interface LoadFlags {
  fetching: boolean;
}

/** What a {@link Loader} is made of. */
interface LoaderParts {
  readonly cache: OriginCache;
  /** The second-level store; null without one. */
  readonly store: StoreAccess | null;
  /** The store's fetch leases and how long to hold and wait for them; null when the store has none. */
  readonly fleet: { readonly leases: Leases; readonly settings: FleetSettings } | null;
  readonly limiter: Limiter;
  /** One retrieval of the origin's robots.txt. */
  readonly retrieve: (origin: string) => Promise<RetrievalResult>;
  readonly availability: AvailabilityOptions;
  readonly clock: Clock;
  readonly counters: ClientCounters;
}

/** Loads origins into the {@link OriginCache}; the fleet's host (it fetches and keeps for the single flight). */
export class Loader implements FleetHost<CachedOrigin> {
  private readonly fleet: Fleet<CachedOrigin> | null;

  constructor(private readonly parts: LoaderParts) {
    const fleet = parts.fleet;
    this.fleet = fleet === null ? null : new Fleet(fleet.leases, fleet.settings, this, parts.clock, parts.counters);
  }

  /**
   * The origin's entry after a load. `known` is what memory holds (undefined when nothing), `force` asks for a fetch
   * whatever the cache lifetime says.
   */
  async load(origin: string, known: CachedOrigin | undefined, force: boolean, flags: LoadFlags): Promise<CachedOrigin> {
    const { store, counters } = this.parts;
    counters.loads++;
    // Without a store, nothing to wait for before fetching.
    let history = known?.history ?? (store === null ? [] : await store.read(origin));
    if (!force && this.isFresh(history)) return this.keep(origin, history);
    if (this.fleet !== null) {
      if (known !== undefined) {
        // Another process may have fetched since this one did.
        const stored = await this.read(origin);
        if (latestAt(stored) > latestAt(history)) history = stored;
        if (!force && this.isFresh(history)) return this.keep(origin, history);
      }
      return this.fleet.load(origin, history, force, flags);
    }
    return this.fetch(origin, history, flags);
  }

  /** The origin's stored history; empty without a store. */
  read(origin: string): Promise<readonly RetrievalResult[]> {
    return this.parts.store === null ? Promise.resolve([]) : this.parts.store.read(origin);
  }

  /** Whether a history is still fresh now: fetched, and its cache lifetime or retry time not come. */
  isFresh(history: readonly RetrievalResult[]): boolean {
    const { clock, availability } = this.parts;
    return history.length > 0 && clock.now() < refreshSchedule(history, availability).at;
  }

  /** Fetches in a fetch slot, keeps the history with the result in memory, then writes it to the store. */
  async fetch(origin: string, history: readonly RetrievalResult[], flags: LoadFlags): Promise<CachedOrigin> {
    const { limiter, retrieve, cache, store, counters } = this.parts;
    flags.fetching = true;
    counters.fetches++;
    const result = await limiter.run(() => retrieve(origin));
    const next = compactHistory([...history, result]);
    // Kept in memory even if the store write fails: it is what applies now.
    const entry = cache.keep(origin, next, result);
    if (store !== null) await store.write(origin, next);
    return entry;
  }

  /** Keeps a history in memory as the origin's. */
  keep(origin: string, history: readonly RetrievalResult[], lastFetch?: RetrievalResult): CachedOrigin {
    return this.parts.cache.keep(origin, history, lastFetch);
  }
}
