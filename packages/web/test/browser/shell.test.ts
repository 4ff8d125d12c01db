/** The shell in Chromium: navigation without reloads, the not-found page. */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTUALLY, type Harness, missingChromium, screenshots, startHarness, textOf } from './harness.js';

describe.skipIf(missingChromium !== null)('the UI shell in Chromium', () => {
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

  it('shows a not-found page for unknown paths and navigates without reloading', async () => {
    const page = await h.open('/no/such/page');
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Page not found');
    expect(await page.title()).toBe('Not found · robotskit');
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Tester' })
        .getAttribute('aria-current'),
    ).toBeNull();
    await screenshots(page, 'not-found');

    // A marker on window survives only if the link navigates in the page rather than reloading it.
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    await page.getByRole('link', { name: 'robots.txt tester' }).click();
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('robots.txt tester');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(await page.title()).toBe('robots.txt tester · robotskit');

    await page.goBack();
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('Page not found');
    await page.close();
  });
});
