/** The crawl client's options with their defaults, and the first bad one refused when the client is made. */

import { describe, expect, it } from 'vitest';
import { resolveClientOptions } from '../../../src/fetch/client/options.js';
import { createMemoryRobotsStore } from '../../../src/fetch/index.js';
import { systemClock } from '../../../src/fetch/shared/types.js';

describe('resolveClientOptions', () => {
  it('applies the defaults and gives every fetch the client User-Agent, clock and fetch', () => {
    const fetch = async () => new Response('');
    const settings = resolveClientOptions({ userAgent: 'MyBot/1.0', fetch, retrieval: { maxBytes: 100 } });
    expect(settings).toMatchObject({
      userAgent: 'MyBot/1.0',
      crawler: 'MyBot/1.0',
      clock: systemClock,
      store: undefined,
      dialect: 'google',
      maxOrigins: 10_000,
      maxCachedBytes: 64 * 1024 * 1024,
      maxConcurrentFetches: 64,
      // A lease renewed while its fetch runs; a wait as long as a lease can live plus a fetch (30 s) and 5 s.
      fleet: { leaseMs: 10_000, waitMs: 45_000, pollMs: 250 },
      retrieval: { userAgent: 'MyBot/1.0', clock: systemClock, fetch, maxBytes: 100 },
    });
    // Answers from memory read the system clock through a turn clock, not at every question.
    expect(settings.hitClock).not.toBe(systemClock);
  });

  it('uses a clock given for both fetches and answers, and keeps the retrieval User-Agent given', () => {
    const clock = { now: () => 0 };
    const store = createMemoryRobotsStore();
    const settings = resolveClientOptions({ userAgent: 'MyBot', clock, store, retrieval: { userAgent: 'Other/2' } });
    expect([settings.clock, settings.hitClock, settings.store, settings.retrieval.userAgent]).toEqual([
      clock,
      clock,
      store,
      'Other/2',
    ]);
  });

  it('refuses bad options with one-line errors', () => {
    expect(() => resolveClientOptions(null as never)).toThrow('options must be an object');
    expect(() => resolveClientOptions({ userAgent: ' ' })).toThrow(TypeError);
    expect(() => resolveClientOptions({ userAgent: 'x', maxCachedBytes: 1.5 })).toThrow(
      'maxCachedBytes must be a positive integer',
    );
    expect(() => resolveClientOptions({ userAgent: 'x', fleet: { waitMs: -1 } })).toThrow(
      'fleet.waitMs must be a positive integer',
    );
    expect(() => resolveClientOptions({ userAgent: 'x', availability: { retry: { maxDelay: -1 } } })).toThrow(
      RangeError,
    );
  });
});
