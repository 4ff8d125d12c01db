/**
 * The share of a site's sitemap URLs each new version blocks per watched crawler: a real worker fetches robots.txt
 * from a loopback origin that also serves a sitemap, the alert hook walks the sitemap once before the recording
 * transaction (the `file-changed` count reuses that walk), the share is stored with the version, and the files and
 * properties APIs say it in the headline ("blocks 24% of your sitemap URLs (12 of 50) for Googlebot, …"). A site
 * without a sitemap, or whose sitemap cannot be read, gets no share in the headline and a note that says why.
 */

import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { parseRobotsTxt } from 'robotskit';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAlertHook } from '../src/alerts/store.js';
import { blockedCounts } from '../src/analysis/sitemap-share.js';
import { AnalysisThreads } from '../src/analysis/threads.js';
import { WATCHED_CRAWLER_NAMES } from '../src/analysis/watched-crawlers.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createPolicyResolver } from '../src/storage/history.js';
import { createProperty } from '../src/storage/properties.js';
import { sitemapShareOfVersion } from '../src/storage/sitemap-shares.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';
import { type Answer, type LocalOrigin, startOrigin } from './origins.js';

/** A resolver that knows no name: only the loopback origin (by address) is reachable. */
const noNames = ((_host: string, _options: unknown, callback: (error: NodeJS.ErrnoException) => void) => {
  const error: NodeJS.ErrnoException = new Error('no such name');
  error.code = 'ENOTFOUND';
  callback(error);
}) as unknown as LookupFunction;

const DAY = 24 * 60 * 60_000;

/** The shop's 50 sitemap paths: 12 products, 5 images, 33 other pages. */
const SHOP_PATHS = [
  ...Array.from({ length: 12 }, (_, i) => `/products/p${i + 1}`),
  ...Array.from({ length: 5 }, (_, i) => `/images/i${i + 1}.jpg`),
  ...Array.from({ length: 33 }, (_, i) => `/page-${i + 1}`),
];

function urlset(urls: readonly string[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.map((u) => `  <url><loc>${u}</loc></url>\n`).join('') +
    '</urlset>\n'
  );
}

interface HeadlineJson {
  tone: string;
  text: string;
  sitemapShare: {
    status: string;
    checked: number;
    capped: boolean;
    crawlers: { crawler: string; blocked: number; percent: number }[];
    note: string;
  } | null;
}

describe.each(testDatabases)('the share of sitemap URLs a version blocks, on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'sitemap share', () => {
    let database: Database;
    let clock: ManualClock;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let origin: LocalOrigin;
    let files: Map<string, Answer>;

    beforeEach(async () => {
      database = await openDatabase(target.config());
      clock = new ManualClock(100 * DAY);
      fetch = createGuardedFetch({ allowPrivate: true, lookup: noNames });
      app = await buildApp({ database, now: clock.now, fetch, resolvePolicy: createPolicyResolver(database.db) });
      files = new Map();
      origin = await startOrigin((request) => files.get(request.url ?? '') ?? { status: 404, body: 'not found' });
      await createProperty(database.db, database.dialect, parsePropertyInput(`${origin.url}/`), clock.now());
    });
    afterEach(async () => {
      await app.close();
      await fetch.close();
      await origin.close();
      await database.close();
    });
    afterAll(() => target.cleanup());

    function worker(options: { maxUrls?: number } = {}): Worker {
      return new Worker({
        db: database.db,
        dialect: database.dialect,
        retrieve: workerRetrieval(fetch, clock.now),
        onNewVersion: createAlertHook(() => {}, { fetch, now: clock.now, ...options }),
        now: clock.now,
      });
    }

    async function fetchNow(w: Worker): Promise<void> {
      clock.advance(DAY);
      await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
      expect(await w.runUntilIdle()).toBe(1);
    }

    /** The file's headline from GET /api/files/:id, and the property's from GET /api/properties. */
    async function headlines(): Promise<{ file: HeadlineJson; property: HeadlineJson }> {
      const listed = await app.inject({ method: 'GET', url: '/api/properties' });
      expect(listed.statusCode, listed.body).toBe(200);
      const [property] = listed.json<{ properties: { headline: HeadlineJson & { fileId: number } }[] }>().properties;
      const file = await app.inject({ method: 'GET', url: `/api/files/${property!.headline.fileId}?content=false` });
      expect(file.statusCode, file.body).toBe(200);
      return { file: file.json<{ headline: HeadlineJson }>().headline, property: property!.headline };
    }

    async function latestVersionId(): Promise<number> {
      const row = await database.db.selectFrom('versions').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
      return Number(row.id);
    }

    const sitemapReads = () => origin.requests.filter((r) => r === '/sitemap.xml').length;
    const text = (body: string): Answer => ({ status: 200, body });

    it('stores the share with each new version and says it in the file and property headlines', async () => {
      const w = worker();
      files.set('/sitemap.xml', { status: 200, body: urlset(SHOP_PATHS.map((p) => `${origin.url}${p}`)) });
      const sitemapLine = `Sitemap: ${origin.url}/sitemap.xml\n`;
      files.set(
        '/robots.txt',
        text(`User-agent: *\nDisallow: /cart\n\nUser-agent: Googlebot\nDisallow: /products/\n\n${sitemapLine}`),
      );
      await fetchNow(w);
      // One walk for the first version.
      expect(sitemapReads()).toBe(1);
      const first = await sitemapShareOfVersion(database.db, await latestVersionId());
      expect(first).toMatchObject({ status: 'measured', checked: 50, capped: false, reason: null });
      expect(first!.measuredAt).toBe(clock.now());
      // The engine's verdicts: Googlebot's group blocks /products/; Googlebot-Image and Applebot read it too.
      const blocked = Object.fromEntries(first!.crawlers.map((c) => [c.crawler, c.blocked]));
      expect(blocked).toEqual(
        Object.fromEntries(
          WATCHED_CRAWLER_NAMES.map((n) => [n, ['Googlebot', 'Googlebot-Image', 'Applebot'].includes(n) ? 12 : 0]),
        ),
      );
      const { file, property } = await headlines();
      expect(file.text).toBe(
        'blocks 24% of your sitemap URLs (12 of 50) for Googlebot, Googlebot-Image and Applebot; ' +
          'blocks some URLs for the others',
      );
      expect(file.tone).toBe('warn');
      expect(file.sitemapShare).toMatchObject({ status: 'measured', checked: 50, capped: false });
      expect(file.sitemapShare!.note).toBe('measured over 50 sitemap URLs');
      expect(file.sitemapShare!.crawlers.find((c) => c.crawler === 'Googlebot')).toEqual({
        crawler: 'Googlebot',
        blocked: 12,
        percent: 24,
      });
      expect(property.text).toBe(file.text);

      // An edit that changes the meaning: one more walk, shared by the new share and the alert's count.
      files.set(
        '/robots.txt',
        text(
          `User-agent: *\nDisallow: /cart\nDisallow: /images/\n\nUser-agent: Googlebot\nDisallow: /products/\n\n${sitemapLine}`,
        ),
      );
      await fetchNow(w);
      expect(sitemapReads()).toBe(2);
      const alerts = await app.inject({ method: 'GET', url: '/api/alerts?kind=file-changed' });
      const [changed] = alerts.json<{ alerts: { details: { sitemapUrls: { affected: number; checked: number } } }[] }>()
        .alerts;
      expect(changed!.details.sitemapUrls).toMatchObject({ affected: 5, checked: 50 });
      const after = await headlines();
      expect(after.file.text).toBe(
        'blocks 24% of your sitemap URLs (12 of 50) for Googlebot, Googlebot-Image and Applebot; ' +
          'blocks 10% of your sitemap URLs (5 of 50) for the others',
      );
      // The same content fetched again: no version, no walk, the same headline.
      await fetchNow(w);
      expect(sitemapReads()).toBe(2);
      expect((await headlines()).file.text).toBe(after.file.text);

      // Everything blocked for GPTBot: that headline stays as it was; the share is for crawlers that get some.
      files.set(
        '/robots.txt',
        text(`User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /products/\n\n${sitemapLine}`),
      );
      await fetchNow(w);
      expect((await headlines()).file.text).toBe(
        'blocks everything for GPTBot; blocks 24% of your sitemap URLs (12 of 50) for the others',
      );
    });

    it('says the last good version’s share while the file fails', async () => {
      const w = worker();
      files.set('/sitemap.xml', { status: 200, body: urlset(SHOP_PATHS.map((p) => `${origin.url}${p}`)) });
      files.set('/robots.txt', text(`User-agent: *\nDisallow: /images/\n\nSitemap: ${origin.url}/sitemap.xml\n`));
      await fetchNow(w);
      expect((await headlines()).file.text).toBe('blocks 10% of your sitemap URLs (5 of 50) for every crawler');
      // A 503: no walk for the failure; past the first 12 hours the last good version applies, with its share.
      files.set('/robots.txt', { status: 503, body: 'unavailable' });
      await fetchNow(w);
      expect(sitemapReads()).toBe(1);
      clock.advance(13 * 60 * 60_000);
      const { file } = await headlines();
      expect(file.text).toMatch(
        /^unreachable since .+ \(server error \(HTTP 503\)\): the last good version applies; it blocks 10% of your sitemap URLs \(5 of 50\) for every crawler$/,
      );
      expect(file.sitemapShare).toMatchObject({ status: 'measured', checked: 50 });
    });

    it('says the share is over a sample when the walk stops at its cap', async () => {
      const w = worker({ maxUrls: 4 });
      files.set('/sitemap.xml', {
        status: 200,
        body: urlset(['/a', '/shop/1', '/b', '/c', '/shop/2', '/shop/3'].map((p) => `${origin.url}${p}`)),
      });
      files.set('/robots.txt', text('User-agent: *\nDisallow: /shop/\n'));
      await fetchNow(w);
      const { file } = await headlines();
      expect(file.text).toBe('blocks 25% of your sitemap URLs (1 of the first 4 read) for every crawler');
      expect(file.sitemapShare).toMatchObject({ status: 'measured', checked: 4, capped: true });
      expect(file.sitemapShare!.note).toMatch(/^measured over 4 sitemap URLs; a sample: the walk stopped after 4 URLs/);
    });

    it('leaves the share out, and says why, without a sitemap or when it cannot be read', async () => {
      const w = worker();
      files.set('/robots.txt', text('User-agent: *\nDisallow: /private/\n'));
      await fetchNow(w);
      const none = (await headlines()).file;
      expect(none.text).toBe('blocks some URLs for every crawler');
      expect(none.sitemapShare).toMatchObject({ status: 'no-sitemap', checked: 0, crawlers: [] });
      expect(none.sitemapShare!.note).toMatch(/^no sitemap: the file lists none and \/sitemap\.xml has no URLs/);

      files.set('/sitemap.xml', { status: 503, body: 'unavailable' });
      files.set('/robots.txt', text(`User-agent: *\nDisallow: /private/\n\nSitemap: ${origin.url}/sitemap.xml\n`));
      await fetchNow(w);
      const unreadable = (await headlines()).file;
      expect(unreadable.text).toBe('blocks some URLs for every crawler');
      expect(unreadable.sitemapShare).toMatchObject({ status: 'unreachable', checked: 0 });
      expect(unreadable.sitemapShare!.note).toMatch(
        /^the sitemaps could not be read, so the share of sitemap URLs blocked is unknown \(.*503/,
      );
    });
  });
});

describe('counting blocked sitemap URLs in an analysis thread', () => {
  it('gives the counts the calling thread gives, by the engine, for work big enough to send there', async () => {
    const body = new TextEncoder().encode(
      'User-agent: *\nDisallow: /a/\n\nUser-agent: Googlebot\nDisallow: /b/\nAllow: /b/open\n\nUser-agent: GPTBot\nDisallow: /\n',
    );
    const urls = Array.from(
      { length: 3000 },
      (_, i) => `https://shop.invalid/${'abc'[i % 3]}/${i % 7 === 0 ? 'open' : 'x'}${i}`,
    );
    const threads = new AnalysisThreads(1);
    try {
      const inThread = await threads.blocked(body, urls, WATCHED_CRAWLER_NAMES);
      const inPlace = await blockedCounts(parseRobotsTxt(body), urls, WATCHED_CRAWLER_NAMES);
      expect(inThread).toEqual(inPlace);
      const googlebot = WATCHED_CRAWLER_NAMES.indexOf('Googlebot');
      // /b/ URLs blocked for Googlebot except /b/open…; GPTBot gets nothing; * loses the /a/ third.
      expect(inPlace[googlebot]).toBe(urls.filter((u) => u.includes('/b/') && !u.includes('/b/open')).length);
      expect(inPlace[WATCHED_CRAWLER_NAMES.indexOf('GPTBot')]).toBe(3000);
      expect(inPlace[WATCHED_CRAWLER_NAMES.indexOf('*')]).toBe(1000);
    } finally {
      await threads.close();
    }
  });
});
