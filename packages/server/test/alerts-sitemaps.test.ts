/**
 * The `file-changed` alert counts the sitemap URLs an edit affects: a real worker fetches robots.txt from a loopback
 * origin that also serves a sitemap, the alert hook walks the sitemap before the recording transaction, and the
 * sentence, the details (GET /api/alerts) and the webhook payload carry the count. A sitemap that cannot be read
 * leaves the count unknown and never fails the fetch.
 */

import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertPayload } from '../src/alerts/deliveries.js';
import { createAlertHook } from '../src/alerts/store.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
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

interface AlertJson {
  id: number;
  kind: string;
  severity: string;
  message: string;
  details: Record<string, unknown>;
}

function urlset(urls: readonly string[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.map((u) => `  <url><loc>${u}</loc></url>\n`).join('') +
    '</urlset>\n'
  );
}

describe.each(testDatabases)('sitemap URLs in alerts on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'sitemap URLs in alerts', () => {
    let database: Database;
    let clock: ManualClock;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let origin: LocalOrigin;
    /** What the origin answers, by path. */
    let files: Map<string, Answer>;

    beforeEach(async () => {
      database = await openDatabase(target.config());
      clock = new ManualClock(100 * DAY);
      fetch = createGuardedFetch({ allowPrivate: true, lookup: noNames });
      app = await buildApp({ database, now: clock.now, fetch });
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
        onNewVersion: createAlertHook(() => {}, { fetch, ...options }),
        now: clock.now,
      });
    }

    async function fetchNow(w: Worker): Promise<void> {
      clock.advance(DAY);
      await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
      expect(await w.runUntilIdle()).toBe(1);
    }

    async function changeAlerts(): Promise<AlertJson[]> {
      const reply = await app.inject({ method: 'GET', url: '/api/alerts?kind=file-changed' });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{ alerts: AlertJson[] }>().alerts;
    }

    const robots = (body: string): Answer => ({ status: 200, body });
    const sitemapRequests = () => origin.requests.filter((r) => r.endsWith('.xml')).length;

    it('says how many sitemap URLs a change affects, in the sentence, the details and the webhook payload', async () => {
      const w = worker();
      const pages = [
        '/',
        '/about',
        '/checkout/',
        '/checkout/pay',
        '/checkout/done?order=1',
        '/cart',
        '/blog/a',
        '/blog/b',
        '/private/x',
      ].map((p) => `${origin.url}${p}`);
      // A URL of another origin: its own robots.txt decides it, so it is not counted.
      files.set('/sitemap.xml', { status: 200, body: urlset([...pages, 'https://elsewhere.invalid/checkout/x']) });
      const v1 = `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin.url}/sitemap.xml\n`;
      files.set('/robots.txt', robots(v1));
      await fetchNow(w);
      expect(await changeAlerts()).toEqual([]);
      // Nothing to compare with yet; the sitemap is read once, for the first version's share of blocked URLs.
      expect(sitemapRequests()).toBe(1);

      files.set(
        '/robots.txt',
        robots(v1.replace('Disallow: /private/\n', 'Disallow: /private/\nDisallow: /checkout/\n')),
      );
      await fetchNow(w);
      const [changed] = await changeAlerts();
      expect(changed!.message).toBe(
        'robots.txt changed (+1 −0 lines): now blocks /checkout/ for Googlebot, bingbot, Applebot, GPTBot, ' +
          'ClaudeBot and other crawlers (*); sitemap URLs affected: 3; 3 of 9 sitemap URLs (33%) newly blocked for ' +
          'Googlebot',
      );
      // A third of the sitemap newly blocked for Googlebot: critical.
      expect(changed!.severity).toBe('critical');
      const expected = {
        status: 'counted',
        affected: 3,
        checked: 9,
        capped: false,
        sitemaps: [`${origin.url}/sitemap.xml`],
        crawlers: ['Googlebot', 'bingbot', 'Applebot', 'GPTBot', 'ClaudeBot', '*'].map((crawler) => ({
          crawler,
          newlyBlocked: 3,
          newlyAllowed: 0,
        })),
        reason: null,
        // The walk's own report of the other origin's URL (the protocol's location rules).
        problems: [expect.stringContaining("https://elsewhere.invalid/checkout/x is outside this sitemap's location")],
      };
      expect(changed!.details.sitemapUrls).toEqual(expected);
      // The webhook payload is built by the same function as GET /api/alerts.
      const payload = (await alertPayload(database.db, changed!.id)) as { alert: AlertJson };
      expect(payload.alert.message).toBe(changed!.message);
      expect(payload.alert.details.sitemapUrls).toEqual(expected);
      // One walk for the new version: its share of blocked sitemap URLs, reused by the count.
      expect(sitemapRequests()).toBe(2);

      // An edit that changes no meaning: said so, and nothing counted (the new version's share reads the sitemap).
      files.set('/robots.txt', robots(`# checkout closed\n${files.get('/robots.txt')!.body as string}`));
      await fetchNow(w);
      const [same] = await changeAlerts();
      expect(same!.id).not.toBe(changed!.id);
      expect(same!.message).toBe('robots.txt changed (+1 −0 lines): no crawler decides differently');
      expect(same!.details.sitemapUrls).toBeUndefined();
      const read = sitemapRequests();
      expect(read).toBe(3);

      // The same content fetched again makes no version and reads no sitemap.
      await fetchNow(w);
      expect(await changeAlerts()).toHaveLength(2);
      expect(sitemapRequests()).toBe(read);
    });

    it('counts what the cap lets it read, and says so', async () => {
      const w = worker({ maxUrls: 4 });
      files.set('/sitemap.xml', {
        status: 200,
        body: urlset(['/a', '/shop/1', '/shop/2', '/b', '/shop/3', '/shop/4'].map((p) => `${origin.url}${p}`)),
      });
      files.set('/robots.txt', robots('User-agent: *\nDisallow:\n'));
      await fetchNow(w);
      files.set('/robots.txt', robots('User-agent: *\nDisallow: /shop/\n'));
      await fetchNow(w);
      const [changed] = await changeAlerts();
      expect(changed!.message).toMatch(
        /; sitemap URLs affected: 2 \(of the first 4 read\); 2 of 4 sitemap URLs \(50%\) newly blocked for Googlebot$/,
      );
      expect(changed!.details.sitemapUrls).toMatchObject({ status: 'counted', affected: 2, checked: 4, capped: true });
    });

    it('says the count is unknown when the sitemap cannot be read, and records the fetch all the same', async () => {
      const w = worker();
      files.set('/sitemap.xml', { status: 503, body: 'unavailable' });
      files.set('/robots.txt', robots(`User-agent: *\nDisallow:\n\nSitemap: ${origin.url}/sitemap.xml\n`));
      await fetchNow(w);
      files.set('/robots.txt', robots(`User-agent: *\nDisallow: /search\n\nSitemap: ${origin.url}/sitemap.xml\n`));
      await fetchNow(w);
      const [changed] = await changeAlerts();
      expect(changed!.message).toMatch(
        /: now blocks \/search for .*; sitemap URLs affected: unknown \(sitemap unreachable\)$/,
      );
      expect(changed!.details.sitemapUrls).toMatchObject({
        status: 'unreachable',
        affected: null,
        checked: 0,
        reason: 'sitemap unreachable',
      });
      expect((changed!.details.sitemapUrls as { problems: string[] }).problems[0]).toContain('503');
      const versions = await database.db.selectFrom('versions').select('id').execute();
      expect(versions).toHaveLength(2);
    });

    it('leaves the count out, with the reason in the details, when the site has no sitemap', async () => {
      const w = worker();
      files.set('/robots.txt', robots('User-agent: *\nDisallow:\n'));
      await fetchNow(w);
      files.set('/robots.txt', robots('User-agent: GPTBot\nDisallow: /\n'));
      await fetchNow(w);
      const [changed] = await changeAlerts();
      expect(changed!.message).toBe('robots.txt changed (+2 −2 lines): now blocks / for GPTBot');
      expect(changed!.details.sitemapUrls).toMatchObject({
        status: 'no-sitemap',
        affected: null,
        reason: `no sitemap: neither version lists one and ${origin.url}/sitemap.xml has no URLs`,
      });
      // /sitemap.xml was asked for once per version (each version's share; the count reused the second walk).
      expect(origin.requests.filter((r) => r === '/sitemap.xml')).toHaveLength(2);
    });
  });
});
