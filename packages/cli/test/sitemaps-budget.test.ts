/**
 * `robotskit sitemaps --max-time`: the whole walk has a time budget (300 s by default), against a hostile server on
 * 127.0.0.1 whose 50 sitemaps each trickle a byte every 50 ms forever (no per-file idle timeout fires; each would
 * take its full 120 s). Before, only the per-file timeout applied: 1,000 files × 120 s.
 */

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './helpers.js';

let server: Server;
let origin = '';
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/xml' });
    if (req.url === '/index.xml') {
      const children = Array.from({ length: 50 }, (_, i) => `<sitemap><loc>${origin}/s${i}.xml</loc></sitemap>`);
      return void res.end(
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.join('')}</sitemapindex>`,
      );
    }
    res.write(
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}${req.url}/p</loc></url>`,
    );
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(timer));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('robotskit sitemaps --max-time', () => {
  it('stops the walk at its budget and says so, keeping what it read', async () => {
    const r = await run(['sitemaps', `${origin}/index.xml`, '--sitemap', '--urls', '--max-time', '1']);
    expect(r.stdout).toBe(`${origin}/s0.xml/p\n`);
    expect(r.stderr).toContain('the walk stopped at its time budget of 1 s (--max-time)');
    expect(requested).toEqual(['/index.xml', '/s0.xml']);
  }, 30_000);

  it('refuses a budget that is not a positive number of seconds', async () => {
    for (const value of ['0', '-1', 'soon']) {
      const r = await run(['sitemaps', `${origin}/index.xml`, '--sitemap', '--max-time', value]);
      expect(r.code, value).toBe(2);
      expect(r.stderr, value).toContain('--max-time must be a positive number of seconds');
    }
  });
});
