/**
 * The fleet's single flight alone, over a memory store and a host the test plays: leases taken only in a free fetch
 * slot, renewed while the fetch runs, records published with the lease given up, waiters woken by the store, an
 * expired lease taken over, a wait that runs out ending in a fetch of the waiter's own (never a failure).
 */

import { describe, expect, it } from 'vitest';
import { Fleet, type FleetHost, fleetSettings, Leases, leasingStore, Wakes } from '../../../src/fetch/client/fleet.js';
import { Limiter } from '../../../src/fetch/client/limiter.js';
import { StoreAccess } from '../../../src/fetch/client/store-access.js';
import {
  createMemoryRobotsStore,
  type RetrievalResult,
  type RobotsStore,
  type StoredOrigin,
} from '../../../src/fetch/index.js';
import { clockAt, fetched, T0 } from './fetches.js';

const A = 'https://a.test';
const RULES = 'User-agent: *\nDisallow: /private/\n';

/** A host whose histories are fresh once fetched; each retrieval a new `rules` fetch, held until `gate` resolves. */
function host(limiter: Limiter) {
  const fetches: number[] = [];
  const kept: (readonly RetrievalResult[])[] = [];
  let gate: Promise<void> = Promise.resolve();
  const h: FleetHost<string> = {
    isFresh: (history) => history.length > 0,
    nextFetchAt: (history) => (history.at(-1)?.fetchedAt ?? 0) + 60_000,
    async retrieve(origin, flags) {
      flags.fetching = true;
      // The slot is held by the caller while the fetch runs.
      fetches.push(limiter.active);
      await gate;
      return fetched(origin, T0 + fetches.length, RULES);
    },
    keep(_origin, history) {
      kept.push(history);
      return 'kept';
    },
  };
  return {
    h,
    fetches,
    kept,
    hold(): () => void {
      let open = () => {};
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return open;
    },
  };
}

function fleetOf(
  store: RobotsStore,
  settings: { waitMs?: number; pollMs?: number; leaseMs?: number } = {},
  slots = 2,
  onStoreError?: () => void,
) {
  const counters = { storeReads: 0, storeWrites: 0, storeErrors: 0, fleetWaits: 0, fleetTimeouts: 0 };
  const s = fleetSettings({ waitMs: 5000, pollMs: 5000, leaseMs: 1000, holder: 'me', ...settings });
  const access = new StoreAccess(store, onStoreError, counters);
  const leases = new Leases(leasingStore(store)!, s, access);
  const limiter = new Limiter(slots);
  const parts = host(limiter);
  const fleet = new Fleet({
    leases,
    wakes: new Wakes(store, access),
    settings: s,
    limiter,
    access,
    host: parts.h,
    clock: clockAt(),
    counters,
  });
  return { fleet, counters, limiter, ...parts };
}

/** A memory store with every call counted by name. */
function counted(store = createMemoryRobotsStore()) {
  const calls: string[] = [];
  const call = <R>(name: string, result: R): R => {
    calls.push(name);
    return result;
  };
  const wrapped: RobotsStore = {
    get: (o) => call('get', store.get(o)),
    set: (o, r) => call('set', store.set(o, r)),
    acquireLease: (o, h, t) => call('acquire', store.acquireLease(o, h, t)),
    releaseLease: (o, h) => call('release', store.releaseLease(o, h)),
    claimLease: (o, h, t, n, w) => call('claim', store.claimLease(o, h, t, n, w)),
    publish: (o, r, h) => call('publish', store.publish(o, r, h)),
    subscribe: (l) => store.subscribe(l),
  };
  return { store: wrapped, calls, inner: store };
}

const rules = (at = T0): StoredOrigin => ({ origin: A, history: [fetched(A, at, RULES)], nextFetchAt: at + 60_000 });

describe('fleet settings', () => {
  it('default to a 10 s lease and a wait as long as a lease can live plus a fetch, polling slowly with wake-ups', () => {
    const a = fleetSettings(undefined);
    expect(a).toMatchObject({ leaseMs: 10_000, waitMs: 45_000, pollMs: 250 });
    expect(a.holder).not.toBe(fleetSettings({}).holder);
    expect(fleetSettings({ leaseMs: 20_000 }, 10_000, true)).toMatchObject({ waitMs: 35_000, pollMs: 10_000 });
    // However it is set, the wait covers the lease's life: a killed holder is taken over, not waited out.
    expect(a.waitMs).toBeGreaterThan(a.leaseMs + 30_000);
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
  it('claim: fresh record, held, or held elsewhere with the time the lease has left', async () => {
    const store = createMemoryRobotsStore();
    const c = { storeReads: 0, storeWrites: 0, storeErrors: 0 };
    const access = new StoreAccess(store, undefined, c);
    const mine = new Leases(store, { holder: 'me', leaseMs: 1000, waitMs: 5000 }, access);
    const theirs = new Leases(store, { holder: 'them', leaseMs: 1000, waitMs: 5000 }, access);
    expect(await mine.claim(A, T0)).toEqual({ lease: 'held', record: undefined, leaseLeftMs: 0 });
    const elsewhere = await theirs.claim(A, T0);
    expect(elsewhere).toMatchObject({ lease: 'elsewhere', record: undefined });
    expect((elsewhere as { leaseLeftMs: number }).leaseLeftMs).toBeGreaterThan(0);
    expect((elsewhere as { leaseLeftMs: number }).leaseLeftMs).toBeLessThanOrEqual(1000);
    await mine.publish(A, rules());
    expect(await theirs.claim(A, T0)).toEqual({ lease: 'fresh', record: rules(), leaseLeftMs: 0 });
    // Due by the record's own schedule: the lease is free again after the publish.
    expect(await theirs.claim(A, T0 + 60_000)).toMatchObject({ lease: 'held', record: rules() });
    expect(c).toEqual({ storeReads: 4, storeWrites: 1, storeErrors: 0 });
  });

  it('claim over a store with only get and the lease calls: a read, the lease, and a read again when taken', async () => {
    const { store, calls, inner } = counted();
    const plain: RobotsStore = {
      get: store.get,
      set: store.set,
      acquireLease: store.acquireLease!,
      releaseLease: store.releaseLease!,
    };
    const access = new StoreAccess(plain, undefined, { storeReads: 0, storeWrites: 0, storeErrors: 0 });
    const leases = new Leases(leasingStore(plain)!, { holder: 'me', leaseMs: 1000, waitMs: 5000 }, access);
    expect(await leases.claim(A, T0)).toMatchObject({ lease: 'held' });
    await leases.publish(A, rules());
    expect(await leases.claim(A, T0)).toMatchObject({ lease: 'fresh', record: rules() });
    expect(calls).toEqual(['get', 'acquire', 'get', 'set', 'release', 'get']);
    expect(inner.acquireLease(A, 'other', 1000)).toBe(true);
  });

  it('claim gives the lease back when another holder published between the read and the lease', async () => {
    const inner = createMemoryRobotsStore();
    // The other holder writes its record and gives its lease up right after this client read the store.
    const racing: RobotsStore = {
      get: inner.get,
      set: inner.set,
      acquireLease: (o, h, t) => {
        inner.set(o, rules());
        return inner.acquireLease(o, h, t);
      },
      releaseLease: inner.releaseLease,
    };
    const access = new StoreAccess(racing, undefined, { storeReads: 0, storeWrites: 0, storeErrors: 0 });
    const leases = new Leases(leasingStore(racing)!, { holder: 'me', leaseMs: 1000, waitMs: 5000 }, access);
    expect(await leases.claim(A, T0)).toEqual({ lease: 'fresh', record: rules(), leaseLeftMs: 0 });
    // The lease went back: another holder takes it at once.
    expect(inner.acquireLease(A, 'other', 1000)).toBe(true);
  });

  it('report a failed claim as unreachable, and only note a failed renewal or release', async () => {
    const store = createMemoryRobotsStore();
    const seen: string[] = [];
    const c = { storeReads: 0, storeWrites: 0, storeErrors: 0 };
    const access = new StoreAccess(store, (_e, operation) => seen.push(operation), c);
    const down = () => Promise.reject(new Error('down'));
    const broken = { ...store, claimLease: down, acquireLease: down, releaseLease: down };
    const leases = new Leases(broken, { holder: 'me', leaseMs: 1000, waitMs: 5000 }, access);
    expect(await leases.claim(A, T0)).toBe('unreachable');
    expect(await leases.take(A)).toBe('unreachable');
    await leases.renew(A);
    await leases.release(A);
    expect(seen).toEqual(['lease', 'lease', 'renew', 'release']);
    const silent = new Leases(
      broken,
      { holder: 'me', leaseMs: 1000, waitMs: 5000 },
      new StoreAccess(store, undefined, c),
    );
    await expect(silent.claim(A, T0)).rejects.toThrow('down');
    await expect(silent.release(A)).resolves.toBeUndefined();
  });
});

describe('Fleet.load', () => {
  it('claims in a free fetch slot, fetches in it, and publishes the record, giving the lease up: two calls', async () => {
    const { store, calls, inner } = counted();
    const { fleet, fetches, limiter, counters } = fleetOf(store);
    const flags = { fetching: false };
    expect(await fleet.load(A, null, false, flags)).toBe('kept');
    expect(fetches).toEqual([1]);
    expect(flags.fetching).toBe(true);
    expect(calls).toEqual(['claim', 'publish']);
    expect(limiter.active).toBe(0);
    expect(inner.acquireLease(A, 'someone else', 1000)).toBe(true);
    expect((await inner.get(A))?.nextFetchAt).toBe(T0 + 1 + 60_000);
    expect(counters).toMatchObject({ fleetWaits: 0, fleetTimeouts: 0, storeReads: 1, storeWrites: 1 });
  });

  it('takes no lease while its fetch slots are busy, and gives the slot back while it waits', async () => {
    const store = createMemoryRobotsStore();
    const { fleet, limiter, hold, fetches } = fleetOf(store, {}, 1);
    const open = hold();
    const first = fleet.load('https://b.test', null, false, { fetching: false });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(limiter.active).toBe(1);
    const second = fleet.load(A, null, false, { fetching: false });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The second origin waits for a slot, not holding its lease.
    expect(store.acquireLease(A, 'another process', 1000)).toBe(true);
    store.releaseLease(A, 'another process');
    open();
    await Promise.all([first, second]);
    expect(fetches).toEqual([1, 1]);
  });

  it('renews the lease while a slow fetch runs, so that no one takes it over', async () => {
    const store = createMemoryRobotsStore();
    const { fleet, hold } = fleetOf(store, { leaseMs: 90 });
    const open = hold();
    const load = fleet.load(A, null, false, { fetching: false });
    // Three lease lifetimes: without the heartbeat the lease would be free.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(store.acquireLease(A, 'another process', 1000)).toBe(false);
    open();
    await load;
    expect(store.acquireLease(A, 'another process', 1000)).toBe(true);
  });

  it('keeps a fresh record the claim found instead of fetching, and a newer one even for a recrawl', async () => {
    const store = createMemoryRobotsStore();
    const { fleet, fetches, kept } = fleetOf(store);
    store.set(A, rules());
    expect(await fleet.load(A, null, false, { fetching: false })).toBe('kept');
    const older = [fetched(A, T0 - 10, RULES)];
    expect(await fleet.load(A, older, true, { fetching: false })).toBe('kept');
    expect(fetches).toEqual([]);
    expect(kept).toEqual([rules().history, rules().history]);
    // A recrawl of what it has: fetched after it.
    await fleet.load(A, rules().history, true, { fetching: false });
    expect(fetches).toHaveLength(1);
    expect(kept[2]!.map((f) => f.fetchedAt)).toEqual([T0, T0 + 1]);
  });

  it("is woken by the store with another holder's record, without reading the store again", async () => {
    const { store, calls, inner } = counted();
    expect(inner.acquireLease(A, 'them', 60_000)).toBe(true);
    const { fleet, fetches, kept, counters } = fleetOf(store, { pollMs: 60_000 });
    const load = fleet.load(A, null, false, { fetching: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    inner.publish(A, rules(), 'them');
    expect(await load).toBe('kept');
    expect(fetches).toEqual([]);
    expect(kept).toEqual([rules().history]);
    expect(calls).toEqual(['claim']);
    expect(counters).toMatchObject({ fleetWaits: 1, fleetTimeouts: 0 });
  });

  it('claims again when woken without a record (a lease given up) and fetches under the lease', async () => {
    const store = createMemoryRobotsStore();
    expect(store.acquireLease(A, 'them', 60_000)).toBe(true);
    const { fleet, fetches } = fleetOf(store, { pollMs: 60_000 });
    const load = fleet.load(A, null, false, { fetching: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    store.releaseLease(A, 'them');
    expect(await load).toBe('kept');
    expect(fetches).toHaveLength(1);
  });

  it('takes a lease over when it ends (its holder died), not after the slow poll', async () => {
    const store = createMemoryRobotsStore();
    expect(store.acquireLease(A, 'a dead process', 60)).toBe(true);
    const { fleet, fetches, counters } = fleetOf(store, { pollMs: 60_000 });
    expect(await fleet.load(A, null, false, { fetching: false })).toBe('kept');
    expect(fetches).toHaveLength(1);
    expect(counters).toMatchObject({ fleetWaits: 1, fleetTimeouts: 0 });
  });

  it('reads the store every pollMs without wake-ups', async () => {
    const inner = createMemoryRobotsStore();
    const { subscribe: _s, claimLease: _c, publish: _p, ...plain } = inner;
    expect(inner.acquireLease(A, 'them', 60_000)).toBe(true);
    const { fleet, fetches, kept } = fleetOf(plain, { pollMs: 10 });
    const load = fleet.load(A, null, false, { fetching: false });
    setTimeout(() => inner.set(A, rules()), 40);
    expect(await load).toBe('kept');
    expect([fetches, kept]).toEqual([[], [rules().history]]);
  });

  it('fetches itself when its wait runs out: never a failure of the site', async () => {
    const store = createMemoryRobotsStore();
    expect(store.acquireLease(A, 'a process that hangs', 600_000)).toBe(true);
    const { fleet, fetches, kept, counters } = fleetOf(store, { waitMs: 50, pollMs: 10 });
    const before = [fetched(A, T0 - 1, RULES)];
    expect(await fleet.load(A, before, true, { fetching: false })).toBe('kept');
    expect(fetches).toHaveLength(1);
    expect(kept[0]!.map((f) => [f.outcome, f.fetchedAt])).toEqual([
      ['rules', T0 - 1],
      ['rules', T0 + 1],
    ]);
    expect(counters).toMatchObject({ fleetWaits: 1, fleetTimeouts: 1 });
    // Its record is written; the other's lease is left alone.
    expect((await store.get(A))?.history).toEqual(kept[0]);
    expect(store.acquireLease(A, 'someone', 1000)).toBe(false);
  });

  it('fetches on its own when the store cannot give the lease', async () => {
    const store = createMemoryRobotsStore();
    const broken = { ...store, claimLease: () => Promise.reject(new Error('down')) };
    const { fleet, fetches, counters } = fleetOf(broken, {}, 2, () => {});
    expect(await fleet.load(A, null, false, { fetching: false })).toBe('kept');
    expect([fetches.length, counters.storeErrors]).toEqual([1, 1]);
  });
});
