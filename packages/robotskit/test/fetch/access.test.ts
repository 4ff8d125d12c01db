/**
 * The access check's own parts over Node's `fetch` and real servers on 127.0.0.1: `pageGetOver` (the page GET the
 * report service uses) reads a body only as far as the challenge test looks, even a body that never ends; reports a
 * redirect without following it; ends a page that never answers within its timeout; and `checkAccess` asks each
 * crawler by its User-Agent (an operator's documented one, or one built from a token) and refuses more than 20.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCrawler } from '../../src/crawlers/resolve.js';
import { accessCrawlerOf, checkAccess, MAX_ACCESS_CRAWLERS, pageGetOver } from '../../src/fetch/index.js';

let server: Server;
let base: string;
const seen: string[] = [];
/** Whether the endless page's connection was closed by the client. */
let endlessClosed: Promise<void>;
let markClosed: () => void;

function answer(request: IncomingMessage, response: ServerResponse): void {
  seen.push(`${request.url} ${request.headers['user-agent']}`);
  switch (request.url) {
    case '/robots.txt':
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    case '/endless': {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<html><head><title>Just a moment...</title></head><body>');
      const chunk = `<p>${'x'.repeat(16 * 1024)}</p>`;
      const pump = () => {
        while (response.write(chunk)) {}
      };
      response.on('drain', pump);
      response.on('close', () => markClosed());
      pump();
      return;
    }
    case '/moved':
      response.writeHead(302, { location: '/elsewhere', 'cf-mitigated': 'challenge' }).end();
      return;
    case '/silent':
      return; // never answers
    default:
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<title>Shop</title>');
  }
}

beforeAll(async () => {
  endlessClosed = new Promise((resolve) => {
    markClosed = resolve;
  });
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('pageGetOver', () => {
  const get = pageGetOver({ timeouts: { headers: 500, idle: 500, total: 5000 } });

  it('reads a body that never ends only as far as the challenge test looks, then closes it', async () => {
    const page = await get(new URL('/endless', base), 'TestBot/1.0');
    expect(page).toMatchObject({ status: 200, contentType: 'text/html', challenge: false });
    const html = (page as { html: string }).html;
    expect(html.startsWith('<html><head><title>Just a moment...</title>')).toBe(true);
    expect(html.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(html.length).toBeLessThanOrEqual(4 * 64 * 1024);
    await endlessClosed;
  });

  it('reports a redirect without following it, with what its headers say', async () => {
    seen.length = 0;
    const page = await get(new URL('/moved', base), 'TestBot/1.0');
    expect(page).toEqual({ status: 302, contentType: null, challenge: true, html: null });
    expect(seen).toEqual(['/moved TestBot/1.0']);
  });

  it('ends a page that never answers within its timeout, in words', async () => {
    const page = await get(new URL('/silent', base), 'TestBot/1.0');
    expect(page).toEqual({ error: expect.stringMatching(/no response|within/) });
  });
});

describe('checkAccess', () => {
  it('asks as each crawler’s User-Agent: the operator’s documented one, or one built from a token', async () => {
    seen.length = 0;
    const crawlers = [accessCrawlerOf([resolveCrawler('ClaudeBot')]), accessCrawlerOf([resolveCrawler('MyBot')])];
    expect(crawlers[1]).toEqual({
      name: 'MyBot',
      input: 'MyBot',
      userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0)',
      documented: false,
    });
    const report = await checkAccess(`${base}/shop`, crawlers, {
      userAgent: 'robotskit-test/1.0',
      retrieval: { timeouts: { headers: 2000, idle: 2000, total: 5000 } },
      page: pageGetOver({ timeouts: { headers: 2000, idle: 2000, total: 5000 } }),
    });
    expect(report.crawlers.map((c) => [c.crawler, c.documentedUserAgent, c.allowed, c.findings])).toEqual([
      ['ClaudeBot', true, true, []],
      ['MyBot', false, true, []],
    ]);
    expect(report.baseline.page).toEqual({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      challenge: false,
      error: null,
    });
    expect(report.disagreements).toBe(0);
    expect(seen.filter((s) => s.startsWith('/shop ')).map((s) => s.slice(6))).toEqual([
      'robotskit-test/1.0',
      crawlers[0]!.userAgent,
      'Mozilla/5.0 (compatible; MyBot/1.0)',
    ]);
  });

  it(`refuses more than ${MAX_ACCESS_CRAWLERS} crawlers before fetching anything`, async () => {
    seen.length = 0;
    const many = Array.from({ length: MAX_ACCESS_CRAWLERS + 1 }, (_, i) =>
      accessCrawlerOf([resolveCrawler(`Bot${i}`)]),
    );
    await expect(
      checkAccess(`${base}/`, many, { userAgent: 'robotskit-test/1.0', retrieval: {}, page: pageGetOver() }),
    ).rejects.toThrow(`21 crawlers: at most ${MAX_ACCESS_CRAWLERS} at once`);
    expect(seen).toEqual([]);
  });
});
