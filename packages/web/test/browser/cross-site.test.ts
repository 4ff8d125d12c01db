/**
 * Cross-site requests against the token-less service (its default on loopback): a page served from another port of
 * 127.0.0.1 (the same site, another origin) and one from `localhost` (another site) try what needs no CORS preflight,
 * bodiless `no-cors` POSTs and `navigator.sendBeacon`, to recrawl, discover hosts, add a property and send a test
 * delivery. Every one reaches the service and gets 403; nothing changes. The UI's own requests (same origin) still work.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTUALLY, type Harness, missingChromium, startHarness } from './harness.js';

interface Seen {
  method: string;
  path: string;
  site: string | undefined;
  status: number;
}

describe.skipIf(missingChromium !== null)('cross-site requests from pages on other origins', () => {
  let h: Harness;
  let attacker: Server;
  let attackerPort: number;
  const seen: Seen[] = [];

  beforeAll(async () => {
    h = await startHarness();
    // Every request the service answers, with what the browser said of its origin and the status it got.
    h.service.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      response.on('finish', () => {
        const site = request.headers['sec-fetch-site'];
        seen.push({
          method: request.method ?? '',
          path: request.url ?? '',
          site: Array.isArray(site) ? site[0] : site,
          status: response.statusCode,
        });
      });
    });
    const target = h.service.url;
    // The attacker's page: no CSP of its own, its script inline.
    attacker = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>elsewhere</title><script>
        const target = ${JSON.stringify(target)};
        fetch(target + '/api/properties/1/discover-hosts', { mode: 'no-cors', method: 'POST' }).catch(() => {});
        fetch(target + '/api/files/1/recrawl', { mode: 'no-cors', method: 'POST' }).catch(() => {});
        fetch(target + '/api/properties', {
          mode: 'no-cors', method: 'POST', headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ property: 'https://attacker.invalid/' }),
        }).catch(() => {});
        fetch(target + '/api/properties/1/logs', {
          mode: 'no-cors', method: 'POST', headers: { 'content-type': 'text/plain' },
          body: '66.249.66.1 - - [01/Nov/2026:00:00:01 +0000] "GET /private HTTP/1.1" 200 1 "-" "Googlebot/2.1"\\n',
        }).catch(() => {});
        navigator.sendBeacon(target + '/api/webhooks/1/test');
        navigator.sendBeacon(target + '/api/properties', JSON.stringify({ property: 'https://beacon.invalid/' }));
        document.title = 'sent';
      </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerPort = (attacker.address() as AddressInfo).port;
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve()));
  });

  it('refuses no-cors POSTs and beacons from another port and another site; the UI itself still changes things', async () => {
    // The UI's own page adds a property (same origin): that works.
    const own = await h.open('/');
    const created = await own.evaluate(async () => {
      const response = await fetch('/api/properties', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ property: 'https://own.invalid/' }),
      });
      return response.status;
    });
    expect(created).toBe(201);
    await own.close();

    for (const [host, site] of [
      ['127.0.0.1', 'same-site'],
      ['localhost', 'cross-site'],
    ] as const) {
      seen.length = 0;
      const page = await h.context.newPage();
      await page.goto(`http://${host}:${attackerPort}/`);
      await expect.poll(() => page.title(), EVENTUALLY).toBe('sent');
      await expect.poll(() => seen.filter((s) => s.method === 'POST').length, EVENTUALLY).toBe(6);
      const posts = seen.filter((s) => s.method === 'POST');
      expect(posts.map((s) => [s.site, s.status])).toEqual(Array(6).fill([site, 403]));
      expect(posts.map((s) => s.path).sort()).toEqual([
        '/api/files/1/recrawl',
        '/api/properties',
        '/api/properties',
        '/api/properties/1/discover-hosts',
        '/api/properties/1/logs',
        '/api/webhooks/1/test',
      ]);
      await page.close();
    }
    // Nothing the attacker sent was done: only the UI's own property is there.
    const list = (await (await fetch(new URL('/api/properties', h.service.url))).json()) as {
      properties: { name: string }[];
    };
    expect(list.properties.map((p) => p.name)).toEqual(['https://own.invalid/']);
    expect(h.takePageErrors()).toEqual([]);
  }, 120_000);
});
