/**
 * `robotskit lint <url>` against real HTTP servers on 127.0.0.1, through the engine's retrieval: the file that governs
 * the URL, redirects, statuses, the size cap, timeouts and network errors, each one clear line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { type Site, Sites } from './sites.js';

const ROBOTS = 'User-agent: *\nAlow: /x\nSitemap: /sitemap.xml\n';
const sites = new Sites();
const s: Record<string, Site> = {};

beforeAll(async () => {
  s.ok = await sites.serve({ '/robots.txt': { body: ROBOTS } });
  s.moved = await sites.serve({
    '/robots.txt': { status: 301, headers: { location: '/files/real.txt' } },
    '/files/real.txt': { body: ROBOTS },
  });
  const chain: Record<string, { status: number; headers: Record<string, string> } | { body: string }> = {};
  chain['/robots.txt'] = { status: 302, headers: { location: '/c1' } };
  for (let i = 1; i < 5; i++) chain[`/c${i}`] = { status: 307, headers: { location: `/c${i + 1}` } };
  chain['/c5'] = { body: ROBOTS };
  s.chain = await sites.serve(chain);
  s.loop = await sites.serve({ '/robots.txt': { status: 302, headers: { location: '/robots.txt' } } });
  s.ftp = await sites.serve({ '/robots.txt': { status: 302, headers: { location: 'ftp://example.com/robots.txt' } } });
  s.missing = await sites.serve({});
  s.down = await sites.serve({ '/robots.txt': { status: 503 } });
  s.html = await sites.serve({
    '/robots.txt': {
      body: '<!DOCTYPE html>\n<html><body>Hello</body></html>\n',
      headers: { 'content-type': 'text/html' },
    },
  });
  s.huge = await sites.start((_req, res) => {
    // 2 MB in 64 KB chunks; the retrieval stops reading after 512,001 bytes.
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
  });
  s.silent = await sites.start(() => {});
  s.stalls = await sites.start((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('User-agent: *\n');
  });
});

afterAll(() => sites.closeAll());

const codes = (stdout: string) => JSON.parse(stdout)[0].diagnostics.map((d: { code: string }) => d.code);

describe('robotskit lint <url>', () => {
  it('lints what the server returns, resolving relative sitemap URLs against the final URL', async () => {
    const result = await run(['lint', `${s.moved!.origin}/robots.txt`, '--format', 'json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`robotskit: note: redirected to ${s.moved!.origin}/files/real.txt\n`);
    expect(codes(result.stdout)).toEqual(['empty-group', 'unknown-field', 'invalid-sitemap-url']);
    const sarif = JSON.parse((await run(['lint', `${s.ok!.origin}/robots.txt`, '--format', 'sarif'])).stdout);
    const sitemap = sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'invalid-sitemap-url');
    expect(sitemap.fixes[0].artifactChanges[0].replacements[0].insertedContent.text).toBe(
      `${s.ok!.origin}/sitemap.xml`,
    );
    expect(sarif.runs[0].artifacts[0].location.uri).toBe(`${s.ok!.origin}/robots.txt`);
    expect(s.ok!.agents[0]).toMatch(/^robotskit\//);
  });

  it('lints the robots.txt that governs any page URL, and says so', async () => {
    const page = `${s.ok!.origin}/some/page?q=1`;
    const result = await run(['lint', page, '--format', 'json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`robotskit: note: linting ${s.ok!.origin}/robots.txt, the file that governs ${page}\n`);
    expect(s.ok!.requests.at(-1)).toBe('/robots.txt');
    // The report names the robots.txt it linted, not the page.
    const text = await run(['lint', page]);
    expect(text.stdout).toContain(`${s.ok!.origin}/robots.txt:2:1: error:`);
    expect(text.stdout).toContain(`${s.ok!.origin}/robots.txt: `);
    expect(text.stdout).not.toContain('/some/page');
  });

  it('follows up to 5 redirects', async () => {
    const result = await run(['lint', `${s.chain!.origin}/robots.txt`, '--format', 'json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`redirected to ${s.chain!.origin}/c5`);
    expect(s.chain!.requests).toEqual(['/robots.txt', '/c1', '/c2', '/c3', '/c4', '/c5']);
  });

  it('reports an HTML page served as robots.txt', async () => {
    const result = await run(['lint', `${s.html!.origin}/robots.txt`, '--format', 'json']);
    expect(codes(result.stdout)).toContain('html-content');
  });

  it('cuts a huge body at the size Google parses, and says so', async () => {
    const result = await run(['lint', `${s.huge!.origin}/robots.txt`, '--format', 'json']);
    expect(result.stderr).toContain('robotskit: note: stopped reading after 512000 bytes: Google ignores the rest');
    expect(codes(result.stdout)).toContain('content-too-large');
  });

  const failures: [string, string, string[], string][] = [
    ['a 404', 'missing', [], 'not found (HTTP 404) (Google treats that as no robots.txt: everything may be crawled)'],
    ['a 503', 'down', [], 'server error (HTTP 503) (Google stops crawling the site until the file can be fetched'],
    ['a redirect loop', 'loop', [], 'redirect loop'],
    [
      'a redirect to another scheme',
      'ftp',
      [],
      'redirect to an unusable address (Google treats that as no robots.txt: everything may be crawled)',
    ],
    ['no response', 'silent', ['--timeout', '0.3'], 'no response within 0.3 s'],
    ['a body that stalls', 'stalls', ['--timeout', '0.3'], 'no complete response within 0.3 s'],
  ];
  for (const [name, site, args, message] of failures) {
    it(`exits 2 with one line for ${name}`, async () => {
      const result = await run(['lint', `${s[site]!.origin}/robots.txt`, ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('exits 2 with one line when nothing listens, or the URL is not one', async () => {
    const closed = await sites.closedOrigin();
    const result = await run(['lint', `${closed}/robots.txt`]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotskit: cannot fetch '${closed}/robots.txt': connection refused\n`,
    });
    expect(await run(['lint', 'ftp://example.com/robots.txt'])).toMatchObject({
      code: 2,
      stderr: "robotskit: cannot fetch 'ftp://example.com/robots.txt': only http and https URLs are supported\n",
    });
    expect((await run(['lint', 'http://exa mple.com/robots.txt'])).stderr).toMatch(/^robotskit: invalid URL/);
  });
});
