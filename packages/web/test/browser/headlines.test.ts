/**
 * What the report says first, in Chromium, over local sites watched by the real service with a fetch worker: a shop
 * with several groups and a 50-URL sitemap, a site that goes 503, an HTML page served as robots.txt, and a file that
 * disallows everything. Each property's headline, the top bar's alert count, each alert's kind, severity, reason and
 * crawlers, and the two versions an impact check names.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTUALLY, type Harness, missingChromium, screenshots, startHarness, textOf } from './harness.js';

const SLOW = { timeout: 30_000, interval: 100 } as const;

/** A local site whose robots.txt answer the test changes; `/sitemap.xml` lists `pages`. */
interface Site {
  readonly origin: string;
  answer: { status: number; type: string; body: string };
  pages: string[];
  close(): Promise<void>;
}

async function startSite(answer: Site['answer'], pages: string[] = []): Promise<Site> {
  const site = { answer, pages } as Site;
  const server: Server = createServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(site.answer.status, { 'content-type': site.answer.type });
      response.end(site.answer.body);
      return;
    }
    if (request.url === '/sitemap.xml' && site.pages.length > 0) {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${site.pages
          .map((p) => `<url><loc>${site.origin}${p}</loc></url>`)
          .join('')}</urlset>\n`,
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(site, {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return site;
}

const text = (body: string) => ({ status: 200, type: 'text/plain; charset=utf-8', body });

describe.skipIf(missingChromium !== null)('what the report says first, in Chromium', () => {
  let h: Harness;
  let shop: Site;
  let down: Site;
  let html: Site;
  let blocked: Site;
  const fileIds = new Map<string, number>();

  async function api<T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
    const reply = await h.service.app.inject({ method, url, ...(payload ? { payload } : {}) });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    return reply.json<T>();
  }

  /** Recrawls a site's file and waits until the fetch is recorded. */
  async function recrawl(site: Site): Promise<void> {
    const id = fileIds.get(site.origin) as number;
    const before = (await api<{ lastCheckedAt: string | null }>('GET', `/api/files/${id}?content=false`)).lastCheckedAt;
    await api('POST', `/api/files/${id}/recrawl`);
    await expect
      .poll(async () => {
        const f = await api<{ lastCheckedAt: string | null; recrawlPending: boolean }>(
          'GET',
          `/api/files/${id}?content=false`,
        );
        return f.lastCheckedAt !== before && !f.recrawlPending;
      }, SLOW)
      .toBe(true);
  }

  function headlineOf(page: Page, site: Site) {
    return page.getByRole('row').filter({ hasText: site.origin }).locator('.headline');
  }

  beforeAll(async () => {
    // The shop: 12 products, 5 images, 33 other pages; a * group, a Googlebot group and a Googlebot-Image group.
    const pages = [
      ...Array.from({ length: 12 }, (_, i) => `/products/p${i + 1}`),
      ...Array.from({ length: 5 }, (_, i) => `/images/i${i + 1}.jpg`),
      ...Array.from({ length: 33 }, (_, i) => `/page-${i + 1}`),
    ];
    shop = await startSite(text(''), pages);
    shop.answer = text(
      'User-agent: *\nDisallow: /cart\n\nUser-agent: Googlebot\nDisallow: /search\n\n' +
        `User-agent: Googlebot-Image\nDisallow: /images/\n\nSitemap: ${shop.origin}/sitemap.xml\n`,
    );
    down = await startSite(text('User-agent: *\nDisallow: /admin/\n'));
    html = await startSite({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '<!doctype html>\n<html><head><title>Shop</title></head><body><h1>Welcome</h1></body></html>\n',
    });
    blocked = await startSite(text('User-agent: *\nDisallow: /\n'));
    h = await startHarness({ allowPrivateAddresses: true, workers: 1 });
    for (const site of [shop, down, html, blocked]) {
      await api('POST', '/api/properties', { property: `${site.origin}/` });
    }
    // Every file fetched once (a poll of its own: expect.poll runs only inside tests).
    const deadline = Date.now() + SLOW.timeout;
    for (;;) {
      const { properties } = await api<{ properties: { headline: { fileId: number; fileUrl: string } | null }[] }>(
        'GET',
        '/api/properties',
      );
      for (const p of properties) if (p.headline) fileIds.set(new URL(p.headline.fileUrl).origin, p.headline.fileId);
      if (properties.length === 4 && properties.every((p) => p.headline !== null)) break;
      if (Date.now() > deadline) throw new Error('the four files were not fetched in time');
      await new Promise((resolve) => setTimeout(resolve, SLOW.interval));
    }
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    for (const site of [shop, down, html, blocked]) await site?.close();
  });

  it('states what each file does now, never a green "rules apply" on Disallow: /, and counts alerts in the top bar', async () => {
    const page = await h.open('/properties');
    await expect.poll(() => textOf(headlineOf(page, blocked)), EVENTUALLY).toBe('blocks everything for every crawler');
    expect(await headlineOf(page, blocked).getAttribute('data-tone')).toBe('bad');
    expect(await textOf(headlineOf(page, html))).toBe('HTML page: no rules, all allowed');
    expect(await headlineOf(page, html).getAttribute('data-tone')).toBe('warn');
    // The shop's Googlebot-Image group blocks the sitemap's 5 images: said as a share of the sitemap, worth a look.
    expect(await textOf(headlineOf(page, shop))).toBe(
      'blocks 10% of your sitemap URLs (5 of 50) for Googlebot-Image; blocks some URLs for the others',
    );
    expect(await headlineOf(page, shop).getAttribute('data-tone')).toBe('warn');
    expect(await textOf(headlineOf(page, down))).toBe('blocks some URLs for every crawler');
    // State alerts from the first fetch: the HTML page (warning) and Disallow: / (critical).
    const count = page.getByRole('banner').getByRole('link', { name: /alerts? in the last 7 days/ });
    await expect.poll(() => textOf(count), EVENTUALLY).toBe('2 alerts');
    expect(await count.getAttribute('aria-label')).toBe('2 alerts in the last 7 days (1 critical)');
    await screenshots(page, 'headlines-properties');

    // The file page leads with the same headline.
    const file = await h.open(`/files/${fileIds.get(blocked.origin)}`);
    await expect
      .poll(() => textOf(file.locator('.file-headline .headline')), EVENTUALLY)
      .toBe('blocks everything for every crawler');
    expect(await file.getByText('Rules apply', { exact: true }).count()).toBe(0);
    await screenshots(file, 'headlines-file-blocked');
    await page.close();
    await file.close();
  });

  it('alerts with the kind, the severity graded by harm, the reason and the crawlers', async () => {
    // The shop drops its Googlebot-Image group and blocks /products/ for Googlebot; the other site starts failing.
    shop.answer = text(
      'User-agent: *\nDisallow: /cart\n\nUser-agent: Googlebot\nDisallow: /search\nDisallow: /products/\n\n' +
        `Sitemap: ${shop.origin}/sitemap.xml\n`,
    );
    down.answer = { status: 503, type: 'text/plain', body: 'unavailable' };
    await recrawl(shop);
    await recrawl(down);

    const page = await h.open('/alerts?time=all');
    const items = page.locator('.alert-list > li');
    await expect.poll(() => items.count(), SLOW).toBe(4);
    const alertFor = (site: Site) => items.filter({ hasText: site.origin });
    const changed = alertFor(shop);
    expect(await textOf(changed.locator('.alert-head strong'))).toBe('Changed');
    expect(await textOf(changed.locator('.badge'))).toBe('Critical');
    const message = await textOf(changed.locator('.alert-message'));
    expect(message).toContain('Googlebot-Image');
    expect(message).toContain('12 of 50 sitemap URLs (24%) newly blocked for Googlebot');
    const unreachable = alertFor(down);
    expect(await textOf(unreachable.locator('.alert-head strong'))).toBe('Unreachable');
    expect(await textOf(unreachable.locator('.badge'))).toBe('Critical');
    expect(await textOf(unreachable.locator('.alert-message'))).toMatch(
      /^robots\.txt became unreachable: server error \(HTTP 503\), was fetched \(HTTP 200\)/,
    );
    expect(await textOf(alertFor(html).locator('.alert-head strong'))).toBe('HTML page');
    expect(await textOf(alertFor(blocked).locator('.alert-message'))).toBe(
      'The whole site is blocked from the first fetch for every crawler (*) and Googlebot: line 2 disallows /',
    );
    await expect
      .poll(
        () => textOf(page.getByRole('banner').getByRole('link', { name: /alerts? in the last 7 days/ })),
        EVENTUALLY,
      )
      .toBe('4 alerts');
    await screenshots(page, 'headlines-alerts');

    // The failing site's headline says what Google does meanwhile.
    const list = await h.open('/properties');
    await expect
      .poll(() => textOf(headlineOf(list, down)), EVENTUALLY)
      .toMatch(
        /^unreachable since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(server error \(HTTP 503\)\): Google treats the site as disallowed until \d{4}-/,
      );
    await page.close();
    await list.close();
  });

  it('names the two versions an impact check compares, the current one by default', async () => {
    const id = fileIds.get(shop.origin) as number;
    const { versions } = await api<{ versions: { id: number }[] }>('GET', `/api/files/${id}/versions`);
    const [current, older] = versions;
    const page = await h.open(`/files/${id}/impact`);
    await page.getByRole('radio', { name: 'A stored version' }).check();
    await page.getByRole('button', { name: 'Check impact' }).click();
    const compared = page.locator('.impact-compared');
    await expect
      .poll(() => textOf(compared), SLOW)
      .toMatch(
        new RegExp(
          `^Compared version ${older?.id} \\(fetched [^)]+\\) with version ${current?.id} \\(fetched [^)]+, the current one\\)\\.$`,
        ),
      );
    await screenshots(page, 'headlines-impact');
    await page.close();
  });
});
