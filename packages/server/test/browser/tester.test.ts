import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, missingChromium, screenshots, startHarness } from './harness.js';

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
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('opens on the sample with its verdicts (the page people bookmark)', async () => {
    const page = await h.open('/');
    await expect.poll(() => resultRows(page).count()).toBe(5);
    await expect.poll(() => page.getByRole('link', { name: 'Tester' }).getAttribute('aria-current')).toBe('page');
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
      .poll(() => rows.nth(0).textContent())
      .toMatch(/^Blocked.*private\/plan\.html.*Googlebot.*line 5.*disallow: \/private\//);
    await expect.poll(() => rows.nth(1).textContent()).toMatch(/^Allowed.*public\/.*No rule matches/);

    await rows.nth(0).click();
    expect(await rows.nth(0).getAttribute('aria-selected')).toBe('true');
    const deciding = page.locator('.cm-line[data-deciding]');
    await expect.poll(() => deciding.textContent()).toBe('Disallow: /private/');
    // It is the fifth line: the line-number gutter agrees with the marked line's position.
    const marked = await deciding.boundingBox();
    const number5 = await page.locator('.cm-lineNumbers .cm-gutterElement', { hasText: /^5$/ }).boundingBox();
    expect(Math.abs(marked!.y - number5!.y)).toBeLessThan(2);
    await screenshots(page, 'tester-verdict');
    await page.close();
  });
});
