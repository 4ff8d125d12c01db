/**
 * Sitemap walks (impact check, host discovery) against a hostile server on 127.0.0.1: an index of 100 sitemaps, each
 * of which sends its first bytes and then never ends. A walk stops at its total time budget, and at once when its
 * signal is aborted (the client went away, the service is stopping): the open request is closed and no further
 * sitemap is requested. Before, each file had 30 s and a walk up to 200 files, whoever was waiting.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitemapPageUrls } from '../src/analysis/sitemap-urls.js';
import { createGuardedFetch } from '../src/net/guarded-fetch.js';
import { BackgroundTask } from '../src/worker/background-task.js';

let server: Server;
let origin: string;
const requested: string[] = [];
const open = new Set<Socket>();

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/index.xml') {
      const children = Array.from({ length: 100 }, (_, i) => `<sitemap><loc>${origin}/s${i}.xml</loc></sitemap>`);
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.join('')}</sitemapindex>`,
      );
      return;
    }
    // One URL, then nothing more, ever (a trickle would do the same).
    open.add(req.socket);
    req.socket.once('close', () => open.delete(req.socket));
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.write(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}${req.url}/page</loc></url>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of open) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('sitemap walks are bounded', () => {
  it('stop at their total time budget, with what they read and a problem saying so', async () => {
    const fetch = createGuardedFetch({ allowPrivate: true });
    requested.length = 0;
    try {
      const walk = await sitemapPageUrls([`${origin}/index.xml`], {
        fetch,
        maxUrls: 1000,
        allowedOrigins: [origin],
        budgetMs: 1000,
      });
      expect(walk.capped).toBe(true);
      expect(walk.problems).toContain('the walk stopped at its time budget of 1 s; the URLs read until then count');
      expect(walk.urls).toEqual([`${origin}/s0.xml/page`]);
      expect(requested).toEqual(['/index.xml', '/s0.xml']);
    } finally {
      await fetch.close();
    }
    await until(() => open.size === 0, 'the hanging sitemap request to be closed');
  }, 30_000);

  it('stop when their signal is aborted: the open request is closed and nothing more is fetched', async () => {
    const fetch = createGuardedFetch({ allowPrivate: true });
    requested.length = 0;
    const client = new AbortController();
    try {
      const walking = sitemapPageUrls([`${origin}/index.xml`], {
        fetch,
        maxUrls: 1000,
        allowedOrigins: [origin],
        signal: client.signal,
      });
      await until(() => requested.includes('/s0.xml'), 'the first sitemap to be requested');
      client.abort();
      const walk = await walking;
      expect(walk.problems.filter((p) => p.includes('budget'))).toEqual([]);
      await until(() => open.size === 0, 'the hanging sitemap request to be closed');
      // Every request the walk made, and no more: after the abort nothing else was asked for.
      const seen = requested.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(requested).toHaveLength(seen);
      expect(requested).toEqual(['/index.xml', '/s0.xml']);
    } finally {
      await fetch.close();
    }
  }, 30_000);

  it('run beside the worker rounds: starting one returns at once, and stopping aborts the walk', async () => {
    const fetch = createGuardedFetch({ allowPrivate: true });
    requested.length = 0;
    const task = new BackgroundTask();
    const errors: unknown[] = [];
    let result: Awaited<ReturnType<typeof sitemapPageUrls>> | null = null;
    try {
      const started = task.start(
        async (signal) => {
          result = await sitemapPageUrls([`${origin}/index.xml`], {
            fetch,
            maxUrls: 1000,
            allowedOrigins: [origin],
            signal,
          });
        },
        (error) => errors.push(error),
      );
      // The round that started it goes on: nothing was awaited, and a second start is refused while it runs.
      expect(started).toBe(true);
      expect(task.running).toBe(true);
      expect(
        task.start(
          async () => {},
          (error) => errors.push(error),
        ),
      ).toBe(false);
      await until(() => requested.includes('/s0.xml'), 'the walk to reach a hanging sitemap');
      // Stopping the workers (service shutdown) aborts the walk and waits for it.
      await task.stop();
      expect(task.running).toBe(false);
      expect(result).not.toBeNull();
      expect(errors).toEqual([]);
      await until(() => open.size === 0, 'the hanging sitemap request to be closed');
      expect(requested).toEqual(['/index.xml', '/s0.xml']);
      expect(
        task.start(
          async () => {},
          (error) => errors.push(error),
        ),
      ).toBe(false);
    } finally {
      await fetch.close();
    }
  }, 30_000);
});
