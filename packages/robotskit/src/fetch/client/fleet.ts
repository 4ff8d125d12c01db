/**
 * Single flight across processes that share a store with fetch leases: before fetching an origin a client takes its
 * lease; while another process holds it, the client waits for that process's record to reach the store, takes the
 * lease over once it expires, and after the longest wait gives up (the origin counts as unreachable, never as
 * allowed). `Leases` is the store's lease calls with their failures reported; `Fleet` is the waiting and deciding.
 */

import { compactHistory } from '../policy/availability.js';
import { positiveInteger } from '../shared/options.js';
import { type Clock, NO_HEADERS, type RetrievalResult } from '../shared/types.js';
import type { RobotsStore } from '../store/store.js';
import type { StoreAccess } from './store-access.js';

/** Options of the fleet-wide single flight (see {@link RobotsClientOptions.fleet}). */
export interface FleetOptions {
  /**
   * How long a fetch lease lasts: longer than a fetch may take (the retrieval's total timeout).
   * @default 60000
   */
  readonly leaseMs?: number;
  /**
   * The longest a question waits for another process's fetch before the origin counts as unreachable.
   * @default 45000
   */
  readonly waitMs?: number;
  /**
   * How often a waiting client reads the store.
   * @default 250
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

/** The fleet options with their defaults applied and checked (a `RangeError` for a period that is no positive integer). */
export function fleetSettings(options: FleetOptions | undefined): FleetSettings {
  if (options === undefined) {
    return { leaseMs: 60_000, waitMs: 45_000, pollMs: 250, holder: randomHolder() };
  }
  return {
    leaseMs: positiveInteger(options.leaseMs, 60_000, 'fleet.leaseMs'),
    waitMs: positiveInteger(options.waitMs, 45_000, 'fleet.waitMs'),
    pollMs: positiveInteger(options.pollMs, 250, 'fleet.pollMs'),
    holder: options.holder ?? randomHolder(),
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

/**
 * What taking a lease gave: `held` (this client fetches), `elsewhere` (another holder's lease has not expired), or
 * `unreachable` (the store failed; reported to the client's `onStoreError`).
 */
type LeaseTaken = 'held' | 'elsewhere' | 'unreachable';

/** The fetch leases of one holder in one store, failures reported through the client's store access. */
export class Leases {
  constructor(
    private readonly store: LeasingStore,
    private readonly settings: Pick<FleetSettings, 'holder' | 'leaseMs'>,
    private readonly access: StoreAccess,
  ) {}

  /**
   * Takes the origin's lease for `leaseMs` (taking it again extends it).
   * @throws the store's error when the client has no `onStoreError`.
   */
  async take(origin: string): Promise<LeaseTaken> {
    try {
      return (await this.store.acquireLease(origin, this.settings.holder, this.settings.leaseMs))
        ? 'held'
        : 'elsewhere';
    } catch (error) {
      this.access.failed(error, 'lease', origin);
      return 'unreachable';
    }
  }

  /** Gives the lease up. A failure is only reported: the lease expires on its own. */
  async release(origin: string): Promise<void> {
    try {
      await this.store.releaseLease(origin, this.settings.holder);
    } catch (error) {
      this.access.noted(error, 'lease', origin);
    }
  }
}

/** What the single flight needs from the client around it; `T` is what the client keeps for an origin. */
export interface FleetHost<T> {
  /** The origin's history in the store (a failed read, reported, counts as nothing stored). */
  read(origin: string): Promise<readonly RetrievalResult[]>;
  /** Whether a history is still fresh now (its cache lifetime or retry time has not come). */
  isFresh(history: readonly RetrievalResult[]): boolean;
  /** Fetches the origin now, after `history`, and keeps and stores the result. */
  fetch(origin: string, history: readonly RetrievalResult[], flags: { fetching: boolean }): Promise<T>;
  /** Keeps a history as what applies; `lastFetch` when the latest fetch is not the history's last. */
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

/** The fetch a waiting client records when another process's fetch did not reach the store in time: a failure. */
export function unanswered(origin: string, at: number, waitMs: number): RetrievalResult {
  const robotsUrl = `${origin}/robots.txt`;
  return {
    origin,
    robotsUrl,
    finalUrl: robotsUrl,
    outcome: 'disallow-all',
    status: null,
    redirects: [],
    headers: NO_HEADERS,
    body: null,
    size: 0,
    truncated: false,
    html: false,
    error: {
      kind: 'timeout',
      message: `another process fetching ${robotsUrl} gave no answer within ${waitMs} ms`,
      phase: 'request',
      code: null,
    },
    fetchedAt: at,
    timings: { headersMs: null, totalMs: waitMs },
  };
}

/** Loads an origin under its fleet lease, or waits for the process that holds it (see {@link FleetOptions}). */
export class Fleet<T> {
  constructor(
    private readonly leases: Leases,
    private readonly settings: Pick<FleetSettings, 'waitMs' | 'pollMs'>,
    private readonly host: FleetHost<T>,
    private readonly clock: Clock,
    private readonly counters: FleetCounters,
  ) {}

  /**
   * The origin's state once this client has fetched it under the lease, or another process's record has reached the
   * store, or the wait has ended. `history` is what the client knew before; `force` asks for a fetch newer than it.
   */
  async load(
    origin: string,
    history: readonly RetrievalResult[],
    force: boolean,
    flags: { fetching: boolean },
  ): Promise<T> {
    const since = latestAt(history);
    const giveUpAt = Date.now() + this.settings.waitMs;
    let waited = false;
    for (;;) {
      const lease = await this.leases.take(origin);
      if (lease === 'unreachable') return this.host.fetch(origin, history, flags);
      if (lease === 'held') return this.underLease(origin, history, since, force, flags);
      if (!waited) this.counters.fleetWaits++;
      waited = true;
      if (Date.now() >= giveUpAt) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.settings.pollMs, giveUpAt - Date.now())));
      const stored = await this.host.read(origin);
      if (this.answered(stored, since, force)) return this.host.keep(origin, stored);
    }
    this.counters.fleetTimeouts++;
    const gaveUp = unanswered(origin, this.clock.now(), this.settings.waitMs);
    return this.host.keep(origin, compactHistory([...history, gaveUp]), gaveUp);
  }

  /** Whether a stored history answers the load: newer than what the client knew, or (unless forced) fresh. */
  private answered(stored: readonly RetrievalResult[], since: number, force: boolean): boolean {
    return latestAt(stored) > since || (!force && this.host.isFresh(stored));
  }

  private async underLease(
    origin: string,
    history: readonly RetrievalResult[],
    since: number,
    force: boolean,
    flags: { fetching: boolean },
  ): Promise<T> {
    try {
      // The holder before may have written its record between this client's read and its lease.
      const stored = await this.host.read(origin);
      if (this.answered(stored, since, force)) return this.host.keep(origin, stored);
      return await this.host.fetch(origin, latestAt(stored) > since ? stored : history, flags);
    } finally {
      await this.leases.release(origin);
    }
  }
}
