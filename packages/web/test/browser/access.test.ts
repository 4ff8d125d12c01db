/**
 * "Access as crawlers" on the property page in Chromium against the real service: a site on 127.0.0.1 that answers
 * 403 to GPTBot's User-Agent on its page while its robots.txt allows GPTBot, and serves ClaudeBot another robots.txt;
 * the action run with its default crawlers, and what the table then says for each; axe-clean before and after, at
 * both viewports.
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

async function axeAtBothSizes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    for (const violation of await seriousAxeViolations(page)) found.push(`${label}: ${violation}`);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return found;
}

describe.skipIf(missingChromium !== null)('access as crawlers in Chromium', () => {
  let h: Harness;
  let site: Server;
  let origin: string;
  let propertyId = 0;

  beforeAll(async () => {
    site = createServer((request, response) => {
      const ua = request.headers['user-agent'] ?? '';
      if (request.url === '/robots.txt') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(ua.includes('ClaudeBot') ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nAllow: /\n');
        return;
      }
      response.writeHead(ua.includes('GPTBot') ? 403 : 200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Home</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    h = await startHarness({ allowPrivateAddresses: true });
    const created = await fetch(new URL('/api/properties', h.service.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ property: `${origin}/` }),
    });
    propertyId = ((await created.json()) as { id: number }).id;
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  });

  it('runs the action and shows, per crawler, the edge’s refusal, the other robots.txt, or agreement', async () => {
    const page = await h.open(`/properties/${propertyId}`);
    await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toBe(`${origin}/`);
    expect(await page.getByLabel('Crawlers').inputValue()).toBe('Googlebot, GPTBot, ClaudeBot');
    // This service fetches nothing by itself: the file's policy is the engine's "not fetched yet", not a red "Disallow all".
    const policy = page.locator('td[data-label="Policy now"]');
    expect(await textOf(policy)).toBe('Not fetched yet');
    expect(await policy.locator('.badge').getAttribute('title')).toBe(
      'robots.txt not fetched yet: nothing may be crawled until it is',
    );
    expect(await axeAtBothSizes(page)).toEqual([]);

    await page.getByRole('button', { name: 'Check access' }).click();
    const status = page.getByRole('status').filter({ hasText: 'between the edge and robots.txt' });
    await expect
      .poll(() => textOf(status), EVENTUALLY)
      .toBe(`2 disagreements between the edge and robots.txt on ${origin}/.`);
    const table = page.getByRole('table', { name: `What the edge served each crawler for ${origin}/` });
    const cells = async (crawler: string) => {
      const row = table.getByRole('row', { name: new RegExp(`^${crawler}`) });
      return Promise.all([0, 1, 2, 3].map((i) => textOf(row.getByRole('cell').nth(i))));
    };
    const [gptAgent, gptRobots, gptPage, gptFinding] = await cells('GPTBot');
    expect(gptAgent).toMatch(/compatible; GPTBot\/[\d.]+; \+https:\/\/openai\.com\/gptbot/);
    expect(gptRobots).toBe('Allowedline 2: Allow: /');
    expect(gptPage).toBe('HTTP 403');
    expect(gptFinding).toBe(
      'Refused at the edgethe page answers HTTP 403 to GPTBot, which robots.txt allows to fetch it',
    );
    const [, claudeRobots, claudePage, claudeFinding] = await cells('ClaudeBot');
    expect(claudeRobots).toBe('Disallowedline 2: Disallow: /');
    expect(claudePage).toBe('HTTP 200');
    expect(claudeFinding).toMatch(/^Different robots\.txtrobots\.txt is served differently to ClaudeBot: /);
    const [, googleRobots, googlePage, googleFinding] = await cells('Googlebot');
    expect([googleRobots, googlePage, googleFinding]).toEqual(['Allowedline 2: Allow: /', 'HTTP 200', 'Agrees']);
    expect(await axeAtBothSizes(page)).toEqual([]);
    await screenshots(page, 'access-as-crawlers');
    await page.close();
  });
});
