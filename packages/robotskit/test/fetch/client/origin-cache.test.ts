/** The origins in the crawl client's memory: entries, their bounds, and each entry's policy computed once. */

import { describe, expect, it } from 'vitest';
import { OriginCache, weightOf } from '../../../src/fetch/client/origin-cache.js';
import { clockAt, DAY, fetched, HOUR, T0 } from './fetches.js';

const A = 'https://a.test';
const RULES = 'User-agent: *\nDisallow: /private/\n';

function cacheOf(limits = { maxOrigins: 10, maxCachedBytes: 1_000_000 }, clock = clockAt()) {
  return { cache: new OriginCache(limits, {}, 'google', clock), clock };
}

describe('OriginCache', () => {
  it('keeps a history with its robots.txt URL, latest fetch and next fetch time', () => {
    const { cache } = cacheOf();
    const good = fetched(A, T0, RULES);
    const entry = cache.keep(A, [good]);
    expect(entry).toMatchObject({ origin: A, robotsUrl: `${A}/robots.txt`, lastFetch: good, nextFetchAt: T0 + DAY });
    expect(cache.entries.get(A)).toBe(entry);
    // A fetch the timeline ignores is still the latest one made.
    const aborted = {
      ...fetched(A, T0 + HOUR, null, 'disallow-all'),
      error: { kind: 'aborted' as const, message: 'x', phase: 'request' as const, code: null },
    };
    expect(cache.keep(A, [good], aborted).lastFetch).toBe(aborted);
  });

  it('weighs an origin by its distinct bodies, twice each, plus 1 KiB per fetch', () => {
    const good = fetched(A, T0, RULES);
    expect(weightOf([good])).toBe(1024 + 2 * RULES.length);
    const failed = fetched(A, T0 + DAY, null, 'disallow-all');
    expect(weightOf([good, good, failed])).toBe(3 * 1024 + 2 * RULES.length);
  });

  it('forgets the least recently used origins beyond its count and its bytes', () => {
    const { cache } = cacheOf({ maxOrigins: 2, maxCachedBytes: 10_000 });
    cache.keep('https://1.test', [fetched('https://1.test', T0, RULES)]);
    cache.keep('https://2.test', [fetched('https://2.test', T0, RULES)]);
    cache.entries.get('https://1.test');
    cache.keep('https://3.test', [fetched('https://3.test', T0, RULES)]);
    expect(cache.entries.get('https://2.test')).toBeUndefined();
    expect(cache.entries.size).toBe(2);
    cache.keep('https://big.test', [fetched('https://big.test', T0, 'x'.repeat(4000))]);
    expect([cache.entries.size, cache.entries.evictions]).toEqual([1, 3]);
  });

  it('parses a file once per fetch, and not at all for a fetch without rules', () => {
    const { cache } = cacheOf();
    const good = fetched(A, T0, RULES);
    const robots = cache.robotsOf(good);
    expect(robots?.isAllowed('/private/x', 'MyBot')).toBe(false);
    expect(cache.robotsOf(good)).toBe(robots);
    expect(cache.robotsOf(fetched(A, T0, null))).toBeNull();
    expect(cache.robotsOf(null)).toBeNull();
  });

  it('keeps a policy until it runs out, then computes the next one with its file and a new matcher', () => {
    const { cache, clock } = cacheOf();
    const good = fetched(A, T0, RULES);
    const failed = fetched(A, T0 + DAY, null, 'disallow-all');
    const entry = cache.keep(A, [good, failed]);
    clock.at = T0 + DAY;
    const stopped = cache.policyOf(entry);
    expect(stopped).toMatchObject({ mode: 'disallow-all', reason: 'unreachable', until: T0 + DAY + 12 * HOUR });
    expect(entry.robots).toBeNull();
    expect(cache.policyOf(entry, T0 + DAY + 12 * HOUR - 1)).toBe(stopped);
    entry.matcherFor = 'MyBot';
    const lastGood = cache.policyOf(entry, T0 + DAY + 12 * HOUR);
    expect(lastGood).toMatchObject({ mode: 'rules', reason: 'last-good-version', source: good });
    expect(entry.robots).toBe(cache.robotsOf(good));
    expect(entry.matcherFor).toBeNull();
    expect(cache.policyOf(entry, T0 + 2 * DAY)).toBe(lastGood);
  });

  it('counts a history as known now when the clock reads earlier than its latest fetch', () => {
    const { cache, clock } = cacheOf();
    // Written to a shared store by a machine whose clock runs ahead.
    const entry = cache.keep(A, [fetched(A, T0 + HOUR, RULES)]);
    clock.at = T0;
    expect(cache.policyOf(entry)).toMatchObject({ mode: 'rules', reason: 'fetched' });
  });
});
