/**
 * Single flight across processes that share a store with fetch leases. A client takes an origin's lease only once one
 * of its own fetch slots is free, so its fetch starts at once; it renews the lease while the fetch runs (a heartbeat
 * every third of `leaseMs`), then writes the record and gives the lease up in one call (`publish`), which wakes the
 * processes waiting for it. A waiter gives its slot back, and waits for that wake-up, for the lease's end (its holder
 * died: the waiter takes it over) or, as a slow fallback, `pollMs`; after `waitMs` (at least as long as a lease can
 * live plus a fetch) it fetches itself. Its own impatience is never a site failure. `Leases` is the store's calls with
 * their failures reported, `Wakes` the wake-ups, `Fleet` the waiting and deciding.
 */

import { compactHistory } from '../policy/availability.js';
import { positiveInteger } from '../shared/options.js';
import type { RetrievalResult } from '../shared/types.js';
import {
  checkStoredOrigin,
  type LeaseClaim,
  type OriginWrittenListener,
  type RobotsStore,
  type StoredOrigin,
} from '../store/store.js';
import type { Limiter } from './limiter.js';
import { isLocalRefusal, siteHistory } from './site-facts.js';
import type { StoreAccess } from './store-access.js';

/** Options of the fleet-wide single flight (see {@link RobotsClientOptions.fleet}). */
export interface FleetOptions {
  /**
   * How long a fetch lease lives unless renewed. Its holder renews it every third of this while its fetch runs, so a
   * slow fetch keeps it; a holder that dies (`kill -9`) loses it this long after its last renewal, and the next
   * waiter takes over.
   * @default 10000
   */
  readonly leaseMs?: number;
  /**
   * The longest a question waits for another process's fetch before this client fetches the origin itself. Never
   * shorter by default than a lease can live plus a fetch: the retrieval's total timeout + `leaseMs` + 5 s.
   * @default retrieval total timeout + leaseMs + 5000 (45 s with the default timeouts)
   */
  readonly waitMs?: number;
  /**
   * How often a waiting client reads the store when nothing woke it: a slow fallback with a store that has wake-ups
   * ({@link RobotsStore.subscribe}), the way of waiting without.
   * @default 10000 with wake-ups, 250 without
   */
  readonly pollMs?: number;
  /** Who holds the leases this client takes, as the store records it; a random id by default. */
  readonly holder?: string;
}

/** The fleet options with their defaults applied. */
export interface FleetSettings {
  readonly leaseMs: number;
  readonly waitMs: number;
  readonly pollMs: number;
  readonly holder: string;
}

/**
 * The fleet options with their defaults applied and checked (a `RangeError` for a period that is no positive
 * integer). `fetchMs` is the retrieval's total timeout; `wakes` whether the store has wake-ups.
 */
export function fleetSettings(options: FleetOptions | undefined, fetchMs = 30_000, wakes = false): FleetSettings {
  const o = options ?? {};
  const leaseMs = positiveInteger(o.leaseMs, 10_000, 'fleet.leaseMs');
  return {
    leaseMs,
    waitMs: positiveInteger(o.waitMs, fetchMs + leaseMs + 5000, 'fleet.waitMs'),
    pollMs: positiveInteger(o.pollMs, wakes ? 10_000 : 250, 'fleet.pollMs'),
    holder: o.holder ?? randomHolder(),
  };
}

function randomHolder(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** A store with both lease calls. */
type LeasingStore = RobotsStore & Required<Pick<RobotsStore, 'acquireLease' | 'releaseLease'>>;

/** The store when it has both lease calls, else null. */
export function leasingStore(store: RobotsStore | undefined): LeasingStore | null {
  return store?.acquireLease !== undefined && store.releaseLease !== undefined ? (store as LeasingStore) : null;
}

/** What a claim gave: the store's answer, or `unreachable` (the store failed; reported to `onStoreError`). */
type Claimed = LeaseClaim | 'unreachable';

/** The fetch leases of one holder in one store, failures reported through the client's store access. */
export class Leases {
  constructor(
    private readonly store: LeasingStore,
    private readonly settings: Pick<FleetSettings, 'holder' | 'leaseMs' | 'waitMs'>,
    private readonly access: StoreAccess,
  ) {}

  /**
   * Reads the origin's record and, unless its `nextFetchAt` is after `now`, takes its lease: one call with a store
   * that has `claimLease`, else `get` then `acquireLease`.
   * @throws the store's error when the client has no `onStoreError`.
   */
  async claim(origin: string, now: number): Promise<Claimed> {
    const { store, settings, access } = this;
    access.counted();
    let operation: 'get' | 'lease' = 'lease';
    try {
      if (store.claimLease !== undefined) {
        const claim = await store.claimLease(origin, settings.holder, settings.leaseMs, now, settings.waitMs);
        const record = claim.record === undefined ? undefined : checkStoredOrigin(claim.record, origin);
        return { lease: claim.lease, record, leaseLeftMs: claim.leaseLeftMs };
      }
      operation = 'get';
      const found = await store.get(origin);
      operation = 'lease';
      const record = found === undefined ? undefined : checkStoredOrigin(found, origin);
      if (record?.nextFetchAt !== undefined && record.nextFetchAt > now)
        return { lease: 'fresh', record, leaseLeftMs: 0 };
      const held = await store.acquireLease(origin, settings.holder, settings.leaseMs);
      if (!held) return { lease: 'elsewhere', record, leaseLeftMs: 0 };
      // A holder that published between the read and the lease left a lease to take and a record not read yet: read
      // again, and give the lease back when that record is fresh (else two processes fetch the origin).
      operation = 'get';
      const again = await store.get(origin);
      const published = again === undefined ? undefined : checkStoredOrigin(again, origin);
      if (published?.nextFetchAt !== undefined && published.nextFetchAt > now) {
        await this.release(origin);
        return { lease: 'fresh', record: published, leaseLeftMs: 0 };
      }
      return { lease: 'held', record: published ?? record, leaseLeftMs: 0 };
    } catch (error) {
      access.failed(error, operation, origin);
      return 'unreachable';
    }
  }

  /**
   * Takes (or renews) the origin's lease for `leaseMs`.
   * @throws the store's error when the client has no `onStoreError`.
   */
  async take(origin: string): Promise<'held' | 'elsewhere' | 'unreachable'> {
    try {
      return (await this.store.acquireLease(origin, this.settings.holder, this.settings.leaseMs))
        ? 'held'
        : 'elsewhere';
    } catch (error) {
      this.access.failed(error, 'lease', origin);
      return 'unreachable';
    }
  }

  /** Renews the lease while its fetch runs (the heartbeat). A failure is only reported: the fetch goes on. */
  async renew(origin: string): Promise<void> {
    try {
      await this.store.acquireLease(origin, this.settings.holder, this.settings.leaseMs);
    } catch (error) {
      this.access.noted(error, 'renew', origin);
    }
  }

  /** Gives the lease up. A failure is only reported: the lease expires on its own. */
  async release(origin: string): Promise<void> {
    try {
      await this.store.releaseLease(origin, this.settings.holder);
    } catch (error) {
      this.access.noted(error, 'release', origin);
    }
  }

  /**
   * Writes the record and gives the lease up, waking the waiters: one call with a store that has `publish`.
   * @throws the store's error when the client has no `onStoreError`.
   */
  async publish(origin: string, record: StoredOrigin): Promise<void> {
    const { store, settings, access } = this;
    if (store.publish === undefined) {
      await access.write(record);
      await this.release(origin);
      return;
    }
    access.counted(true);
    try {
      await store.publish(origin, record, settings.holder);
    } catch (error) {
      access.failed(error, 'set', origin);
      await this.release(origin);
    }
  }
}

/** What a wait for a wake-up resolved with: a record another process published, or nothing (read the store). */
type Woken = StoredOrigin | undefined;

/** The store's wake-ups, one subscription per client, handed to the loads waiting for each origin. */
export class Wakes {
  private readonly waiting = new Map<string, Set<(record: Woken) => void>>();
  private subscribed: Promise<void> | null = null;

  constructor(
    private readonly store: RobotsStore,
    private readonly access: StoreAccess,
  ) {}

  /** Resolves once the store's messages flow (subscribing at the first call); at once without wake-ups. */
  ready(origin: string): Promise<void> | undefined {
    const subscribe = this.store.subscribe;
    if (subscribe === undefined) return undefined;
    this.subscribed ??= (async () => {
      const listener: OriginWrittenListener = (written, record) => this.woken(written, record);
      try {
        await subscribe.call(this.store, listener);
      } catch (error) {
        // Without wake-ups, waiters read the store every `pollMs`.
        this.access.noted(error, 'subscribe', origin);
      }
    })();
    return this.subscribed;
  }

  /** Resolves when the origin is woken (with the record when the message carried it), or after `ms` with undefined. */
  wait(origin: string, ms: number): Promise<Woken> {
    return new Promise((resolve) => {
      let set = this.waiting.get(origin);
      if (set === undefined) {
        set = new Set();
        this.waiting.set(origin, set);
      }
      const done = (record: Woken): void => {
        clearTimeout(timer);
        const s = this.waiting.get(origin);
        s?.delete(done);
        if (s?.size === 0) this.waiting.delete(origin);
        resolve(record);
      };
      const timer = setTimeout(() => done(undefined), Math.max(1, ms));
      set.add(done);
    });
  }

  private woken(origin: string, record: StoredOrigin | undefined): void {
    const set = this.waiting.get(origin);
    if (set === undefined) return;
    let checked: Woken;
    try {
      checked = record === undefined ? undefined : checkStoredOrigin(record, origin);
    } catch {
      checked = undefined;
    }
    for (const done of [...set]) done(checked);
  }
}

/** What the single flight needs from the client around it; `T` is what the client keeps for an origin. */
export interface FleetHost<T> {
  /** Whether a history is still fresh now (its cache lifetime or retry time has not come). */
  isFresh(history: readonly RetrievalResult[]): boolean;
  /** When the client fetches a history's origin again (epoch ms), written beside the record. */
  nextFetchAt(history: readonly RetrievalResult[]): number;
  /** One retrieval of the origin's robots.txt now (the caller holds a fetch slot). */
  retrieve(origin: string, flags: { fetching: boolean }): Promise<RetrievalResult>;
  /** Keeps a history as what applies; `lastFetch` when the latest fetch is not the history's last (an aborted one). */
  keep(origin: string, history: readonly RetrievalResult[], lastFetch?: RetrievalResult): T;
}

/** The fleet's counters in the client's stats. */
interface FleetCounters {
  fleetWaits: number;
  fleetTimeouts: number;
}

/** The latest fetch time of a history, or -infinity for none. */
export function latestAt(history: readonly RetrievalResult[]): number {
  return history[history.length - 1]?.fetchedAt ?? Number.NEGATIVE_INFINITY;
}

/** What a {@link Fleet} is made of. */
interface FleetParts<T> {
  readonly leases: Leases;
  readonly wakes: Wakes;
  readonly settings: Pick<FleetSettings, 'waitMs' | 'pollMs' | 'leaseMs'>;
  readonly limiter: Limiter;
  readonly access: StoreAccess;
  readonly host: FleetHost<T>;
  readonly clock: { now(): number };
  readonly counters: FleetCounters;
}

/** The `now` of a claim that must take the lease whatever the record says (a recrawl). */
const ALWAYS_DUE = Number.MAX_SAFE_INTEGER;

/** Loads an origin under its fleet lease, or waits for the process that holds it (see {@link FleetOptions}). */
export class Fleet<T> {
  constructor(private readonly parts: FleetParts<T>) {}

  /**
   * The origin's state once this client has fetched it under the lease, or another process's record has reached the
   * store, or the wait has ended and this client fetched itself. `history` is what the client knew before (null when
   * it has not read the store: the first claim's record is then what it knew); `force` asks for a fetch newer than
   * it.
   */
  async load(
    origin: string,
    history: readonly RetrievalResult[] | null,
    force: boolean,
    flags: { fetching: boolean },
  ): Promise<T> {
    const { leases, wakes, limiter, settings, host, counters } = this.parts;
    let known = history;
    let giveUpAt = Number.POSITIVE_INFINITY;
    for (;;) {
      await wakes.ready(origin);
      // The lease is taken only in a free fetch slot, so that its fetch starts at once.
      const slot = limiter.acquire();
      if (slot !== undefined) await slot;
      let leaseLeftMs: number;
      try {
        let claim = await leases.claim(origin, force ? ALWAYS_DUE : this.parts.clock.now());
        if (claim === 'unreachable') return await this.fetchHere(origin, known ?? [], flags, false);
        const stored = claim.record?.history ?? [];
        known ??= stored;
        if (this.answered(stored, latestAt(known), force)) {
          if (claim.lease === 'held') await leases.release(origin);
          return host.keep(origin, stored);
        }
        if (latestAt(stored) > latestAt(known)) known = stored;
        if (claim.lease === 'fresh') {
          // Fresh by the writer's schedule, not by this client's (other availability options): take the lease.
          const taken = await leases.take(origin);
          if (taken === 'unreachable') return await this.fetchHere(origin, known, flags, false);
          claim = { lease: taken, record: claim.record, leaseLeftMs: 0 };
        }
        if (claim.lease === 'held') return await this.fetchHere(origin, known, flags, true);
        if (giveUpAt === Number.POSITIVE_INFINITY) {
          counters.fleetWaits++;
          giveUpAt = Date.now() + settings.waitMs;
        } else if (Date.now() >= giveUpAt) {
          // Waited as long as a lease can live plus a fetch: fetch here rather than wait on.
          counters.fleetTimeouts++;
          return await this.fetchHere(origin, known, flags, false);
        }
        leaseLeftMs = claim.leaseLeftMs > 0 ? claim.leaseLeftMs + 50 : settings.pollMs;
      } finally {
        limiter.release();
      }
      const woken = await wakes.wait(origin, Math.min(settings.pollMs, leaseLeftMs, giveUpAt - Date.now()));
      if (woken !== undefined && this.answered(woken.history, latestAt(known), force)) {
        return host.keep(origin, woken.history);
      }
    }
  }

  /** Whether a stored history answers the load: newer than what the client knew, or (unless forced) fresh. */
  private answered(stored: readonly RetrievalResult[], since: number, force: boolean): boolean {
    return stored.length > 0 && (latestAt(stored) > since || (!force && this.parts.host.isFresh(stored)));
  }

  /**
   * Fetches in the slot the caller holds, keeps the result, and writes it: under the lease (renewed while the fetch
   * runs, given up with the write), or without one (the store failed, or the wait ran out).
   */
  private async fetchHere(
    origin: string,
    history: readonly RetrievalResult[],
    flags: { fetching: boolean },
    leased: boolean,
  ): Promise<T> {
    const { leases, host, access, settings } = this.parts;
    let result: RetrievalResult;
    const heartbeat = leased ? setInterval(() => void leases.renew(origin), Math.max(1, settings.leaseMs / 3)) : null;
    // A heartbeat never keeps a process alive.
    (heartbeat as { unref?: () => void } | null)?.unref?.();
    try {
      result = await host.retrieve(origin, flags);
    } catch (error) {
      if (leased) await leases.release(origin);
      throw error;
    } finally {
      if (heartbeat !== null) clearInterval(heartbeat);
    }
    const next = compactHistory([...history, result]);
    // Kept in memory even if the store write fails: it is what applies now.
    const entry = host.keep(origin, next, result);
    // A refusal of this process's own is no fact about the site: the lease is given up, the store never gets it
    // (site-facts.ts), and the waiters go on to fetch for themselves.
    if (isLocalRefusal(result)) {
      if (leased) await leases.release(origin);
      return entry;
    }
    const facts = siteHistory(next);
    const record: StoredOrigin = { origin, history: facts, nextFetchAt: host.nextFetchAt(facts) };
    if (leased) await leases.publish(origin, record);
    else await access.write(record);
    return entry;
  }
}
