/**
 * Headlines and alerts that say what the rules do. Alerts on what a file is, not only on what changed (HTML, no rules, everything blocked from the first fetch), the
 * meaning check over every crawler the files name and the catalogue crawlers that read their groups, severity graded
 * by the share of sitemap URLs newly blocked, and the error reason carried to every alert. Real fetches of local
 * origins through the worker, read back through the API, on SQLite and PostgreSQL.
 */

import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAlertHook } from '../src/alerts/store.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createPolicyResolver } from '../src/storage/history.js';
import { createProperty } from '../src/storage/properties.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';
import { type LocalOrigin, startOrigin } from './origins.js';

const noNames = ((_host: string, _options: unknown, callback: (error: NodeJS.ErrnoException) => void) => {
  const error: NodeJS.ErrnoException = new Error('no such name');
  error.code = 'ENOTFOUND';
  callback(error);
}) as unknown as LookupFunction;

const DAY = 24 * 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Headline {
  tone: string;
  text: string;
  crawlers: { crawler: string; access: string }[];
  sitemapShare: unknown;
}

interface AlertJson {
  id: number;
  fileUrl: string;
  fileId: number;
  diffUrl: string | null;
  errorKind: string | null;
  kind: string;
  severity: string;
  message: string;
  fetchStatus: { status: string; reason: string | null } | null;
  details: Record<string, unknown>;
}

describe.each(testDatabases)('alerts on state on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'alerts', () => {
    let database: Database;
    let clock: ManualClock;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let worker: Worker;
    let origin: LocalOrigin;

    beforeEach(async () => {
      database = await openDatabase(target.config());
      clock = new ManualClock(100 * DAY);
      fetch = createGuardedFetch({ allowPrivate: true, lookup: noNames });
      worker = new Worker({
        db: database.db,
        dialect: database.dialect,
        retrieve: workerRetrieval(fetch, clock.now),
        onNewVersion: createAlertHook(() => {}, { fetch }),
        now: clock.now,
      });
      app = await buildApp({ database, now: clock.now, fetch, resolvePolicy: createPolicyResolver(database.db) });
      origin = await startOrigin({ status: 200, body: 'User-agent: *\nDisallow:\n' });
    });
    afterEach(async () => {
      await app.close();
      await fetch.close();
      await origin.close();
      await database.close();
    });
    afterAll(() => target.cleanup());

    async function watch(url: string): Promise<void> {
      await createProperty(database.db, database.dialect, parsePropertyInput(url), clock.now());
    }

    async function fetchNow(): Promise<void> {
      clock.advance(DAY);
      await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
      expect(await worker.runUntilIdle()).toBeGreaterThan(0);
    }

    async function get<T>(url: string): Promise<T> {
      const reply = await app.inject({ method: 'GET', url });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<T>();
    }

    /** The headline of every property (its first own file's), by file URL. */
    async function headlines(): Promise<Map<string, Headline>> {
      const { properties } = await get<{ properties: { headline: (Headline & { fileUrl: string }) | null }[] }>(
        '/api/properties',
      );
      return new Map(properties.flatMap((p) => (p.headline === null ? [] : [[p.headline.fileUrl, p.headline]])));
    }

    async function alerts(): Promise<AlertJson[]> {
      const reply = await app.inject({ method: 'GET', url: '/api/alerts' });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{ alerts: AlertJson[] }>().alerts;
    }

    it('says why a fetch failed in every alert: host not found, connection refused', async () => {
      await watch('http://shop.invalid/');
      await fetchNow();
      const [dns] = await alerts();
      expect(dns?.message).toMatch(/^robots\.txt could not be fetched from its first fetch on: host not found\./);
      expect(dns?.fetchStatus).toEqual({ status: 'error', reason: 'host not found' });
      expect(dns?.errorKind).toBe('dns');

      await watch(`${origin.url}/`);
      await fetchNow();
      await origin.close();
      await fetchNow();
      const refused = (await alerts()).find((a) => a.kind === 'file-unreachable' && a.id !== dns?.id);
      // The headlines: a file that never answered, and one that stopped answering after a good fetch.
      const said = await headlines();
      expect(said.get('http://shop.invalid/robots.txt')).toEqual({
        tone: 'bad',
        text:
          `unreachable since ${iso(clock.now() - 2 * DAY)} (host not found): Google treats the site as disallowed ` +
          'until a fetch succeeds',
        crawlers: [],
        sitemapShare: null,
        fileId: expect.any(Number),
        fileUrl: 'http://shop.invalid/robots.txt',
      });
      expect(said.get(`${origin.url}/robots.txt`)).toMatchObject({
        tone: 'bad',
        text:
          `unreachable since ${iso(clock.now())} (connection refused): Google treats the site as disallowed ` +
          `until ${iso(clock.now() + 12 * 3_600_000)}`,
      });
      expect(refused?.message).toMatch(/^robots\.txt became unreachable: connection refused, was fetched \(HTTP 200\)/);
      expect(refused?.fetchStatus).toEqual({ status: 'error', reason: 'connection refused' });
      expect(refused?.errorKind).toBe('connect');
      // The failed fetch is an event, not a diff that deletes every line.
      const diff = await get<{ added: number; removed: number; hunks: unknown[]; lint: Record<string, unknown> }>(
        refused?.diffUrl as string,
      );
      expect([diff.added, diff.removed, diff.hunks]).toEqual([0, 0, []]);
      expect(diff.lint).toEqual({
        errors: { before: null, after: null },
        warnings: { before: null, after: null },
        added: [],
        removed: [],
        addedTotal: 0,
        removedTotal: 0,
      });
    });

    it('alerts on what a file is from its first fetch: HTML, no rules, the whole site blocked', async () => {
      const html = await startOrigin({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<!doctype html>\n<html><head><title>Shop</title></head><body>Welcome</body></html>\n',
      });
      const empty = await startOrigin({ status: 200, body: '# nothing here\n' });
      const blocked = await startOrigin({ status: 200, body: 'User-agent: *\nDisallow: /\n' });
      try {
        await watch(`${html.url}/`);
        await watch(`${empty.url}/`);
        await watch(`${blocked.url}/`);
        await fetchNow();
        const byFile = new Map((await alerts()).map((a) => [a.fileUrl, a]));
        expect(byFile.get(`${html.url}/robots.txt`)).toMatchObject({
          kind: 'became-html',
          severity: 'warning',
          message: expect.stringMatching(/^robots\.txt is an HTML page from its first fetch \(Content-Type text\/html/),
          details: { firstFetch: true },
        });
        expect(byFile.get(`${empty.url}/robots.txt`)).toMatchObject({
          kind: 'no-rules',
          severity: 'info',
          message: 'robots.txt holds no rule from its first fetch: every URL is allowed for every crawler',
        });
        expect(byFile.get(`${blocked.url}/robots.txt`)).toMatchObject({
          kind: 'disallow-all-added',
          severity: 'critical',
          message:
            'The whole site is blocked from the first fetch for every crawler (*) and Googlebot: line 2 disallows /',
          details: { firstFetch: true },
        });
        expect(await alerts()).toHaveLength(3);
        // The headlines say what each file does, never a green "rules apply" on Disallow: /.
        const said = await headlines();
        expect(said.get(`${html.url}/robots.txt`)).toMatchObject({
          tone: 'warn',
          text: 'HTML page: no rules, all allowed',
        });
        expect(said.get(`${empty.url}/robots.txt`)).toMatchObject({ tone: 'good', text: 'no rules, all allowed' });
        const all = said.get(`${blocked.url}/robots.txt`);
        expect(all).toMatchObject({ tone: 'bad', text: 'blocks everything for every crawler' });
        expect(all?.crawlers.find((c) => c.crawler === 'Googlebot')).toEqual({
          crawler: 'Googlebot',
          access: 'nothing',
        });
        // The file's own API says the same.
        const fileId = (await alerts()).find((a) => a.fileUrl === `${blocked.url}/robots.txt`)?.fileId;
        expect((await get<{ headline: Headline }>(`/api/files/${fileId}`)).headline).toEqual({
          tone: all?.tone,
          text: all?.text,
          crawlers: all?.crawlers,
          sitemapShare: all?.sitemapShare,
        });
        // Fetched again unchanged: a state is alerted once, not on every fetch.
        await fetchNow();
        expect(await alerts()).toHaveLength(3);
        // Rules lost by a change: a warning.
        blocked.answer = { status: 200, body: '# maintenance\n' };
        await fetchNow();
        const lost = (await alerts()).filter((a) => a.kind === 'no-rules' && a.severity === 'warning');
        expect(lost.map((a) => a.message)).toEqual([
          'robots.txt no longer holds any rule: every URL is allowed for every crawler',
        ]);
      } finally {
        await html.close();
        await empty.close();
        await blocked.close();
      }
    });

    it('checks the meaning for every crawler either version names and those that read their groups, and grades the harm', async () => {
      // A shop with a 50-URL sitemap: 12 products, 5 images, 33 other pages.
      const paths = [
        ...Array.from({ length: 12 }, (_, i) => `/products/p${i + 1}`),
        ...Array.from({ length: 5 }, (_, i) => `/images/i${i + 1}.jpg`),
        ...Array.from({ length: 33 }, (_, i) => `/page-${i + 1}`),
      ];
      let robots = '';
      const shop = await startOrigin((request) =>
        request.url === '/sitemap.xml'
          ? {
              status: 200,
              headers: { 'content-type': 'application/xml' },
              body: `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
                .map((p) => `<url><loc>${shop.url}${p}</loc></url>`)
                .join('')}</urlset>\n`,
            }
          : request.url === '/robots.txt'
            ? { status: 200, body: robots }
            : { status: 404 },
      );
      const sitemapLine = `Sitemap: ${shop.url}/sitemap.xml\n`;
      try {
        robots =
          'User-agent: *\nDisallow: /cart\n\nUser-agent: Googlebot\nDisallow: /search\n\n' +
          `User-agent: Googlebot-Image\nDisallow: /images/\n\n${sitemapLine}`;
        await watch(`${shop.url}/`);
        await fetchNow();
        expect(await alerts()).toEqual([]);
        // The Googlebot-Image group blocks the 5 images of the sitemap: said with the share, as worth a look.
        expect((await headlines()).get(`${shop.url}/robots.txt`)).toMatchObject({
          tone: 'warn',
          text: 'blocks 10% of your sitemap URLs (5 of 50) for Googlebot-Image; blocks some URLs for the others',
        });

        // The Googlebot-Image group goes, and Googlebot's gains /products/: Googlebot-Image now reads Googlebot's group.
        robots = `User-agent: *\nDisallow: /cart\n\nUser-agent: Googlebot\nDisallow: /search\nDisallow: /products/\n\n${sitemapLine}`;
        await fetchNow();
        const [changed] = await alerts();
        expect(changed?.kind).toBe('file-changed');
        expect(changed?.message).toContain('Googlebot-Image');
        expect(changed?.message).not.toContain('no crawler decides differently');
        const counted = changed?.details.sitemapUrls as {
          checked: number;
          crawlers: { crawler: string; newlyBlocked: number; newlyAllowed: number }[];
        };
        expect(counted.checked).toBe(50);
        expect(counted.crawlers).toEqual(
          expect.arrayContaining([
            { crawler: 'Googlebot', newlyBlocked: 12, newlyAllowed: 0 },
            { crawler: 'Googlebot-Image', newlyBlocked: 12, newlyAllowed: 5 },
          ]),
        );
        // 12 of 50 sitemap URLs newly blocked for Googlebot: 24%, critical.
        expect(changed?.severity).toBe('critical');
        expect(changed?.details.harm).toEqual({ crawler: 'Googlebot', newlyBlocked: 12, checked: 50, share: 0.24 });
        expect(changed?.message).toContain('12 of 50 sitemap URLs (24%) newly blocked for Googlebot');
        expect((await headlines()).get(`${shop.url}/robots.txt`)?.text).toBe(
          'blocks 24% of your sitemap URLs (12 of 50) for Googlebot, Googlebot-Image and Applebot; ' +
            'blocks some URLs for the others',
        );

        // Three pages newly blocked for every crawler: 6%, a warning.
        robots = `User-agent: *\nDisallow: /cart\nDisallow: /page-1$\nDisallow: /page-2$\nDisallow: /page-3$\n\nUser-agent: Googlebot\nDisallow: /search\nDisallow: /products/\n\n${sitemapLine}`;
        await fetchNow();
        const [few] = await alerts();
        expect(few?.kind).toBe('file-changed');
        expect(few?.severity).toBe('warning');
        expect(few?.details.harm).toMatchObject({ newlyBlocked: 3, checked: 50 });

        // A change that blocks no sitemap URL stays info.
        robots = `User-agent: *\nDisallow: /cart\nDisallow: /checkout\nDisallow: /page-1$\nDisallow: /page-2$\nDisallow: /page-3$\n\nUser-agent: Googlebot\nDisallow: /search\nDisallow: /products/\n\n${sitemapLine}`;
        await fetchNow();
        const [harmless] = await alerts();
        expect(harmless?.kind).toBe('file-changed');
        expect(harmless?.severity).toBe('info');
        expect(harmless?.details.harm).toBeUndefined();
      } finally {
        await shop.close();
      }
    });
  });
});
