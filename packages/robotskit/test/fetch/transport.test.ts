/**
 * The engine's one transport, `httpGet`: redirects followed by hand through the injected fetch, the body as chunks,
 * and a total timeout that counts only time spent waiting for the network (a slow consumer pauses it).
 */

import { afterEach, describe, expect, it } from 'vitest';
import { type FetchLike, httpGet } from '../../src/fetch/index.js';
import { startHttpServer, type TestServer } from './servers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

describe('httpGet', () => {
  it('follows redirects by hand, each hop a call to the injected fetch', async () => {
    const server = await startHttpServer((req, res) => {
      if (req.url === '/a') res.writeHead(301, { location: '/b' }).end();
      else if (req.url === '/b') res.writeHead(302, { location: '/c' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('the body');
    });
    servers.push(server);
    const called: string[] = [];
    const fetch: FetchLike = (url, init) => {
      called.push(url);
      return globalThis.fetch(url, init as RequestInit);
    };
    const opened = await httpGet(`${server.origin}/a`, { fetch, headers: { 'user-agent': 'TestBot/1.0' } });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(await collect(opened.chunks)).toBe('the body');
    opened.close();
    expect(opened.finalUrl).toBe(`${server.origin}/c`);
    expect(opened.redirects.map((hop) => hop.status)).toEqual([301, 302]);
    expect(called).toEqual([`${server.origin}/a`, `${server.origin}/b`, `${server.origin}/c`]);
    expect(server.requests.every((r) => r.headers['user-agent'] === 'TestBot/1.0')).toBe(true);
  });

  it('stops at a redirect loop and at more than maxRedirects, and reports a non-2xx status', async () => {
    const server = await startHttpServer((req, res) => {
      if (req.url === '/loop') res.writeHead(301, { location: '/loop2' }).end();
      else if (req.url === '/loop2') res.writeHead(301, { location: '/loop' }).end();
      else if (req.url?.startsWith('/n')) res.writeHead(301, { location: `/n${Number(req.url.slice(2)) + 1}` }).end();
      else res.writeHead(404).end();
    });
    servers.push(server);
    const loop = await httpGet(`${server.origin}/loop`);
    expect(loop).toMatchObject({ ok: false, status: 301, error: { kind: 'redirect-loop' } });
    const long = await httpGet(`${server.origin}/n`, { maxRedirects: 2 });
    expect(long).toMatchObject({ ok: false, status: 301, error: { kind: 'too-many-redirects' } });
    const missing = await httpGet(`${server.origin}/missing`);
    expect(missing).toMatchObject({
      ok: false,
      status: 404,
      finalUrl: `${server.origin}/missing`,
      error: { kind: 'protocol', message: 'HTTP status 404' },
    });
  });

  it('does not count the time a slow consumer takes between chunks against the total', async () => {
    // The body is in memory: every read answers at once, so only the consumer's pauses take time.
    const fetch: FetchLike = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.enqueue(new TextEncoder().encode('chunk\n'));
            if (++pulled === 3) controller.close();
          },
        }),
        { status: 200 },
      );
    let pulled = 0;
    const opened = await httpGet('https://sitemaps.invalid/a.xml', { fetch, timeouts: { total: 200 } });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    let text = '';
    for await (const chunk of opened.chunks) {
      text += new TextDecoder().decode(chunk);
      // Longer than the whole total, spent by the consumer, not waiting for the network.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    opened.close();
    expect(opened.bodyError()).toBeNull();
    expect(text).toBe('chunk\nchunk\nchunk\n');
  });

  it('still ends a body that stalls, however patient the consumer', async () => {
    const server = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first');
      // Never ends.
    });
    servers.push(server);
    const opened = await httpGet(`${server.origin}/stall`, { timeouts: { idle: 200 } });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(await collect(opened.chunks)).toBe('first');
    opened.close();
    expect(opened.bodyError()).toMatchObject({ kind: 'timeout', message: 'no body data within 200 ms' });
  });

  it('ends the request when the caller aborts', async () => {
    const server = await startHttpServer(() => {
      // Never answers.
    });
    servers.push(server);
    const controller = new AbortController();
    const pending = httpGet(`${server.origin}/slow`, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, status: null, finalUrl: null, error: { kind: 'aborted' } });
  });
});
