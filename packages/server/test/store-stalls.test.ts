/**
 * The decide service's word on its store's failures (store-stalls.ts) over a store that fails on demand: one line when
 * the store starts failing, none per further failure, one line with the stall's counts when a call started after the
 * failure is answered (not a call that was already under way), and one at shutdown while it still fails.
 */

import type { RobotsStore, StoredOrigin } from 'robotskit/fetch';
import { describe, expect, it } from 'vitest';
import { watchStoreStalls } from '../src/http/store-stalls.js';

/** A store in memory whose calls fail while `failing` is set, and whose calls can be held until released. */
function flakyStore() {
  const records = new Map<string, StoredOrigin>();
  const held: (() => void)[] = [];
  const state = { failing: false, holding: false };
  const answer = <T>(value: () => T): Promise<T> => {
    if (state.failing) return Promise.reject(new Error('store down'));
    if (!state.holding) return Promise.resolve(value());
    return new Promise<T>((resolve) => held.push(() => resolve(value())));
  };
  const store: RobotsStore = {
    get: (origin) => answer(() => records.get(origin)),
    set: (origin, record) =>
      answer(() => {
        records.set(origin, record);
      }),
    acquireLease: () => answer(() => true),
  };
  return {
    store,
    state,
    release: () => {
      for (const f of held.splice(0)) f();
    },
  };
}

describe('watchStoreStalls', () => {
  it('says a stall once when it starts and once when the store answers again, with its counts', async () => {
    const flaky = flakyStore();
    const lines: string[] = [];
    const stalls = watchStoreStalls(flaky.store, (line) => lines.push(line));
    // The wrapper keeps exactly the methods the store has.
    expect(Object.keys(stalls.store).sort()).toEqual(['acquireLease', 'get', 'set']);
    await stalls.store.get('https://a.invalid');
    expect(lines).toEqual([]);

    flaky.state.failing = true;
    const origins = ['https://a.invalid', 'https://b.invalid', 'https://c.invalid', 'https://b.invalid'];
    for (const origin of origins) {
      await Promise.resolve(stalls.store.get(origin)).catch((error: unknown) =>
        stalls.onStoreError(error, 'get', origin),
      );
    }
    await Promise.resolve(stalls.store.acquireLease!('https://d.invalid', 'me', 1000)).catch((error: unknown) =>
      stalls.onStoreError(error, 'lease', 'https://d.invalid'),
    );
    await Promise.resolve(stalls.store.set('https://a.invalid', { origin: 'https://a.invalid', history: [] })).catch(
      (error: unknown) => stalls.onStoreError(error, 'set', 'https://a.invalid'),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^robots store get https:\/\/a\.invalid failed \(store down\); POST \/api\/decide answers from memory .*said once/,
    );

    flaky.state.failing = false;
    await stalls.store.get('https://e.invalid');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^robots store answers again after failing since \S+Z: 6 store calls failed, 4 origins answered from memory$/,
    );
    // Answers go on without a word; shutdown has nothing to say.
    await stalls.store.get('https://f.invalid');
    stalls.close();
    expect(lines).toHaveLength(2);
  });

  it('is not ended by a call that was under way when the stall began', async () => {
    const flaky = flakyStore();
    const lines: string[] = [];
    const stalls = watchStoreStalls(flaky.store, (line) => lines.push(line));
    flaky.state.holding = true;
    const early = stalls.store.get('https://slow.invalid');
    flaky.state.holding = false;
    stalls.onStoreError(new Error('timed out'), 'get', 'https://other.invalid');
    flaky.release();
    await early;
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    // Shutdown while the stall goes on says so, with the counts.
    stalls.close();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^robots store still failing at shutdown \(since \S+Z\): 1 store call failed, 1 origin answered from memory$/,
    );
  });
});
