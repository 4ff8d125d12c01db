/**
 * The cross-surface contract (../../../robotskit/test/contract/cases.ts), browser runner: the tester in Chromium,
 * with each case loaded live through the service (`Load`) and opened from its stored version (the file page's "Open
 * in the tester"), must show the engine's answer on the bytes (verdict and deciding line) for every URL and crawler,
 * the crawler read by the engine's resolveCrawler. One load per case and surface, all URLs and crawlers at once.
 */

import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_CASES, type ContractCase, expectedAnswer } from '../../../robotskit/test/contract/cases.js';
import { type CaseOrigins, serveCases } from '../../../robotskit/test/contract/serve.js';
import { formatBytes } from '../../src/components/format.js';
import { EVENTUALLY, type Harness, missingChromium, startHarness, textOf } from './harness.js';

/** The crawlers as the tester's field reads them: comma-separated, trimmed around commas, each once. */
function crawlersOf(c: ContractCase): string[] {
  return [...new Set(c.agents.map((a) => a.trim()))];
}

function expected(c: ContractCase): { allowed: boolean; line: number }[] {
  return c.paths.flatMap((path) => crawlersOf(c).map((agent) => expectedAnswer(c, path, agent, 'resolved')));
}

/** The verdict table as shown: the badge and the deciding line of each row. */
function shownRows(page: Page): Promise<{ allowed: boolean; line: number }[]> {
  return page.$$eval('table.results tbody tr', (rows) =>
    rows.map((row) => {
      const cells = row.querySelectorAll('td');
      const line = /^line (\d+)/.exec((cells[3]?.textContent ?? '').trim())?.[1];
      return {
        allowed: (cells[0]?.textContent ?? '').includes('Allowed'),
        line: line === undefined ? 0 : Number(line),
      };
    }),
  );
}

async function ask(page: Page, c: ContractCase): Promise<void> {
  await page.getByRole('textbox', { name: 'URLs' }).fill(c.paths.join('\n'));
  await page.getByRole('combobox', { name: 'Crawler' }).fill(c.agents.join(', '));
  const want = expected(c);
  await expect.poll(() => shownRows(page), { ...EVENTUALLY, timeout: 30_000 }).toEqual(want);
}

describe.skipIf(missingChromium !== null)('contract: the tester in Chromium', () => {
  let h: Harness;
  let origins: CaseOrigins;
  const fileOf = new Map<string, number>();

  beforeAll(async () => {
    origins = await serveCases(CONTRACT_CASES);
    // A fetch worker that may reach the local servers stores each case's version.
    h = await startHarness({ allowPrivateAddresses: true, workers: 1 });
    const api = (path: string, init?: RequestInit) =>
      fetch(new URL(path, h.service.url), { ...init, headers: { 'content-type': 'application/json' } });
    const properties = new Map<string, number>();
    for (const c of CONTRACT_CASES) {
      const reply = await api('/api/properties', {
        method: 'POST',
        body: JSON.stringify({ property: `${origins.origin.get(c.id)}/` }),
      });
      expect(reply.status, await reply.clone().text()).toBe(201);
      properties.set(c.id, ((await reply.json()) as { id: number }).id);
    }
    // Every case's file is fetched and stored (a worker on a busy machine: a generous wait, never a speed test).
    const deadline = Date.now() + 150_000;
    for (const c of CONTRACT_CASES) {
      for (;;) {
        const reply = await api(`/api/properties/${properties.get(c.id)}/files`);
        const { files } = (await reply.json()) as { files: { id: number; latestVersionId: number | null }[] };
        const file = files.find((f) => f.latestVersionId !== null);
        if (file) {
          fileOf.set(c.id, file.id);
          break;
        }
        if (Date.now() > deadline) throw new Error(`the worker stored no version of ${c.id}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 180_000);
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    await origins?.close();
  });

  it('live load: every case gives the engine answer on the bytes', async () => {
    const page = await h.open('/');
    for (const c of CONTRACT_CASES) {
      await page.getByRole('textbox', { name: 'Live file' }).fill(origins.origin.get(c.id)!);
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      await expect
        .poll(() => textOf(page.locator('.notice')), EVENTUALLY)
        .toContain(`Loaded ${origins.origin.get(c.id)}/robots.txt (HTTP 200, `);
      // The size is the file's, in bytes (not its text re-encoded).
      const size = formatBytes(Math.min(c.bytes.length, 512_000));
      expect(await textOf(page.locator('.notice')), c.id).toContain(`(HTTP 200, ${size})`);
      await ask(page, c);
      await page.getByRole('button', { name: 'Dismiss' }).click();
    }
    await page.close();
  }, 300_000);

  it('stored version, opened in the tester from the report: every case gives the engine answer on the bytes', async () => {
    const page = await h.open('/');
    for (const c of CONTRACT_CASES) {
      await page.goto(new URL(`/files/${fileOf.get(c.id)}`, h.service.url).href);
      await page.getByRole('button', { name: 'Open in the tester' }).click();
      await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe('robots.txt tester');
      await ask(page, c);
    }
    await page.close();
  }, 300_000);

  it('says which crawler it used whenever it rewrote the name typed', async () => {
    const c = CONTRACT_CASES.find((x) => x.tags.includes('odd-agents'))!;
    const page = await h.open('/');
    await page.goto(new URL(`/files/${fileOf.get(c.id)}`, h.service.url).href);
    await page.getByRole('button', { name: 'Open in the tester' }).click();
    await ask(page, c);
    const notes = await textOf(page.locator('.side'));
    expect(notes).toContain(
      "used 'Googlebot' for 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'",
    );
    expect(notes).toContain("'(FooBot)' is not a product token");
    await page.close();
  });
});
