/** One load of an origin alone: memory or store when fresh, else a fetch in a slot, kept and written to the store. */

import { describe, expect, it } from 'vitest';
import { type ClientCounters, newCounters } from '../../../src/fetch/client/counters.js';
import { fleetSettings, Leases, leasingStore, Wakes } from '../../../src/fetch/client/fleet.js';
import { Limiter } from '../../../src/fetch/client/limiter.js';
import { Loader } from '../../../src/fetch/client/loader.js';
import { OriginCache } from '../../../src/fetch/client/origin-cache.js';
import { StoreAccess } from '../../../src/fetch/client/store-access.js';
import { createMemoryRobotsStore, type RetrievalResult, type RobotsStore } from '../../../src/fetch/index.js';
import { clockAt, DAY, fetched, T0 } from './fetches.js';

const A = 'https://a.test';
const RULES = 'User-agent: *\nDisallow: /private/\n';

function loaderOf(store?: RobotsStore, onStoreError?: () => void) {
  const clock = clockAt();
  const cache = new OriginCache({ maxOrigins: 10, maxCachedBytes: 1_000_000 }, {}, 'google', clock);
  const counters: ClientCounters = newCounters();
  const limiter = new Limiter(1);
  const access = store === undefined ? null : new StoreAccess(store, onStoreError, counters);
  const leasing = leasingStore(store);
  const settings = fleetSettings({ holder: 'me', pollMs: 5 });
  const retrieved: string[] = [];
  const loader = new Loader({
    cache,
    store: access,
    fleet:
      leasing === null || access === null
        ? null
        : { leases: new Leases(leasing, settings, access), wakes: new Wakes(leasing, access), settings },
    limiter,
    retrieve: async (origin): Promise<RetrievalResult> => {
      retrieved.push(`${origin} in slot ${limiter.active}`);
      return fetched(origin, clock.now(), RULES);
    },
    availability: {},
    clock,
    counters,
  });
  return { loader, cache, clock, counters, retrieved };
}

describe('Loader', () => {
  it('fetches an origin in a slot and keeps the result, without a store', async () => {
    const { loader, cache, counters, retrieved } = loaderOf();
    const flags = { fetching: true };
    const entry = await loader.load(A, undefined, false, flags);
    expect(retrieved).toEqual([`${A} in slot 1`]);
    expect(cache.entries.get(A)).toBe(entry);
    expect(entry.history.map((f) => f.fetchedAt)).toEqual([T0]);
    expect(counters).toMatchObject({ loads: 1, fetches: 1, storeReads: 0, storeWrites: 0 });
  });

  it('keeps a fresh history from memory or the store instead of fetching, unless forced', async () => {
    const store = createMemoryRobotsStore({ maxOrigins: 10 });
    const stored = [fetched(A, T0 - 1000, RULES)];
    store.set(A, { origin: A, history: stored });
    // Without leases the store is read only for an origin not in memory.
    const plain: RobotsStore = { get: (o) => store.get(o), set: (o, r) => store.set(o, r) };
    const { loader, counters, retrieved } = loaderOf(plain);
    const flags = { fetching: false };
    const entry = await loader.load(A, undefined, false, flags);
    expect(entry.history).toBe(stored);
    expect([retrieved, flags.fetching]).toEqual([[], false]);
    expect((await loader.load(A, entry, false, flags)).history).toBe(stored);
    expect(retrieved).toEqual([]);
    const forced = await loader.load(A, entry, true, flags);
    expect(forced.history.map((f) => f.fetchedAt)).toEqual([T0 - 1000, T0]);
    expect(flags.fetching).toBe(true);
    expect((await store.get(A))?.history).toBe(forced.history);
    expect(counters).toMatchObject({ loads: 3, fetches: 1, storeReads: 1, storeWrites: 1 });
  });

  it('fetches an origin that is due and writes it to the store', async () => {
    const store = createMemoryRobotsStore();
    store.set(A, { origin: A, history: [fetched(A, T0 - 2 * DAY, RULES)] });
    const { loader, retrieved } = loaderOf(store);
    const entry = await loader.load(A, undefined, false, { fetching: false });
    expect(retrieved).toHaveLength(1);
    expect((await store.get(A))?.history).toBe(entry.history);
  });

  it("with fleet leases, takes another process's newer record for an origin it knows instead of fetching", async () => {
    const store = createMemoryRobotsStore();
    const { loader, clock, retrieved } = loaderOf(store);
    const known = await loader.load(A, undefined, false, { fetching: false });
    clock.at = T0 + DAY;
    const theirs = [fetched(A, T0 + DAY - 5, RULES)];
    store.set(A, { origin: A, history: theirs });
    expect((await loader.load(A, known, false, { fetching: false })).history).toBe(theirs);
    expect(retrieved).toHaveLength(1);
  });

  it('keeps a fetch in memory when the store write fails and a handler hears of it', async () => {
    const failures: string[] = [];
    const broken: RobotsStore = {
      get: () => undefined,
      set: () => {
        throw new Error('disk full');
      },
    };
    const { loader, cache } = loaderOf(broken, () => failures.push('set'));
    const entry = await loader.load(A, undefined, false, { fetching: false });
    expect(cache.entries.get(A)).toBe(entry);
    expect(failures).toEqual(['set']);
  });
});
