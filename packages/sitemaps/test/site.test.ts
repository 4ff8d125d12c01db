/**
 * Starting from a site's robots.txt: `sitemapsOf`, `siteSitemaps` and `sitePageUrls` against a real HTTP server.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitemapsOf, sitePageUrls, siteSitemaps } from '../src/index.js';
import { collectEvents } from './collect.js';
import { sitemapIndex, startServer, type TestServer, urlset } from './server.js';

let site: TestServer;
let cdn: TestServer;
let bare: TestServer;
let down: TestServer;

beforeAll(async () => {
  site = await startServer();
  cdn = await startServer();
  bare = await startServer();
  down = await startServer();
  // The site's sitemaps live on another host (a CDN): cross-submission through robots.txt.
  site.serve(
    '/robots.txt',
    `User-agent: *\nDisallow: /private\nSitemap: ${cdn.base}/site/index.xml\nSitemap: /relative.xml\nSitemap: ${site.base}/news.xml\nsitemap: ${site.base}/news.xml\n`,
    { 'content-type': 'text/plain' },
  );
  cdn.serve('/site/index.xml', sitemapIndex([`${cdn.base}/site/a.xml`]));
  cdn.serve(
    '/site/a.xml',
    urlset([`${site.base}/a`, `${site.base}/b`, `${cdn.base}/site/asset`, 'https://elsewhere.example/x']),
  );
  site.serve('/news.xml', urlset([`${site.base}/news/1`]));
  bare.serve('/robots.txt', 'User-agent: *\nDisallow:\n', { 'content-type': 'text/plain' });
  down.route('/robots.txt', (_req, res) => res.writeHead(503).end());
});
afterAll(async () => {
  for (const s of [site, cdn, bare, down]) await s.close();
});

describe('sitemapsOf', () => {
  it('lists the absolute sitemap URLs of a robots.txt, without repeats, from any URL of the site', async () => {
    const found = await sitemapsOf(`${site.base}/some/page?x=1`);
    expect(found.origin).toBe(site.base);
    expect(found.robotsUrl).toBe(`${site.base}/robots.txt`);
    expect(found.sitemaps).toEqual([`${cdn.base}/site/index.xml`, `${site.base}/news.xml`]);
    expect(found.retrieval.outcome).toBe('rules');
  });

  it('returns no sitemaps, with the retrieval, when there is no robots.txt or the server fails', async () => {
    const none = await sitemapsOf(bare.base);
    expect(none.sitemaps).toEqual([]);
    const failing = await sitemapsOf(down.base);
    expect(failing.sitemaps).toEqual([]);
    expect(failing.retrieval).toMatchObject({ outcome: 'disallow-all', status: 503 });
  });
});

describe('the robots.txt retrieval honours every timeout given', () => {
  it('ends a robots.txt that trickles at the total timeout, and one that stalls at the idle timeout', async () => {
    const slow = await startServer();
    try {
      slow.route('/robots.txt', (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('User-agent: *\n');
        if (req.headers['x-mode'] === 'stall') return;
        const timer = setInterval(() => res.write('#'), 50);
        res.on('close', () => clearInterval(timer));
      });
      const trickling = await sitemapsOf(slow.base, { timeouts: { idle: 20_000, total: 300 } });
      expect(trickling.retrieval).toMatchObject({ outcome: 'disallow-all', status: 200 });
      expect(trickling.retrieval.error).toMatchObject({ kind: 'timeout', phase: 'body' });
      expect(trickling.retrieval.error?.message).toBe(
        'robots.txt retrieval not finished within 300 ms (total timeout)',
      );
      const stalled = await sitemapsOf(slow.base, {
        headers: { 'x-mode': 'stall' },
        timeouts: { idle: 300, total: 20_000 },
      });
      expect(stalled.retrieval.error).toMatchObject({ kind: 'timeout', phase: 'body' });
      expect(stalled.retrieval.error?.message).toBe('no body data within 300 ms');
    } finally {
      await slow.close();
    }
  });
});

describe('siteSitemaps', () => {
  it('walks every sitemap of the robots.txt, with the site allowed in every sitemap', async () => {
    const events: { type: string }[] = [];
    let robots: unknown = null;
    const w = await collectEvents(
      (async function* () {
        for await (const event of siteSitemaps(site.base)) {
          events.push(event);
          if (event.type === 'robots') robots = event.site.sitemaps;
          yield event;
        }
      })(),
    );
    expect(events[0]!.type).toBe('robots');
    expect(robots).toEqual([`${cdn.base}/site/index.xml`, `${site.base}/news.xml`]);
    expect(w.entries.map((e) => e.loc)).toEqual([
      `${site.base}/a`,
      `${site.base}/b`,
      `${cdn.base}/site/asset`,
      `${site.base}/news/1`,
    ]);
    expect(w.codes).toEqual(['out-of-scope-url']);
    expect(w.reports.map((r) => [r.url, r.depth])).toEqual([
      [`${cdn.base}/site/index.xml`, 0],
      [`${cdn.base}/site/a.xml`, 1],
      [`${site.base}/news.xml`, 0],
    ]);
  });

  it('sitePageUrls yields only the page URLs, at most maxUrls', async () => {
    const all: string[] = [];
    for await (const entry of sitePageUrls(site.base)) all.push(entry.loc);
    expect(all).toHaveLength(4);
    const two: string[] = [];
    for await (const entry of sitePageUrls(site.base, { maxUrls: 2 })) two.push(entry.loc);
    expect(two).toEqual([`${site.base}/a`, `${site.base}/b`]);
  });
});
