/**
 * The crawl client against real servers on 127.0.0.1: one fetch per origin however many concurrent questions, caching
 * by the injected clock, never failing open, bounded memory, the store.
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryRobotsStore,
  createRobotsClient,
  type RetrievalResult,
  type RobotsStore,
  retrievalFromJson,
  retrievalToJson,
  type StoredOrigin,
} from '../../src/fetch/index.js';
import { crawlerByName, RobotsUrlError } from '../../src/index.js';
import { DAY, fakeClock, HOUR, MINUTE, serverPool, type TestServer } from './servers.js';

const pool = serverPool();
afterEach(() => pool.closeAll());

const RULES =
  'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: MyBot\nDisallow: /no-mybot/\nCrawl-delay: 0.5\n\nSitemap: https://example.com/sitemap.xml\n';

/** A server whose robots.txt answer the test can change. */
async function site(initial: { status: number; body?: string; headers?: Record<string, string> }) {
  let answer = initial;
  const server = await pool.http((_req, res) => {
    res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
    res.end(answer.body ?? '');
  });
  return Object.assign(server, {
    answer(next: typeof initial) {
      answer = next;
    },
    robotsRequests: () => server.requests.filter((r) => r.path === '/robots.txt').length,
  });
}

describe('the system clock', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is read once for many answers from memory in one turn of the event loop, and again after it', async () => {
    const s = await site({ status: 200, body: RULES });
    let now = Date.UTC(2026, 0, 1);
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const client = createRobotsClient({ userAgent: 'MyBot' });
    expect(await client.isAllowed(`${s.origin}/a`)).toBe(true);
    expect(s.robotsRequests()).toBe(1);
    // A turn later: the first answer from memory reads the clock.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await client.isAllowed(`${s.origin}/no-mybot/x`)).toBe(false);
    // A day and more passes within the turn: the answers of this turn keep its reading, from memory.
    now += 25 * HOUR;
    for (let i = 0; i < 10; i++) expect(await client.isAllowed(`${s.origin}/b${i}`)).toBe(true);
    expect(client.peek(`${s.origin}/no-mybot/y`)?.allowed).toBe(false);
    expect(s.robotsRequests()).toBe(1);
    // The next turn's first question reads it again, finds the file due and fetches it.
    await new Promise((resolve) => setImmediate(resolve));
    s.answer({ status: 200, body: 'User-agent: *\nDisallow: /\n' });
    expect(await client.isAllowed(`${s.origin}/b0`)).toBe(false);
    expect(s.robotsRequests()).toBe(2);
  });

  it('is read at most once every 64 answers in a turn', async () => {
    const s = await site({ status: 200, body: RULES });
    vi.spyOn(Date, 'now').mockImplementation(() => Date.UTC(2026, 0, 1));
    const client = createRobotsClient({ userAgent: 'MyBot' });
    await client.isAllowed(`${s.origin}/a`);
    await new Promise((resolve) => setImmediate(resolve));
    const reads = vi.mocked(Date.now).mock.calls.length;
    for (let i = 0; i < 640; i++) await client.isAllowed(`${s.origin}/c${i}`);
    expect(vi.mocked(Date.now).mock.calls.length - reads).toBe(10);
    expect(s.robotsRequests()).toBe(1);
  });
});

describe('one fetch per origin', () => {
  it('answers 10,000 concurrent isAllowed calls over 100 origins with exactly one fetch per origin', async () => {
    const servers: TestServer[] = [];
    for (let i = 0; i < 100; i++) {
      servers.push(
        await pool.http((_req, res) => {
          // Slow enough that every question arrives while the fetch is in flight.
          setTimeout(() => {
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end(`User-agent: *\nDisallow: /private-${i}/\n`);
          }, 20);
        }),
      );
    }
    const client = createRobotsClient({ userAgent: 'MyBot' });
    const questions = Array.from({ length: 10_000 }, (_, n) => {
      const i = n % 100;
      const blocked = n % 3 === 0;
      return { url: `${servers[i]!.origin}/${blocked ? `private-${i}` : 'public'}/${n}`, blocked };
    });
    const answers = await Promise.all(questions.map((q) => client.isAllowed(q.url)));
    answers.forEach((allowed, n) => {
      expect(allowed).toBe(!questions[n]!.blocked);
    });
    for (const server of servers) expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt']);
    expect(client.stats()).toMatchObject({ fetches: 100, loads: 100, origins: 100 });
    expect(client.stats().joined + client.stats().hits).toBe(9_900);
  });

  it('shares one fetch between isAllowed, explain, crawlDelay, sitemaps and policyFor', async () => {
    const s = await site({ status: 200, body: RULES });
    const client = createRobotsClient({ userAgent: 'MyBot' });
    const [allowed, verdict, delay, sitemaps, policy] = await Promise.all([
      client.isAllowed(`${s.origin}/no-mybot/x`),
      client.explain(`${s.origin}/private/x`),
      client.crawlDelay(`${s.origin}/`),
      client.sitemaps(s.origin),
      client.policyFor(`${s.origin}/any`),
    ]);
    expect(s.robotsRequests()).toBe(1);
    expect(allowed).toBe(false);
    expect(verdict).toMatchObject({
      allowed: true,
      line: 0,
      rule: null,
      origin: s.origin,
      url: `${s.origin}/private/x`,
    });
    expect(verdict.explanation?.groups).toBe('specific');
    expect(delay).toBe(0.5);
    expect(sitemaps).toEqual(['https://example.com/sitemap.xml']);
    expect(policy).toMatchObject({ origin: s.origin, robotsUrl: `${s.origin}/robots.txt` });
    expect(policy.policy).toMatchObject({ mode: 'rules', reason: 'fetched' });
    expect(policy.robots?.isAllowed('/private/x', 'OtherBot')).toBe(false);
  });
});

describe('user agents', () => {
  it('sends a full User-Agent and matches by its product token; questions may name another crawler', async () => {
    const s = await site({ status: 200, body: RULES });
    const ua = 'Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)';
    const client = createRobotsClient({ userAgent: ua });
    expect(await client.isAllowed(`${s.origin}/no-mybot/a`)).toBe(false);
    expect(await client.isAllowed(`${s.origin}/private/a`)).toBe(true);
    expect(await client.isAllowed(`${s.origin}/private/a`, 'OtherBot')).toBe(false);
    expect(await client.crawlDelay(`${s.origin}/`, 'OtherBot')).toBe(2);
    expect(s.requests[0]?.headers['user-agent']).toBe(ua);
  });

  it('can send a different User-Agent header than the name it matches', async () => {
    const s = await site({ status: 200, body: RULES });
    const client = createRobotsClient({ userAgent: 'MyBot', retrieval: { userAgent: 'MyBot/2.0 (+https://x.test)' } });
    expect(await client.isAllowed(`${s.origin}/no-mybot/a`)).toBe(false);
    expect(s.requests[0]?.headers['user-agent']).toBe('MyBot/2.0 (+https://x.test)');
  });
});

describe('crawler profiles', () => {
  const FILE = 'User-agent: Googlebot\nDisallow: /g/\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /\nCrawl-delay: 9\n';

  it('asks with a profile per call, in its fallback order, with one fetch', async () => {
    const s = await site({ status: 200, body: FILE });
    const client = createRobotsClient({ userAgent: 'MyBot' });
    const image = crawlerByName('Googlebot-Image')!;
    // Googlebot-Image has no group of its own: it falls back to Googlebot's, not to *.
    expect(await client.isAllowed(`${s.origin}/photo.jpg`, image)).toBe(true);
    expect(await client.isAllowed(`${s.origin}/g/photo.jpg`, image)).toBe(false);
    expect(await client.crawlDelay(`${s.origin}/`, image)).toBe(3);
    const verdict = await client.explain(`${s.origin}/g/x`, image);
    expect(verdict).toMatchObject({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/g/' } });
    expect(verdict.explanation?.crawler).toMatchObject({ token: 'Googlebot' });
    // The token alone is another crawler: it gets the * group.
    expect(await client.isAllowed(`${s.origin}/photo.jpg`, 'Googlebot-Image')).toBe(false);
    expect(await client.crawlDelay(`${s.origin}/`)).toBe(9);
    expect(s.robotsRequests()).toBe(1);
  });

  it('takes a default crawler that may differ from the User-Agent sent', async () => {
    const s = await site({ status: 200, body: 'User-agent: *\nDisallow: /\n' });
    const ads = crawlerByName('AdsBot-Google')!;
    const client = createRobotsClient({ userAgent: 'MyChecker/1.0', crawler: ads });
    expect(client.crawler).toBe(ads);
    // AdsBot ignores the * group when no group names it.
    expect(await client.isAllowed(`${s.origin}/page`)).toBe(true);
    expect(await client.isAllowed(`${s.origin}/page`, 'MyChecker')).toBe(false);
    expect(s.requests[0]?.headers['user-agent']).toBe('MyChecker/1.0');
    expect(() => createRobotsClient({ userAgent: 'x', crawler: 42 as never })).toThrow(TypeError);
  });
});

describe('peek', () => {
  it('answers from memory without fetching, and null until the origin is loaded or when it is due again', async () => {
    const clock = fakeClock();
    const s = await site({ status: 200, body: RULES });
    const client = createRobotsClient({ userAgent: 'MyBot', clock });
    expect(client.peek(`${s.origin}/private/x`)).toBeNull();
    expect(s.robotsRequests()).toBe(0);
    const loading = client.explain(`${s.origin}/private/x`);
    // In flight: still null.
    expect(client.peek(`${s.origin}/private/x`)).toBeNull();
    const awaited = await loading;
    const peeked = client.peek(`${s.origin}/private/x`);
    expect(peeked).toEqual(awaited);
    expect(client.peek(`${s.origin}/no-mybot/x`)).toMatchObject({ allowed: false, line: 6 });
    expect(client.peek(`${s.origin}/x`, crawlerByName('Googlebot-Image')!)).toMatchObject({ allowed: true });
    expect(() => client.peek('not a url')).toThrow(RobotsUrlError);
    clock.advance(25 * HOUR);
    expect(client.peek(`${s.origin}/private/x`)).toBeNull();
    expect(s.robotsRequests()).toBe(1);
  });
});

describe('maxConcurrentFetches', () => {
  it('keeps at most that many robots.txt fetches in flight over all origins, first come first served', async () => {
    let open = 0;
    let most = 0;
    const held: (() => void)[] = [];
    const servers: TestServer[] = [];
    for (let i = 0; i < 12; i++) {
      servers.push(
        await pool.http((_req, res) => {
          open++;
          most = Math.max(most, open);
          held.push(() => {
            open--;
            res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: /${i}/\n`);
          });
        }),
      );
    }
    const client = createRobotsClient({ userAgent: 'MyBot', maxConcurrentFetches: 3 });
    const answers = Promise.all(servers.map((s, i) => client.isAllowed(`${s.origin}/${i}/x`)));
    await vi.waitFor(() => expect(held.length).toBe(3));
    expect(client.stats()).toMatchObject({ activeFetches: 3, queuedFetches: 9 });
    // The first three origins are the ones being fetched.
    expect(servers.map((s) => s.requests.length)).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // Release one at a time: each release lets exactly one more fetch start.
    for (let released = 1; released <= 12; released++) {
      held[released - 1]!();
      const expected = Math.min(12, released + 3);
      await vi.waitFor(() => expect(held.length).toBe(expected));
      expect(open).toBeLessThanOrEqual(3);
    }
    expect(await answers).toEqual(Array(12).fill(false));
    expect(most).toBe(3);
    expect(client.stats()).toMatchObject({ activeFetches: 0, queuedFetches: 0, fetches: 12 });
    expect(() => createRobotsClient({ userAgent: 'x', maxConcurrentFetches: 0 })).toThrow(RangeError);
  });
});

describe('caching with the injected clock', () => {
  it('keeps a file for 24 h, then fetches it again', async () => {
    const s = await site({ status: 200, body: RULES });
    const clock = fakeClock();
    const client = createRobotsClient({ userAgent: 'MyBot', clock });
    await client.isAllowed(`${s.origin}/`);
    clock.advance(DAY - 1);
    await client.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(1);
    s.answer({ status: 200, body: 'User-agent: *\nDisallow: /\n' });
    clock.advance(1);
    expect(await client.isAllowed(`${s.origin}/a`)).toBe(false);
    expect(s.robotsRequests()).toBe(2);
    expect((await client.policyFor(s.origin)).nextFetchAt).toBe(clock.now() + DAY);
  });

  it('honours Cache-Control max-age within bounds', async () => {
    const s = await site({ status: 200, body: RULES, headers: { 'cache-control': 'max-age=7200' } });
    const clock = fakeClock();
    const client = createRobotsClient({ userAgent: 'MyBot', clock });
    await client.isAllowed(`${s.origin}/`);
    clock.advance(2 * HOUR - 1);
    await client.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(1);
    clock.advance(1);
    s.answer({ status: 200, body: RULES, headers: { 'cache-control': 'max-age=0' } });
    await client.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(2);
    // max-age=0 means the 5-minute floor, not a fetch per question.
    clock.advance(5 * MINUTE - 1);
    await client.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(2);
    clock.advance(1);
    await client.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(3);
  });

  it('refresh() fetches now whatever the cache says', async () => {
    const s = await site({ status: 200, body: RULES });
    const client = createRobotsClient({ userAgent: 'MyBot', clock: fakeClock() });
    await client.isAllowed(`${s.origin}/`);
    s.answer({ status: 404 });
    const [refreshed] = await Promise.all([client.refresh(s.origin), client.refresh(`${s.origin}/x`)]);
    expect(s.robotsRequests()).toBe(2);
    expect(refreshed.policy).toMatchObject({ mode: 'allow-all', reason: 'not-found' });
    expect(await client.isAllowed(`${s.origin}/private/x`)).toBe(true);
  });
});

describe('never fails open', () => {
  it.each([500, 503, 429])(
    'disallows everything while robots.txt answers %i, and retries on schedule',
    async (status) => {
      const s = await site({ status });
      const clock = fakeClock();
      const client = createRobotsClient({ userAgent: 'MyBot', clock });
      expect(await client.isAllowed(`${s.origin}/public`)).toBe(false);
      const verdict = await client.explain(`${s.origin}/public`);
      expect(verdict.policy).toMatchObject({ mode: 'disallow-all', reason: 'unreachable' });
      expect(verdict.latest).toMatchObject({ status, outcome: 'disallow-all' });
      // Questions before the retry time do not fetch again.
      clock.advance(MINUTE);
      await client.isAllowed(`${s.origin}/public`);
      expect(s.robotsRequests()).toBe(1);
      s.answer({ status: 200, body: RULES });
      clock.advance(10 * MINUTE);
      expect(await client.isAllowed(`${s.origin}/public`)).toBe(true);
      expect(s.robotsRequests()).toBe(2);
    },
  );

  it('respects Retry-After before fetching again', async () => {
    const s = await site({ status: 503, headers: { 'retry-after': '3600' } });
    const clock = fakeClock();
    const client = createRobotsClient({ userAgent: 'MyBot', clock });
    await client.isAllowed(`${s.origin}/`);
    clock.advance(HOUR - 1);
    await client.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(1);
    clock.advance(1);
    await client.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(2);
  });

  it('disallows everything when the server cannot be reached', async () => {
    const s = await pool.raw((socket) => socket.destroy());
    const client = createRobotsClient({ userAgent: 'MyBot' });
    expect(await client.isAllowed(`${s.origin}/`)).toBe(false);
    expect((await client.policyFor(s.origin)).latest.error?.kind).toBe('reset');
  });

  it('falls back to the last good version after 12 h of errors, and to allow-all after 30 days', async () => {
    const s = await site({ status: 200, body: RULES });
    const clock = fakeClock();
    const client = createRobotsClient({ userAgent: 'MyBot', clock });
    expect(await client.isAllowed(`${s.origin}/no-mybot/x`)).toBe(false);
    s.answer({ status: 500 });
    clock.advance(DAY);
    expect(await client.isAllowed(`${s.origin}/ok`)).toBe(false);
    clock.advance(12 * HOUR);
    const verdict = await client.explain(`${s.origin}/no-mybot/x`);
    expect(verdict).toMatchObject({ allowed: false, line: 6 });
    expect(verdict.policy).toMatchObject({ mode: 'rules', reason: 'last-good-version' });
    expect(await client.isAllowed(`${s.origin}/ok`)).toBe(true);
    expect(await client.sitemaps(s.origin)).toEqual(['https://example.com/sitemap.xml']);
    clock.advance(30 * DAY);
    expect(await client.explain(`${s.origin}/no-mybot/x`)).toMatchObject({
      allowed: true,
      policy: { reason: 'long-unreachable-site-up' },
    });
    // Retries backed off: far fewer fetches than questions, at most one per 6 h.
    expect(s.robotsRequests()).toBeLessThan(2 + (30 * DAY + 12 * HOUR) / (6 * HOUR) + 10);
  });

  it('a fetch aborted by the injected fetch disallows, reports that fetch, and is not cached', async () => {
    let requests = 0;
    const s = await pool.http((_req, res) => {
      requests++;
      // The first request is never answered: the crawler's own fetch gives up on it.
      if (requests === 1) return;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(RULES);
    });
    let shutdown = new AbortController();
    const client = createRobotsClient({
      userAgent: 'MyBot',
      fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.any([init.signal, shutdown.signal]) }),
    });
    const pending = client.explain(`${s.origin}/public`);
    await vi.waitFor(() => expect(requests).toBe(1));
    shutdown.abort();
    const verdict = await pending;
    expect(verdict).toMatchObject({ allowed: false, policy: { mode: 'disallow-all', reason: 'not-fetched' } });
    expect(verdict.latest).toMatchObject({ outcome: 'disallow-all', status: null, error: { kind: 'aborted' } });
    expect((await client.policyFor(s.origin)).latest.error?.kind).toBe('aborted');
    expect(client.peek(`${s.origin}/public`)).toBeNull();
    // The next question fetches again.
    shutdown = new AbortController();
    expect(await client.isAllowed(`${s.origin}/public`)).toBe(true);
    expect(requests).toBe(2);
  });

  it('allows everything when robots.txt is missing (404)', async () => {
    const s = await site({ status: 404 });
    const client = createRobotsClient({ userAgent: 'MyBot' });
    expect(await client.explain(`${s.origin}/x`)).toMatchObject({
      allowed: true,
      line: 0,
      explanation: null,
      policy: { mode: 'allow-all', reason: 'not-found' },
    });
    expect(await client.crawlDelay(`${s.origin}/`)).toBeNull();
    expect(await client.sitemaps(s.origin)).toEqual([]);
  });
});

describe('bounded memory', () => {
  it('forgets the least recently used origins beyond maxOrigins, and fetches them again when needed', async () => {
    const sites = [await site({ status: 200, body: RULES }), await site({ status: 200, body: RULES })];
    const third = await site({ status: 200, body: RULES });
    const client = createRobotsClient({ userAgent: 'MyBot', maxOrigins: 2 });
    await client.isAllowed(`${sites[0]!.origin}/`);
    await client.isAllowed(`${sites[1]!.origin}/`);
    await client.isAllowed(`${sites[0]!.origin}/`); // now sites[1] is the least recently used
    await client.isAllowed(`${third.origin}/`);
    expect(client.stats()).toMatchObject({ origins: 2, evictions: 1 });
    await client.isAllowed(`${sites[0]!.origin}/`);
    expect(sites[0]!.robotsRequests()).toBe(1);
    await client.isAllowed(`${sites[1]!.origin}/`);
    expect(sites[1]!.robotsRequests()).toBe(2);
  });

  it('forgets origins beyond maxCachedBytes', async () => {
    const big = `User-agent: *\n${'Disallow: /some/long/path/\n'.repeat(4000)}`;
    const sites = [await site({ status: 200, body: big }), await site({ status: 200, body: big })];
    const client = createRobotsClient({ userAgent: 'MyBot', maxCachedBytes: 300_000 });
    for (const s of sites) await client.isAllowed(`${s.origin}/`);
    expect(client.stats()).toMatchObject({ origins: 1, evictions: 1 });
    expect(client.stats().cachedBytes).toBeLessThanOrEqual(300_000);
  });
});

describe('store', () => {
  it('shares fetches between clients through a store', async () => {
    const s = await site({ status: 200, body: RULES });
    const store = createMemoryRobotsStore();
    const clock = fakeClock();
    const first = createRobotsClient({ userAgent: 'MyBot', store, clock });
    const second = createRobotsClient({ userAgent: 'MyBot', store, clock });
    await first.isAllowed(`${s.origin}/`);
    expect(await second.isAllowed(`${s.origin}/no-mybot/`)).toBe(false);
    expect(s.robotsRequests()).toBe(1);
    expect(second.stats()).toMatchObject({ fetches: 0, storeReads: 1 });
    clock.advance(DAY);
    await second.isAllowed(`${s.origin}/`);
    expect(s.robotsRequests()).toBe(2);
  });

  it('works with a store that keeps JSON', async () => {
    const s = await site({ status: 200, body: RULES });
    const rows = new Map<string, string>();
    const jsonStore: RobotsStore = {
      async get(origin) {
        const row = rows.get(origin);
        if (row === undefined) return undefined;
        const parsed = JSON.parse(row) as { origin: string; history: unknown[] };
        return { origin: parsed.origin, history: parsed.history.map(retrievalFromJson) };
      },
      async set(origin, record: StoredOrigin) {
        rows.set(origin, JSON.stringify({ origin, history: record.history.map(retrievalToJson) }));
      },
    };
    await createRobotsClient({ userAgent: 'MyBot', store: jsonStore }).isAllowed(`${s.origin}/`);
    const restarted = createRobotsClient({ userAgent: 'MyBot', store: jsonStore });
    expect(await restarted.isAllowed(`${s.origin}/no-mybot/x`)).toBe(false);
    expect(s.robotsRequests()).toBe(1);
  });

  it('rejects on store errors unless onStoreError is given', async () => {
    const s = await site({ status: 200, body: RULES });
    const broken: RobotsStore = {
      get: () => Promise.reject(new Error('database down')),
      set: () => {
        throw new Error('disk full');
      },
    };
    await expect(createRobotsClient({ userAgent: 'MyBot', store: broken }).isAllowed(`${s.origin}/`)).rejects.toThrow(
      'database down',
    );
    const seen: string[] = [];
    const tolerant = createRobotsClient({
      userAgent: 'MyBot',
      store: broken,
      onStoreError: (error, operation) => seen.push(`${operation}: ${(error as Error).message}`),
    });
    expect(await tolerant.isAllowed(`${s.origin}/no-mybot/x`)).toBe(false);
    expect(seen).toEqual(['get: database down', 'set: disk full']);
    const bogus: RobotsStore = { get: () => ({ origin: 'x', history: 'nope' }) as never, set: () => {} };
    await expect(createRobotsClient({ userAgent: 'MyBot', store: bogus }).isAllowed(`${s.origin}/`)).rejects.toThrow(
      'invalid record',
    );
  });

  it('keeps the memory store bounded', () => {
    const store = createMemoryRobotsStore({ maxOrigins: 2 });
    const record = (origin: string): StoredOrigin => ({ origin, history: [] as RetrievalResult[] });
    for (const origin of ['a', 'b', 'c']) store.set(origin, record(origin));
    expect(store.size).toBe(2);
    expect(store.get('a')).toBeUndefined();
    expect(store.get('c')).toEqual(record('c'));
  });
});

describe('arguments', () => {
  it('rejects URLs without a robots.txt and bad options', async () => {
    const client = createRobotsClient({ userAgent: 'MyBot' });
    await expect(client.isAllowed('not a url')).rejects.toBeInstanceOf(RobotsUrlError);
    await expect(client.isAllowed('mailto:a@b.c')).rejects.toMatchObject({ code: 'unsupported-scheme' });
    expect(() => createRobotsClient({ userAgent: '' })).toThrow(TypeError);
    expect(() => createRobotsClient({ userAgent: 'x', maxOrigins: 0 })).toThrow(RangeError);
    expect(() => createRobotsClient({ userAgent: 'x', availability: { disallowPeriod: -1 } })).toThrow(RangeError);
    expect(() => createRobotsClient({ userAgent: 'x', dialect: 'nope' as never })).toThrow(RangeError);
  });
});
