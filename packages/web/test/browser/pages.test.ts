/**
 * Every page of the UI in Chromium over a small world (a site on 127.0.0.1 with a sitemap, a fetch worker, two
 * webhooks to one host): axe-core finds no serious or critical WCAG 2.2 A/AA violation on any page at 1440×900 or
 * 390×844, and each is photographed at both (test-results/screenshots/, gitignored). Then what a keyboard or a first
 * screen shows: the skip link, focus after navigation, the tab pattern's arrow keys, the example's verdicts on the
 * first screen, "Next issue" in view; the tester's file named and cleared on a failed load, full User-Agent strings,
 * the download; and the Webhooks page (hooks to one host told apart, alert kinds per hook).
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EVENTUALLY,
  type Harness,
  missingChromium,
  screenshots,
  seriousAxeViolations,
  startHarness,
  textOf,
  VIEWPORTS,
} from './harness.js';

/** A site on 127.0.0.1: `/robots.txt` answers `status` with `robots`, and a sitemap of 6 pages. */
interface Site {
  readonly origin: string;
  robots: string;
  status: number;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const site = { robots: '', status: 200 } as Site;
  const server: Server = createServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(site.status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(site.status === 200 ? site.robots : 'unavailable');
    } else if (request.url === '/sitemap.xml') {
      const urls = ['/', '/a', '/b', '/private/1', '/private/2', '/c'];
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
          .map((u) => `<url><loc>${site.origin}${u}</loc></url>`)
          .join('')}</urlset>`,
      );
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(site, {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return site;
}

async function api<T>(h: Harness, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, h.service.url), {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? null : await response.json()) as T;
}

/** Waits until the page has its heading and nothing says it is loading. */
async function settled(page: Page): Promise<void> {
  await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), EVENTUALLY).toBeGreaterThan(0);
  await expect
    .poll(async () => (await textOf(page.locator('main'))).match(/Loading…|Checking…/) === null, EVENTUALLY)
    .toBe(true);
}

function resultRows(page: Page) {
  return page
    .getByRole('tabpanel')
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
}

const GOOGLEBOT_UA =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/120.0.6099.71 Safari/537.36';

describe.skipIf(missingChromium !== null)('every page: accessibility, keyboard and first screen', () => {
  let h: Harness;
  let site: Site;
  let fileId = 0;
  let propertyId = 0;

  beforeAll(async () => {
    site = await startSite();
    site.robots = `User-agent: *\nDisallow: /private/\nDisalow: /tmp/\n\nSitemap: ${site.origin}/sitemap.xml\n`;
    h = await startHarness({ allowPrivateAddresses: true, workers: 1 });
    // Two hooks to one host, told apart only by the secret part of their URLs (the site answers them 404: their
    // deliveries fail, with a reason to show).
    for (const path of ['/hooks/T01/secret-one', '/hooks/T01/secret-two']) {
      await api(h, 'POST', '/api/webhooks', { url: `${site.origin}${path}` });
    }
    propertyId = (await api<{ id: number }>(h, 'POST', '/api/properties', { property: `${site.origin}/` })).id;
    // The worker fetches the site's file (expect.poll is for tests; this is setup).
    for (let i = 0; i < 300 && fileId === 0; i++) {
      const { files } = await api<{ files: { id: number; status: string | null }[] }>(
        h,
        'GET',
        `/api/properties/${propertyId}/files`,
      );
      if (files[0]?.status === 'fetched') fileId = files[0].id;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (fileId === 0) throw new Error('the worker never fetched the site');
    // A second version that blocks everything: a diff, alerts, and deliveries to show.
    site.robots = `User-agent: *\nDisallow: /\n\nSitemap: ${site.origin}/sitemap.xml\n`;
    await api(h, 'POST', `/api/files/${fileId}/recrawl`);
    let alerted = false;
    for (let i = 0; i < 300 && !alerted; i++) {
      const { alerts } = await api<{ alerts: { kind: string }[] }>(h, 'GET', '/api/alerts');
      alerted = alerts.some((a) => a.kind === 'disallow-all-added');
      if (!alerted) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!alerted) throw new Error('the recrawl never raised its alert');
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  /** Every page of the route table, with the world's property and file. */
  const pages: [name: string, path: () => string][] = [
    ['tester', () => '/'],
    ['properties', () => '/properties'],
    ['property', () => `/properties/${propertyId}`],
    ['activity', () => `/properties/${propertyId}/activity`],
    ['file', () => `/files/${fileId}`],
    ['impact', () => `/files/${fileId}/impact`],
    ['alerts', () => '/alerts'],
    ['webhooks', () => '/webhooks'],
    ['not-found', () => '/no/such/page'],
  ];
  it.each(pages)(
    'the %s page has no serious or critical axe-core violation at 1440×900 or 390×844',
    async (name, path) => {
      const page = await h.open(path());
      await settled(page);
      const found: string[] = [];
      for (const [label, size] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(size);
        for (const violation of await seriousAxeViolations(page)) found.push(`${label}: ${violation}`);
      }
      await screenshots(page, `page-${name}`);
      await page.close();
      expect(found).toEqual([]);
    },
  );

  it('offers a skip link, and moves focus to the new page after navigating', async () => {
    const page = await h.open('/');
    await settled(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('button', { name: 'Skip to content' });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    // Visible once focused (it sits off screen until then).
    const box = await skip.boundingBox();
    expect(box !== null && box.y >= 0).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    // The link keeps the focus until the page's heading has rendered and takes it.
    const focused = () =>
      page.evaluate(() => `${document.activeElement?.tagName}: ${document.activeElement?.textContent}`);
    await expect.poll(focused, EVENTUALLY).toBe('H1: Webhooks');
    expect(await page.title()).toBe('Webhooks · robotskit');
    // Nav and page title agree.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Properties' }).click();
    await expect.poll(focused, EVENTUALLY).toBe('H1: Properties');
    expect(await page.title()).toBe('Properties · robotskit');
    await page.close();
  });

  it('moves between the result tabs with the arrow keys, Home and End', async () => {
    const page = await h.open('/');
    await settled(page);
    const tab = (name: RegExp) => page.getByRole('tab', { name });
    await tab(/^Results/).focus();
    expect(await tab(/^Results/).getAttribute('tabindex')).toBe('0');
    expect(await tab(/^All crawlers/).getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tab(/^All crawlers/).getAttribute('aria-selected'), EVENTUALLY).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-matrix');
    await page.keyboard.press('End');
    await expect.poll(() => tab(/^1994 reading/).getAttribute('aria-selected'), EVENTUALLY).toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tab(/^Results/).getAttribute('aria-selected'), EVENTUALLY).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tab(/^1994 reading/).getAttribute('aria-selected'), EVENTUALLY).toBe('true');
    await page.keyboard.press('Home');
    await expect.poll(() => tab(/^Results/).getAttribute('aria-selected'), EVENTUALLY).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-results');
    await page.close();
  });

  it("shows every verdict of the example on the first screen at 1440×900, and the issue 'Next issue' moved to", async () => {
    const page = await h.open('/');
    await settled(page);
    await expect.poll(() => resultRows(page).count(), EVENTUALLY).toBe(5);
    for (let i = 0; i < 5; i++) {
      const box = await resultRows(page).nth(i).boundingBox();
      expect(box, `row ${i + 1}`).not.toBeNull();
      expect(box!.y + box!.height, `row ${i + 1}`).toBeLessThanOrEqual(VIEWPORTS.desktop.height);
    }
    await page.getByRole('button', { name: 'Next issue' }).click();
    const issue = page.locator('.issue-line');
    await expect.poll(() => textOf(issue), EVENTUALLY).toMatch(/Issue 1 of 3/);
    const box = await issue.boundingBox();
    expect(box !== null && box.y >= 0 && box.y + box.height <= VIEWPORTS.desktop.height).toBe(true);
    // The editor shows where keyboard focus is.
    const outline = await page.locator('.cm-editor').evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(outline).toBe('solid');
    await page.close();
  });

  it("names the loaded file, and clears it when a live load fails instead of keeping another site's verdicts", async () => {
    const page = await h.open('/');
    await settled(page);
    const source = page.locator('#editor-source');
    expect(await textOf(source)).toMatch(/An example file/);
    await page.getByRole('textbox', { name: 'Live file' }).fill(`${site.origin}/robots.txt`);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect
      .poll(() => textOf(source), EVENTUALLY)
      .toMatch(
        new RegExp(`^Live file ${site.origin.replaceAll('.', '\\.')}/robots\\.txt \\(HTTP 200, loaded .+\\)\\.$`),
      );
    await expect.poll(() => textOf(resultRows(page).nth(1)), EVENTUALLY).toMatch(/^Blocked/);

    // The site goes 503: the loaded file and its verdicts go, and the page says why.
    site.status = 503;
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect.poll(() => textOf(source), EVENTUALLY).toMatch(/^No file: loading .+ failed at/);
    expect(await textOf(source)).toMatch(/HTTP 503/);
    expect(await textOf(page.getByRole('alert'))).toMatch(/disallowed/);
    await expect.poll(async () => (await page.locator('.cm-line').allTextContents()).join(''), EVENTUALLY).toBe('');
    expect(await textOf(page.getByRole('tabpanel'))).toMatch(/No verdicts: the live load brought no file/);
    expect(await resultRows(page).count()).toBe(0);
    await screenshots(page, 'tester-load-failed');
    site.status = 200;
    await page.close();
  });

  it('reads a full Googlebot User-Agent string as one crawler, commas and all', async () => {
    const page = await h.open('/');
    await settled(page);
    await page.getByRole('combobox', { name: 'Crawler' }).fill(`${GOOGLEBOT_UA}, GPTBot`);
    // 5 URLs × 2 crawlers, not × 3 (before, the string split at its comma into "Mozilla…" and "like Gecko…").
    await expect.poll(() => resultRows(page).count(), EVENTUALLY).toBe(10);
    const crawlers = new Set<string>();
    for (const row of await resultRows(page).all()) crawlers.add((await row.locator('td').nth(2).textContent()) ?? '');
    expect([...crawlers].sort()).toEqual(['GPTBot', 'Googlebot']);
    expect(await textOf(page.locator('.hint-warning'))).toMatch(/Googlebot/);
    await page.close();
  });

  it('downloads the edited file as robots.txt', async () => {
    const page = await h.open('/');
    await settled(page);
    const editor = page.getByRole('textbox', { name: 'robots.txt' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('Disallow: /édité/');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('robots.txt');
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.startsWith('# An example')).toBe(true);
    expect(text.endsWith('\nDisallow: /édité/')).toBe(true);
    await download.delete();
    await page.close();
  });

  it('tells two hooks to one host apart and chooses the alert kinds of each', async () => {
    const page = await h.open('/webhooks');
    await settled(page);
    const hooks = page.locator('.webhook');
    await expect.poll(() => hooks.count(), EVENTUALLY).toBe(2);
    const titles = await page.locator('.webhook-title').allTextContents();
    expect(titles).toHaveLength(2);
    expect(titles[0]).not.toBe(titles[1]);
    for (const title of titles) {
      expect(title).toContain(`${site.origin}/…`);
      expect(title).toMatch(/fingerprint [0-9a-f]{8}/);
      expect(title).not.toContain('secret');
    }
    const first = hooks.first();
    await first.getByRole('button', { name: 'Alert kinds' }).click();
    const kinds = first.getByRole('group', { name: /Alert kinds sent to webhook/ });
    await kinds.getByRole('checkbox', { name: 'Everything disallowed' }).check();
    await expect.poll(() => textOf(first.locator('.webhook-meta')), EVENTUALLY).toMatch(/Everything disallowed/);
    const listed = await api<{ webhooks: { id: number; kinds: string[] | null }[] }>(h, 'GET', '/api/webhooks');
    expect(listed.webhooks.map((w) => w.kinds)).toEqual([['disallow-all-added'], null]);
    await kinds.getByRole('checkbox', { name: 'Everything disallowed' }).uncheck();
    await expect.poll(() => textOf(first.locator('.webhook-meta')), EVENTUALLY).toMatch(/every kind/);
    // The Delete button is readable: dark text on a light button.
    const colours = await first
      .getByRole('button', { name: /^Delete/ })
      .evaluate((element) => [getComputedStyle(element).color, getComputedStyle(element).backgroundColor]);
    expect(colours).toEqual(['rgb(165, 29, 45)', 'rgb(255, 255, 255)']);
    // The deliveries of the alerts so far say in words why they failed (the receiver answers 404).
    await first.getByRole('button', { name: 'Show deliveries' }).click();
    await expect
      .poll(() => textOf(first.getByRole('table')), EVENTUALLY)
      .toMatch(/the receiver answered HTTP 404; a webhook must answer 2xx/);
    await page.setViewportSize(VIEWPORTS.narrow);
    await screenshots(page, 'webhooks-deliveries');
    // Nothing wider than the phone's screen, deliveries table included.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.narrow.width);
    await page.close();
  });
});
