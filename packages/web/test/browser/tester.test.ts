/**
 * The robots.txt tester in Chromium: verdicts and deciding lines, lint in place, the editor's colours, the matrix, the
 * 1994 reading, share links, a 500 KiB file, live files.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEY_COLOURS } from '../editor-keys.js';
import { EVENTUALLY, type Harness, missingChromium, screenshots, startHarness, textOf } from './harness.js';

/** Replaces the editor's content by typing, as a person would. */
async function typeRobotsTxt(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'robots.txt' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) await page.keyboard.press('Enter');
    if (lines[i] !== '') await page.keyboard.type(lines[i]!);
  }
}

async function setUrls(page: Page, urls: string[]): Promise<void> {
  await page.getByRole('textbox', { name: 'URLs' }).fill(urls.join('\n'));
}

async function setCrawler(page: Page, crawler: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Crawler' }).fill(crawler);
}

function resultRows(page: Page) {
  return page
    .getByRole('table')
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
}

describe.skipIf(missingChromium !== null)('robots.txt tester in Chromium', () => {
  let h: Harness;
  beforeAll(async () => {
    // Loopback allowed: the live-file test serves its robots.txt from 127.0.0.1.
    h = await startHarness({ allowPrivateAddresses: true });
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('opens on the sample with its verdicts (the page people bookmark)', async () => {
    const page = await h.open('/');
    await expect.poll(() => resultRows(page).count(), EVENTUALLY).toBe(5);
    await expect
      .poll(() => page.getByRole('link', { name: 'Tester' }).getAttribute('aria-current'), EVENTUALLY)
      .toBe('page');
    await screenshots(page, 'tester-sample');
    await page.close();
  });

  it('gives a verdict for what is typed and highlights the deciding line of the selected row', async () => {
    const page = await h.open('/');
    await typeRobotsTxt(page, 'User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /private/\n');
    await setUrls(page, ['https://example.com/private/plan.html', 'https://example.com/public/']);
    await setCrawler(page, 'Googlebot');

    const rows = resultRows(page);
    await expect
      .poll(() => textOf(rows.nth(0)), EVENTUALLY)
      .toMatch(/^Blocked.*private\/plan\.html.*Googlebot.*line 5.*disallow: \/private\//);
    await expect.poll(() => textOf(rows.nth(1)), EVENTUALLY).toMatch(/^Allowed.*public\/.*No rule matches/);

    await rows.nth(0).click();
    expect(await rows.nth(0).getAttribute('aria-selected')).toBe('true');
    const deciding = page.locator('.cm-line[data-deciding]');
    await expect.poll(() => textOf(deciding), EVENTUALLY).toBe('Disallow: /private/');
    // It is the fifth line: the line-number gutter agrees with the marked line's position.
    // Both boxes are read in one frame (two separate reads can straddle a layout change, such as the editor
    // scrolling the marked line into view), and read again until the page holds still.
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const marked = document.querySelector('.cm-line[data-deciding]');
            const number5 = Array.from(document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')).find(
              (element) => element.textContent?.trim() === '5',
            );
            if (!marked || !number5) return Number.POSITIVE_INFINITY;
            return Math.abs(marked.getBoundingClientRect().y - number5.getBoundingClientRect().y);
          }),
        EVENTUALLY,
      )
      .toBeLessThan(2);
    await screenshots(page, 'tester-verdict');

    // Rows work from the keyboard too; a row no rule decided clears the mark.
    await rows.nth(1).focus();
    await page.keyboard.press('Enter');
    expect(await rows.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await rows.nth(0).getAttribute('aria-selected')).toBe('false');
    await expect.poll(() => deciding.count(), EVENTUALLY).toBe(0);
    await page.close();
  });

  it('gives one row per URL and crawler, for catalogue crawlers and free product tokens', async () => {
    const page = await h.open('/');
    await typeRobotsTxt(page, 'User-agent: Googlebot-Image\nDisallow: /\n\nUser-agent: mybot\nDisallow: /secret/\n');
    await setUrls(page, ['https://example.com/secret/a.png', 'https://example.com/b.png']);
    await setCrawler(page, 'Googlebot-Image, MyBot, Googlebot');
    await expect
      .poll(() => textOf(page.locator('.side')), EVENTUALLY)
      .toMatch(/3 crawlers: 2 from the catalogue, 1 matched as a product token/);
    await expect
      .poll(() => resultRows(page).allTextContents(), EVENTUALLY)
      .toEqual([
        expect.stringMatching(
          /^Blocked.*secret\/a\.png.*Googlebot-Image.*line 2 disallow: \/.*group for Googlebot-Image/,
        ),
        expect.stringMatching(/^Blocked.*secret\/a\.png.*MyBot.*line 5 disallow: \/secret\//),
        expect.stringMatching(/^Allowed.*secret\/a\.png.*Googlebot.*No group applies/),
        expect.stringMatching(/^Blocked.*b\.png.*Googlebot-Image.*line 2/),
        expect.stringMatching(/^Allowed.*b\.png.*MyBot.*No rule matches/),
        expect.stringMatching(/^Allowed.*b\.png.*Googlebot.*No group applies/),
      ]);

    await screenshots(page, 'tester-several-crawlers');

    await setCrawler(page, 'My Bot/1.0');
    await expect
      .poll(() => textOf(page.locator('.side')), EVENTUALLY)
      .toMatch(/'My Bot\/1\.0' is not a product token .*and names no crawler/);
    await page.close();
  });

  it('shows a lint issue at its line: underline, gutter mark, hover text, and F8 jumps to it', async () => {
    const page = await h.open('/');
    await typeRobotsTxt(page, 'User-agent: *\nAllow: /\nDisalow: /x\nSitemap: https://example.com/sitemap.xml\n');
    await expect.poll(() => textOf(page.locator('.issue-counts')), EVENTUALLY).toMatch(/1 warning/);
    const underline = page.locator('.cm-lintRange-warning');
    await expect.poll(() => textOf(underline.first()), EVENTUALLY).toBe('Disalow');

    // The gutter mark sits on line 3.
    const marker = page.locator('.cm-gutter-lint .cm-gutterElement:has(.cm-lint-marker-warning)');
    await expect.poll(() => marker.count(), EVENTUALLY).toBe(1);
    const markerBox = await marker.boundingBox();
    const line3 = await page.locator('.cm-lineNumbers .cm-gutterElement', { hasText: /^3$/ }).boundingBox();
    expect(Math.abs(markerBox!.y - line3!.y)).toBeLessThan(2);

    // As a person would: rest on the mark, and if no tooltip came (a lint answer landing meanwhile redraws the gutter
    // under a still pointer: the dialect notes arrive after the warning), move away and onto it again. Each hover is
    // given two seconds, so the tooltip's hover delay always fits in one.
    const tooltip = page.locator('.cm-tooltip-lint').first();
    await expect
      .poll(async () => {
        await page.mouse.move(0, 0);
        await marker.hover();
        await tooltip.waitFor({ state: 'visible', timeout: 2000 }).catch(() => {});
        return textOf(tooltip);
      }, EVENTUALLY)
      .toMatch(/misspelling of "Disallow"/);

    // From the top of the file, F8 selects each diagnostic in turn (the typo sits inside a two-line dialect
    // difference, and is still visited) and says which one it is; Shift-F8 goes back.
    await page.getByRole('textbox', { name: 'robots.txt' }).click();
    await page.keyboard.press('ControlOrMeta+Home');
    const issues = await page.locator('.issue-counts').textContent();
    const total = Number(/(\d+) info/.exec(issues!)?.[1] ?? 0) + 1;
    const visited: string[] = [];
    for (let i = 0; i < total; i++) {
      await page.keyboard.press('F8');
      const selected = await page.evaluate(() => document.getSelection()?.toString() ?? '');
      const status = await page.locator('.issue-line').textContent();
      visited.push(`${selected} | ${status}`);
    }
    expect(visited).toContainEqual(
      expect.stringMatching(/^Disalow \| warningIssue \d of \d, line 3: "Disalow" is a misspelling/),
    );
    await page.keyboard.press('F8');
    expect(await page.locator('.issue-line').textContent()).toMatch(/Issue 1 of/);
    await page.keyboard.press('Shift+F8');
    expect(await page.locator('.issue-line').textContent()).toMatch(new RegExp(`Issue ${total} of ${total}`));
    await screenshots(page, 'tester-lint');
    await page.close();
  });

  it('colours every key as the engine reads it: typos Google accepts are fields, keys it ignores are not', async () => {
    const page = await h.open('/');
    await typeRobotsTxt(page, KEY_COLOURS.map(([line]) => line).join('\n'));
    const lines = page.locator('.cm-content .cm-line');
    await expect.poll(() => lines.count(), EVENTUALLY).toBe(KEY_COLOURS.length);
    const colour = (token: string) =>
      page
        .locator(`.cm-content .rt-${token}`)
        .first()
        .evaluate((element) => getComputedStyle(element).color);
    for (const [i, [, key, token]] of KEY_COLOURS.entries()) {
      await expect.poll(() => textOf(lines.nth(i).locator(`.rt-${token}`)), EVENTUALLY).toBe(key);
    }
    // As painted: Google's accepted spellings are not red, and what Google ignores is not in its fields' colour.
    const red = await colour('unknown-field');
    const field = await colour('field');
    expect(await colour('field-variant')).not.toBe(red);
    expect(await colour('field-variant')).toBe(field);
    for (const ignored of ['extension', 'page-directive']) {
      expect(await colour(ignored)).not.toBe(field);
      expect(await colour(ignored)).not.toBe(red);
    }
    // A misspelt disallow's value is a pattern, its `*` and final `$` marked as the matcher reads them.
    const dissallow = lines.nth(KEY_COLOURS.findIndex(([, key]) => key === 'Dissallow'));
    expect(await textOf(dissallow.locator('.rt-pattern'))).toBe('/drafts/.pdf');
    expect(await textOf(dissallow.locator('.rt-wildcard, .rt-end-anchor'))).toBe('*$');
    await screenshots(page, 'tester-key-colours');
    await page.close();
  });

  it('shows every known crawler against every URL in the matrix', async () => {
    const page = await h.open('/');
    await typeRobotsTxt(page, 'User-agent: GPTBot\nDisallow: /\n');
    await setUrls(page, ['https://example.com/', 'https://example.com/blog/post']);
    await page.getByRole('tab', { name: 'All crawlers' }).click();
    const matrix = page.getByRole('table');
    await expect
      .poll(() => matrix.getByRole('columnheader').allTextContents(), EVENTUALLY)
      .toEqual(['Crawler', '/', '/blog/post']);
    const gptbot = matrix.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^GPTBot\b/ }) });
    await expect.poll(() => gptbot.getByRole('cell').allTextContents(), EVENTUALLY).toEqual(['Blocked2', 'Blocked2']);
    const googlebot = matrix
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: /^Googlebot Google/ }) });
    await expect.poll(() => googlebot.getByRole('cell').allTextContents(), EVENTUALLY).toEqual(['Allowed', 'Allowed']);
    const rows = matrix.locator('tbody tr');
    const all = await rows.count();
    expect(all).toBeGreaterThan(100);
    await page.getByRole('checkbox', { name: 'Only crawlers the file names' }).check();
    await expect.poll(() => rows.count(), EVENTUALLY).toBe(1);
    await page.getByRole('checkbox', { name: 'Only crawlers the file names' }).uncheck();
    await page.getByRole('searchbox', { name: 'Filter crawlers' }).fill('zzz-no-such-crawler');
    await expect.poll(() => page.getByText('No crawler matches this filter.').count(), EVENTUALLY).toBe(1);
    await page.getByRole('searchbox', { name: 'Filter crawlers' }).fill('');

    // A cell shows its deciding line in the editor.
    await gptbot.getByRole('button').first().click();
    await expect.poll(() => textOf(page.locator('.cm-line[data-deciding]')), EVENTUALLY).toBe('Disallow: /');
    await page.getByRole('searchbox', { name: 'Filter crawlers' }).fill('');

    // Readable with five URLs at 1280 px: the crawler column stays narrow (operators in a few words, "unclear" left
    // out) and every URL column fits in the matrix's box.
    await setUrls(
      page,
      ['/', '/a', '/blog/post', '/shop/item?id=1', '/private/report.pdf'].map((p) => `https://example.com${p}`),
    );
    await expect.poll(() => matrix.getByRole('columnheader').count(), EVENTUALLY).toBe(6);
    const crawlerColumn = (await matrix.getByRole('columnheader', { name: 'Crawler' }).boundingBox())!;
    expect(crawlerColumn.width).toBeLessThan(260);
    expect(await textOf(matrix.locator('tbody'))).not.toContain('Unclear at this time');
    const box = (await page.locator('.matrix-wrap').boundingBox())!;
    const lastUrl = (await matrix.getByRole('columnheader').last().boundingBox())!;
    expect(lastUrl.x + lastUrl.width).toBeLessThanOrEqual(box.x + box.width + 1);
    await page.getByRole('searchbox', { name: 'Filter crawlers' }).fill('google');
    await screenshots(page, 'tester-matrix');
    await page.close();
  });

  it('switches to the 1994 reading and shows where it differs', async () => {
    const page = await h.open('/');
    await typeRobotsTxt(page, 'User-agent: *\nDisallow: /a\nAllow: /a/b\n');
    await setUrls(page, ['https://example.com/a/b']);
    await setCrawler(page, 'Googlebot');
    const row = resultRows(page).first();
    await expect.poll(() => textOf(row), EVENTUALLY).toMatch(/^Allowed.*line 3.*allow: \/a\/b/);
    expect(await row.textContent()).toContain('1994 convention: Blocked (line 2)');

    await page.getByRole('radio', { name: '1994 convention' }).check();
    await expect.poll(() => textOf(row), EVENTUALLY).toMatch(/^Blocked.*line 2.*disallow: \/a/);
    expect(await row.textContent()).toContain('Google (RFC 9309): Allowed (line 3)');
    await row.click();
    await expect.poll(() => textOf(page.locator('.cm-line[data-deciding]')), EVENTUALLY).toBe('Disallow: /a');
    expect(await textOf(page.getByRole('tabpanel'))).toMatch(/Verdicts as a crawler following the 1994 convention/);
    await screenshots(page, 'tester-legacy-results');

    await page.getByRole('tab', { name: /1994 reading/ }).click();
    const panel = page.getByRole('tabpanel');
    await expect.poll(() => textOf(panel), EVENTUALLY).toMatch(/Longest match vs first match/);
    expect(await panel.textContent()).toMatch(/Google.*longer rule on line 3/);
    await screenshots(page, 'tester-dialect');
    await page.close();
  });

  it('keeps the whole state in the link, and a new tab restores it', async () => {
    const page = await h.open('/');
    const text = 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n';
    await typeRobotsTxt(page, text);
    await setUrls(page, ['https://example.com/tmp/a', 'https://example.com/ok']);
    await setCrawler(page, 'GPTBot');
    await page.getByRole('radio', { name: '1994 convention' }).check();

    // The hash settles on the state: deflate-raw JSON in base64url.
    const decode = (url: string) => {
      const m = /#s=([A-Za-z0-9_-]+)$/.exec(url);
      if (!m) return null;
      return JSON.parse(inflateRawSync(Buffer.from(m[1]!, 'base64url')).toString('utf8')) as Record<string, unknown>;
    };
    await expect
      .poll(() => decode(page.url()), EVENTUALLY)
      .toEqual({ v: 1, t: text, u: 'https://example.com/tmp/a\nhttps://example.com/ok', c: 'GPTBot', d: 'legacy' });

    const restored = await h.open(new URL(page.url()).pathname + new URL(page.url()).hash);
    await expect
      .poll(async () => (await restored.locator('.cm-line').allTextContents()).join('\n'), EVENTUALLY)
      .toBe(text);
    expect(await restored.getByRole('textbox', { name: 'URLs' }).inputValue()).toBe(
      'https://example.com/tmp/a\nhttps://example.com/ok',
    );
    expect(await restored.getByRole('combobox', { name: 'Crawler' }).inputValue()).toBe('GPTBot');
    expect(await restored.getByRole('radio', { name: '1994 convention' }).isChecked()).toBe(true);
    await expect
      .poll(() => resultRows(restored).allTextContents(), EVENTUALLY)
      .toEqual([
        expect.stringMatching(/^Blocked.*tmp\/a.*GPTBot.*line 2/),
        expect.stringMatching(/^Blocked.*\/ok.*GPTBot.*line 2/),
      ]);

    // A shared link opened in a tab that already shows the tester (only the hash changes) loads too.
    const shared = new URL(page.url()).hash;
    const other = await h.open('/');
    await expect.poll(() => resultRows(other).count(), EVENTUALLY).toBe(5);
    await other.goto(new URL(`/${shared}`, h.service.url).href);
    await expect
      .poll(async () => (await other.locator('.cm-line').allTextContents()).join('\n'), EVENTUALLY)
      .toBe(text);
    expect(await other.getByRole('combobox', { name: 'Crawler' }).inputValue()).toBe('GPTBot');
    await other.close();
    await restored.close();
    await page.close();
  });

  it('says so when a shared link is damaged, and starts from the example', async () => {
    const page = await h.open('/#s=AAAAnot-deflate');
    await expect.poll(() => textOf(page.getByRole('alert')), EVENTUALLY).toMatch(/The link is damaged/);
    await expect.poll(() => resultRows(page).count(), EVENTUALLY).toBe(5);
    await screenshots(page, 'tester-damaged-link');
    await page.close();
  });

  it('shows empty states without URLs', async () => {
    const page = await h.open('/');
    await setUrls(page, []);
    await expect.poll(() => textOf(page.getByRole('tabpanel')), EVENTUALLY).toMatch(/Add URLs to test/);
    await page.getByRole('tab', { name: 'All crawlers' }).click();
    await expect
      .poll(() => textOf(page.getByRole('tabpanel')), EVENTUALLY)
      .toMatch(/Add URLs to see every known crawler/);
    await screenshots(page, 'tester-empty');
    await page.close();
  });

  it('stays usable with a 500 KiB file: pasted, checked in the worker, and still editable', async () => {
    const page = await h.open('/');
    // Paths with pseudo-random parts, so the file does not compress into a link.
    let seed = 1;
    const noise = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed.toString(16);
    };
    const groups: string[] = [];
    // Just under Google's 500 KiB limit (the engine ignores what follows it, as Google does).
    for (let i = 0; groups.join('').length < 495 * 1024; i++) {
      const rules = Array.from({ length: 40 }, (_, j) => `Disallow: /section-${i}/${noise()}-${j}/*.html$`).join('\n');
      groups.push(`User-agent: bot-${i}\n${rules}\n\n`);
    }
    const big = `${groups.join('')}User-agent: *\nDisallow: /last-rule/\n`;
    const lastLine = big.split('\n').length - 1;
    await setUrls(page, ['https://example.com/last-rule/x']);
    await setCrawler(page, 'Googlebot');
    const editor = page.getByRole('textbox', { name: 'robots.txt' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await editor.evaluate((element, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, big);
    const row = resultRows(page).first();
    await expect
      .poll(() => textOf(row), { timeout: 30_000 })
      .toMatch(new RegExp(`^Blocked.*line ${lastLine}.*disallow: /last-rule/`));
    const footer = page.locator('.panel-foot');
    await expect
      .poll(() => textOf(footer), EVENTUALLY)
      .toMatch(/^49\d\.\d KiB · \d+ groups · parsed in [\d.]+ ms, verdicts [\d.]+ ms, lint [\d.]+ ms/);
    console.log(`500 KiB file: ${await footer.textContent()}`);
    // Another URL: the verdict follows (the file's analysis is kept; the footer shows how long each half took).
    await setUrls(page, ['https://example.com/last-rule/x', 'https://example.com/elsewhere']);
    await expect.poll(() => textOf(resultRows(page).nth(1)), EVENTUALLY).toMatch(/^Allowed.*elsewhere/);
    await expect.poll(() => textOf(footer), EVENTUALLY).toMatch(/, lint /);
    console.log(`500 KiB file, URLs changed: ${await footer.textContent()}`);

    // At 1280 px the editor keeps the window's height and scrolls inside; the verdicts sit beside it, and the
    // first URL's verdict is shown with its deciding line marked, without a click.
    const viewport = page.viewportSize()!;
    const panel = (await page.locator('.editor-panel').boundingBox())!;
    expect(panel.height).toBeLessThanOrEqual(viewport.height);
    const table = (await page.getByRole('table').boundingBox())!;
    expect(table.x).toBeGreaterThanOrEqual(panel.x + panel.width);
    expect(table.y).toBeLessThan(viewport.height);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2 * viewport.height);
    expect(await row.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => textOf(page.locator('.cm-line[data-deciding]')), EVENTUALLY).toBe('Disallow: /last-rule/');
    await screenshots(page, 'tester-500kib');

    // Thousands of dialect differences: the list shows them a hundred at a time.
    await page.getByRole('tab', { name: /1994 reading/ }).click();
    await expect
      .poll(() => textOf(page.getByRole('tabpanel').locator('.more')), EVENTUALLY)
      .toMatch(/^Showing 100 of \d{4,}\./);
    await page.getByRole('button', { name: 'Show 100 more' }).click();
    await expect.poll(() => page.getByRole('tabpanel').locator('.differences > li').count(), EVENTUALLY).toBe(200);
    await page.getByRole('tab', { name: 'Results' }).click();

    // Too large for a link: the page says so and the address bar holds no stale state.
    await expect.poll(() => textOf(page.locator('.share')), EVENTUALLY).toMatch(/too large to carry in a link/);
    expect(new URL(page.url()).hash).toBe('');

    // Typing at the end still edits the file, and the verdict follows.
    await editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('Allow: /last-rule/x');
    await expect.poll(() => textOf(row), { timeout: 30_000 }).toMatch(/^Allowed.*allow: \/last-rule\/x/);
    await page.close();
  });

  it('loads a live file through the service, or says clearly that it cannot', async () => {
    const page = await h.open('/');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect.poll(() => textOf(page.getByRole('alert')), EVENTUALLY).toMatch(/Type a site/);

    const body = 'User-agent: *\nDisallow: /from-the-live-file/\n';
    const origin = await new Promise<{ url: string; close: () => void }>((resolve) => {
      const server = createServer((request, response) => {
        if (request.url === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end(body);
        else response.writeHead(404).end();
      });
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        resolve({ url: `http://127.0.0.1:${port}/robots.txt`, close: () => server.close() });
      });
    });
    try {
      const openapi = (await (await fetch(`${h.service.url}/api/openapi.json`)).json()) as { paths: object };
      const site = page.getByRole('textbox', { name: 'Live file' });
      await site.fill(origin.url);
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      if ('/api/fetch' in openapi.paths) {
        await expect
          .poll(async () => (await page.locator('.cm-line').allTextContents()).join('\n'), EVENTUALLY)
          .toBe(body);
        expect(await page.getByRole('status').first().textContent()).toMatch(/Loaded http:\/\/127\.0\.0\.1/);
        // The example's example.com URLs now point at the loaded site; a URL on another host is flagged.
        const loadedOrigin = new URL(origin.url).origin;
        expect(await page.getByRole('textbox', { name: 'URLs' }).inputValue()).toMatch(
          new RegExp(
            `^${loadedOrigin.replaceAll('.', '\\.')}/\n${loadedOrigin.replaceAll('.', '\\.')}/private/report.html`,
          ),
        );
        await setUrls(page, [`${loadedOrigin}/from-the-live-file/a`, 'https://other.invalid/from-the-live-file/a']);
        await expect.poll(() => textOf(resultRows(page).nth(0)), EVENTUALLY).toMatch(/^Blocked/);
        expect(await textOf(resultRows(page).nth(0))).not.toMatch(/Another host/);
        await expect
          .poll(() => textOf(resultRows(page).nth(1)), EVENTUALLY)
          .toMatch(new RegExp(`Another host: this file is ${loadedOrigin.replaceAll('.', '\\.')}/robots.txt`));
        await screenshots(page, 'tester-live-loaded');
        // 127.0.0.1:port with no scheme is plain http, not https (a local server speaks no TLS).
        await site.fill(new URL(origin.url).host);
        await page.getByRole('button', { name: 'Load', exact: true }).click();
        await expect
          .poll(() => page.getByRole('status').first().textContent(), EVENTUALLY)
          .toMatch(new RegExp(`Loaded ${loadedOrigin.replaceAll('.', '\\.')}/robots.txt`));
        // A site that does not speak TLS, asked over https: the engine's words, not OpenSSL's.
        await site.fill(origin.url.replace('http:', 'https:'));
        await page.getByRole('button', { name: 'Load', exact: true }).click();
        await expect
          .poll(() => textOf(page.getByRole('alert')), EVENTUALLY)
          .toMatch(/TLS failure: the server does not speak TLS on this port/);
        expect(await textOf(page.getByRole('alert'))).not.toMatch(/SSL routines|wrong version number/);
        await site.fill('http://127.0.0.1:1/robots.txt');
        await page.getByRole('button', { name: 'Load', exact: true }).click();
        await expect.poll(() => textOf(page.getByRole('alert')), EVENTUALLY).toMatch(/127\.0\.0\.1:1/);
      } else {
        // This build has no live fetching yet (GET /api/fetch comes with the retrieval wiring): a clear error.
        await expect
          .poll(() => textOf(page.getByRole('alert')), EVENTUALLY)
          .toMatch(/This service cannot fetch live files \(it has no \/api\/fetch\)\. Paste the robots\.txt instead\./);
      }
      await screenshots(page, 'tester-live-error');
    } finally {
      origin.close();
    }
    await page.close();
  });
});
