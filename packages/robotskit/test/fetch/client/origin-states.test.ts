/** An origin's state when a question comes: a hit from memory, a load joined, or a load started (one per origin). */

import { describe, expect, it } from 'vitest';
import { newCounters } from '../../../src/fetch/client/counters.js';
import type { LoadFlags } from '../../../src/fetch/client/loader.js';
import { type CachedOrigin, OriginCache } from '../../../src/fetch/client/origin-cache.js';
import { OriginStates } from '../../../src/fetch/client/origin-states.js';
import { clockAt, DAY, deferred, fetched, T0 } from './fetches.js';

const A = 'https://a.test';
const RULES = 'User-agent: *\nDisallow: /private/\n';

/** States over a real cache and a loader whose loads the test ends. */
function statesOf(hasStore = false) {
  const clock = clockAt();
  const cache = new OriginCache({ maxOrigins: 10, maxCachedBytes: 1_000_000 }, {}, 'google', clock);
  const counters = newCounters();
  const loads: {
    origin: string;
    known: CachedOrigin | undefined;
    force: boolean;
    flags: LoadFlags;
    end: ReturnType<typeof deferred<CachedOrigin>>;
  }[] = [];
  const loader = {
    load(origin: string, known: CachedOrigin | undefined, force: boolean, flags: LoadFlags) {
      const end = deferred<CachedOrigin>();
      loads.push({ origin, known, force, flags: { ...flags }, end });
      return end.promise;
    },
  };
  const states = new OriginStates(cache, clock, counters, loader, hasStore);
  return { states, cache, clock, counters, loads };
}

describe('OriginStates', () => {
  it('answers a fresh origin from memory, at once, with the reading it compared', () => {
    const { states, cache, clock, counters, loads } = statesOf();
    const entry = cache.keep(A, [fetched(A, T0, RULES)]);
    clock.at = T0 + 5;
    expect(states.stateOf(A, false)).toBe(entry);
    expect(states.hitNow).toBe(T0 + 5);
    expect(counters.hits).toBe(1);
    expect(loads).toEqual([]);
  });

  it('starts one load for an origin not in memory, joined by every question until it settles', async () => {
    const { states, counters, loads, cache } = statesOf();
    const first = states.stateOf(A, false);
    const second = states.stateOf(A, false);
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    expect([counters.joined, states.inflight.has(A)]).toEqual([1, true]);
    // The load itself starts a microtask later, out of the question's own call.
    expect(loads).toHaveLength(0);
    await Promise.resolve();
    expect(loads).toHaveLength(1);
    expect(loads[0]).toMatchObject({ origin: A, known: undefined, force: false, flags: { fetching: true } });
    const entry = cache.keep(A, [fetched(A, T0, RULES)]);
    loads[0]!.end.resolve(entry);
    expect(await first).toBe(entry);
    expect(states.inflight.size).toBe(0);
  });

  it('loads an origin again when it is due, or on a recrawl, with what memory holds', async () => {
    const { states, cache, clock, loads } = statesOf();
    const entry = cache.keep(A, [fetched(A, T0, RULES)]);
    clock.at = T0 + DAY;
    void states.stateOf(A, false);
    await Promise.resolve();
    expect(loads[0]).toMatchObject({ known: entry, force: false });
    loads[0]!.end.resolve(entry);
    await loads[0]!.end.promise;
    await new Promise((resolve) => setImmediate(resolve));
    void states.stateOf(A, true);
    await Promise.resolve();
    expect(loads[1]).toMatchObject({ known: entry, force: true, flags: { fetching: true } });
  });

  it('forgets a load that failed, so that the next question loads again', async () => {
    const { states, loads } = statesOf();
    const failing = states.stateOf(A, false) as Promise<CachedOrigin>;
    await Promise.resolve();
    loads[0]!.end.reject(new Error('store down'));
    await expect(failing).rejects.toThrow('store down');
    expect(states.inflight.size).toBe(0);
    void states.stateOf(A, false);
    await Promise.resolve();
    expect(loads).toHaveLength(2);
  });

  it('makes a recrawl wait for a load that only reads the store, then fetch; and join a load that fetches', async () => {
    const { states, cache, loads } = statesOf(true);
    const reading = states.stateOf(A, false);
    await Promise.resolve();
    // With a store, a load of an origin not in memory reads it before deciding to fetch.
    expect(loads[0]!.flags.fetching).toBe(false);
    const recrawl = states.stateOf(A, true);
    expect(recrawl).not.toBe(reading);
    const stored = cache.keep(A, [fetched(A, T0, RULES)]);
    loads[0]!.end.resolve(stored);
    await reading;
    await new Promise((resolve) => setImmediate(resolve));
    expect(loads[1]).toMatchObject({ known: stored, force: true, flags: { fetching: true } });
    // A second recrawl joins the fetching one.
    expect(states.stateOf(A, true)).toBe(states.inflight.get(A)!.promise);
    loads[1]!.end.resolve(stored);
    expect(await recrawl).toBe(stored);
  });
});
