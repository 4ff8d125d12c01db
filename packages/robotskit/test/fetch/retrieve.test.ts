/**
 * `fetchRobotsTxt` against real servers on 127.0.0.1 (RFC 9309 §2.3, Google's "Handling HTTP result codes"): every
 * status class, redirect chains and loops, HTML, size cap, slow and broken bodies, resets, broken chunking, silence.
 */

import { afterEach, describe, expect, it } from 'vitest';
import {
  BlockedFetchError,
  type FetchLike,
  fetchRobotsTxt,
  type RetrievalResult,
  robotsTxtOf,
} from '../../src/fetch/index.js';
import { RobotsUrlError } from '../../src/index.js';
import { closedPort, fakeClock, serverPool } from './servers.js';

const pool = serverPool();
afterEach(() => pool.closeAll());

const RULES = 'User-agent: *\nDisallow: /private/\n';
const text = (r: RetrievalResult) => (r.body === null ? null : new TextDecoder().decode(r.body));

/** A server answering /robots.txt with `status` and `body`. */
function answering(status: number, body = '', headers: Record<string, string> = {}) {
  return pool.http((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  });
}

describe('status classes', () => {
  const table: { status: number; outcome: RetrievalResult['outcome'] }[] = [
    { status: 200, outcome: 'rules' },
    { status: 203, outcome: 'rules' },
    { status: 204, outcome: 'rules' },
    { status: 400, outcome: 'allow-all' },
    { status: 401, outcome: 'allow-all' },
    { status: 403, outcome: 'allow-all' },
    { status: 404, outcome: 'allow-all' },
    { status: 410, outcome: 'allow-all' },
    { status: 451, outcome: 'allow-all' },
    { status: 429, outcome: 'disallow-all' },
    { status: 500, outcome: 'disallow-all' },
    { status: 502, outcome: 'disallow-all' },
    { status: 503, outcome: 'disallow-all' },
    { status: 504, outcome: 'disallow-all' },
  ];
  it.each(table)('$status → $outcome', async ({ status, outcome }) => {
    const server = await answering(status, status === 204 ? '' : RULES);
    const result = await fetchRobotsTxt(`${server.origin}/any/page?q=1#frag`);
    expect(result).toMatchObject({
      origin: server.origin,
      robotsUrl: `${server.origin}/robots.txt`,
      finalUrl: `${server.origin}/robots.txt`,
      outcome,
      status,
      redirects: [],
      error: null,
      truncated: false,
    });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /robots.txt']);
    if (outcome === 'rules') {
      expect(text(result)).toBe(status === 204 ? '' : RULES);
      expect(result.size).toBe(status === 204 ? 0 : RULES.length);
    } else {
      // The body of an error page is not read.
      expect(result.body).toBeNull();
      expect(robotsTxtOf(result)).toBeNull();
    }
  });

  it('parses a 2xx body into the rules that apply', async () => {
    const server = await answering(200, RULES);
    const robots = robotsTxtOf(await fetchRobotsTxt(server.origin));
    expect(robots?.isAllowed(`${server.origin}/private/x`, 'MyBot')).toBe(false);
    expect(robots?.isAllowed(`${server.origin}/public`, 'MyBot')).toBe(true);
  });

  it('sends one unconditional GET with the configured User-Agent and headers', async () => {
    const server = await answering(200, RULES);
    await fetchRobotsTxt(server.origin, {
      userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)',
      headers: { From: 'bot@example.com', 'User-Agent': 'ignored' },
    });
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.headers['user-agent']).toBe('Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)');
    expect(request?.headers.from).toBe('bot@example.com');
    expect(request?.headers['if-modified-since']).toBeUndefined();
    expect(request?.headers['if-none-match']).toBeUndefined();
  });

  it('reports the headers that matter', async () => {
    const headers = {
      'cache-control': 'public, max-age=3600',
      'retry-after': '120',
      'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT',
      etag: '"v1"',
      'content-length': '4',
    };
    const result = await fetchRobotsTxt((await answering(503, 'down', headers)).origin);
    expect(result.headers).toMatchObject({
      cacheControl: 'public, max-age=3600',
      contentType: 'text/plain',
      retryAfter: '120',
      lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT',
      etag: '"v1"',
      contentLength: '4',
    });
    expect(result.headers.date).toMatch(/GMT$/);
  });

  it('takes fetchedAt and timings from the injected clock', async () => {
    const server = await answering(200, RULES);
    const clock = fakeClock(1_000_000);
    // Each reading of the clock moves it 5 ms on.
    const ticking = {
      now: () => {
        const now = clock.now();
        clock.advance(5);
        return now;
      },
    };
    const result = await fetchRobotsTxt(server.origin, { clock: ticking });
    expect(result.fetchedAt).toBe(1_000_000);
    expect(result.timings.headersMs).toBeGreaterThan(0);
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.headersMs!);
  });
});

describe('redirects', () => {
  /** A server whose /robots.txt redirects through `hops` paths with the given codes, then serves RULES. */
  function chain(hops: number, codes: readonly number[]) {
    return pool.http((req, res) => {
      const at = req.url === '/robots.txt' ? 0 : Number(req.url?.slice('/hop'.length));
      if (at < hops) {
        res.writeHead(codes[at % codes.length]!, { location: `/hop${at + 1}` });
        res.end('moved');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(RULES);
    });
  }

  it.each([301, 302, 303, 307, 308])('follows a %i', async (code) => {
    const server = await chain(1, [code]);
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'rules', status: 200, finalUrl: `${server.origin}/hop1` });
    expect(result.redirects).toEqual([
      { url: `${server.origin}/robots.txt`, status: code, location: `${server.origin}/hop1` },
    ]);
    expect(text(result)).toBe(RULES);
  });

  it.each([1, 2, 3, 4, 5])('follows a chain of %i hops (301/302/307/308 mixed)', async (hops) => {
    const server = await chain(hops, [301, 302, 307, 308]);
    const result = await fetchRobotsTxt(server.origin);
    expect(result.outcome).toBe('rules');
    expect(result.redirects).toHaveLength(hops);
    expect(result.redirects.map((h) => h.status)).toEqual([301, 302, 307, 308, 301].slice(0, hops));
    expect(result.origin).toBe(server.origin);
    expect(server.requests).toHaveLength(hops + 1);
  });

  it('treats a 6th hop as no robots.txt (allow-all) without requesting it', async () => {
    const server = await chain(6, [301, 302, 307, 308]);
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'allow-all', status: 302, body: null });
    expect(result.error).toMatchObject({ kind: 'too-many-redirects', phase: 'request' });
    expect(result.redirects).toHaveLength(6);
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt', '/hop1', '/hop2', '/hop3', '/hop4', '/hop5']);
  });

  it('honours a configured maxRedirects', async () => {
    const server = await chain(1, [301]);
    expect((await fetchRobotsTxt(server.origin, { maxRedirects: 0 })).error?.kind).toBe('too-many-redirects');
    expect((await fetchRobotsTxt(server.origin, { maxRedirects: 1 })).outcome).toBe('rules');
  });

  it('detects loops (allow-all)', async () => {
    const server = await pool.http((req, res) => {
      res.writeHead(req.url === '/robots.txt' ? 301 : 302, {
        location: req.url === '/robots.txt' ? '/a' : '/robots.txt',
      });
      res.end();
    });
    const result = await fetchRobotsTxt(server.origin);
    expect(result.outcome).toBe('allow-all');
    expect(result.error).toMatchObject({ kind: 'redirect-loop' });
    expect(result.redirects.map((h) => h.location)).toEqual([`${server.origin}/a`, `${server.origin}/robots.txt`]);
    expect(server.requests).toHaveLength(2);
  });

  it('detects a redirect to itself', async () => {
    const server = await pool.http((_req, res) => {
      res.writeHead(307, { location: '/robots.txt#again' });
      res.end();
    });
    const result = await fetchRobotsTxt(server.origin);
    expect(result.error?.kind).toBe('redirect-loop');
    expect(server.requests).toHaveLength(1);
  });

  it('follows redirects across hosts and applies the result to the original origin', async () => {
    const target = await answering(200, RULES);
    const source = await pool.http((_req, res) => {
      res.writeHead(301, { location: `${target.origin}/robots.txt` });
      res.end();
    });
    const result = await fetchRobotsTxt(`${source.origin}/shop`);
    expect(result).toMatchObject({
      origin: source.origin,
      robotsUrl: `${source.origin}/robots.txt`,
      finalUrl: `${target.origin}/robots.txt`,
      outcome: 'rules',
    });
    expect(robotsTxtOf(result)?.isAllowed(`${source.origin}/private/1`, 'Bot')).toBe(false);
    expect(target.requests).toHaveLength(1);
  });

  it('reports the final hop of a cross-host chain that ends in 404 or 503', async () => {
    const missing = await answering(404);
    const down = await answering(503);
    for (const [target, outcome] of [
      [missing, 'allow-all'],
      [down, 'disallow-all'],
    ] as const) {
      const source = await pool.http((_req, res) => {
        res.writeHead(302, { location: `${target.origin}/robots.txt` });
        res.end();
      });
      expect(await fetchRobotsTxt(source.origin)).toMatchObject({ outcome, status: target === missing ? 404 : 503 });
    }
  });

  it('reports a hop that fails as the failure, with the redirects before it', async () => {
    const port = await closedPort();
    const source = await pool.http((_req, res) => {
      res.writeHead(301, { location: `http://127.0.0.1:${port}/robots.txt` });
      res.end();
    });
    const result = await fetchRobotsTxt(source.origin);
    expect(result).toMatchObject({
      outcome: 'disallow-all',
      status: null,
      finalUrl: `http://127.0.0.1:${port}/robots.txt`,
    });
    expect(result.error?.kind).toBe('connect');
    expect(result.redirects).toHaveLength(1);
    expect(result.headers.contentType).toBeNull();
  });

  it.each([
    ['no Location header', undefined],
    ['an unsupported scheme', 'javascript:alert(1)'],
    ['an unparseable Location', 'http://[::1'],
  ])('treats a redirect with %s as no robots.txt', async (_what, location) => {
    const server = await pool.http((_req, res) => {
      res.writeHead(302, location === undefined ? {} : { location });
      res.end();
    });
    const result = await fetchRobotsTxt(server.origin);
    expect(result.outcome).toBe('allow-all');
    expect(result.error).toMatchObject({ kind: 'invalid-url', phase: 'request' });
    expect(result.redirects).toEqual([{ url: `${server.origin}/robots.txt`, status: 302, location: null }]);
  });
});

describe('bodies', () => {
  it('parses an HTML page for whatever lines parse, and flags it', async () => {
    const html = '<!DOCTYPE html>\n<html><body>\nUser-agent: *\nDisallow: /secret\n</body></html>\n';
    const server = await answering(200, html, { 'content-type': 'text/html; charset=utf-8' });
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'rules', html: true });
    expect(robotsTxtOf(result)?.isAllowed(`${server.origin}/secret`, 'Bot')).toBe(false);
  });

  it('recognises an HTML body served as text/plain', async () => {
    const result = await fetchRobotsTxt((await answering(200, '\n  <html lang="en"><head>')).origin);
    expect(result.html).toBe(true);
    expect((await fetchRobotsTxt((await answering(200, RULES)).origin)).html).toBe(false);
  });

  it('keeps the first 512,000 bytes of a 600 KiB body and says it was truncated', async () => {
    const line = 'Disallow: /a-fairly-long-path-to-fill-the-file/\n';
    const full = `User-agent: *\n${line.repeat(Math.ceil((600 * 1024) / line.length))}`;
    const server = await answering(200, full);
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'rules', size: 512_000, truncated: true, error: null });
    expect(text(result)).toBe(full.slice(0, 512_000));
    expect(robotsTxtOf(result)?.isAllowed(`${server.origin}/a-fairly-long-path-to-fill-the-file/x`, 'Bot')).toBe(false);
  });

  it('honours a configured maxBytes, and a body of exactly maxBytes is not truncated', async () => {
    const server = await answering(200, RULES);
    expect(await fetchRobotsTxt(server.origin, { maxBytes: 10 })).toMatchObject({ size: 10, truncated: true });
    expect(await fetchRobotsTxt(server.origin, { maxBytes: RULES.length })).toMatchObject({
      size: RULES.length,
      truncated: false,
    });
  });

  it('cancels an endless body at maxBytes instead of downloading it', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const server = await pool.http((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', closed);
      pump();
    });
    const result = await fetchRobotsTxt(server.origin, { maxBytes: 100_000 });
    expect(result).toMatchObject({ outcome: 'rules', size: 100_000, truncated: true });
    await serverSawClose;
  });

  it('ends a body that trickles one byte a second with the total timeout (disallow-all)', async () => {
    const server = await pool.http((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('a'), 1000);
      res.write('a');
      res.on('close', () => clearInterval(timer));
    });
    const result = await fetchRobotsTxt(server.origin, { timeouts: { total: 1500, idle: 5000 } });
    expect(result).toMatchObject({ outcome: 'disallow-all', status: 200, body: null });
    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'body' });
    expect(result.error?.message).toContain('total timeout');
    expect(result.size).toBeGreaterThanOrEqual(1);
  });

  it('ends a stalled body with the idle timeout', async () => {
    const server = await pool.http((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('User-agent: *\n');
    });
    const result = await fetchRobotsTxt(server.origin, { timeouts: { idle: 300, total: 20_000 } });
    expect(result.outcome).toBe('disallow-all');
    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'body' });
    expect(result.error?.message).toContain('no body data within 300 ms');
    expect(result.size).toBe(14);
  });

  it('treats a connection reset mid-body as a server error', async () => {
    const server = await pool.raw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n');
      setTimeout(() => socket.resetAndDestroy(), 50);
    });
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'disallow-all', status: 200, body: null });
    expect(result.error).toMatchObject({ kind: 'reset', phase: 'body', code: 'ECONNRESET' });
  });

  it('treats a connection closed before the declared length as a server error', async () => {
    const server = await pool.raw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n');
      setTimeout(() => socket.destroy(), 50);
    });
    const result = await fetchRobotsTxt(server.origin);
    expect(result.outcome).toBe('disallow-all');
    expect(result.error).toMatchObject({ kind: 'reset', phase: 'body' });
  });

  it('treats invalid chunked encoding as a server error', async () => {
    const server = await pool.raw((socket) => {
      socket.write(
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\ne\r\nUser-agent: *\n\r\nzz\r\nDisallow: /\r\n',
      );
    });
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'disallow-all', body: null });
    expect(result.error).toMatchObject({ kind: 'protocol', phase: 'body', code: 'HPE_INVALID_CHUNK_SIZE' });
  });
});

describe('network failures', () => {
  it('gives up on a server that never answers (headers timeout)', async () => {
    const server = await pool.raw(() => {});
    const result = await fetchRobotsTxt(server.origin, { timeouts: { headers: 300 } });
    expect(result).toMatchObject({ outcome: 'disallow-all', status: null, body: null, redirects: [] });
    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'request' });
    expect(result.error?.message).toContain('no response headers');
    expect(result.timings.headersMs).toBeNull();
  });

  it('gives up on a server that never answers with the total timeout too', async () => {
    const server = await pool.raw(() => {});
    const result = await fetchRobotsTxt(server.origin, { timeouts: { headers: 20_000, total: 300 } });
    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'request' });
    expect(result.error?.message).toContain('total timeout');
  });

  it('classifies a refused connection', async () => {
    const result = await fetchRobotsTxt(`http://127.0.0.1:${await closedPort()}/`);
    expect(result).toMatchObject({ outcome: 'disallow-all', status: null });
    expect(result.error).toMatchObject({ kind: 'connect', code: 'ECONNREFUSED', phase: 'request' });
  });

  it('classifies a TLS failure (https to a plain HTTP server)', async () => {
    const server = await answering(200, RULES);
    const result = await fetchRobotsTxt(`https://127.0.0.1:${server.port}/`);
    expect(result.outcome).toBe('disallow-all');
    expect(result.error?.kind).toBe('tls');
  });

  it('classifies a response that is not HTTP', async () => {
    const server = await pool.raw((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'disallow-all', status: null });
    expect(result.error).toMatchObject({ kind: 'protocol', phase: 'request' });
  });

  it('classifies a status outside 200-599 as a protocol error', async () => {
    const server = await pool.raw((socket) => socket.end('HTTP/1.1 600 Strange\r\nContent-Length: 0\r\n\r\n'));
    const result = await fetchRobotsTxt(server.origin);
    expect(result).toMatchObject({ outcome: 'disallow-all', status: 600 });
    expect(result.error).toMatchObject({ kind: 'protocol', message: 'unexpected HTTP status 600' });
  });

  it('waits for timeouts longer than a timer can hold (2^31 ms) instead of firing them at once', async () => {
    const server = await answering(200, RULES);
    const longer = 3_000_000_000; // about 35 days
    const result = await fetchRobotsTxt(server.origin, { timeouts: { headers: longer, idle: longer, total: longer } });
    expect(result).toMatchObject({ outcome: 'rules', status: 200, error: null });
    expect(text(result)).toBe(RULES);
  });

  it('reports a caller abort as aborted (disallow-all)', async () => {
    const server = await pool.raw(() => {});
    const controller = new AbortController();
    const pending = fetchRobotsTxt(server.origin, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(result.outcome).toBe('disallow-all');
    expect(result.error).toMatchObject({ kind: 'aborted', phase: 'request' });
    const already = new AbortController();
    already.abort();
    expect((await fetchRobotsTxt(server.origin, { signal: already.signal })).error?.kind).toBe('aborted');
  });
});

describe('injected fetch', () => {
  const origin = 'https://example.com';

  it('reports a refusal by the injected fetch as blocked (an SSRF guard on every hop)', async () => {
    const seen: string[] = [];
    const guarded: FetchLike = async (url) => {
      seen.push(url);
      if (url.startsWith('http://10.')) {
        throw new TypeError('fetch failed', { cause: new BlockedFetchError('private address 10.0.0.1') });
      }
      return new Response(null, { status: 301, headers: { location: 'http://10.0.0.1/robots.txt' } });
    };
    const result = await fetchRobotsTxt(origin, { fetch: guarded });
    expect(seen).toEqual(['https://example.com/robots.txt', 'http://10.0.0.1/robots.txt']);
    expect(result.outcome).toBe('disallow-all');
    expect(result.error).toMatchObject({ kind: 'blocked', message: 'fetch failed: private address 10.0.0.1' });
  });

  it('classifies any throw of the injected fetch, even a synchronous one or a non-Error', async () => {
    const sync: FetchLike = () => {
      throw new Error('boom');
    };
    expect((await fetchRobotsTxt(origin, { fetch: sync })).error).toMatchObject({ kind: 'unknown', message: 'boom' });
    const weird: FetchLike = () => Promise.reject('just a string');
    expect((await fetchRobotsTxt(origin, { fetch: weird })).error).toMatchObject({
      kind: 'unknown',
      message: 'just a string',
    });
  });

  it('times out a fetch that ignores its signal and never settles', async () => {
    const deaf: FetchLike = () => new Promise(() => {});
    const result = await fetchRobotsTxt(origin, { fetch: deaf, timeouts: { headers: 100 } });
    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'request' });
  });

  it('times out a body stream that never yields and ignores cancel', async () => {
    const stuck: FetchLike = async () => ({
      status: 200,
      headers: new Headers(),
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('User-agent: *\n'));
        },
        cancel: () => new Promise(() => {}),
      }),
    });
    const result = await fetchRobotsTxt(origin, { fetch: stuck, timeouts: { idle: 100 } });
    expect(result).toMatchObject({ outcome: 'disallow-all', size: 14 });
    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'body' });
  });

  it('follows a browser opaque redirect by letting the runtime follow it', async () => {
    const modes: string[] = [];
    const browserLike: FetchLike = async (_url, init) => {
      modes.push(init.redirect);
      if (init.redirect === 'manual') return { status: 0, type: 'opaqueredirect', headers: new Headers(), body: null };
      return {
        status: 200,
        url: 'https://www.example.com/robots.txt',
        redirected: true,
        headers: new Headers({ 'content-type': 'text/plain' }),
        body: new Response(RULES).body,
      };
    };
    const result = await fetchRobotsTxt(origin, { fetch: browserLike });
    expect(modes).toEqual(['manual', 'follow']);
    expect(result).toMatchObject({
      outcome: 'rules',
      origin,
      finalUrl: 'https://www.example.com/robots.txt',
      redirects: [
        { url: 'https://example.com/robots.txt', status: null, location: 'https://www.example.com/robots.txt' },
      ],
    });
  });
});

describe('arguments', () => {
  it('rejects URLs without a robots.txt with a typed error', async () => {
    await expect(fetchRobotsTxt('file:///etc/passwd')).rejects.toMatchObject({
      name: 'RobotsUrlError',
      code: 'unsupported-scheme',
    });
    const error = await fetchRobotsTxt('example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RobotsUrlError);
    expect(error).toMatchObject({ code: 'invalid-url' });
    expect((error as Error).message).toContain('did you mean "https://example.com"');
  });

  it('rejects bad options as programmer errors', async () => {
    await expect(fetchRobotsTxt('https://example.com', { maxBytes: -1 })).rejects.toThrow(RangeError);
    await expect(fetchRobotsTxt('https://example.com', { timeouts: { total: 0 } })).rejects.toThrow(RangeError);
    await expect(fetchRobotsTxt('https://example.com', { fetch: 'no' as never })).rejects.toThrow(TypeError);
  });
});
