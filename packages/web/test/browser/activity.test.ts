/**
 * The crawler activity page in Chromium against the real service (a fetch worker, and a DNS server on loopback for
 * the crawlers' verification): a site on 127.0.0.1 fetched by the service, an access log uploaded through the page's
 * form, and what the page then says: the crawler's requests, its disallowed ones by version and line, its addresses
 * verified and spoofed, the violations in log order; axe-clean before and after, at both viewports.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reverseName, startDnsServer, type TestDnsServer } from '../../../robotskit/test/dns-server.js';
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

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const IP = { google: '66.249.66.1', fake: '192.0.2.9' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function line(ms: number, ip: string, path: string): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
  return `${ip} - - [${time}] "GET ${path} HTTP/1.1" 200 12 "-" "${GOOGLEBOT}"`;
}

async function axeAtBothSizes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    for (const violation of await seriousAxeViolations(page)) found.push(`${label}: ${violation}`);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return found;
}

describe.skipIf(missingChromium !== null)('crawler activity in Chromium', () => {
  let h: Harness;
  let site: Server;
  let origin: string;
  let dns: TestDnsServer;
  let propertyId = 0;

  beforeAll(async () => {
    site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('User-agent: *\nDisallow: /private\n');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    dns = await startDnsServer(
      new Map([
        [reverseName(IP.google), { PTR: ['crawl-66-249-66-1.googlebot.com'] }],
        ['crawl-66-249-66-1.googlebot.com', { A: [IP.google] }],
        [reverseName(IP.fake), { PTR: ['crawl.googlebot.com.spoof.invalid'] }],
        ['crawl.googlebot.com.spoof.invalid', { A: [IP.fake] }],
      ]),
    );
    h = await startHarness({ allowPrivateAddresses: true, workers: 1, logDnsServers: [dns.address] });
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
    await dns?.close();
  });

  it('uploads a log through the form and shows what each crawler did, verified or spoofed', async () => {
    // The worker fetches the file: the log's requests come after that, under its one version.
    await expect
      .poll(async () => {
        const files = await fetch(new URL(`/api/properties/${propertyId}/files`, h.service.url));
        return ((await files.json()) as { files: { status: string | null }[] }).files[0]?.status;
      }, EVENTUALLY)
      .toBe('fetched');
    const page = await h.open(`/properties/${propertyId}`);
    await page.getByRole('link', { name: 'Crawler activity' }).click();
    await expect
      .poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY)
      .toBe(`Crawler activity of ${origin}/`);
    await expect.poll(() => textOf(page.locator('.empty')), EVENTUALLY).toBe('No log uploaded yet.');
    expect(await axeAtBothSizes(page)).toEqual([]);

    const at = Date.now() + 1000;
    const log = [
      line(at, IP.google, '/private/a'),
      line(at + 1000, IP.google, '/public'),
      line(at + 2000, IP.fake, '/private/b'),
      '',
    ].join('\n');
    await page.getByLabel('Access log').setInputFiles({
      name: 'access.log',
      mimeType: 'text/plain',
      buffer: Buffer.from(log),
    });
    await page.getByRole('button', { name: 'Upload and judge' }).click();
    await expect
      .poll(() => textOf(page.getByRole('status')), EVENTUALLY)
      .toBe('Judged 3 requests: 2 violations of the robots.txt in force.');

    const crawlers = page.getByRole('table', { name: 'What each crawler of the log did, with violations first' });
    const row = crawlers.getByRole('row', { name: /Googlebot/ });
    expect(await textOf(row)).toMatch(
      /Spoofed.*2 verified, 1 spoofed, 0 unverifiable.*: 3 requests \(2 verified, 1 spoofed\), 2 disallowed \(line 2 Disallow: \/private: 2\)/,
    );
    // Requests, disallowed, disallowed from verified addresses.
    expect(await Promise.all([1, 2, 3].map((i) => textOf(row.getByRole('cell').nth(i))))).toEqual(['3', '2', '1']);
    const violations = page
      .getByRole('table', { name: 'Requests to URLs the robots.txt in force disallowed, in log order' })
      .getByRole('row')
      .filter({ hasNot: page.getByRole('columnheader') });
    await expect.poll(() => violations.count(), EVENTUALLY).toBe(2);
    expect(await textOf(violations.nth(0))).toMatch(
      /66\.249\.66\.1 Verified.*\/private\/a.*line 2 Disallow: \/private/,
    );
    expect(await textOf(violations.nth(1))).toMatch(/192\.0\.2\.9 Spoofed.*\/private\/b/);
    expect(await axeAtBothSizes(page)).toEqual([]);
    await screenshots(page, 'crawler-activity');

    // The verified Googlebot's violation is an alert of the property.
    const alerts = await fetch(new URL(`/api/alerts?propertyId=${propertyId}`, h.service.url));
    expect(((await alerts.json()) as { alerts: { kind: string }[] }).alerts.map((a) => a.kind)).toContain(
      'crawler-ignores-robots',
    );
    await page.close();
  });
});
