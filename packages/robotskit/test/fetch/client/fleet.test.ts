/**
 * The fleet's single flight alone, over a memory store and a host the test plays: the lease calls and their failures,
 * fetching under the lease, waiting for another holder's record, taking an expired lease over, giving up.
 */

import { describe, expect, it } from 'vitest';
import {
  Fleet,
  type FleetHost,
  fleetSettings,
  Leases,
  leasingStore,
  unanswered,
} from '../../../src/fetch/client/fleet.js';
import { StoreAccess } from '../../../src/fetch/client/store-access.js';
import { createMemoryRobotsStore, type RetrievalResult, type RobotsStore } from '../../../src/fetch/index.js';
import { clockAt, fetched, T0 } from './fetches.js';

const A = 'https://a.test';
const RULES = 'User-agent: *\nDisallow: /private/\n';

/** A host that keeps histories in a map, reads the store, and fetches by writing a new `rules` fetch to it. */
function host(store: RobotsStore, fresh = (history: readonly RetrievalResult[]) => history.length > 0) {
  const fetches: (readonly RetrievalResult[])[] = [];
  const kept: { history: readonly RetrievalResult[]; lastFetch?: RetrievalResult }[] = [];
  const h: FleetHost<string> = {
    read: async (origin) => (await store.get(origin))?.history ?? [],
    isFresh: fresh,
    async fetch(origin, history, flags) {
      flags.fetching = true;
      fetches.push(history);
      const next = [...history, fetched(origin, T0 + fetches.length, RULES)];
      await store.set(origin, { origin, history: next });
      kept.push({ history: next });
      return 'fetched';
    },
    keep(_origin, history, lastFetch) {
      kept.push({ history, ...(lastFetch === undefined ? {} : { lastFetch }) });
      return 'kept';
    },
  };
  return { h, fetches, kept };
}

function fleetOf(store: RobotsStore, settings: { waitMs?: number; pollMs?: number; leaseMs?: number } = {}) {
  const counters = { storeReads: 0, storeWrites: 0, storeErrors: 0, fleetWaits: 0, fleetTimeouts: 0 };
  const s = fleetSettings({ waitMs: 1000, pollMs: 5, leaseMs: 1000, holder: 'me', ...settings });
  const leases = new Leases(leasingStore(store)!, s, new StoreAccess(store, undefined, counters));
  const parts = host(store);
  return { fleet: new Fleet(leases, s, parts.h, clockAt(), counters), counters, ...parts };
}

describe('fleet settings', () => {
  it('default to a 60 s lease, a 45 s wait and reads every 250 ms, under a random holder', () => {
    const a = fleetSettings(undefined);
    expect(a).toMatchObject({ leaseMs: 60_000, waitMs: 45_000, pollMs: 250 });
    expect(a.holder).not.toBe(fleetSettings({}).holder);
    expect(() => fleetSettings({ pollMs: 0 })).toThrow(RangeError);
  });

  it('need both lease calls of a store', () => {
    expect(leasingStore(undefined)).toBeNull();
    expect(leasingStore({ get: () => undefined, set: () => {}, acquireLease: () => true })).toBeNull();
    const store = createMemoryRobotsStore();
    expect(leasingStore(store)).toBe(store);
  });
});

describe('Leases', () => {
  it('are held, held elsewhere, or unreachable when the store fails (reported)', async () => {
    const store = createMemoryRobotsStore();
    const counters = { storeReads: 0, storeWrites: 0, storeErrors: 0 };
    const seen: string[] = [];
    const access = new StoreAccess(store, (_e, operation) => seen.push(operation), counters);
    const mine = new Leases(store, { holder: 'me', leaseMs: 1000 }, access);
    const theirs = new Leases(store, { holder: 'them', leaseMs: 1000 }, access);
    expect(await mine.take(A)).toBe('held');
    expect(await mine.take(A)).toBe('held');
    expect(await theirs.take(A)).toBe('elsewhere');
    await mine.release(A);
    expect(await theirs.take(A)).toBe('held');
    const broken = {
      ...store,
      acquireLease: () => Promise.reject(new Error('down')),
      releaseLease: () => Promise.reject(new Error('down')),
    };
    const failing = new Leases(broken, { holder: 'me', leaseMs: 1000 }, access);
    expect(await failing.take(A)).toBe('unreachable');
    await failing.release(A);
    expect(seen).toEqual(['lease', 'lease']);
    expect(counters.storeErrors).toBe(2);
  });

  it('throw a failed take to the question when the client has no onStoreError, but never a failed release', async () => {
    const store = createMemoryRobotsStore();
    const broken = {
      ...store,
      acquireLease: () => Promise.reject(new Error('down')),
      releaseLease: () => Promise.reject(new Error('down')),
    };
    const leases = new Leases(
      broken,
      { holder: 'me', leaseMs: 1000 },
      new StoreAccess(store, undefined, { storeReads: 0, storeWrites: 0, storeErrors: 0 }),
    );
    await expect(leases.take(A)).rejects.toThrow('down');
    await expect(leases.release(A)).resolves.toBeUndefined();
  });
});

describe('Fleet.load', () => {
  it('fetches under the lease and gives it up after', async () => {
    const store = createMemoryRobotsStore();
    const { fleet, fetches, counters } = fleetOf(store);
    const flags = { fetching: false };
    expect(await fleet.load(A, [], false, flags)).toBe('fetched');
    expect(fetches).toEqual([[]]);
    expect(flags.fetching).toBe(true);
    expect(store.acquireLease(A, 'someone else', 1000)).toBe(true);
    expect(counters).toMatchObject({ fleetWaits: 0, fleetTimeouts: 0 });
  });

  it('keeps a record written between its read and its lease instead of fetching', async () => {
    const store = createMemoryRobotsStore();
    const { fleet, fetches, kept } = fleetOf(store);
    const written = [fetched(A, T0, RULES)];
    store.set(A, { origin: A, history: written });
    expect(await fleet.load(A, [], false, { fetching: false })).toBe('kept');
    expect(fetches).toEqual([]);
    expect(kept).toEqual([{ history: written }]);
  });

  it('fetches after the newer stored history when a recrawl is asked for', async () => {
    const store = createMemoryRobotsStore();
    const { fleet, fetches } = fleetOf(store);
    const old = [fetched(A, T0 - 10, RULES)];
    const newer = [fetched(A, T0, RULES)];
    store.set(A, { origin: A, history: newer });
    // Newer than what the client knew: that answers even a recrawl.
    expect(await fleet.load(A, old, true, { fetching: false })).toBe('kept');
    expect(await fleet.load(A, newer, true, { fetching: false })).toBe('fetched');
    expect(fetches).toEqual([newer]);
  });

  it("waits for another holder's record and keeps it", async () => {
    const store = createMemoryRobotsStore();
    expect(store.acquireLease(A, 'them', 60_000)).toBe(true);
    const { fleet, fetches, kept, counters } = fleetOf(store);
    const written = [fetched(A, T0, RULES)];
    setTimeout(() => store.set(A, { origin: A, history: written }), 30);
    expect(await fleet.load(A, [], false, { fetching: false })).toBe('kept');
    expect(fetches).toEqual([]);
    expect(kept).toEqual([{ history: written }]);
    expect(counters).toMatchObject({ fleetWaits: 1, fleetTimeouts: 0 });
  });

  it('takes a lease over once it expires', async () => {
    const store = createMemoryRobotsStore();
    expect(store.acquireLease(A, 'a dead process', 40)).toBe(true);
    const { fleet, fetches, counters } = fleetOf(store);
    expect(await fleet.load(A, [], false, { fetching: false })).toBe('fetched');
    expect(fetches).toHaveLength(1);
    expect(counters).toMatchObject({ fleetWaits: 1, fleetTimeouts: 0 });
  });

  it('gives up after the longest wait and keeps a failed fetch, never allow-all', async () => {
    const store = createMemoryRobotsStore();
    expect(store.acquireLease(A, 'them', 60_000)).toBe(true);
    const { fleet, fetches, kept, counters } = fleetOf(store, { waitMs: 60 });
    const before = fetched(A, T0 - 1, RULES);
    expect(await fleet.load(A, [before], true, { fetching: false })).toBe('kept');
    expect(fetches).toEqual([]);
    const gaveUp = kept[0]!.lastFetch!;
    expect(gaveUp).toMatchObject({ outcome: 'disallow-all', fetchedAt: T0, error: { kind: 'timeout' } });
    expect(kept[0]!.history).toEqual([before, gaveUp]);
    expect(counters).toMatchObject({ fleetWaits: 1, fleetTimeouts: 1 });
  });

  it('fetches on its own when the store cannot give the lease', async () => {
    const store = createMemoryRobotsStore();
    const broken = { ...store, acquireLease: () => Promise.reject(new Error('down')) };
    const counters = { storeReads: 0, storeWrites: 0, storeErrors: 0, fleetWaits: 0, fleetTimeouts: 0 };
    const leases = new Leases(broken, { holder: 'me', leaseMs: 1000 }, new StoreAccess(store, () => {}, counters));
    const { h, fetches } = host(store);
    const fleet = new Fleet(leases, { waitMs: 1000, pollMs: 5 }, h, clockAt(), counters);
    expect(await fleet.load(A, [], false, { fetching: false })).toBe('fetched');
    expect([fetches.length, counters.storeErrors]).toEqual([1, 1]);
  });
});

describe('unanswered', () => {
  it('is a failed fetch that says another process did not answer', () => {
    expect(unanswered(A, T0, 45_000)).toMatchObject({
      origin: A,
      robotsUrl: `${A}/robots.txt`,
      outcome: 'disallow-all',
      status: null,
      body: null,
      error: { kind: 'timeout', message: `another process fetching ${A}/robots.txt gave no answer within 45000 ms` },
      fetchedAt: T0,
    });
  });
});
