/**
 * `robotskit lint <url>` against a real HTTP server on 127.0.0.1: redirects, statuses, size cap, timeouts and network
 * errors, each one clear line.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRobotsTxt } from '../src/fetch-robots.js';
import { run } from './helpers.js';

const ROBOTS = 'User-agent: *\nAlow: /x\nSitemap: /sitemap.xml\n';
let server: Server;
let base = '';
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers['user-agent'] ?? ''}`);
    switch (req.url) {
      case '/robots.txt':
        res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
        break;
      case '/moved':
        res.writeHead(301, { location: '/robots.txt' }).end();
        break;
      case '/chain/1':
      case '/chain/2':
      case '/chain/3':
        res.writeHead(302, { location: `/chain/${Number(req.url.slice(-1)) + 1}` }).end();
        break;
      case '/chain/4':
        res.writeHead(307, { location: `${base}/robots.txt` }).end();
        break;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        break;
      case '/to-ftp':
        res.writeHead(302, { location: 'ftp://example.com/robots.txt' }).end();
        break;
      case '/missing':
        res.writeHead(404).end('not here');
        break;
      case '/down':
        res.writeHead(503).end();
        break;
      case '/html':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html>\n<html><body>Hello</body></html>\n');
        break;
      case '/huge': {
        // 2 MB in 64 KB chunks; the client must stop reading after 512,001 bytes.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = `User-agent: *\nDisallow: /x\n${`# ${'x'.repeat(97)}\n`.repeat(700)}`.slice(0, 65_536);
        let sent = 0;
        const more = () => {
          while (sent < 2_000_000) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
        break;
      }
      case '/silent':
        // Never answers.
        break;
      case '/stalls':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('User-agent: *\n');
        break;
      default:
        res.writeHead(500).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

describe('fetchRobotsTxt', () => {
  it('reads the body of a 200 response', async () => {
    const fetched = await fetchRobotsTxt(new URL(`${base}/robots.txt`), { timeoutMs: 5000 });
    expect(fetched).toMatchObject({ url: `${base}/robots.txt`, status: 200, truncated: false });
    expect(new TextDecoder().decode(fetched.bytes)).toBe(ROBOTS);
    expect(requests.at(-1)).toMatch(/^GET \/robots\.txt robotskit-lint/);
  });

  it('follows up to 5 redirects, relative and absolute, and reports the final URL', async () => {
    expect((await fetchRobotsTxt(new URL(`${base}/moved`), { timeoutMs: 5000 })).url).toBe(`${base}/robots.txt`);
    const chained = await fetchRobotsTxt(new URL(`${base}/chain/1`), { timeoutMs: 5000 });
    expect(chained.url).toBe(`${base}/robots.txt`);
    await expect(fetchRobotsTxt(new URL(`${base}/chain/1`), { timeoutMs: 5000, maxRedirects: 3 })).rejects.toThrow(
      'more than 3 redirects',
    );
  });

  it('stops reading after maxBytes + 1 bytes', async () => {
    const fetched = await fetchRobotsTxt(new URL(`${base}/huge`), { timeoutMs: 10_000 });
    expect(fetched.truncated).toBe(true);
    expect(fetched.bytes.length).toBe(512_001);
    const small = await fetchRobotsTxt(new URL(`${base}/robots.txt`), { timeoutMs: 5000, maxBytes: 10 });
    expect(small).toMatchObject({ truncated: true });
    expect(new TextDecoder().decode(small.bytes)).toBe(ROBOTS.slice(0, 11));
  });
});

describe('robotskit lint <url>', () => {
  it('lints what the server returns, resolving relative sitemap URLs against the final URL', async () => {
    const result = await run(['lint', `${base}/moved`, '--format', 'json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`robotskit: note: redirected to ${base}/robots.txt\n`);
    const codes = JSON.parse(result.stdout).diagnostics.map((d: { code: string }) => d.code);
    expect(codes).toEqual(['empty-group', 'unknown-field', 'invalid-sitemap-url']);
    const sarif = JSON.parse((await run(['lint', `${base}/robots.txt`, '--format', 'sarif'])).stdout);
    const sitemap = sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'invalid-sitemap-url');
    expect(sitemap.fixes[0].artifactChanges[0].replacements[0].insertedContent.text).toBe(`${base}/sitemap.xml`);
    expect(sarif.runs[0].artifacts[0].location.uri).toBe(`${base}/robots.txt`);
  });

  it('reports an HTML page served as robots.txt', async () => {
    const result = await run(['lint', `${base}/html`, '--format', 'json']);
    expect(JSON.parse(result.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('html-content');
  });

  it('cuts a huge body at the size Google parses, and says so', async () => {
    const result = await run(['lint', `${base}/huge`, '--format', 'json']);
    expect(result.stderr).toContain('robotskit: note: stopped reading after 512000 bytes: Google ignores the rest');
    expect(JSON.parse(result.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('content-too-large');
  });

  const failures: [string, string[], string][] = [
    ['a 404', ['/missing'], 'HTTP 404: no robots.txt there (Google treats that as "crawl everything")'],
    ['a 503', ['/down'], 'HTTP 503: a server error (Google treats the site as fully disallowed'],
    ['a redirect loop', ['/loop'], 'more than 5 redirects'],
    ['a redirect to another scheme', ['/to-ftp'], "redirect to a non-http(s) URL 'ftp://example.com/robots.txt'"],
    ['no response', ['/silent', '--timeout', '0.3'], 'no response within 0.3 s'],
    ['a body that stalls', ['/stalls', '--timeout', '0.3'], 'no complete response within 0.3 s'],
  ];
  for (const [name, [path, ...args], message] of failures) {
    it(`exits 2 with one line for ${name}`, async () => {
      const result = await run(['lint', `${base}${path}`, ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('exits 2 with one line when nothing listens', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const result = await run(['lint', `http://127.0.0.1:${port}/robots.txt`]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotskit: cannot fetch 'http://127.0.0.1:${port}/robots.txt': connection refused\n`,
    });
  });
});
