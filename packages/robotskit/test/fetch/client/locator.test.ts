/** From a URL to its origin: sliced when the string is canonical, memory searched once, the parser otherwise. */

import { describe, expect, it } from 'vitest';
import { Locator } from '../../../src/fetch/client/locator.js';
import { OriginCache } from '../../../src/fetch/client/origin-cache.js';
import type { Load } from '../../../src/fetch/client/origin-states.js';
import { RobotsUrlError } from '../../../src/index.js';
import { clockAt, fetched, T0 } from './fetches.js';

const A = 'https://a.test';

function locatorOf() {
  const cache = new OriginCache({ maxOrigins: 10, maxCachedBytes: 1_000_000 }, {}, 'google', clockAt());
  const inflight = new Map<string, Load>();
  return { locator: new Locator(cache.entries, inflight), cache, inflight };
}

describe('Locator', () => {
  it('slices a canonical URL of an origin it does not keep, and finds nothing', () => {
    const { locator } = locatorOf();
    expect(locator.locate(`${A}/shop?id=1`)).toBe(A);
    expect([locator.target, locator.entry, locator.load]).toEqual([`${A}/shop?id=1`, undefined, undefined]);
    expect(locator.locate('http://b.test:8080')).toBe('http://b.test:8080');
  });

  it("finds a kept origin's entry with the same lookup", () => {
    const { locator, cache } = locatorOf();
    const entry = cache.keep(A, [fetched(A, T0, 'User-agent: *\nDisallow: /\n')]);
    expect(locator.locate(`${A}/page#top`)).toBe(A);
    expect(locator.entry).toBe(entry);
    expect(locator.target).toBe(`${A}/page#top`);
    // Each locate starts afresh.
    locator.locate('https://b.test/');
    expect(locator.entry).toBeUndefined();
  });

  it('finds an origin being loaded', () => {
    const { locator, inflight } = locatorOf();
    const load: Load = { promise: new Promise(() => {}), flags: { fetching: true } };
    inflight.set(A, load);
    expect(locator.locate(`${A}/x`)).toBe(A);
    expect([locator.load, locator.entry]).toEqual([load, undefined]);
  });

  it('leaves a URL that is not in canonical form to the parser, with the same origin', () => {
    const { locator, cache } = locatorOf();
    cache.keep(A, [fetched(A, T0, null)]);
    for (const url of [`${A}/a b`, 'HTTPS://A.TEST/x', 'https://a.test:443/x', new URL(`${A}/y`)]) {
      expect(locator.locate(url)).toBe(A);
      expect(locator.target).toBeInstanceOf(URL);
      expect(locator.entry).toBeUndefined();
    }
    expect((locator.target as URL).href).toBe(`${A}/y`);
  });

  it('refuses what has no robots.txt', () => {
    const { locator } = locatorOf();
    expect(() => locator.locate('not a url')).toThrow(RobotsUrlError);
    expect(() => locator.locate('mailto:a@b.test')).toThrow(RobotsUrlError);
  });
});
