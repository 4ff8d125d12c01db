/**
 * The robots.txt report in Chromium against the real service, with a fetch worker, watching sites served by local
 * HTTP servers: adding a property and seeing its file row fill in, the file's content with its lint issue at the
 * right line, a change picked up by a recrawl (progress, new version, diff, alert), the impact of a draft over the
 * site's sitemap URLs, a failing site, a version's AI use (per purpose of crawler, with the usage preferences), and
 * the pages for things that do not exist.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { availabilityRules, fetchRobotsTxt, fetchStatusOf } from 'robotskit/fetch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EVENTUALLY,
  type Harness,
  missingChromium,
  screenshots,
  seriousAxeViolations,
  startHarness,
  textOf,
} from './harness.js';

/** A site on 127.0.0.1 whose robots.txt the test can change; its sitemap lists 12 pages, 4 under /private/. */
interface Site {
  readonly origin: string;
  robots: string;
  status: number;
  requests: number;
  close(): Promise<void>;
}

async function startSite(status = 200, withSitemap = true): Promise<Site> {
  const site = { robots: '', status, requests: 0 } as Site;
  const server: Server = createServer((request, response) => {
    if (request.url === '/robots.txt') {
      site.requests++;
      response.writeHead(site.status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(site.status === 200 ? site.robots : 'unavailable');
      return;
    }
    if (request.url === '/sitemap.xml' && withSitemap) {
      const pages = [
        ...Array.from({ length: 8 }, (_, i) => `/page-${i + 1}`),
        ...Array.from({ length: 4 }, (_, i) => `/private/doc-${i + 1}`),
      ];
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages
          .map((p) => `  <url><loc>${site.origin}${p}</loc></url>`)
          .join('\n')}\n</urlset>\n`,
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

function robotsTxt(site: Site, rules: string): string {
  return `User-agent: *\n${rules}\n\nSitemap: ${site.origin}/sitemap.xml\n`;
}

/** Body rows of the table named `name`. */
function rowsOf(page: Page, name: string) {
  return page
    .getByRole('table', { name })
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
}

async function addProperty(page: Page, typed: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Add a property' }).fill(typed);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
}

describe.skipIf(missingChromium !== null)('robots.txt report in Chromium', () => {
  let h: Harness;
  let site: Site;
  let failing: Site;
  let propertyPath = '';
  let filePath = '';

  beforeAll(async () => {
    site = await startSite();
    site.robots = robotsTxt(site, 'Disallow: /private/\nDisalow: /tmp/\nAllow: /public/');
    failing = await startSite(503);
    // A fetch worker in the service, allowed to reach the local sites.
    h = await startHarness({ allowPrivateAddresses: true, workers: 1 });
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
    await failing?.close();
  });

  it('starts empty, and refuses a property that is not a site with the service’s reason', async () => {
    const page = await h.open('/properties');
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Properties');
    await expect.poll(() => textOf(page.locator('.empty-state')), EVENTUALLY).toMatch(/No properties yet/);
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Properties' })
        .getAttribute('aria-current'),
    ).toBe('page');
    await screenshots(page, 'report-empty');

    await addProperty(page, 'https://example.com/shop/');
    await expect
      .poll(() => textOf(page.getByRole('alert')), EVENTUALLY)
      .toMatch(/has a path, query or fragment.*type https:\/\/example\.com\//);
    expect(new URL(page.url()).pathname).toBe('/properties');
    expect(await page.getByRole('textbox', { name: 'Add a property' }).getAttribute('aria-invalid')).toBe('true');
    await screenshots(page, 'report-add-error');
    await page.close();
  });

  it('adds a property served by a local server and shows its file row once fetched', async () => {
    const page = await h.open('/properties');
    await addProperty(page, `${site.origin}/`);
    await expect.poll(() => new URL(page.url()).pathname, EVENTUALLY).toMatch(/^\/properties\/\d+$/);
    propertyPath = new URL(page.url()).pathname;
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe(`${site.origin}/`);
    expect(await page.title()).toBe(`${site.origin}/ · robotskit`);

    const rows = rowsOf(page, 'robots.txt files of this property; select a column header to sort');
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(1);
    const row = rows.first();
    // The worker fetches it and the table updates by itself: status, size, lint counts, the policy in force.
    await expect.poll(() => textOf(row), EVENTUALLY).toMatch(/Fetched/);
    const size = new TextEncoder().encode(site.robots).length;
    expect(await textOf(row)).toContain(`${site.origin}/robots.txt`);
    expect(await textOf(row.getByRole('cell').nth(2))).toBe(`${size} bytes`);
    // What the rules do, not a green "Rules apply": the file's one * group disallows /private/, which holds 4 of the
    // sitemap's 12 pages, for every crawler; measured when the version was recorded, and said with what it rests on.
    const policyNow = row.getByRole('cell').nth(5);
    expect(await textOf(policyNow.locator('.headline'))).toBe(
      'blocks 33% of your sitemap URLs (4 of 12) for every crawler',
    );
    expect(await policyNow.locator('.headline').getAttribute('data-tone')).toBe('warn');
    expect(await textOf(policyNow.locator('.sitemap-share-note'))).toMatch(
      /^Sitemap URLs: measured over 12 sitemap URLs \(measured .+\)$/,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(Number(await textOf(row.getByRole('cell').nth(4)))).toBeGreaterThanOrEqual(1);
    expect(site.requests).toBe(1);
    await screenshots(page, 'report-property');
    filePath = (await row.getByRole('link').getAttribute('href')) ?? '';
    expect(filePath).toMatch(/^\/files\/\d+$/);

    // The property appears in the list with its counts.
    await page.getByRole('link', { name: 'Properties' }).first().click();
    const listed = rowsOf(page, 'Properties');
    await expect.poll(() => textOf(listed.first()), EVENTUALLY).toMatch(/URL prefix\s*1\s*1 file\s*1 warning/);
    // The list says the same headline, from the same place.
    expect(await textOf(listed.first().locator('.headline'))).toBe(
      'blocks 33% of your sitemap URLs (4 of 12) for every crawler',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });

  it('shows the file: content with its lint issue at the right line, the policy and the timeline', async () => {
    const page = await h.open(filePath);
    await expect
      .poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY)
      .toBe(`${site.origin}/robots.txt`);
    const editor = page.getByRole('textbox', { name: 'Fetched robots.txt' });
    await expect.poll(() => textOf(editor), EVENTUALLY).toContain('Disalow: /tmp/');
    expect(await editor.getAttribute('aria-readonly')).toBe('true');

    // The typo on line 3 is in the issue list, marked in the gutter at line 3, and selected from the list.
    const issues = page.getByRole('list', { name: 'Issues' }).getByRole('listitem');
    const typo = issues.filter({ hasText: 'line 3' });
    await expect.poll(() => typo.count(), EVENTUALLY).toBeGreaterThanOrEqual(1);
    const marker = page.locator('.cm-gutter-lint .cm-gutterElement').filter({ has: page.locator('.cm-lint-marker') });
    const line3 = await page.locator('.cm-lineNumbers .cm-gutterElement', { hasText: /^3$/ }).boundingBox();
    const markerBoxes = await Promise.all((await marker.all()).map((m) => m.boundingBox()));
    expect(markerBoxes.some((box) => box !== null && Math.abs(box.y - line3!.y) < 2)).toBe(true);
    await typo.first().getByRole('button').click();
    await expect.poll(() => textOf(page.locator('.cm-activeLine')), EVENTUALLY).toBe('Disalow: /tmp/');
    expect(await page.evaluate(() => getSelection()?.toString())).toMatch(/^Disalow/);
    // Keyboard: F8 walks the issues in the editor, Shift-F8 back.
    await editor.press('F8');
    await editor.press('Shift+F8');
    await expect.poll(() => textOf(page.locator('.cm-activeLine')), EVENTUALLY).toBe('Disalow: /tmp/');

    await expect
      .poll(() => textOf(page.locator('.policy-panel')), EVENTUALLY)
      .toMatch(/blocks 33% of your sitemap URLs \(4 of 12\) for every crawler.*robots\.txt/i);
    expect(await textOf(page.locator('.file-headline .headline'))).toBe(
      'blocks 33% of your sitemap URLs (4 of 12) for every crawler',
    );
    expect(await textOf(page.locator('.file-headline .sitemap-share-note'))).toMatch(
      /^Sitemap URLs: measured over 12 sitemap URLs/,
    );
    await expect
      .poll(() => page.getByRole('img', { name: /^Fetch timeline/ }).getAttribute('aria-label'), EVENTUALLY)
      .toMatch(/1 fetch since .*: 1 fetched, 0 not found, 0 errors; 1 new version\./);
    await screenshots(page, 'report-file');

    // The first version is shown as content, not as a diff of added lines; its time has seconds.
    const versions = rowsOf(page, 'Versions, newest first. Choose an older and a newer version to compare them.');
    await expect.poll(() => versions.count(), EVENTUALLY).toBe(1);
    expect(await textOf(versions.first().getByRole('rowheader'))).toMatch(/\d{2}:\d{2}:\d{2}/);
    const first = page.getByRole('region', { name: 'Changes between the two versions' });
    await expect
      .poll(() => textOf(first), EVENTUALLY)
      .toMatch(/This is the first version: there is no earlier version/);
    expect(await first.locator('.diff-added').count()).toBe(0);
    await first.getByRole('button', { name: 'Show its content' }).click();
    await expect
      .poll(() => textOf(page.getByRole('textbox', { name: 'Fetched robots.txt' })), EVENTUALLY)
      .toContain('Disalow: /tmp/');
    await screenshots(page, 'report-first-version');

    // The tester opens with this file, Googlebot and the site's home page.
    // By keyboard: the full-page screenshots just above resize the page, and a pointer click can land on a layout
    // still settling (once in CI the click opened nothing); Enter reaches the button wherever it is.
    await page.getByRole('button', { name: 'Open in the tester' }).press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash.startsWith('#s=')), EVENTUALLY).toBe(true);
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('robots.txt tester');
    await expect
      .poll(() => textOf(page.getByRole('textbox', { name: 'robots.txt' })), EVENTUALLY)
      .toContain('Disalow: /tmp/');
    expect(await page.getByRole('textbox', { name: 'URLs' }).inputValue()).toBe(`${site.origin}/`);
    await expect
      .poll(() => textOf(page.getByRole('table').getByRole('row').nth(1)), EVENTUALLY)
      .toMatch(/^Allowed.*Googlebot/);
    await page.close();
  });

  it('recrawls on request with visible progress, and shows the new version, its diff and the alert', async () => {
    const page = await h.open(filePath);
    await expect
      .poll(() => textOf(page.getByRole('textbox', { name: 'Fetched robots.txt' })), EVENTUALLY)
      .toContain('Disalow');
    site.robots = robotsTxt(site, 'Disallow: /\nAllow: /public/');
    const before = site.requests;
    await page.getByRole('button', { name: 'Recrawl now' }).click();
    await expect
      .poll(() => textOf(page.locator('.recrawl-status')), EVENTUALLY)
      .toMatch(/^Fetched: HTTP 200, \d+ bytes, a new version\.$/);
    expect(site.requests).toBe(before + 1);
    await screenshots(page, 'report-recrawl');

    // The content now shows the new file; the versions table has both; the diff shows what changed.
    await expect
      .poll(() => textOf(page.getByRole('textbox', { name: 'Fetched robots.txt' })), EVENTUALLY)
      .toContain('Disallow: /');
    const versions = rowsOf(page, 'Versions, newest first. Choose an older and a newer version to compare them.');
    await expect.poll(() => versions.count(), EVENTUALLY).toBe(2);
    const diff = page.getByRole('region', { name: 'Changes between the two versions' });
    await expect.poll(() => textOf(diff.locator('.diff-stat')), EVENTUALLY).toBe('+1 −2 lines');
    expect(await textOf(diff.locator('.diff-added'))).toContain('Disallow: /');
    expect(await textOf(diff.locator('.diff-removed'))).toContain('Disalow: /tmp/');

    // The critical alert, in words, with the change one click away.
    const alerts = page.locator('.alert-list > li');
    await expect.poll(() => textOf(alerts), EVENTUALLY).toMatch(/Everything disallowed/);
    expect(await textOf(page.locator('.alert-critical').first())).toMatch(/Critical/);

    // The alert's link shows the change it is about: the same two versions.
    expect(
      await page
        .getByRole('radio', { name: /^Compare to / })
        .nth(0)
        .isChecked(),
    ).toBe(true);
    expect(
      await page
        .getByRole('radio', { name: /^Compare from / })
        .nth(1)
        .isChecked(),
    ).toBe(true);
    await page.locator('.alert-critical').first().getByRole('button', { name: 'Show the change' }).click();
    await expect.poll(() => textOf(diff.locator('.diff-stat')), EVENTUALLY).toBe('+1 −2 lines');
    await page.locator('#changes').scrollIntoViewIfNeeded();
    await screenshots(page, 'report-versions');

    // The timeline has both fetches and both versions.
    await expect
      .poll(() => page.getByRole('img', { name: /^Fetch timeline/ }).getAttribute('aria-label'), EVENTUALLY)
      .toMatch(/2 fetches since .*: 2 fetched.*2 new versions/);

    // An older version's content on request, and back to the latest.
    await versions
      .nth(1)
      .getByRole('button', { name: /^Show the content of/ })
      .click();
    await expect.poll(() => textOf(page.locator('.reading-note')), EVENTUALLY).toMatch(/not the latest/);
    await expect
      .poll(() => textOf(page.getByRole('textbox', { name: 'Fetched robots.txt' })), EVENTUALLY)
      .toContain('Disalow');
    await page.getByRole('button', { name: 'Show the latest' }).click();
    await expect.poll(() => page.locator('.reading-note').count(), EVENTUALLY).toBe(0);
    await page.close();
  });

  it('shows which sitemap URLs a draft changes, for which crawlers, and exactly which regions of URLs', async () => {
    const page = await h.open(`${filePath}/impact`);
    const editor = page.getByRole('textbox', { name: 'Draft robots.txt' });
    await expect.poll(() => textOf(editor), EVENTUALLY).toContain('Disallow: /');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('User-agent: *');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Disallow: /private/');
    await page.keyboard.press('Enter');
    // No sitemap URL ends in .pdf: only the exact comparison sees what this line does.
    await page.keyboard.type('Disallow: /*.pdf$');
    await page.getByRole('textbox', { name: 'Crawlers' }).fill('Googlebot, GPTBot');
    await page.getByRole('button', { name: 'Check impact' }).click();
    // Now everything is disallowed; the draft allows the home page (always checked) and the 8 pages outside
    // /private/, for both crawlers.
    await expect
      .poll(() => textOf(page.locator('.impact-summary')), EVENTUALLY)
      .toBe('13 URLs from the home page and 1 sitemap checked for 2 crawlers: 18 verdict changes.');
    const summary = rowsOf(page, 'Verdict changes per crawler');
    expect(await summary.allTextContents()).toEqual(['Googlebot09', 'GPTBot09']);
    const changes = rowsOf(page, 'URLs whose verdict changes');
    expect(await changes.count()).toBe(18);
    expect(await textOf(changes.filter({ hasText: '/page-1' }).first())).toMatch(
      /\/page-1.*Googlebot.*Blocked.*line 2.*disallow: \/.*Allowed/,
    );

    // The exact regions beside the sample: both crawlers read the * group, so they are shown together. The current
    // file is `Disallow: /` (line 2) and `Allow: /public/` (line 3).
    await expect
      .poll(() => textOf(page.getByRole('heading', { name: 'Every URL whose verdict changes' })), EVENTUALLY)
      .toBe('Every URL whose verdict changes');
    expect(await textOf(page.getByRole('heading', { level: 4 }))).toBe('Googlebot, GPTBot');
    const regions = rowsOf(page, 'Regions whose verdict changes for Googlebot, GPTBot');
    expect(await regions.count()).toBe(2);
    expect(await textOf(regions.nth(0))).toMatch(
      new RegExp(
        `^Now allowed /\\s*${site.origin}/\\s*Blocked\\s*line 2\\s*Disallow: /\\s*Allowed\\s*no rule matches$`,
      ),
    );
    expect(await textOf(regions.nth(1))).toMatch(
      /^Now blocked \/public\/\s*http:.*\/public\/\.pdf\s*Allowed\s*line 3\s*Allow: \/public\/\s*Blocked\s*line 3\s*Disallow: \/\*\.pdf\$$/,
    );
    // The witness is a link to that URL on the site.
    expect(await regions.nth(1).getByRole('link').getAttribute('href')).toBe(`${site.origin}/public/.pdf`);
    expect(await page.locator('.notice-warning').count()).toBe(0);
    await screenshots(page, 'report-impact');

    // A draft that only rewrites the current file changes nothing, and says so.
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('# the same rules');
    await page.keyboard.press('Enter');
    await page.keyboard.type('user-agent: *');
    await page.keyboard.press('Enter');
    await page.keyboard.type('allow: /public/');
    await page.keyboard.press('Enter');
    await page.keyboard.type('disallow: /');
    await page.getByRole('button', { name: 'Check impact' }).click();
    await expect
      .poll(() => textOf(page.locator('.impact-summary')), EVENTUALLY)
      .toBe('13 URLs from the home page and 1 sitemap checked for 2 crawlers: no verdict changes.');
    expect(await textOf(page.locator('.exact-crawler'))).toBe(
      'Googlebot, GPTBotNo change in meaning every URL is decided as before.',
    );
    await page.close();
  });

  it('shows a site that answers 503 as an error with the policy that follows from it', async () => {
    const page = await h.open('/properties');
    await addProperty(page, `${failing.origin}/`);
    await expect.poll(() => new URL(page.url()).pathname, EVENTUALLY).not.toBe('/properties');
    const row = rowsOf(page, 'robots.txt files of this property; select a column header to sort').first();
    await expect.poll(() => textOf(row), EVENTUALLY).toMatch(/Error/);
    expect(await textOf(row)).toMatch(/HTTP 503/);
    expect(await textOf(row.getByRole('cell').nth(5))).toMatch(
      /^unreachable since \S+ \(server error \(HTTP 503\)\): Google treats the site as disallowed until a fetch succeeds$/,
    );
    await screenshots(page, 'report-property-error');

    await row.getByRole('link').click();
    await expect
      .poll(() => textOf(page.locator('.policy-panel')), EVENTUALLY)
      .toMatch(/Google treats the site as disallowed/);
    await expect.poll(() => textOf(page.locator('.content-view, .section')), EVENTUALLY).toMatch(/never been fetched/);
    // The failure is on the timeline, not among the versions, and in words.
    await expect
      .poll(() => textOf(page.locator('#changes')), EVENTUALLY)
      .toMatch(/No versions yet: the first successful fetch makes one/);
    await expect
      .poll(() => page.getByRole('img', { name: /^Fetch timeline/ }).getAttribute('aria-label'), EVENTUALLY)
      .toMatch(/1 error/);
    expect(await textOf(page.locator('.last-fetch, .report-grid'))).toMatch(/server error \(HTTP 503\)/);
    await screenshots(page, 'report-file-error');

    // Both properties are listed; sorting by name is a click on the column header.
    await page.goto(new URL('/properties', h.service.url).href);
    const listed = rowsOf(page, 'Properties');
    await expect.poll(() => listed.count(), EVENTUALLY).toBe(2);
    // The failing site says so in the list.
    await expect.poll(() => textOf(listed.nth(1)), EVENTUALLY).toMatch(/1 file\s*1 not fetched/);
    // It failed from its first fetch: a critical alert, as a badge on the list that leads to it.
    await expect.poll(() => textOf(listed.nth(1)), EVENTUALLY).toMatch(/1 critical alert/);
    // The first site's alerts: two critical (everything disallowed, and the change that newly blocks every sitemap
    // URL), and warnings are counted apart.
    expect(await textOf(listed.nth(0))).toMatch(/2 critical alerts/);
    await screenshots(page, 'report-properties');
    await listed.nth(1).getByRole('link', { name: '1 critical alert' }).click();
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Alerts');
    const shown = page.locator('.alert-list > li');
    await expect.poll(() => shown.count(), EVENTUALLY).toBe(1);
    expect(await textOf(shown.first())).toMatch(
      /Critical\s*Unreachable.*could not be fetched from its first fetch on: server error \(HTTP 503\)/,
    );
    expect(await textOf(shown.first())).toContain(`${failing.origin}/robots.txt`);
    // No earlier version, so no change to show: the file is one click away.
    expect(await shown.first().getByRole('link', { name: 'Show the change' }).count()).toBe(0);
    await page.close();
  });

  it('lists every alert on the alerts page, filtered by severity, kind, property and time', async () => {
    const page = await h.open('/alerts');
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Alerts');
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Alerts' })
        .getAttribute('aria-current'),
    ).toBe('page');
    const shown = page.locator('.alert-list > li');
    // Both sites: the first's change (critical: it newly blocks every sitemap URL), everything disallowed (critical);
    // the failing site's first fetch (critical).
    await expect.poll(() => textOf(page.locator('.alert-list')), EVENTUALLY).toMatch(/Everything disallowed/);
    expect(await textOf(page.locator('.alert-list'))).toMatch(/Unreachable/);
    await screenshots(page, 'report-alerts');
    const all = await shown.count();
    await page.getByRole('combobox', { name: 'Severity' }).selectOption('critical');
    await expect.poll(() => shown.count(), EVENTUALLY).toBe(3);
    expect(new URL(page.url()).search).toBe('?severity=critical');
    await page.getByRole('combobox', { name: 'Kind' }).selectOption('disallow-all-added');
    await expect.poll(() => shown.count(), EVENTUALLY).toBe(1);
    expect(await textOf(shown.first())).toMatch(/Everything disallowed/);
    // The link leads to the change.
    await shown.first().getByRole('link', { name: 'Show the change' }).click();
    await expect.poll(() => new URL(page.url()).pathname, EVENTUALLY).toBe(filePath);
    await page.goBack();
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Alerts');
    await page.getByRole('combobox', { name: 'Kind' }).selectOption('');
    await page.getByRole('combobox', { name: 'Severity' }).selectOption('');
    await expect.poll(() => shown.count(), EVENTUALLY).toBe(all);
    const propertyId = propertyPath.split('/').pop()!;
    await page.getByRole('combobox', { name: 'Property' }).selectOption(propertyId);
    await expect.poll(() => textOf(page.locator('.alert-list')), EVENTUALLY).not.toMatch(/Unreachable/);
    await page.getByRole('combobox', { name: 'Time' }).selectOption('1d');
    await expect.poll(() => shown.count(), EVENTUALLY).toBeGreaterThan(0);
    expect(await page.getByRole('combobox', { name: 'Severity' }).inputValue()).toBe('');
    await screenshots(page, 'report-alerts-filtered');
    await page.close();
  });

  it('adds a webhook with a test delivery, shows its deliveries and deletes it', async () => {
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push(body);
        response.writeHead(received.length === 1 ? 204 : 500);
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const page = await h.open('/alerts');
      // The Alerts page links to it (the navigation does too).
      await page.getByRole('main').getByRole('link', { name: 'Webhooks' }).click();
      await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Webhooks');
      await expect.poll(() => textOf(page.locator('.empty')), EVENTUALLY).toMatch(/No webhooks yet/);
      const form = page.getByRole('form', { name: 'Add a webhook' });
      await form.getByRole('textbox', { name: 'URL' }).fill(hookUrl);
      await form.getByRole('button', { name: 'Add and send a test' }).click();
      await expect
        .poll(() => textOf(page.locator('.webhook').first().getByRole('status')), EVENTUALLY)
        .toMatch(/Test delivery received.*HTTP 204/);
      expect(JSON.parse(received[0]!)).toMatchObject({ event: 'test' });
      const item = page.locator('.webhook').first();
      // Webhook URLs are secrets (Slack-style): the list shows only their origin.
      expect(await textOf(item)).toContain(`${new URL(hookUrl).origin}/…`);
      expect(await textOf(item)).not.toContain(hookUrl);
      // The receiver now fails: the next test says so in words.
      await item.getByRole('button', { name: 'Send a test' }).click();
      await expect
        .poll(() => textOf(item.getByRole('alert')), EVENTUALLY)
        .toMatch(/Test delivery failed: the receiver answered HTTP 500/);
      await item.getByRole('button', { name: 'Show deliveries' }).click();
      await expect.poll(() => textOf(item), EVENTUALLY).toMatch(/No deliveries yet/);
      await screenshots(page, 'report-webhooks');
      page.once('dialog', (dialog) => void dialog.accept());
      await item.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => textOf(page.locator('.empty')), EVENTUALLY).toMatch(/No webhooks yet/);
      await page.close();
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('checks the home page when no sitemap is found, and says so', async () => {
    const bare = await startSite(200, false);
    bare.robots = 'User-agent: *\nDisallow: /private/\n';
    try {
      const page = await h.open('/properties');
      await addProperty(page, `${bare.origin}/`);
      const row = rowsOf(page, 'robots.txt files of this property; select a column header to sort').first();
      await expect.poll(() => textOf(row), EVENTUALLY).toMatch(/Fetched/);
      // No sitemap: no share in the headline, and the note says so plainly.
      const policyNow = row.getByRole('cell').nth(5);
      expect(await textOf(policyNow.locator('.headline'))).toBe('blocks some URLs for every crawler');
      expect(await textOf(policyNow.locator('.sitemap-share-note'))).toMatch(
        /^Sitemap URLs: no sitemap: the file lists none and \/sitemap\.xml has no URLs, so no share of sitemap URLs is measured \(measured /,
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      const fileHref = (await row.getByRole('link').getAttribute('href')) ?? '';
      await page.goto(new URL(`${fileHref}/impact`, h.service.url).href);
      const editor = page.getByRole('textbox', { name: 'Draft robots.txt' });
      await expect.poll(() => textOf(editor), EVENTUALLY).toContain('Disallow: /private/');
      await editor.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type('User-agent: *');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Disallow: /');
      await page.getByRole('textbox', { name: 'Crawlers' }).fill('Googlebot');
      await page.getByRole('button', { name: 'Check impact' }).click();
      await expect
        .poll(() => textOf(page.locator('.impact-summary')), EVENTUALLY)
        .toBe('1 URL from the home page (no sitemap was found) checked for 1 crawler: 1 verdict change.');
      expect(await textOf(page.locator('.impact-report'))).toMatch(/No sitemap was found: the robots\.txt lists none/);
      await screenshots(page, 'report-impact-no-sitemap');
      await page.close();
    } finally {
      await bare.close();
    }
  });

  it('sorts the files table by a column, both ways', async () => {
    const page = await h.open(propertyPath);
    const table = page.getByRole('table', { name: /robots\.txt files/ });
    await expect.poll(() => textOf(table), EVENTUALLY).toMatch(/Fetched/);
    const header = table.getByRole('columnheader', { name: /Size/ });
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBeNull();
    await page.close();
  });

  it('shows a version’s AI use: per purpose, what the crawlers get and the usage preferences with their lines', async () => {
    // A Cloudflare-managed-style file: Content-Signal in the * group, GPTBot and Google-Extended blocked by name.
    const managed = await startSite(200, false);
    try {
      managed.robots =
        'User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Google-Extended\nDisallow: /\n';
      const page = await h.open('/properties');
      await addProperty(page, `${managed.origin}/`);
      await expect.poll(() => new URL(page.url()).pathname, EVENTUALLY).toMatch(/^\/properties\/\d+$/);
      const row = rowsOf(page, 'robots.txt files of this property; select a column header to sort').first();
      await expect.poll(() => textOf(row), EVENTUALLY).toMatch(/Fetched/);
      await row.getByRole('link').click();
      const section = page.getByRole('region', { name: 'AI use' });
      const training = section.getByRole('table', { name: /^AI training: \d+ crawlers: 1 blocked, \d+ allowed$/ });
      await expect.poll(() => training.count(), EVENTUALLY).toBe(1);
      expect(await textOf(section.locator('.hint').first())).toMatch(/^This file states AI usage preferences/);
      const gpt = training.getByRole('row').filter({ hasText: 'GPTBot' });
      expect(await textOf(gpt)).toMatch(
        /^GPTBottheir own group \(line 5\)Blocked blocked: every URL \(line 6\)None: nothing may be fetched$/,
      );
      // The others follow the * group: allowed, with what the signal carries over.
      const others = training.getByRole('row').filter({ hasText: 'the * group (line 1)' });
      expect(await textOf(others)).toContain(
        'Search (search): allowed (Content-Signal search=yes, ai-train=no, line 2)AI Training (train-ai): disallowed (Content-Signal search=yes, ai-train=no, line 2)',
      );
      const tokens = section.getByRole('table', { name: /^control token: 2 crawlers/ });
      expect(await textOf(tokens.getByRole('row').filter({ hasText: 'Google-Extended' }))).toContain(
        "training (Google-Extended, on what Google's crawlers fetch): disallowed for every URL (line 9)",
      );
      expect(await section.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
        expect.stringMatching(/^AI training: /),
        expect.stringMatching(/^AI search: /),
        expect.stringMatching(/^user-triggered AI assistant: /),
        expect.stringMatching(/^control token: /),
        expect.stringMatching(/^search engine: /),
      ]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await section.scrollIntoViewIfNeeded();
      await screenshots(page, 'report-ai-use');

      // A new version with Content-Usage rules (the attach draft's example): the section follows the version shown.
      managed.robots =
        'User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: / train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n';
      await page.getByRole('button', { name: 'Recrawl now' }).click();
      await expect.poll(() => textOf(page.locator('.recrawl-status')), EVENTUALLY).toMatch(/a new version\.$/);
      const star = section
        .getByRole('table', { name: /^AI training: / })
        .getByRole('row')
        .filter({ hasText: 'the * group' });
      await expect
        .poll(() => textOf(star), EVENTUALLY)
        .toMatch(
          /Some paths some paths blocked: \/never\/ \(line 3\)AI Training \(train-ai\): disallowed for \/ \(line 4\)AI Training \(train-ai\): allowed for \/ai-ok\/ \(line 5\)$/,
        );
      const versions = rowsOf(page, 'Versions, newest first. Choose an older and a newer version to compare them.');
      await expect.poll(() => versions.count(), EVENTUALLY).toBe(2);
      await versions
        .nth(1)
        .getByRole('button', { name: /^Show the content of/ })
        .press('Enter');
      await expect
        .poll(
          () =>
            textOf(
              section
                .getByRole('table', { name: /^AI training: / })
                .getByRole('row')
                .filter({ hasText: 'GPTBot' }),
            ),
          EVENTUALLY,
        )
        .toMatch(/Blocked blocked: every URL \(line 6\)/);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.close();
    } finally {
      await managed.close();
    }
  });

  it('says so for properties and files that do not exist', async () => {
    const page = await h.open('/properties/987654');
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Property not found');
    await page.goto(new URL('/files/987654', h.service.url).href);
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('File not found');
    await page.goto(new URL('/files/abc/impact', h.service.url).href);
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('File not found');
    await screenshots(page, 'report-not-found');
    await page.close();
  });
});

describe.skipIf(missingChromium !== null)('robots.txt report with an access token', () => {
  const TOKEN = 'a-long-enough-secret';
  let h: Harness;
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
    site.robots = robotsTxt(site, 'Disallow: /private/');
    // With private addresses allowed, the service wants the token for live files too.
    h = await startHarness({ token: TOKEN, allowPrivateAddresses: true });
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('asks the tester for the token before loading a live file, then loads it', async () => {
    const page = await h.open('/');
    await page.getByRole('textbox', { name: 'Live file' }).fill(`${site.origin}/robots.txt`);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    const field = page.getByLabel('Access token', { exact: true });
    await expect.poll(() => field.count(), EVENTUALLY).toBe(1);
    await field.fill(TOKEN);
    await page.getByRole('button', { name: 'Save and retry' }).click();
    await expect
      .poll(() => textOf(page.getByRole('textbox', { name: 'robots.txt' })), EVENTUALLY)
      .toContain('Disallow: /private/');
    expect(await field.count()).toBe(0);
    await page.close();
  });

  it('asks for the token when a change is refused, then retries with it', async () => {
    const page = await h.open('/properties');
    await page.evaluate(() => localStorage.clear());
    await addProperty(page, 'example.com');
    const field = page.getByLabel('Access token', { exact: true });
    await expect.poll(() => field.count(), EVENTUALLY).toBe(1);
    expect(await textOf(page.getByRole('alert'))).toMatch(/needs an access token/);
    await screenshots(page, 'report-token');
    await field.fill('wrong-token-value');
    await page.getByRole('button', { name: 'Save and retry' }).click();
    await expect.poll(() => textOf(page.getByRole('alert')), EVENTUALLY).toMatch(/was refused/);
    await page.getByLabel('Access token', { exact: true }).fill(TOKEN);
    await page.getByRole('button', { name: 'Save and retry' }).click();
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('example.com');
    await page.close();
  });
});

describe.skipIf(missingChromium !== null)('adding properties on a service that does not fetch private networks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('suggests the URL prefix for host:port, refuses a public suffix, and says why a loopback site cannot be watched', async () => {
    const page = await h.open('/properties');
    await addProperty(page, 'co.uk');
    await expect
      .poll(() => textOf(page.getByRole('alert')), EVENTUALLY)
      .toMatch(/'co\.uk' is a public suffix.*example\.co\.uk/);
    await addProperty(page, '127.0.0.1:18720');
    await expect
      .poll(() => textOf(page.getByRole('alert')), EVENTUALLY)
      .toMatch(/has a port.*type http:\/\/127\.0\.0\.1:18720\/$/);
    await page.getByRole('button', { name: 'Use http://127.0.0.1:18720/' }).click();
    expect(await page.getByRole('textbox', { name: 'Add a property' }).inputValue()).toBe('http://127.0.0.1:18720/');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname, EVENTUALLY).toMatch(/^\/properties\/\d+$/);
    await expect
      .poll(() => textOf(page.getByRole('alert')), EVENTUALLY)
      .toMatch(/127\.0\.0\.1:18720 is a loopback address\..*--allow-private-addresses/);
    await screenshots(page, 'report-property-loopback');
    await page.close();
  });
});

describe.skipIf(missingChromium !== null)('a robots.txt answering 403, everywhere', () => {
  let h: Harness;
  let site: Site;
  let receiver: Server;
  const deliveries: { alert: { kind: string; fetchStatus: unknown } }[] = [];

  beforeAll(async () => {
    site = await startSite(200, false);
    site.robots = 'User-agent: *\nDisallow: /private/\n';
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        deliveries.push(JSON.parse(body));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    h = await startHarness({ allowPrivateAddresses: true, workers: 1 });
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it('has the same report status in the engine, the API, the UI and a webhook: the engine’s fetchStatusOf', async () => {
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(new URL(path, h.service.url), {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      return response.status === 204 ? null : response.json();
    };
    const hook = (await api('POST', '/api/webhooks', {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    })) as { id: number };
    expect(hook.id).toBeGreaterThan(0);
    const property = (await api('POST', '/api/properties', { property: `${site.origin}/` })) as { id: number };
    const filesOf = async () =>
      ((await api('GET', `/api/properties/${property.id}/files`)) as { files: Record<string, unknown>[] }).files;
    await expect.poll(async () => (await filesOf())[0]?.status, EVENTUALLY).toBe('fetched');
    const fileId = (await filesOf())[0]!.id as number;

    // The site starts refusing robots.txt with 403. The engine's own answer for it:
    site.status = 403;
    const engine = fetchStatusOf(await fetchRobotsTxt(`${site.origin}/robots.txt`));
    expect(engine).toEqual({ status: 'error', reason: 'access denied (HTTP 403)' });

    // The API, after a recrawl: the same status and words, while crawlers read it as allow-all.
    await api('POST', `/api/files/${fileId}/recrawl`);
    await expect.poll(async () => (await filesOf())[0]?.status, EVENTUALLY).toBe(engine.status);
    const file = (await api('GET', `/api/files/${fileId}`)) as {
      status: string;
      statusReason: string | null;
      lastFetch: { status: string; summary: string | null; outcome: string };
      effectivePolicy: unknown;
    };
    expect([file.status, file.statusReason]).toEqual([engine.status, engine.reason]);
    expect([file.lastFetch.status, file.lastFetch.summary, file.lastFetch.outcome]).toEqual([
      engine.status,
      engine.reason,
      'allow-all',
    ]);
    expect(file.effectivePolicy).toMatchObject({ mode: 'allow-all' });

    // The UI: the property's files table and the file page say it in the same words.
    const page = await h.open(`/properties/${property.id}`);
    const row = rowsOf(page, 'robots.txt files of this property; select a column header to sort').first();
    await expect.poll(() => textOf(row.getByRole('cell').nth(0)), EVENTUALLY).toMatch(/^Error/);
    expect(await textOf(row.getByRole('cell').nth(0))).toContain('access denied (HTTP 403)');
    expect(await textOf(row.getByRole('cell').nth(5))).toBe('no robots.txt (access denied (HTTP 403)): all allowed');
    // What the list hides, and the availability timeline below, are the service's settings in the engine's words.
    expect(await textOf(page.locator('.hint'))).toContain('Files with no robots.txt for 30 days');
    await page.goto(new URL(`/files/${fileId}`, h.service.url).href);
    await expect
      .poll(() => textOf(page.locator('.status-line')), EVENTUALLY)
      .toMatch(/^Erroraccess denied \(HTTP 403\)checked/);
    await expect.poll(() => textOf(page.locator('.policy-panel')), EVENTUALLY).toContain(availabilityRules().summary);
    await screenshots(page, 'report-file-403');
    await page.close();

    // The webhook: the alert for the change carries the same report status.
    await expect
      .poll(() => deliveries.find((d) => d.alert.kind === 'file-changed')?.alert.fetchStatus, EVENTUALLY)
      .toEqual(engine);
  });
});
