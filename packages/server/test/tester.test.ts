/**
 * The tester, the live loader, the impact check over a site's sitemaps and host discovery, against real HTTP servers
 * on 127.0.0.1 (loopback allowed by the explicit option), on both databases.
 */

import type { FastifyInstance } from 'fastify';
import { DEFAULT_MAX_BYTES, parseRobotsTxt, resolveCrawler } from 'robotskit';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exactComparison } from '../src/analysis/exact.js';
import { compareVerdicts, type RulesSide } from '../src/analysis/impact.js';
import { crawlersNamed, linesOf, verdictOf } from '../src/analysis/verdicts.js';
import { WATCHED_CRAWLER_NAMES } from '../src/analysis/watched-crawlers.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { MAX_ROBOTS_BODY_BYTES } from '../src/http/work-limits.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import type { Database } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { discoverDueProperty } from '../src/worker/discover-hosts.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';
import { type LocalOrigin, startOrigin } from './origins.js';

const DAY = 24 * 60 * 60 * 1000;

interface Verdict {
  url: string;
  userAgent: string;
  crawler: string | null;
  allowed: boolean;
  line: number;
  lineText: string | null;
  rule: { kind: string; pattern: string } | null;
  note: string | null;
}

describe('impact comparison', () => {
  it('agrees with the verdicts one by one, and lets other work run between slices', async () => {
    const side = (text: string): RulesSide => ({ robots: parseRobotsTxt(text), mode: 'rules', lines: linesOf(text) });
    const before = side('User-agent: *\nDisallow: /a\n');
    const after = side('User-agent: *\nDisallow: /b\n\nUser-agent: Googlebot\nDisallow: /a/1\n');
    const crawlers = crawlersNamed(['*', 'Googlebot', 'GPTBot']);
    const urls = Array.from({ length: 20_000 }, (_, i) => `https://e.test/${'ab'[i % 2]}/${i}`);
    let otherWorkRan = false;
    let done = false;
    setImmediate(() => {
      otherWorkRan = !done;
    });
    // Slices of 0 ms: it yields after every URL, whatever the machine's speed.
    const compared = await compareVerdicts(before, after, urls, crawlers, 5, undefined, 0);
    done = true;
    expect(otherWorkRan).toBe(true);

    const expected = crawlers.map((c) => ({ userAgent: c.name, newlyBlocked: 0, newlyAllowed: 0 }));
    let total = 0;
    const changedUrls = new Set<string>();
    for (const url of urls) {
      crawlers.forEach((crawler, i) => {
        const b = verdictOf(before.robots, before.mode, before.lines, url, crawler);
        const a = verdictOf(after.robots, after.mode, after.lines, url, crawler);
        if (a.allowed === b.allowed) return;
        total++;
        changedUrls.add(url);
        if (a.allowed) expected[i]!.newlyAllowed++;
        else expected[i]!.newlyBlocked++;
      });
    }
    expect(compared.summary).toEqual(expected);
    expect(compared.total).toBe(total);
    expect(compared.changedUrls).toBe(changedUrls.size);
    expect(compared.changes).toHaveLength(5);
    expect(compared.changes[0]).toEqual({
      url: 'https://e.test/a/0',
      userAgent: '*',
      before: {
        allowed: false,
        line: 2,
        lineText: 'Disallow: /a',
        rule: { kind: 'disallow', pattern: '/a' },
        groups: 'global',
        note: null,
      },
      after: { allowed: true, line: 0, lineText: null, rule: null, groups: 'global', note: null },
    });
  });
});

describe('exact comparison for the impact check', () => {
  const side = (text: string): RulesSide => ({ robots: parseRobotsTxt(text), mode: 'rules', lines: linesOf(text) });

  it('says when the bounds cut it short, and keeps the regions found', () => {
    const before = side('User-agent: *\nDisallow: /a\n');
    const after = side('User-agent: *\nDisallow: /a*b*c$\nDisallow: /x*y\nAllow: /a/*.php$\n');
    const crawlers = crawlersNamed(['*']);
    const whole = exactComparison(before, after, crawlers, 'https://e.test');
    expect(whole).toMatchObject({ available: true, note: null, complete: true, equivalent: false });
    const cut = exactComparison(before, after, crawlers, 'https://e.test', { maxStates: 3 });
    expect(cut).toMatchObject({ available: true, complete: false, equivalent: false });
    expect(cut.note).toBe(
      'the comparison reached its bounds before finishing: the regions listed are real, but there may be more',
    );
    expect(cut.crawlers[0]!.complete).toBe(false);
    expect(cut.crawlers[0]!.regionsTotal).toBeLessThan(whole.crawlers[0]!.regionsTotal);
  });

  it('compares no robots.txt as the empty file, and has nothing to compare for an unreachable file', () => {
    const crawlers = crawlersNamed(['Googlebot']);
    const none: RulesSide = { robots: null, mode: 'allow-all', lines: null };
    const unreachable: RulesSide = { robots: null, mode: 'disallow-all', lines: null };
    const draft = side('User-agent: *\nDisallow: /tmp/\n');
    const fromNone = exactComparison(none, draft, crawlers, 'https://e.test');
    expect(fromNone.crawlers[0]!.regions).toEqual([
      {
        change: 'blocked',
        pattern: '/tmp/',
        witness: '/tmp/',
        witnessUrl: 'https://e.test/tmp/',
        before: null,
        after: { kind: 'disallow', pattern: '/tmp/', line: 2, lineText: 'Disallow: /tmp/', indexHtml: false },
      },
    ]);
    expect(exactComparison(unreachable, draft, crawlers, 'https://e.test')).toEqual({
      available: false,
      note: 'no exact comparison: the version compared with could not be fetched (every URL disallowed), so there are no rules to compare',
      equivalent: false,
      complete: false,
      crawlers: [],
    });
  });
});

describe.each(testDatabases)('tester and impact on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'tester', () => {
    let database: Database;
    let clock: ManualClock;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let origin: LocalOrigin;
    let files: Record<string, { status: number; body: string | Uint8Array; type?: string }>;

    beforeEach(async () => {
      database = await openTestDatabase(target);
      clock = new ManualClock(100 * DAY);
      fetch = createGuardedFetch({ allowPrivate: true });
      app = await buildApp({ database, now: clock.now, fetch });
      files = {};
      origin = await startOrigin((request) => {
        const f = files[request.url ?? ''];
        return f
          ? { status: f.status, body: f.body, headers: { 'content-type': f.type ?? 'text/plain' } }
          : { status: 404, body: 'not here' };
      });
    });
    afterEach(async () => {
      await app.close();
      await fetch.close();
      await origin.close();
      await database.close();
    });
    afterAll(() => target.cleanup());

    async function post<T>(url: string, payload: object, status = 200): Promise<T> {
      const reply = await app.inject({ method: 'POST', url, payload });
      expect(reply.statusCode, reply.body).toBe(status);
      return reply.json<T>();
    }

    async function watch(kind: 'url-prefix' | 'domain' = 'url-prefix', name = `${origin.url}/`) {
      const property = await createProperty(
        database.db,
        database.dialect,
        { kind, name, hosts: [{ host: `127.0.0.1:${origin.port}`, source: 'property' }], schemes: ['http'] },
        clock.now(),
      );
      const worker = new Worker({
        db: database.db,
        dialect: database.dialect,
        retrieve: workerRetrieval(fetch, clock.now),
        now: clock.now,
      });
      const fetchNow = async () => {
        clock.advance(DAY);
        await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
        expect(await worker.runUntilIdle()).toBe(1);
      };
      await fetchNow();
      const file = await database.db.selectFrom('robots_files').select('id').executeTakeFirstOrThrow();
      return { propertyId: property.id, fileId: file.id, fetchNow };
    }

    it('tests URLs × crawlers against text: verdict, deciding line and rule; profiles by catalogue name', async () => {
      const robots = 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n';
      const { results } = await post<{ results: Verdict[] }>('/api/test', {
        robots,
        urls: ['https://example.com/private/a', '/public'],
        userAgents: ['Googlebot', 'GPTBot', '*'],
      });
      expect(results.map((r) => [r.url, r.userAgent, r.allowed, r.line, r.lineText])).toEqual([
        ['https://example.com/private/a', 'Googlebot', false, 2, 'Disallow: /private'],
        ['https://example.com/private/a', 'GPTBot', false, 5, 'Disallow: /'],
        ['https://example.com/private/a', '*', false, 2, 'Disallow: /private'],
        ['/public', 'Googlebot', true, 0, null],
        ['/public', 'GPTBot', false, 5, 'Disallow: /'],
        ['/public', '*', true, 0, null],
      ]);
      expect(results[1]).toMatchObject({ crawler: 'GPTBot', rule: { kind: 'disallow', pattern: '/' } });
      expect(results[0]).toMatchObject({ crawler: 'Googlebot', rule: { kind: 'disallow', pattern: '/private' } });
    });

    it('reads the first 500 KiB of a larger file, in bytes, as Google does, and says the rest was left out', async () => {
      type Tested = {
        source: { size: number | null; parsedSize: number | null; truncated: boolean };
        results: Verdict[];
      };
      const early = 'User-agent: *\nDisallow: /early\n';
      // About 700 KB of ASCII: a comment line of 100 bytes repeated, then a rule past byte 512,000.
      const filler = `#${'x'.repeat(98)}\n`.repeat(7_000);
      const large = `${early}${filler}Disallow: /late\n`;
      expect(large.length).toBeGreaterThan(700_000);
      const ascii = await post<Tested>('/api/test', {
        robots: large,
        urls: ['/early', '/late'],
        userAgents: ['Googlebot'],
      });
      expect(ascii.source).toEqual(
        expect.objectContaining({ size: large.length, parsedSize: DEFAULT_MAX_BYTES, truncated: true }),
      );
      expect(ascii.results.map((r) => [r.url, r.allowed, r.line])).toEqual([
        ['/early', false, 2],
        ['/late', true, 0],
      ]);
      // The engine's own answer on the same text.
      expect(parseRobotsTxt(large).isAllowed('https://example.com/late', 'Googlebot')).toBe(true);

      // Characters are not bytes: 300,000 two-byte characters are 600,000 bytes, so the rule after them is past the cut.
      const wide = `${early}#${'é'.repeat(300_000)}\nDisallow: /late\n`;
      expect(wide.length).toBeLessThan(DEFAULT_MAX_BYTES);
      const utf8 = await post<Tested>('/api/test', { robots: wide, urls: ['/late'], userAgents: ['Googlebot'] });
      expect(utf8.source).toEqual(
        expect.objectContaining({
          size: new TextEncoder().encode(wide).length,
          parsedSize: DEFAULT_MAX_BYTES,
          truncated: true,
        }),
      );
      expect(utf8.results.map((r) => [r.url, r.allowed, r.line])).toEqual([['/late', true, 0]]);
      const small = await post<Tested>('/api/test', { robots: early, urls: ['/early'], userAgents: ['Googlebot'] });
      expect(small.source).toEqual(
        expect.objectContaining({ size: early.length, parsedSize: early.length, truncated: false }),
      );

      // The request body's limit is in bytes and generous; past it, a 413 says how many bytes the route accepts.
      const huge = await app.inject({
        method: 'POST',
        url: '/api/test',
        payload: { robots: 'x'.repeat(MAX_ROBOTS_BODY_BYTES), urls: ['/'], userAgents: ['Googlebot'] },
      });
      expect([huge.statusCode, huge.json().error]).toEqual([
        413,
        {
          code: 'payload-too-large',
          message: `the request body is larger than the ${MAX_ROBOTS_BODY_BYTES} bytes this route accepts`,
        },
      ]);
    });

    it('tests a live robots.txt fetched through the guarded fetch, and a stored version', async () => {
      files['/robots.txt'] = { status: 200, body: 'User-agent: *\nAllow: /ok\nDisallow: /\n' };
      const live = await post<{
        source: { kind: string; mode: string; retrieval: { status: number } };
        results: Verdict[];
      }>('/api/test', { robotsUrl: `${origin.url}/some/page`, urls: ['/ok', '/no'], userAgents: ['bingbot'] });
      expect(live.source).toMatchObject({ kind: 'url', mode: 'rules', retrieval: { status: 200 } });
      expect(live.results.map((r) => [r.url, r.allowed, r.line])).toEqual([
        [`${origin.url}/ok`, true, 2],
        [`${origin.url}/no`, false, 3],
      ]);

      files['/robots.txt'] = { status: 503, body: '' };
      const down = await post<{ source: { mode: string }; results: Verdict[] }>('/api/test', {
        robotsUrl: origin.url,
        urls: ['/ok'],
        userAgents: ['Googlebot'],
      });
      expect(down.source.mode).toBe('disallow-all');
      expect(down.results[0]).toMatchObject({ allowed: false, note: expect.stringContaining('unreachable') });
      delete files['/robots.txt'];
      const none = await post<{ results: Verdict[] }>('/api/test', {
        robotsUrl: origin.url,
        urls: ['/ok'],
        userAgents: ['Googlebot'],
      });
      expect(none.results[0]).toMatchObject({ allowed: true, note: expect.stringContaining('no robots.txt') });

      files['/robots.txt'] = { status: 200, body: 'User-agent: Googlebot\nDisallow: /g\n' };
      await watch();
      const version = await database.db.selectFrom('versions').select('id').executeTakeFirstOrThrow();
      const stored = await post<{ source: { kind: string; versionId: number }; results: Verdict[] }>('/api/test', {
        versionId: version.id,
        urls: ['/g/1'],
        userAgents: ['Googlebot', 'Googlebot-Image'],
      });
      expect(stored.source).toMatchObject({ kind: 'version', versionId: version.id });
      expect(stored.results.map((r) => [r.url, r.userAgent, r.allowed])).toEqual([
        [`${origin.url}/g/1`, 'Googlebot', false],
        [`${origin.url}/g/1`, 'Googlebot-Image', false],
      ]);
    });

    it('decides on the bytes of a live file and of a stored version, not on their decoded text', async () => {
      // Latin-1 byte E9 in a rule: the reference matches it against %E9 in the URL, byte for byte.
      const latin1 = Buffer.concat([
        Buffer.from('User-agent: *\nDisallow: /caf'),
        Buffer.from([0xe9]),
        Buffer.from('\n'),
      ]);
      files['/robots.txt'] = { status: 200, body: latin1 };
      const ask = { urls: ['/caf%E9', '/caf%EF%BF%BD'], userAgents: ['Googlebot'] };
      const live = await post<{ results: Verdict[] }>('/api/test', { robotsUrl: origin.url, ...ask });
      expect(live.results.map((r) => [r.allowed, r.line])).toEqual([
        [false, 2],
        [true, 0],
      ]);
      await watch();
      const version = await database.db.selectFrom('versions').select('id').executeTakeFirstOrThrow();
      const stored = await post<{ results: Verdict[] }>('/api/test', { versionId: version.id, ...ask });
      expect(stored.results.map((r) => [r.allowed, r.line])).toEqual([
        [false, 2],
        [true, 0],
      ]);
      const raw = await app.inject({ method: 'GET', url: `/api/versions/${version.id}/raw` });
      expect(raw.rawPayload.equals(latin1)).toBe(true);
      // Not UTF-8, so not labelled UTF-8.
      expect(raw.headers['content-type']).toBe('text/plain');
    });

    it('says which name it used whenever it rewrote the one given', async () => {
      const robots = 'User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *bot\nDisallow: /\n';
      const ua = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      const { results } = await post<{ results: (Verdict & { userAgentUsed: string; rewrite: string | null })[] }>(
        '/api/test',
        { robots, urls: ['/g'], userAgents: ['Googlebot', ua, ' Googlebot ', '(FooBot)'] },
      );
      expect(results.map((r) => [r.userAgent, r.userAgentUsed, r.allowed, r.line])).toEqual([
        ['Googlebot', 'Googlebot', false, 2],
        [ua, 'Googlebot', false, 2],
        [' Googlebot ', 'Googlebot', false, 2],
        ['(FooBot)', '(FooBot)', true, 0],
      ]);
      expect(results[0]!.rewrite).toBeNull();
      expect(results[1]!.rewrite).toContain("used 'Googlebot'");
      expect(results[2]!.rewrite).toContain('surrounding whitespace removed');
      expect(results[3]!.rewrite).toContain('names no crawler');
      // The name used and the rewrite are the engine's reading of each name, word for word.
      expect(results.map((r) => [r.userAgentUsed, r.rewrite])).toEqual(
        results.map((r) => [resolveCrawler(r.userAgent).name, resolveCrawler(r.userAgent).rewrite]),
      );
    });

    it('names the catalogue crawler a typo away from a name it does not know, and still decides for the name given', async () => {
      const reply = await app.inject({
        method: 'POST',
        url: '/api/test',
        payload: {
          robots: 'User-agent: Googlebot\nDisallow: /\n',
          urls: ['/x'],
          userAgents: ['Googlbot', 'Googlebot', 'MyBot'],
        },
      });
      expect(reply.statusCode).toBe(200);
      const results = reply.json().results as { userAgent: string; suggestion: string | null; allowed: boolean }[];
      expect(results.map((r) => [r.userAgent, r.suggestion, r.allowed])).toEqual([
        ['Googlbot', 'Googlebot', true],
        ['Googlebot', null, false],
        ['MyBot', null, true],
      ]);
    });

    it('refuses bad tester input with clear errors', async () => {
      const cases: [object, number, string][] = [
        [{ urls: ['/'], userAgents: ['Googlebot'] }, 400, 'exactly one of robots'],
        [{ robots: '', robotsUrl: 'https://e.com', urls: ['/'], userAgents: ['Googlebot'] }, 400, 'exactly one of'],
        [{ robots: '', urls: ['/'], userAgents: [' '] }, 400, 'a user agent is blank'],
        [{ robots: '', urls: ['gopher://e.com/x'], userAgents: ['Googlebot'] }, 400, 'not an http(s) or ftp URL'],
        [{ robots: '', urls: ['no-slash'], userAgents: ['Googlebot'] }, 400, 'neither an absolute URL nor a path'],
        [{ robots: '', urls: [], userAgents: ['Googlebot'] }, 400, 'urls'],
        [{ versionId: 999, urls: ['/'], userAgents: ['Googlebot'] }, 404, 'no version with id 999'],
        [{ robotsUrl: 'not a url', urls: ['/'], userAgents: ['Googlebot'] }, 400, 'is not a URL'],
      ];
      for (const [payload, status, message] of cases) {
        const reply = await app.inject({ method: 'POST', url: '/api/test', payload });
        expect(reply.statusCode, JSON.stringify(payload)).toBe(status);
        expect(reply.json().error.message, JSON.stringify(payload)).toContain(message);
      }
    });

    it('loads a live robots.txt, and refuses loopback without the explicit option', async () => {
      files['/robots.txt'] = { status: 200, body: 'User-agent: *\nDisallow: /x\n' };
      const reply = await app.inject({
        method: 'GET',
        url: `/api/fetch?url=${encodeURIComponent(`${origin.url}/a/b`)}`,
      });
      expect(reply.statusCode).toBe(200);
      expect(reply.json()).toMatchObject({
        robotsUrl: `${origin.url}/robots.txt`,
        outcome: 'rules',
        status: 200,
        content: 'User-agent: *\nDisallow: /x\n',
        contentBase64: Buffer.from('User-agent: *\nDisallow: /x\n').toString('base64'),
        size: 27,
        html: false,
        headers: { contentType: 'text/plain' },
      });
      const strict = await buildApp({ database, now: clock.now });
      try {
        const refused = await strict.inject({ method: 'GET', url: `/api/fetch?url=${encodeURIComponent(origin.url)}` });
        expect(refused.json()).toMatchObject({
          outcome: 'disallow-all',
          error: { kind: 'blocked' },
          summary: 'not fetched: the address is private or loopback, which this service may not reach',
        });
      } finally {
        await strict.close();
      }
      // A bare host is read as https (the TLS handshake with this plain-HTTP origin then fails).
      const bare = await app.inject({ method: 'GET', url: `/api/fetch?url=127.0.0.1:${origin.port}` });
      expect(bare.json()).toMatchObject({ robotsUrl: `https://127.0.0.1:${origin.port}/robots.txt` });
      const bad = await app.inject({ method: 'GET', url: '/api/fetch?url=mailto:x@y.z' });
      expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'invalid-request']);
      const missing = await app.inject({ method: 'GET', url: '/api/fetch' });
      expect([missing.statusCode, missing.json().error.code]).toEqual([400, 'invalid-request']);
    });

    it('reads sitemaps through the SSRF guard: without the option, loopback sitemaps are refused', async () => {
      files['/robots.txt'] = { status: 200, body: `User-agent: *\nDisallow: /a\nSitemap: ${origin.url}/sitemap.xml\n` };
      files['/sitemap.xml'] = { status: 200, body: `${origin.url}/a/1\n${origin.url}/b/1\n` };
      const { fileId, propertyId } = await watch('domain', 'example.test');
      const strict = await buildApp({ database, now: clock.now });
      try {
        const before = origin.requests.length;
        const reply = await strict.inject({
          method: 'POST',
          url: '/api/impact',
          payload: { fileId, draft: 'User-agent: *\nDisallow: /\n' },
        });
        expect(reply.statusCode).toBe(200);
        // Only the home page, which is always checked; the listed sitemap was refused, and says so.
        expect(reply.json().urls).toMatchObject({
          checked: 1,
          noSitemap: false,
          problems: [
            expect.stringContaining(
              'not fetched: the address is private or loopback, which this service may not reach',
            ),
          ],
        });
        const found = await strict.inject({
          method: 'POST',
          url: `/api/properties/${propertyId}/discover-hosts`,
          payload: {},
        });
        expect(found.statusCode).toBe(200);
        expect(found.json()).toMatchObject({
          urlsRead: 0,
          problems: [
            expect.stringContaining(
              'not fetched: the address is private or loopback, which this service may not reach',
            ),
          ],
        });
        expect(origin.requests.slice(before)).toEqual([]);
      } finally {
        await strict.close();
      }
    });

    it('needs the token for live files when a service with a token may fetch from private networks', async () => {
      // A redirect is followed wherever it leads: a live file can be any page of a private network.
      origin.answer = (request) =>
        request.url === '/robots.txt'
          ? { status: 301, headers: { location: '/internal/secret' } }
          : { status: 200, body: 'internal page' };
      const url = `/api/fetch?url=${encodeURIComponent(origin.url)}`;
      const token = 'correct horse battery staple';
      const guardedApp = await buildApp({ database, now: clock.now, fetch, token, privateAddressesAllowed: true });
      try {
        const refused = await guardedApp.inject({ method: 'GET', url });
        expect(refused.statusCode).toBe(401);
        expect(refused.json().error).toEqual({
          code: 'unauthorized',
          message:
            'this server requires Authorization: Bearer <token> for requests that fetch from its private network',
        });
        const wrong = await guardedApp.inject({ method: 'GET', url, headers: { authorization: 'Bearer nope' } });
        expect(wrong.statusCode).toBe(401);
        const allowed = await guardedApp.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        expect(allowed.statusCode).toBe(200);
        expect(allowed.json()).toMatchObject({ finalUrl: `${origin.url}/internal/secret`, content: 'internal page' });
        // Other reads stay open.
        expect((await guardedApp.inject({ method: 'GET', url: '/api/properties' })).statusCode).toBe(200);
      } finally {
        await guardedApp.close();
      }
      // A token but no private networks: the guard refuses them, so the live loader stays open to all.
      const publicOnly = await buildApp({ database, now: clock.now, token });
      try {
        const open = await publicOnly.inject({ method: 'GET', url });
        expect(open.statusCode).toBe(200);
        expect(open.json()).toMatchObject({ outcome: 'disallow-all', error: { kind: 'blocked' } });
      } finally {
        await publicOnly.close();
      }
    });

    it('shows which sitemap URLs change verdict for which crawlers under a draft or another version', async () => {
      const urls = ['/', '/a', '/private/1', '/shop/x', '/shop/y'].map((p) => `${origin.url}${p}`);
      files['/robots.txt'] = {
        status: 200,
        body: `User-agent: *\nDisallow: /private\n\nSitemap: ${origin.url}/sitemap.xml\n`,
      };
      files['/sitemap.xml'] = {
        status: 200,
        type: 'application/xml',
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
          ...urls,
          'http://elsewhere.test/shop/z',
        ]
          .map((u) => `<url><loc>${u}</loc></url>`)
          .join('')}</urlset>`,
      };
      const { propertyId, fileId, fetchNow } = await watch();
      const draft = `User-agent: *\nDisallow: /shop\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: ${origin.url}/sitemap.xml\n`;
      const impact = await post<{
        urls: { source: string; checked: number; capped: boolean; sitemaps: string[] };
        summary: { userAgent: string; newlyBlocked: number; newlyAllowed: number }[];
        changesTotal: number;
        changes: {
          url: string;
          userAgent: string;
          before: { allowed: boolean; line: number };
          after: { allowed: boolean; line: number; lineText: string };
        }[];
      }>('/api/impact', { propertyId, draft, userAgents: ['*', 'Googlebot', 'GPTBot'] });
      expect(impact.urls).toEqual({
        source: 'sitemaps',
        sitemaps: [`${origin.url}/sitemap.xml`],
        noSitemap: false,
        checked: 5,
        capped: false,
        problems: [
          `${origin.url}/sitemap.xml: http://elsewhere.test/shop/z is outside this sitemap's location ${origin.url}/ (sitemaps.org location rules)`,
        ],
      });
      expect(impact.summary).toEqual([
        { userAgent: '*', newlyBlocked: 2, newlyAllowed: 1 },
        { userAgent: 'Googlebot', newlyBlocked: 2, newlyAllowed: 1 },
        { userAgent: 'GPTBot', newlyBlocked: 4, newlyAllowed: 0 },
      ]);
      expect(impact.changesTotal).toBe(10);
      expect(impact.changes.find((c) => c.url.endsWith('/shop/x') && c.userAgent === 'Googlebot')).toMatchObject({
        before: { allowed: true, line: 0 },
        after: { allowed: false, line: 2, lineText: 'Disallow: /shop' },
      });

      const capped = await post<{ urls: { checked: number; capped: boolean } }>('/api/impact', {
        fileId,
        draft,
        maxUrls: 2,
      });
      expect(capped.urls).toMatchObject({ checked: 2, capped: true });

      // A stored version against the current one (the default), over URLs given in the request; the answer names both.
      files['/robots.txt'] = { status: 200, body: 'User-agent: *\nDisallow: /a\n' };
      await fetchNow();
      const [latest, older] = await database.db
        .selectFrom('versions')
        .select(['id', 'fetched_at'])
        .orderBy('id', 'desc')
        .limit(2)
        .execute();
      const byVersion = await post<{
        urls: { source: string };
        changesTotal: number;
        summary: unknown[];
        compared: string;
        before: { versionId: number; current: boolean };
        after: { versionId: number; current: boolean; draft: boolean };
      }>('/api/impact', {
        fileId,
        versionId: older!.id,
        urls: ['/a', '/private/1', '/b'],
        userAgents: ['Googlebot'],
      });
      expect(byVersion.urls.source).toBe('request');
      expect(byVersion.summary).toEqual([{ userAgent: 'Googlebot', newlyBlocked: 1, newlyAllowed: 1 }]);
      expect(byVersion.before).toMatchObject({ versionId: latest!.id, current: true });
      expect(byVersion.after).toMatchObject({ versionId: older!.id, current: false, draft: false });
      expect(byVersion.compared).toBe(
        `version ${older!.id} (fetched ${new Date(Number(older!.fetched_at)).toISOString()}) against version ` +
          `${latest!.id} (fetched ${new Date(Number(latest!.fetched_at)).toISOString()}, the current one)`,
      );
      // The current version has nothing to be compared with by default: said plainly.
      const itself = await app.inject({
        method: 'POST',
        url: '/api/impact',
        payload: { fileId, versionId: latest!.id, urls: ['/a'] },
      });
      expect(itself.statusCode).toBe(400);
      expect(itself.json().error.message).toBe(
        `version ${latest!.id} is the current version of ${origin.url}/robots.txt: choose an older version to compare with it`,
      );

      // No sitemap anywhere: the home page is still checked, and the answer says no sitemap was found.
      files['/robots.txt'] = { status: 200, body: 'User-agent: *\nDisallow: /private\n' };
      delete files['/sitemap.xml'];
      await fetchNow();
      const bare = await post<{
        urls: { noSitemap: boolean; checked: number; problems: string[] };
        changesTotal: number;
        changes: { url: string; userAgent: string }[];
      }>('/api/impact', { fileId, draft: 'User-agent: *\nDisallow: /\n', userAgents: ['Googlebot'] });
      expect(bare.urls).toMatchObject({ noSitemap: true, checked: 1, problems: [] });
      expect(bare.changesTotal).toBe(1);
      expect(bare.changes).toMatchObject([{ url: `${origin.url}/`, userAgent: 'Googlebot' }]);
      // Without crawlers named, the impact check asks about the service's one list of watched crawlers.
      const watched = await post<{ userAgents: string[] }>('/api/impact', {
        fileId,
        draft: 'User-agent: *\nDisallow: /\n',
      });
      expect(watched.userAgents).toEqual(WATCHED_CRAWLER_NAMES);
      // A draft longer than Google reads is read as Google reads it, and the answer says so.
      const longDraft = await post<{ after: { truncated: boolean }; before: { truncated: boolean } }>('/api/impact', {
        fileId,
        draft: `User-agent: *\n${'#x\n'.repeat(200_000)}Disallow: /\n`,
        userAgents: ['Googlebot'],
      });
      expect([longDraft.before.truncated, longDraft.after.truncated]).toEqual([false, true]);

      for (const [payload, status] of [
        [{ draft }, 400],
        [{ propertyId, fileId, draft }, 400],
        [{ fileId }, 400],
        [{ fileId: 9999, draft }, 404],
        [{ propertyId: 9999, draft }, 404],
        [{ fileId, draft, userAgents: [' '] }, 400],
      ] as const) {
        const reply = await app.inject({ method: 'POST', url: '/api/impact', payload });
        expect(reply.statusCode, JSON.stringify(payload)).toBe(status);
        expect(reply.json()).toHaveProperty('error.message');
      }
    });

    it('gives the exact regions whose verdict changes, with witnesses and deciding lines, beside the sample', async () => {
      files['/robots.txt'] = {
        status: 200,
        body: `User-agent: *\nDisallow: /private\n\nSitemap: ${origin.url}/sitemap.xml\n`,
      };
      files['/sitemap.xml'] = {
        status: 200,
        type: 'application/xml',
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin.url}/shop/a.php</loc></url></urlset>`,
      };
      const { fileId, fetchNow } = await watch();
      const draft =
        'User-agent: *\nDisallow: /private\nDisallow: /shop/*.php\nAllow: /private/open\n\n' +
        `User-agent: GPTBot\nDisallow: /\n\nSitemap: ${origin.url}/sitemap.xml\n`;
      const impact = await post<{
        changesTotal: number;
        exact: {
          available: boolean;
          note: string | null;
          equivalent: boolean;
          complete: boolean;
          crawlers: {
            userAgent: string;
            equivalent: boolean;
            complete: boolean;
            regionsTotal: number;
            regions: unknown[];
          }[];
        };
      }>('/api/impact', { fileId, draft, userAgents: ['*', 'Googlebot', 'GPTBot', 'bingbot'] });
      // The sample has one listed URL; the exact comparison finds the region no sitemap lists too.
      expect(impact.changesTotal).toBe(5);
      const rule = (kind: string, pattern: string, line: number, lineText: string) => ({
        kind,
        pattern,
        line,
        lineText,
        indexHtml: false,
      });
      const forStar = [
        {
          change: 'blocked',
          pattern: '/shop/*.php',
          witness: '/shop/.php',
          witnessUrl: `${origin.url}/shop/.php`,
          before: null,
          after: rule('disallow', '/shop/*.php', 3, 'Disallow: /shop/*.php'),
        },
        {
          change: 'allowed',
          pattern: '/private/open',
          witness: '/private/open',
          witnessUrl: `${origin.url}/private/open`,
          before: rule('disallow', '/private', 2, 'Disallow: /private'),
          after: rule('allow', '/private/open', 4, 'Allow: /private/open'),
        },
      ];
      expect(impact.exact).toEqual({
        available: true,
        note: null,
        equivalent: false,
        complete: true,
        crawlers: [
          { userAgent: '*', equivalent: false, complete: true, regionsTotal: 2, regions: forStar },
          { userAgent: 'Googlebot', equivalent: false, complete: true, regionsTotal: 2, regions: forStar },
          {
            userAgent: 'GPTBot',
            equivalent: false,
            complete: true,
            regionsTotal: 1,
            regions: [
              {
                change: 'blocked',
                pattern: '/',
                witness: '/',
                witnessUrl: `${origin.url}/`,
                before: null,
                after: rule('disallow', '/', 7, 'Disallow: /'),
              },
            ],
          },
          { userAgent: 'bingbot', equivalent: false, complete: true, regionsTotal: 2, regions: forStar },
        ],
      });

      // An edit that changes no meaning: equivalent for every crawler asked about.
      const same = await post<{ exact: { equivalent: boolean; crawlers: { equivalent: boolean; regions: [] }[] } }>(
        '/api/impact',
        { fileId, draft: `# tidied\nuser-agent: *\ndisallow: /private\n`, userAgents: ['*', 'GPTBot'] },
      );
      expect(same.exact).toMatchObject({
        available: true,
        equivalent: true,
        complete: true,
        crawlers: [
          { userAgent: '*', equivalent: true, regions: [] },
          { userAgent: 'GPTBot', equivalent: true, regions: [] },
        ],
      });

      // Against a version that could not be fetched there are no rules to compare: said, not guessed.
      files['/robots.txt'] = { status: 503, body: 'down' };
      await fetchNow();
      const down = await post<{ before: { mode: string }; changesTotal: number; exact: unknown }>('/api/impact', {
        fileId,
        draft,
        userAgents: ['Googlebot'],
      });
      expect(down.before.mode).toBe('disallow-all');
      expect(down.changesTotal).toBe(1);
      expect(down.exact).toEqual({
        available: false,
        note: 'no exact comparison: the version compared with could not be fetched (every URL disallowed), so there are no rules to compare',
        equivalent: false,
        complete: false,
        crawlers: [],
      });
    });

    it("reads a stored version over its own file's origin, and refuses versions of other files", async () => {
      const second = await startOrigin({ status: 200, body: 'User-agent: *\nDisallow: /second\n' });
      try {
        files['/robots.txt'] = { status: 200, body: 'User-agent: *\nDisallow: /first\n' };
        // One property watching two origins (as a domain watches several hosts), the first ranked first.
        const property = await createProperty(
          database.db,
          database.dialect,
          {
            kind: 'domain',
            name: 'two.test',
            hosts: [
              { host: `127.0.0.1:${origin.port}`, source: 'property' },
              { host: `127.0.0.1:${second.port}`, source: 'www' },
            ],
            schemes: ['http'],
          },
          clock.now(),
        );
        // Another property that watches the first origin only (it shares that file).
        const other = await createProperty(
          database.db,
          database.dialect,
          parsePropertyInput(`${origin.url}/`),
          clock.now(),
        );
        const worker = new Worker({
          db: database.db,
          dialect: database.dialect,
          retrieve: workerRetrieval(fetch, clock.now),
          now: clock.now,
        });
        expect(await worker.runUntilIdle()).toBe(2);
        second.answer = { status: 200, body: 'User-agent: *\nDisallow: /second\nDisallow: /more\n' };
        clock.advance(DAY);
        await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
        expect(await worker.runUntilIdle()).toBe(2);
        const fileOf = async (url: string) =>
          (await database.db.selectFrom('robots_files').select('id').where('url', '=', url).executeTakeFirstOrThrow())
            .id;
        const firstFile = await fileOf(`${origin.url}/robots.txt`);
        const secondFile = await fileOf(`${second.url}/robots.txt`);
        const versionsOf = async (fileId: number) =>
          (
            await database.db.selectFrom('versions').select('id').where('file_id', '=', fileId).orderBy('id').execute()
          ).map((v) => v.id);
        const [secondOld, secondNew] = await versionsOf(secondFile);
        const [firstVersion] = await versionsOf(firstFile);

        // The property's second file's old version against its current one: its own origin and its own versions.
        const impact = await post<{
          fileId: number;
          origin: string;
          before: { versionId: number };
          summary: { newlyBlocked: number }[];
        }>('/api/impact', {
          propertyId: property.id,
          versionId: secondOld,
          urls: ['/more/x', '/first/x'],
          userAgents: ['Googlebot'],
        });
        expect(impact).toMatchObject({
          fileId: secondFile,
          origin: second.url,
          before: { versionId: secondNew },
          summary: [{ userAgent: 'Googlebot', newlyBlocked: 0, newlyAllowed: 1 }],
        });

        for (const [payload, message] of [
          [
            { propertyId: other.id, versionId: secondNew },
            `version ${secondNew} is a version of file ${secondFile}, which property ${other.id} does not watch`,
          ],
          [
            { fileId: firstFile, versionId: secondNew },
            `versionId ${secondNew} is a version of file ${secondFile}, not of file ${firstFile} (${origin.url}/robots.txt)`,
          ],
          [
            { fileId: firstFile, draft: 'User-agent: *\nDisallow: /\n', against: secondOld },
            `against ${secondOld} is a version of file ${secondFile}, not of file ${firstFile}`,
          ],
          [
            { fileId: secondFile, versionId: secondNew, against: firstVersion },
            `against ${firstVersion} is a version of file ${firstFile}, not of file ${secondFile}`,
          ],
        ] as const) {
          const reply = await app.inject({ method: 'POST', url: '/api/impact', payload });
          expect(reply.statusCode, JSON.stringify(payload)).toBe(400);
          expect(reply.json().error, JSON.stringify(payload)).toEqual({
            code: 'invalid-request',
            message: expect.stringContaining(message),
          });
        }
      } finally {
        await second.close();
      }
    });

    it('ranks the hosts the user named first, then sitemap hosts by their URLs now; the report shows 20', async () => {
      files['/robots.txt'] = { status: 200, body: `Sitemap: ${origin.url}/sitemap.xml\n` };
      // 24 hosts in the sitemap: h0 with 24 URLs, h1 with 23 … h23 with 1.
      const listing = (counts: (i: number) => number) =>
        Array.from({ length: 24 }, (_, i) =>
          Array.from({ length: counts(i) }, (_, j) => `http://h${i}.example.test/${j}`),
        )
          .flat()
          .join('\n');
      files['/sitemap.xml'] = { status: 200, body: listing((i) => 24 - i) };
      const { propertyId } = await watch('domain', 'example.test');
      const discovered = await post<{ hosts: { host: string; rank: number | null; added: boolean }[] }>(
        `/api/properties/${propertyId}/discover-hosts`,
        { maxHosts: 30 },
      );
      expect(discovered.hosts.slice(0, 3)).toEqual([
        { host: 'h0.example.test', urls: 24, added: true, rank: 1 },
        { host: 'h1.example.test', urls: 23, added: true, rank: 2 },
        { host: 'h2.example.test', urls: 22, added: true, rank: 3 },
      ]);

      // A host added by hand goes before every sitemap host, so the report shows it.
      const shop = await post<{ host: string; source: string; rank: number }>(
        `/api/properties/${propertyId}/hosts`,
        { host: 'shop.example.test' },
        201,
      );
      expect(shop).toMatchObject({ host: 'shop.example.test', source: 'user', rank: 1 });
      const shown = async () => {
        const reply = await app.inject({ method: 'GET', url: `/api/properties/${propertyId}/files` });
        const rows = reply.json<{ files: { host: string; hostRank: number; hostSource: string }[] }>().files;
        return [...new Set(rows.map((f) => `${f.hostRank} ${f.hostSource} ${f.host}`))];
      };
      expect(await shown()).toEqual([
        `0 property 127.0.0.1:${origin.port}`,
        '1 user shop.example.test',
        ...Array.from({ length: 18 }, (_, i) => `${i + 2} sitemap h${i}.example.test`),
      ]);

      // The sitemaps change: the last hosts now have the most URLs; the next discovery ranks them first.
      files['/sitemap.xml'] = { status: 200, body: listing((i) => i + 1) };
      const again = await post<{ hosts: { host: string; rank: number | null }[] }>(
        `/api/properties/${propertyId}/discover-hosts`,
        {},
      );
      expect(again.hosts[0]).toMatchObject({ host: 'h23.example.test', rank: 2 });
      expect(await shown()).toEqual([
        `0 property 127.0.0.1:${origin.port}`,
        '1 user shop.example.test',
        ...Array.from({ length: 18 }, (_, i) => `${i + 2} sitemap h${23 - i}.example.test`),
      ]);
      const all = await app.inject({ method: 'GET', url: `/api/properties/${propertyId}/files?all=true` });
      expect(new Set(all.json<{ files: { host: string }[] }>().files.map((f) => f.host)).size).toBe(26);
    });

    it("adds the hosts a domain property's sitemaps list, most URLs first", async () => {
      files['/robots.txt'] = { status: 200, body: `Sitemap: ${origin.url}/sitemap.xml\n` };
      const listed = [
        'http://a.example.test/1',
        'http://a.example.test/2',
        'http://a.example.test/3',
        'http://b.example.test/1',
        'http://b.example.test/2',
        'http://c.example.test/1',
        'http://other.test/1',
        'http://notexample.test/1',
      ];
      files['/sitemap.xml'] = { status: 200, body: listed.join('\n') };
      const { propertyId } = await watch('domain', 'example.test');
      const found = await post<{ urlsRead: number; hosts: { host: string; urls: number; added: boolean }[] }>(
        `/api/properties/${propertyId}/discover-hosts`,
        { maxHosts: 2 },
      );
      expect(found.urlsRead).toBe(6);
      expect(found.hosts).toEqual([
        { host: 'a.example.test', urls: 3, added: true, rank: 1 },
        { host: 'b.example.test', urls: 2, added: true, rank: 2 },
        { host: 'c.example.test', urls: 1, added: false, rank: null },
      ]);
      const hosts = await database.db
        .selectFrom('hosts')
        .select(['host', 'source', 'rank'])
        .where('property_id', '=', propertyId)
        .orderBy('rank')
        .execute();
      expect(hosts.slice(1)).toEqual([
        { host: 'a.example.test', source: 'sitemap', rank: 1 },
        { host: 'b.example.test', source: 'sitemap', rank: 2 },
      ]);
      // Workers run it daily per domain property: once per lease period, whoever asks.
      expect(await discoverDueProperty(database, { fetch, now: clock.now() })).toBe(propertyId);
      expect(await discoverDueProperty(database, { fetch, now: clock.now() + 1000 })).toBeNull();
      expect(await discoverDueProperty(database, { fetch, now: clock.now() + DAY })).toBe(propertyId);
      const after = await database.db
        .selectFrom('hosts')
        .select('host')
        .where('property_id', '=', propertyId)
        .execute();
      // maxHosts defaults to 20: the third host is added by the scheduled run.
      expect(after.map((h) => h.host).sort()).toEqual(
        [`127.0.0.1:${origin.port}`, 'a.example.test', 'b.example.test', 'c.example.test'].sort(),
      );
      const prefix = await createProperty(
        database.db,
        database.dialect,
        {
          kind: 'url-prefix',
          name: 'https://example.org/',
          hosts: [{ host: 'example.org', source: 'property' }],
          schemes: ['https'],
        },
        clock.now(),
      );
      const refused = await app.inject({
        method: 'POST',
        url: `/api/properties/${prefix.id}/discover-hosts`,
        payload: {},
      });
      expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'invalid-request']);
    });
  });
});
