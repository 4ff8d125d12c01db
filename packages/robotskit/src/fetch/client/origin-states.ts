/**
 * The state of an origin when a question comes: in memory and fresh (answered at once, a hit), being loaded (the
 * question joins that load), or neither (a load starts). At most one load per origin is in flight in a client.
 */

import type { Clock } from '../shared/types.js';
import type { ClientCounters } from './counters.js';
import type { LoadFlags } from './loader.js';
import type { CachedOrigin, OriginCache } from './origin-cache.js';

/** A load in flight. */
export interface Load {
  readonly promise: Promise<CachedOrigin>;
  /** `fetching` is set once the load has decided to fetch (rather than use what the store had). */
  readonly flags: LoadFlags;
}

/** What loads an origin (see {@link Loader.load}). */
interface OriginLoader {
  load(origin: string, known: CachedOrigin | undefined, force: boolean, flags: LoadFlags): Promise<CachedOrigin>;
}

/** An origin's entry now, or the promise of it once a load ends. */
export type OriginState = CachedOrigin | Promise<CachedOrigin>;

/** The origins' states: hits from memory, loads in flight and joined. */
export class OriginStates {
  /** Origin → its load in flight. */
  readonly inflight = new Map<string, Load>();
  /**
   * The hit clock's reading when an origin was last answered from memory, so that a hit reads the clock once. A field:
   * V8 writes a number field in place, where it boxes each new time stored in a closure's variable.
   */
  hitNow = 0;

  /** `hasStore`: whether a load reads the store before it decides to fetch. */
  constructor(
    private readonly cache: OriginCache,
    private readonly hitClock: Clock,
    private readonly counters: ClientCounters,
    private readonly loader: OriginLoader,
    private readonly hasStore: boolean,
  ) {}

  /** The origin's state; `force` loads it again (a recrawl) unless a fetch of it is in flight already. */
  stateOf(origin: string, force: boolean): OriginState {
    const pending = this.inflight.size === 0 ? undefined : this.inflight.get(origin);
    if (pending !== undefined) return this.joined(origin, pending, force);
    return this.cachedState(origin, this.cache.entries.get(origin), force);
  }

  /** {@link stateOf} when a load of the origin is in flight. */
  joined(origin: string, pending: Load, force: boolean): Promise<CachedOrigin> {
    this.counters.joined++;
    // A recrawl joins a fetch in flight, but not a load that is only reading the store.
    if (force && !pending.flags.fetching) {
      return pending.promise.then(
        () => this.stateOf(origin, true),
        () => this.stateOf(origin, true),
      );
    }
    return pending.promise;
  }

  /** {@link stateOf} when no load of the origin is in flight; `known` is what memory holds. */
  cachedState(origin: string, known: CachedOrigin | undefined, force: boolean): OriginState {
    if (known !== undefined && !force) {
      const now = this.hitClock.now();
      if (now < known.nextFetchAt) {
        this.counters.hits++;
        this.hitNow = now;
        return known;
      }
    }
    return this.start(origin, known, force);
  }

  /** Starts a load of the origin, in flight until it settles. */
  private start(origin: string, known: CachedOrigin | undefined, force: boolean): Promise<CachedOrigin> {
    // Without a store read to make first, the load fetches at once.
    const flags = { fetching: force || known !== undefined || !this.hasStore };
    const inflight = this.inflight;
    const settled = (): void => {
      if (inflight.get(origin) === self) inflight.delete(origin);
    };
    // Two handlers rather than `finally`, which costs a promise and two reactions more per load.
    const promise = Promise.resolve()
      .then(() => this.loader.load(origin, known, force, flags))
      .then(
        (entry) => {
          settled();
          return entry;
        },
        (error: unknown) => {
          settled();
          throw error;
        },
      );
    const self: Load = { promise, flags };
    inflight.set(origin, self);
    return promise;
  }
}
