/**
 * `robotskit sitemaps` against a real HTTP server on 127.0.0.1: the tree, `--urls` (text and NDJSON), `--json`,
 * `--limit`, `--sitemap`, exit codes, and one-line errors.
 */

import { spawn as spawnChild } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitemapsJson } from '../src/commands/sitemaps.js';
import { BIN, run, spawn } from './helpers.js';

const servers: Server[] = [];
let b = '';
/** Sites by role, each its own origin (a robots.txt is per origin). */
let clean = '';
let none = '';
let down = '';
const files = new Map<string, string | ((res: import('node:http').ServerResponse) => void)>();

const index = (locs: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${b}${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const urlset = (locs: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${l}</loc><lastmod>2024-01-01</lastmod></url>`).join('\n')}\n</urlset>`;

/** Starts a site whose robots.txt lists `sitemaps()` (503 when null); other paths come from `files`. */
async function site(sitemaps: (() => string[]) | null): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      if (sitemaps === null) return void res.writeHead(503).end();
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(
        `User-agent: *\nDisallow: /private\n${sitemaps()
          .map((m) => `Sitemap: ${m}\n`)
          .join('')}`,
      );
    }
    const file = files.get(req.url ?? '');
    if (file === undefined) return void res.writeHead(404).end();
    if (typeof file === 'function') return file(res);
    res.writeHead(200, { 'content-type': 'application/xml' }).end(file);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  b = await site(() => [`${b}/index.xml`, `${b}/other.xml`]);
  clean = await site(() => [`${clean}/clean.xml`]);
  none = await site(() => []);
  down = await site(null);
  files.set('/index.xml', index(['/a.xml', '/sub.xml', '/missing.xml']));
  files.set('/sub.xml', index(['/b.xml', '/c.xml']));
  files.set('/a.xml', urlset([`${b}/1`, `${b}/2`, 'https://elsewhere.example/3']));
  files.set('/b.xml', urlset([`${b}/4`]));
  files.set('/c.xml', urlset([`${b}/5`]));
  files.set('/other.xml', urlset([`${b}/6`]));
  files.set('/clean.xml', urlset([`${clean}/7`]));
  files.set('/big.txt', Array.from({ length: 100_000 }, (_, i) => `${b}/big/${i}`).join('\n'));
  files.set('/never.xml', () => {});
});
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

describe('robotskit sitemaps', () => {
  it('lists the sitemaps of the robots.txt as a tree with URL counts and problems; exit 1 on problems', async () => {
    const r = await run(['sitemaps', b]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        `${b}/robots.txt: 2 sitemaps`,
        `${b}/index.xml  sitemap index, 3 sitemaps`,
        `├─ ${b}/a.xml  urlset, 2 URLs, 1 problem`,
        `│    error: line 4: https://elsewhere.example/3 is outside this sitemap's location ${b}/ (sitemaps.org location rules) [out-of-scope-url]`,
        `├─ ${b}/sub.xml  sitemap index, 2 sitemaps, 1 problem`,
        '│  │    warning: a sitemap index listed by another index (the protocol forbids nesting) [nested-index]',
        `│  ├─ ${b}/b.xml  urlset, 1 URL`,
        `│  └─ ${b}/c.xml  urlset, 1 URL`,
        `└─ ${b}/missing.xml  HTTP 404, 1 problem`,
        `     error: HTTP status 404 from ${b}/missing.xml [http-error]`,
        `${b}/other.xml  urlset, 1 URL`,
        '',
        '7 sitemaps, 5 URLs, 2 errors, 1 warning',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('exits 0 when every sitemap is clean', async () => {
    const r = await run(['sitemaps', clean]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `${clean}/robots.txt: 1 sitemap\n${clean}/clean.xml  urlset, 1 URL\n\n1 sitemap, 1 URL, 0 errors, 0 warnings\n`,
    );
  });

  it('exits 1 and says so when the robots.txt lists no sitemap', async () => {
    const r = await run(['sitemaps', none]);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `robotskit: ${none}/robots.txt: the robots.txt lists no sitemap\n`,
    });
  });

  it('--urls streams the page URLs, problems on standard error', async () => {
    const r = await run(['sitemaps', b, '--urls']);
    expect(r.stdout).toBe([1, 2, 4, 5, 6].map((i) => `${b}/${i}\n`).join(''));
    expect(r.stderr.split('\n')).toEqual([
      `${b}/a.xml:4: error: https://elsewhere.example/3 is outside this sitemap's location ${b}/ (sitemaps.org location rules) [out-of-scope-url]`,
      `${b}/sub.xml: warning: a sitemap index listed by another index (the protocol forbids nesting) [nested-index]`,
      `${b}/missing.xml: error: HTTP status 404 from ${b}/missing.xml [http-error]`,
      'robotskit: 7 sitemaps, 5 URLs, 2 errors, 1 warning',
      '',
    ]);
    expect(r.code).toBe(1);
  });

  it('--urls --json prints NDJSON entries; --limit stops after N', async () => {
    const r = await run(['sitemaps', b, '--urls', '--json', '--limit', '2']);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { loc: `${b}/1`, lastmod: '2024-01-01', changefreq: null, priority: null, sitemap: `${b}/a.xml` },
      { loc: `${b}/2`, lastmod: '2024-01-01', changefreq: null, priority: null, sitemap: `${b}/a.xml` },
    ]);
    expect(r.stderr).toContain('stopped at --limit');
  });

  it('--json prints the robots.txt, one report per file in walk order, and the summary', async () => {
    const r = await run(['sitemaps', b, '--json']);
    const doc = JSON.parse(r.stdout) as SitemapsJson;
    expect(doc.robotsTxt).toEqual({
      url: `${b}/robots.txt`,
      status: 200,
      sitemaps: [`${b}/index.xml`, `${b}/other.xml`],
    });
    expect(doc.sitemaps.map((s) => [s.url.slice(b.length), s.depth, s.format, s.urls, s.status])).toEqual([
      ['/index.xml', 0, 'sitemapindex', 0, 200],
      ['/a.xml', 1, 'urlset', 2, 200],
      ['/sub.xml', 1, 'sitemapindex', 0, 200],
      ['/b.xml', 2, 'urlset', 1, 200],
      ['/c.xml', 2, 'urlset', 1, 200],
      ['/missing.xml', 1, 'unknown', 0, 404],
      ['/other.xml', 0, 'urlset', 1, 200],
    ]);
    expect(doc.summary).toEqual({ sitemaps: 7, urls: 5, errors: 2, warnings: 1, infos: 0, stoppedBy: null });
    expect(r.code).toBe(1);
  });

  it('--max-sitemaps: says once, under the index or at the end, which sitemaps were not read', async () => {
    // The starting files are queued first: the index gets no room for its children, then other.xml none at all.
    const r = await run(['sitemaps', b, '--max-sitemaps', '1']);
    expect(r.stdout).toBe(
      [
        `${b}/robots.txt: 2 sitemaps`,
        `${b}/index.xml  sitemap index, 0 sitemaps, 1 problem`,
        "  warning: the walk's limit of 1 sitemap left no room for the rest of this index: 3 sitemaps not read [too-many-sitemaps]",
        'warning: the walk reached its limit of 1 sitemap: 1 sitemap not read, starting with this one [too-many-sitemaps]',
        '',
        '1 sitemap, 0 URLs, 0 errors, 2 warnings, stopped at the limit of sitemaps',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
    const json = JSON.parse((await run(['sitemaps', b, '--max-sitemaps', '1', '--json'])).stdout) as SitemapsJson;
    expect(json.walk.map((d) => d.sitemap)).toEqual([`${b}/other.xml`]);
    expect(json.sitemaps.map((x) => x.counts)).toEqual([{ 'too-many-sitemaps': 1 }]);
    expect((await run(['sitemaps', b, '--max-sitemaps', 'all'])).stderr).toBe(
      "robotskit: --max-sitemaps must be a positive whole number, not 'all'\n",
    );
  });

  it('says an HTML page listed as a sitemap is unreadable, not cut', async () => {
    files.set('/page.html', (res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Hello</body></html>\n'),
    );
    const r = await run(['sitemaps', '--sitemap', `${b}/page.html`]);
    const head = r.stdout.split('\n').find((line) => line.startsWith(`${b}/page.html`)) ?? '';
    expect(head).toMatch(/unreadable/);
    expect(head).not.toMatch(/\bcut\b/);
  });

  it('--sitemap reads a sitemap directly', async () => {
    const r = await run(['sitemaps', `${b}/b.xml`, '--sitemap', '--urls']);
    expect(r).toEqual({ code: 0, stdout: `${b}/4\n`, stderr: 'robotskit: 1 sitemap, 1 URL, 0 errors, 0 warnings\n' });
  });

  it('exits 2 with one line when the starting point cannot be read, never a stack trace', async () => {
    const refused = await (async () => {
      const s = createServer();
      s.listen(0, '127.0.0.1');
      await once(s, 'listening');
      const port = (s.address() as AddressInfo).port;
      s.close();
      await once(s, 'close');
      return `http://127.0.0.1:${port}`;
    })();
    const results = [
      await run(['sitemaps', down]),
      await run(['sitemaps', refused]),
      await run(['sitemaps', `${b}/nope.xml`, '--sitemap', '--urls']),
      await run(['sitemaps', `${b}/never.xml`, '--sitemap', '--urls', '--timeout', '0.3']),
      await run(['sitemaps', 'example.com']),
      await run(['sitemaps', 'ftp://example.com/']),
      await run(['sitemaps', b, '--limit', '0']),
      await run(['sitemaps', b, '--timeout', 'soon']),
      await run(['sitemaps', b, '--scope', 'everywhere']),
      await run(['sitemaps']),
    ];
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const last = (r: { stderr: string }) => r.stderr.trim().split('\n').at(-1);
    expect(last(results[0]!)).toBe(`robotskit: cannot read ${down}/robots.txt: server error (HTTP 503)`);
    expect(last(results[1]!)).toMatch(new RegExp(`^robotskit: cannot read ${refused}/robots.txt: connection refused$`));
    expect(last(results[2]!)).toBe(`robotskit: cannot read ${b}/nope.xml: HTTP status 404 from ${b}/nope.xml`);
    expect(last(results[3]!)).toBe(`robotskit: cannot read ${b}/never.xml: no response within 0.3 s`);
    expect(last(results[4]!)).toBe(
      "robotskit: not an absolute URL: 'example.com' (did you mean 'https://example.com'?)",
    );
    expect(last(results[5]!)).toBe("robotskit: only http and https URLs can be read, not 'ftp://example.com/'");
    expect(last(results[6]!)).toBe("robotskit: --limit must be a positive whole number, not '0'");
    expect(last(results[7]!)).toBe("robotskit: --timeout must be a positive number of seconds, not 'soon'");
    expect(results[8]!.stderr).toContain('Allowed choices are protocol, origin, none.');
    expect(results[9]!.stderr).toContain("missing required argument 'url'");
  });

  it('--timeout bounds the robots.txt too: one that trickles ends at the timeout, exit 2', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\n');
      const timer = setInterval(() => res.write('#'), 50);
      res.on('close', () => clearInterval(timer));
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const trickling = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await run(['sitemaps', trickling, '--timeout', '0.3'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotskit: cannot read ${trickling}/robots.txt: no complete response within 0.3 s\n`,
    });
  });

  it('works as an installed command', async () => {
    const r = await spawn(['sitemaps', clean, '--urls', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ loc: `${clean}/7`, sitemap: `${clean}/clean.xml` });
  });

  it('stops quietly when the reader of its output goes away (| head)', async () => {
    const child = spawnChild(process.execPath, [
      BIN,
      'sitemaps',
      `${b}/big.txt`,
      '--sitemap',
      '--scope',
      'none',
      '--urls',
    ]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const firstLine = await new Promise<string>((resolve) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\n')[0]!));
    });
    child.stdout.destroy();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(firstLine).toBe(`${b}/big/0`);
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});
