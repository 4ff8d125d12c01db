/**
 * The file page's issue list and the impact form's focus, in Chromium against the real service watching a site on
 * 127.0.0.1: the issues listed by severity (errors, warnings, info, the 1994-dialect notes last) with "Next issue",
 * "Previous issue", F8 and a click on the list all walking that one order; after "Check impact", focus on the
 * result's heading, or on the error when the check fails (the old result gone). axe-core finds no serious or
 * critical violation in either state, and each is photographed at 1440×900 and 390×844.
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

/**
 * An error on line 1, warnings on lines 7 to 10, the info finding that no sitemap is listed, and dialect notes on
 * lines 3, 4, 5, 7 and 11: in file order, the notes come first and bury the warnings.
 */
const ROBOTS = [
  'Disallow: /before',
  'User-agent: *',
  'Disallow: /search*',
  'Allow: /search/help$',
  '',
  'Disallow: /private',
  'Disalow: /tmp/',
  'Crawl-delay: soon',
  'Noindex: /old',
  'Allow /nocolon',
  'User-agent: Googlebot',
  'Disallow: /nogoogle/',
  '',
].join('\n');

/** The issues as the list must show them: severity, line, code. */
const LISTED = [
  ['error', 1, 'rule-outside-group'],
  ['warning', 7, 'field-name-typo'],
  ['warning', 8, 'ignored-directive'],
  ['warning', 8, 'invalid-crawl-delay'],
  ['warning', 9, 'noindex-in-robots-txt'],
  ['warning', 10, 'missing-colon'],
  ['info', 1, 'no-sitemap'],
  ['info', 3, 'dialect-difference'],
  ['info', 4, 'dialect-difference'],
  ['info', 5, 'dialect-difference'],
  ['info', 7, 'dialect-difference'],
  ['info', 11, 'dialect-difference'],
] as const;

/** A site on 127.0.0.1 serving {@link ROBOTS}, and 404 for everything else (no sitemap). */
async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(ROBOTS);
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function api<T>(h: Harness, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, h.service.url), {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** axe-core's serious and critical findings at both viewports (the page is left at the desktop size). */
async function axeAtBothSizes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    for (const violation of await seriousAxeViolations(page)) found.push(`${label}: ${violation}`);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return found;
}

/** What has keyboard focus: its id, tag and text. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    return { id: element?.id ?? '', tag: element?.tagName ?? '', text: element?.textContent ?? '' };
  });
}

describe.skipIf(missingChromium !== null)('issues by severity, and focus after an impact check', () => {
  let h: Harness;
  let site: Awaited<ReturnType<typeof startSite>>;
  let fileId = 0;

  beforeAll(async () => {
    site = await startSite();
    h = await startHarness({ allowPrivateAddresses: true, workers: 1 });
    const propertyId = (await api<{ id: number }>(h, 'POST', '/api/properties', { property: `${site.origin}/` })).id;
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
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('lists errors, then warnings, then info, the dialect notes last, and walks them in that order', async () => {
    const page = await h.open(`/files/${fileId}`);
    const list = page.getByRole('list', { name: 'Issues' });
    const items = list.getByRole('listitem');
    await expect.poll(() => items.count(), EVENTUALLY).toBe(LISTED.length);
    const shown = [];
    for (const item of await items.all()) {
      const severity = (await textOf(item.locator('.badge'))).toLowerCase();
      const line = Number((await textOf(item.locator('.line-ref'))).replace('line ', ''));
      shown.push([severity, line, await textOf(item.locator('.issue-code'))]);
    }
    expect(shown).toEqual(LISTED);

    /** The position in the list of the issue marked current, and the line where the editor's selection starts. */
    const current = async () => ({
      at: await items.evaluateAll((all) => all.findIndex((li) => li.classList.contains('current'))),
      line: await page.evaluate(() => {
        const node = getSelection()?.anchorNode ?? null;
        const line = (node instanceof Element ? node : node?.parentElement)?.closest('.cm-line');
        return line ? Array.prototype.indexOf.call(document.querySelectorAll('.cm-content .cm-line'), line) + 1 : 0;
      }),
    });
    // "Next issue" from the top starts at the first listed issue and follows the list, wrapping at its end.
    for (let i = 0; i <= LISTED.length; i++) {
      await page.getByRole('button', { name: 'Next issue' }).click();
      const at = i % LISTED.length;
      await expect.poll(current, EVENTUALLY).toEqual({ at, line: LISTED[at]![1] });
    }
    await page.getByRole('button', { name: 'Previous issue' }).click();
    await expect.poll(current, EVENTUALLY).toEqual({ at: LISTED.length - 1, line: 11 });
    // A click on the list selects that issue; F8 and Shift-F8 go on from it in the list's order.
    await items.nth(5).getByRole('button').click();
    await expect.poll(current, EVENTUALLY).toEqual({ at: 5, line: 10 });
    await page.keyboard.press('F8');
    await expect.poll(current, EVENTUALLY).toEqual({ at: 6, line: 1 });
    await page.keyboard.press('Shift+F8');
    await page.keyboard.press('Shift+F8');
    await expect.poll(current, EVENTUALLY).toEqual({ at: 4, line: 9 });
    expect(await items.nth(4).getByRole('button').getAttribute('aria-current')).toBe('true');

    expect(await axeAtBothSizes(page)).toEqual([]);
    await screenshots(page, 'issues-by-severity');
    await page.close();
  });

  it('moves focus to the result after "Check impact", and to the error when the check fails', async () => {
    const page = await h.open(`/files/${fileId}/impact`);
    await expect
      .poll(() => textOf(page.getByRole('textbox', { name: 'Draft robots.txt' })), EVENTUALLY)
      .toContain('Disalow: /tmp/');
    // From the keyboard: the button, Enter.
    await page.getByRole('button', { name: 'Check impact' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => focused(page), EVENTUALLY)
      .toEqual({ id: 'impact-result-title', tag: 'H2', text: 'Result' });
    expect(await textOf(page.getByRole('region', { name: 'Result' }))).toMatch(/Compared /);
    expect(await axeAtBothSizes(page)).toEqual([]);
    await screenshots(page, 'impact-result-focused');

    // The only stored version is the current one: nothing to compare it with, said plainly, with focus on it.
    await page.getByRole('radio', { name: 'A stored version' }).check();
    await page.getByRole('button', { name: 'Check impact' }).click();
    const error = page.locator('main').getByRole('alert');
    await expect.poll(() => textOf(error), EVENTUALLY).toMatch(/is the current version of .*choose an older version/);
    await expect.poll(async () => (await focused(page)).text, EVENTUALLY).toBe(await textOf(error));
    expect(await page.getByRole('region', { name: 'Result' }).count()).toBe(0);
    expect(await axeAtBothSizes(page)).toEqual([]);
    await screenshots(page, 'impact-error-focused');
    await page.close();
  });
});
