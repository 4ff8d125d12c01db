/**
 * One load of an origin: what memory or the store holds when it is still fresh, else a fetch (under the fleet's lease
 * when the store has leases: see `fleet.ts`), its result kept in memory and written to the store. Never fails open: a
 * fetch that fails is a `disallow-all` result like any other, and the policy decides what it means.
 */

import { type AvailabilityOptions, compactHistory, refreshSchedule } from '../policy/availability.js';
import type { Clock, RetrievalResult } from '../shared/types.js';
import type { ClientCounters } from './counters.js';
import { Fleet, type FleetHost, type FleetSettings, type Leases, latestAt, type Wakes } from './fleet.js';
import type { Limiter } from './limiter.js';
import type { CachedOrigin, OriginCache } from './origin-cache.js';
import { isLocalRefusal, siteHistory } from './site-facts.js';
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
  /** The store's fetch leases, its wake-ups and how long to hold and wait; null when the store has no leases. */
  readonly fleet: { readonly leases: Leases; readonly wakes: Wakes; readonly settings: FleetSettings } | null;
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
    this.fleet =
      fleet === null || parts.store === null
        ? null
        : new Fleet({
            ...fleet,
            limiter: parts.limiter,
            access: parts.store,
            host: this,
            clock: parts.clock,
            counters: parts.counters,
          });
  }

  /**
   * The origin's entry after a load. `known` is what memory holds (undefined when nothing), `force` asks for a fetch
   * whatever the cache lifetime says.
   */
  async load(origin: string, known: CachedOrigin | undefined, force: boolean, flags: LoadFlags): Promise<CachedOrigin> {
    const { store, counters, limiter } = this.parts;
    counters.loads++;
    let history = known?.history ?? null;
    // A fleet reads the record with its lease claim, in a fetch slot; while every slot is taken, it reads first, so
    // that what the store has answers without waiting for a slot.
    if (store !== null && (this.fleet === null || limiter.full)) {
      if (history === null) history = await store.read(origin);
      else if (this.fleet !== null) {
        // Another process may have fetched since this one did.
        const stored = await store.read(origin);
        if (latestAt(stored) > latestAt(history)) history = stored;
      }
    }
    if (history !== null && !force && this.isFresh(history)) return this.keep(origin, history);
    if (this.fleet !== null) return this.fleet.load(origin, history, force, flags);
    return this.fetch(origin, history ?? [], flags);
  }

  /** Whether a history is still fresh now: fetched, and its cache lifetime or retry time not come. */
  isFresh(history: readonly RetrievalResult[]): boolean {
    return history.length > 0 && this.parts.clock.now() < this.nextFetchAt(history);
  }

  /** When the origin of a history is fetched again (epoch ms). */
  nextFetchAt(history: readonly RetrievalResult[]): number {
    return refreshSchedule(history, this.parts.availability).at;
  }

  /** One retrieval now, counted (the caller holds a fetch slot). */
  retrieve(origin: string, flags: LoadFlags): Promise<RetrievalResult> {
    flags.fetching = true;
    this.parts.counters.fetches++;
    return this.parts.retrieve(origin);
  }

  /** Fetches in a fetch slot, keeps the history with the result in memory, then writes it to the store. */
  async fetch(origin: string, history: readonly RetrievalResult[], flags: LoadFlags): Promise<CachedOrigin> {
    const { limiter, cache, store } = this.parts;
    const result = await limiter.run(() => this.retrieve(origin, flags));
    const next = compactHistory([...history, result]);
    // Kept in memory even if the store write fails: it is what applies now.
    const entry = cache.keep(origin, next, result);
    // A refusal of this process's own is no fact about the site: the shared store never gets it (site-facts.ts).
    if (store !== null && !isLocalRefusal(result)) {
      const facts = siteHistory(next);
      await store.write({ origin, history: facts, nextFetchAt: this.nextFetchAt(facts) });
    }
    return entry;
  }

  /** Keeps a history in memory as the origin's. */
  keep(origin: string, history: readonly RetrievalResult[], lastFetch?: RetrievalResult): CachedOrigin {
    return this.parts.cache.keep(origin, history, lastFetch);
  }
}
