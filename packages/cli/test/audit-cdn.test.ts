/**
 * `robotskit audit <url> --as …` through a real caching proxy (a "CDN" on 127.0.0.1) in front of a real origin whose
 * robots.txt changed after the CDN stored a copy for some User-Agents (it keys its copies by User-Agent, as
 * `Vary: User-Agent` asks). A copy is called stale only on evidence: it differs from the copy a `Cache-Control:
 * no-cache` request for the same `/robots.txt` gets, it is marked as a cache's copy, and its `Age` or `Last-Modified`
 * says it is older. A CDN that ignores `no-cache`, a differing copy with nothing saying which is older, and an old copy
 * of the unchanged file are each not called stale. Then the reading of the cache headers themselves, as a table.
 */
import { request } from 'node:http';
import { cacheEvidence, compareCopies, type RobotsCopy } from 'robotskit/fetch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccessJson } from '../src/answers/access.js';
import { run } from './helpers.js';
import { type Site, Sites } from './sites.js';

const sites = new Sites();
let origin: Site;
let cdn: Site;

const V1 = { body: 'User-agent: *\nAllow: /\n', modified: 'Mon, 02 Nov 2026 10:00:00 GMT' };
const V2 = {
  body: 'User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /page\n',
  modified: 'Tue, 03 Nov 2026 10:00:00 GMT',
};
let current = V1;

/** How the CDN treats one crawler's User-Agent (others are passed to the origin, `X-Cache: MISS`). */
interface Policy {
  /** Seconds the stored copy had already been in the cache when it was stored here (its `Age` grows from there). */
  readonly age: number | null;
  /** Whether a `no-cache` request is passed to the origin (and refreshes the copy); false: served from storage too. */
  readonly honoursNoCache: boolean;
  /** Whether the stored copy keeps its `Last-Modified`. */
  readonly keepsValidators: boolean;
}

const POLICIES: Record<string, Policy> = {
  GPTBot: { age: 3600, honoursNoCache: true, keepsValidators: true },
  CCBot: { age: null, honoursNoCache: true, keepsValidators: true },
  ClaudeBot: { age: 600, honoursNoCache: false, keepsValidators: true },
  Bytespider: { age: null, honoursNoCache: true, keepsValidators: false },
  Applebot: { age: 3600, honoursNoCache: true, keepsValidators: true },
};

interface Stored {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly storedAt: number;
}
const store = new Map<string, Stored>();
/** What reached the CDN: path, User-Agent's crawler and whether it asked for no-cache, in order. */
const seen: { path: string; crawler: string; noCache: boolean }[] = [];

const crawlerOf = (ua: string) => Object.keys(POLICIES).find((name) => ua.includes(name)) ?? ua.split('/')[0]!;

/** One GET to the origin, as the CDN forwards it. */
function fromOrigin(path: string, ua: string): Promise<Omit<Stored, 'storedAt'>> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin.origin}${path}`, { headers: { 'user-agent': ua } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'last-modified']) {
          const value = res.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Stores the origin's robots.txt for a crawler's User-Agent now, as a CDN does on a miss. */
async function warm(crawler: string): Promise<void> {
  const answer = await fromOrigin('/robots.txt', `Mozilla/5.0 (compatible; ${crawler}/1.0)`);
  const policy = POLICIES[crawler]!;
  const headers = { ...answer.headers };
  if (!policy.keepsValidators) delete headers['last-modified'];
  store.set(crawler, { ...answer, headers, storedAt: Date.now() });
}

beforeAll(async () => {
  origin = await sites.start((req, res) => {
    if (req.url === '/robots.txt')
      return void res
        .writeHead(200, { 'content-type': 'text/plain', 'last-modified': current.modified })
        .end(current.body);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>ok</title></head></html>');
  });
  cdn = await sites.start((req, res) => {
    const ua = String(req.headers['user-agent'] ?? '');
    const path = req.url ?? '/';
    const crawler = crawlerOf(ua);
    const noCache = /no-cache/i.test(String(req.headers['cache-control'] ?? ''));
    seen.push({ path, crawler, noCache });
    const policy = POLICIES[crawler];
    const stored = path === '/robots.txt' ? store.get(crawler) : undefined;
    if (policy !== undefined && stored !== undefined && !(noCache && policy.honoursNoCache)) {
      const headers: Record<string, string> = { ...stored.headers, 'x-cache': 'HIT' };
      if (policy.age !== null) headers.age = String(policy.age + Math.floor((Date.now() - stored.storedAt) / 1000));
      return void res.writeHead(stored.status, headers).end(stored.body);
    }
    fromOrigin(path, ua).then(
      (answer) => {
        // A no-cache request refreshes the stored copy, as a CDN that honours it does.
        if (policy !== undefined && stored !== undefined) store.set(crawler, { ...answer, storedAt: Date.now() });
        res.writeHead(answer.status, { ...answer.headers, 'x-cache': 'MISS' }).end(answer.body);
      },
      () => res.writeHead(502).end(),
    );
  });
});

afterAll(() => sites.closeAll());

beforeEach(async () => {
  // The CDN stored the old file for these crawlers; then the origin's changed (Applebot's copy is of the new one).
  store.clear();
  current = V1;
  for (const crawler of ['GPTBot', 'CCBot', 'ClaudeBot', 'Bytespider']) await warm(crawler);
  current = V2;
  await warm('Applebot');
  seen.length = 0;
});

async function accessOf(argv: string[]): Promise<{ code: number; doc: AccessJson }> {
  const result = await run([...argv, '--json']);
  expect(result.stderr).toBe('');
  return { code: result.code, doc: JSON.parse(result.stdout) as AccessJson };
}

const AS = 'GPTBot,Googlebot,CCBot,ClaudeBot,Bytespider,Applebot';

describe('audit --as through a CDN holding an older robots.txt', () => {
  it('reports the stale copies the evidence shows, and only those (exit 1)', async () => {
    const { code, doc } = await accessOf(['audit', `${cdn.origin}/page`, '--as', AS]);
    expect(code).toBe(1);
    const by = Object.fromEntries(doc.crawlers.map((c) => [c.crawler, c]));
    expect(Object.fromEntries(doc.crawlers.map((c) => [c.crawler, c.findings.map((f) => f.kind)]))).toEqual({
      GPTBot: ['stale-robots'],
      Googlebot: [],
      CCBot: ['stale-robots'],
      // The CDN answers its no-cache request from storage too: the origin's copy was never seen, so no claim.
      ClaudeBot: ['robots-differs'],
      // Another copy marked HIT, but no Age and no Last-Modified says which is older: other bytes, not "stale".
      Bytespider: ['robots-differs'],
      // An hour-old copy of the file the origin serves now: nothing to say.
      Applebot: [],
    });
    expect(doc.disagreements).toBe(4);

    const gpt = by.GPTBot!;
    expect(gpt.freshness).toMatchObject({ state: 'stale', basis: 'age' });
    // Its Age, as the CDN counted it (the copy was stored an hour "before" plus the seconds since).
    expect(gpt.freshness.olderBySeconds).toBeGreaterThanOrEqual(3600);
    expect(gpt.freshness.olderBySeconds).toBeLessThan(3660);
    expect(gpt.robots).toMatchObject({ status: 200, sameAsBaseline: false, cache: { hit: true } });
    expect(gpt.freshness.fresh).toMatchObject({ status: 200, cache: { hit: false, age: null } });
    // Judged by the copy it was served (it allows /page); the origin's disallows it, and the message says so.
    expect(gpt).toMatchObject({ allowed: true, line: 2, ruleText: 'Allow: /' });
    expect(gpt.findings[0]!.message).toBe(
      `the robots.txt GPTBot got is a cached copy ${gpt.freshness.olderBySeconds} s older than the one the origin serves (fetched with Cache-Control: no-cache): Age: ${gpt.robots.cache.age}, X-Cache: HIT; the cached copy allows the URL to GPTBot, the origin's disallows it (line 6: Disallow: /page)`,
    );

    const cc = by.CCBot!;
    expect(cc.freshness).toMatchObject({ state: 'stale', basis: 'last-modified', olderBySeconds: 86_400 });
    expect(cc.findings[0]!.message).toMatch(
      /^the robots\.txt CCBot got is a cached copy 86400 s older than the one the origin serves \(fetched with Cache-Control: no-cache\): Last-Modified Mon, 02 Nov 2026 10:00:00 GMT against Tue, 03 Nov 2026 10:00:00 GMT; /,
    );

    expect(by.ClaudeBot!.freshness).toMatchObject({ state: 'cached-too', olderBySeconds: null });
    expect(by.ClaudeBot!.freshness.fresh.cache).toMatchObject({
      hit: true,
      marks: [expect.stringMatching(/^Age: /), 'X-Cache: HIT'],
    });
    expect(by.Bytespider!.freshness).toMatchObject({ state: 'unproven', olderBySeconds: null, basis: null });
    expect(by.Applebot!.freshness.state).toBe('current');
    expect(by.Applebot!.robots.cache.age).toBeGreaterThanOrEqual(3600);
    expect(by.Googlebot!.freshness.state).toBe('current');
    expect(doc.baseline.freshness.state).toBe('current');
  });

  it('asks for the origin copy at the same /robots.txt, after every crawler fetched as itself', async () => {
    await accessOf(['audit', `${cdn.origin}/page`, '--as', AS]);
    const robots = seen.filter((s) => s.path.startsWith('/robots.txt'));
    // robotskit and six crawlers: each once as itself, then once with no-cache; never a cache-busting query.
    expect(robots.every((s) => s.path === '/robots.txt')).toBe(true);
    expect(robots.map((s) => s.noCache)).toEqual([...Array(7).fill(false), ...Array(7).fill(true)]);
    expect(robots.filter((s) => s.noCache).map((s) => s.crawler)).toEqual(
      robots.filter((s) => !s.noCache).map((s) => s.crawler),
    );
    expect(seen.filter((s) => s.path === '/page' && s.noCache)).toEqual([]);
  });

  it('says it in words on a terminal', async () => {
    const result = await run(['audit', `${cdn.origin}/page`, '--as', 'GPTBot,ClaudeBot,Bytespider']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/stale-robots {3}the robots\.txt GPTBot got is a cached copy 36\d\d s older than/);
    expect(result.stdout).toMatch(
      /ClaudeBot .*\n(?:.*\n)*? {4}cache {4}the no-cache request was answered from a cache too \(Age: \d+, X-Cache: HIT\): the origin's copy was not seen\n/,
    );
    expect(result.stdout).toContain(
      'cache    the no-cache copy differs, and nothing says which is older: not called stale',
    );
  });
});

/** A response's headers as the engine's fetch gives them. */
const headersOf = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });

describe('reading what caches say', () => {
  it.each([
    [{ 'x-cache': 'HIT' }, true],
    [{ 'x-cache': 'Hit from cloudfront' }, true],
    [{ 'x-cache': 'RefreshHit from cloudfront' }, false],
    [{ 'x-cache': 'Miss from cloudfront' }, false],
    [{ 'x-cache': 'MISS, HIT' }, true],
    [{ 'x-cache': 'MISS, MISS' }, false],
    [{ 'x-cache': 'TCP_HIT from proxy.invalid' }, true],
    [{ 'x-cache': 'TCP_REFRESH_HIT' }, false],
    [{ 'x-cache-status': 'STALE' }, true],
    [{ 'x-cache-status': 'EXPIRED' }, false],
    [{ 'cf-cache-status': 'HIT' }, true],
    [{ 'cf-cache-status': 'UPDATING' }, true],
    [{ 'cf-cache-status': 'REVALIDATED' }, false],
    [{ 'cf-cache-status': 'DYNAMIC' }, false],
    [{ 'cache-status': 'ExampleCache; hit; ttl=30; key=/robots.txt' }, true],
    [{ 'cache-status': 'OriginCache; hit; ttl=1100, "CDN Company Here"; fwd=uri-miss; stored' }, true],
    [{ 'cache-status': 'ReverseProxyCache; fwd=stale; fwd-status=200' }, false],
    [{ 'cache-status': 'Edge; hit=?0' }, false],
    [{ 'cache-status': '"a, hit"; fwd=miss' }, false],
    [{}, false],
  ])('%o → hit %s', (headers, hit) => {
    expect(cacheEvidence(headersOf(headers)).hit).toBe(hit);
  });

  it('reads Age as delta-seconds only', () => {
    const ageOf = (age: string) => cacheEvidence(headersOf({ age })).age;
    expect([ageOf('120'), ageOf('0'), ageOf('60, 60'), ageOf('-5'), ageOf('1.5'), ageOf('soon')]).toEqual([
      120,
      0,
      60,
      null,
      null,
      null,
    ]);
    expect(cacheEvidence(headersOf({ age: '0' })).marks).toEqual([]);
  });

  it('calls a copy stale only when it differs, is a cache copy and is shown older', () => {
    const copy = (body: string, h: Record<string, string>): RobotsCopy => ({
      result: { status: 200, body: new TextEncoder().encode(body) } as RobotsCopy['result'],
      cache: cacheEvidence(headersOf(h)),
    });
    const fresh = copy('new', { 'last-modified': V2.modified });
    const cases: [RobotsCopy, RobotsCopy, string, number | null][] = [
      [copy('old', { age: '90', 'x-cache': 'HIT' }), fresh, 'stale', 90],
      [copy('old', { age: '90' }), copy('new', { age: '30' }), 'stale', 60],
      [copy('old', { 'x-cache': 'HIT', 'last-modified': V1.modified }), fresh, 'stale', 86_400],
      // Older by its date, but nothing marks it as a cache's copy: an origin may serve two files.
      [copy('old', { 'last-modified': V1.modified }), fresh, 'unproven', null],
      // A cache's copy, but modified later than the no-cache one: the evidence points the other way.
      [copy('old', { age: '90', 'last-modified': 'Wed, 04 Nov 2026 10:00:00 GMT' }), fresh, 'unproven', null],
      [copy('old', { age: '10' }), copy('new', { age: '30', 'x-cache': 'HIT' }), 'unproven', null],
      [copy('new', { age: '90', 'x-cache': 'HIT' }), fresh, 'current', null],
      [copy('new', { age: '90' }), copy('new', { age: '95' }), 'cached-too', null],
    ];
    for (const [served, other, state, older] of cases) {
      expect(compareCopies(served, other)).toMatchObject({ state, olderBySeconds: older });
    }
    const noAnswer = { result: { status: null, body: null } as unknown as RobotsCopy['result'], cache: fresh.cache };
    expect(compareCopies(copy('old', { age: '90' }), noAnswer).state).toBe('unchecked');
  });
});
