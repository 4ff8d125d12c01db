/**
 * The client's questions over origins put in memory by the test: answers from memory without a load, the matcher kept
 * per crawler, verdicts, peek, crawl-delay, sitemaps, and loads only when an origin is missing or due.
 */

import { describe, expect, it } from 'vitest';
import { newCounters } from '../../../src/fetch/client/counters.js';
import { Locator } from '../../../src/fetch/client/locator.js';
import { type CachedOrigin, OriginCache } from '../../../src/fetch/client/origin-cache.js';
import { OriginStates } from '../../../src/fetch/client/origin-states.js';
import { Questions } from '../../../src/fetch/client/questions.js';
import { crawlerByName } from '../../../src/index.js';
import { clockAt, DAY, fetched, HOUR, T0 } from './fetches.js';

const A = 'https://a.test';
const RULES =
  'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: MyBot\nDisallow: /no-mybot/\n\nSitemap: https://a.test/sitemap.xml\n';

/** Questions over a cache the test fills; a load keeps a fresh 404 and is counted. */
function questionsOf() {
  const clock = clockAt();
  const cache = new OriginCache({ maxOrigins: 10, maxCachedBytes: 1_000_000 }, {}, 'google', clock);
  const counters = newCounters();
  const loaded: string[] = [];
  const loader = {
    async load(origin: string): Promise<CachedOrigin> {
      loaded.push(origin);
      return cache.keep(origin, [fetched(origin, clock.now(), null)]);
    },
  };
  const states = new OriginStates(cache, clock, counters, loader, false);
  const questions = new Questions(new Locator(cache.entries, states.inflight), states, cache, counters, clock);
  return { questions, cache, clock, counters, loaded, states };
}

describe('Questions', () => {
  it('answer an origin in memory without a load, with a promise already settled', async () => {
    const { questions, cache, counters, loaded } = questionsOf();
    cache.keep(A, [fetched(A, T0, RULES)]);
    const settled: boolean[] = [];
    void questions.isAllowed(`${A}/private/x`, 'OtherBot').then((allowed) => settled.push(allowed));
    void questions.isAllowed(`${A}/private/x`, 'MyBot').then((allowed) => settled.push(allowed));
    await Promise.resolve();
    expect(settled).toEqual([false, true]);
    expect([counters.hits, loaded]).toEqual([2, []]);
  });

  it("keep the matcher of the last crawler name asked about on the origin's entry", async () => {
    const { questions, cache } = questionsOf();
    const entry = cache.keep(A, [fetched(A, T0, RULES)]);
    expect(await questions.isAllowed(`${A}/no-mybot/a`, 'MyBot')).toBe(false);
    const matcher = entry.matcher;
    expect([entry.matcherFor, matcher]).toEqual(['MyBot', expect.anything()]);
    expect(await questions.isAllowed(`${A}/no-mybot/b`, 'MyBot')).toBe(false);
    expect(entry.matcher).toBe(matcher);
    // A profile is matched afresh each time (it is no name to compare).
    expect(await questions.isAllowed(`${A}/private/a`, crawlerByName('Googlebot')!)).toBe(false);
    expect(entry.matcherFor).toBeNull();
  });

  it('explain a URL with its canonical form, the deciding rule, the policy and the latest fetch', async () => {
    const { questions, cache } = questionsOf();
    const good = fetched(A, T0, RULES);
    cache.keep(A, [good]);
    const verdict = await questions.explain(`${A}/no-mybot/x?q=1`, 'MyBot');
    expect(verdict).toMatchObject({
      url: `${A}/no-mybot/x?q=1`,
      allowed: false,
      origin: A,
      robotsUrl: `${A}/robots.txt`,
      line: 6,
      rule: { kind: 'disallow', pattern: '/no-mybot/' },
      policy: { mode: 'rules', reason: 'fetched' },
      latest: good,
    });
    expect((await questions.explain(A, 'MyBot')).url).toBe(`${A}/`);
  });

  it('answer by the policy alone when no file applies', async () => {
    const { questions, cache } = questionsOf();
    cache.keep(A, [fetched(A, T0, null)]);
    cache.keep('https://down.test', [fetched('https://down.test', T0, null, 'disallow-all')]);
    expect(await questions.explain(`${A}/private/x`, 'MyBot')).toMatchObject({
      allowed: true,
      line: 0,
      explanation: null,
    });
    expect(await questions.isAllowed('https://down.test/', 'MyBot')).toBe(false);
    expect(await questions.crawlDelay(`${A}/`, 'MyBot')).toBeNull();
  });

  it('peek from memory only: null for an origin missing, being loaded or due', async () => {
    const { questions, cache, clock, loaded } = questionsOf();
    expect(questions.peek(`${A}/x`, 'MyBot')).toBeNull();
    cache.keep(A, [fetched(A, T0, RULES)]);
    expect(questions.peek(`${A}/private/x`, 'OtherBot')).toMatchObject({ allowed: false, line: 2 });
    clock.at = T0 + DAY;
    expect(questions.peek(`${A}/private/x`, 'OtherBot')).toBeNull();
    const loading = questions.isAllowed(`${A}/private/x`, 'OtherBot');
    expect(questions.peek(`${A}/private/x`, 'OtherBot')).toBeNull();
    expect(await loading).toBe(true);
    expect(loaded).toEqual([A]);
    expect(questions.peek(`${A}/private/x`, 'OtherBot')).toMatchObject({ allowed: true });
  });

  it('give the crawl-delay and the sitemaps of the file in force, and the last good one while fetches fail', async () => {
    const { questions, cache, clock, loaded } = questionsOf();
    const good = fetched(A, T0, RULES);
    // Failing since T0 + 1 day; the latest failure just now, its retry not due.
    const failing = [
      fetched(A, T0 + DAY, null, 'disallow-all'),
      fetched(A, T0 + DAY + 13 * HOUR, null, 'disallow-all'),
    ];
    cache.keep(A, [good, ...failing]);
    clock.at = T0 + DAY + 13 * HOUR;
    expect(await questions.crawlDelay(`${A}/`, 'OtherBot')).toBe(2);
    expect(await questions.sitemaps(A)).toEqual(['https://a.test/sitemap.xml']);
    const policy = await questions.policyFor(`${A}/any`, false);
    expect(policy).toMatchObject({ origin: A, policy: { mode: 'rules', reason: 'last-good-version' } });
    expect(policy.robots?.isAllowed('/private/', 'OtherBot')).toBe(false);
    expect(loaded).toEqual([]);
  });

  it('load an origin on a recrawl whatever its cache lifetime', async () => {
    const { questions, cache, loaded } = questionsOf();
    cache.keep(A, [fetched(A, T0, RULES)]);
    expect((await questions.policyFor(A, false)).policy.mode).toBe('rules');
    expect(loaded).toEqual([]);
    expect((await questions.policyFor(A, true)).policy.mode).toBe('allow-all');
    expect(loaded).toEqual([A]);
  });
});
