/**
 * `robotskit audit` against a real HTTP server on 127.0.0.1: robots.txt, X-Robots-Tag headers (each line kept apart)
 * and robots meta tags combined per crawler, with the reasons and exit codes (0 crawlable and indexable, 1 not, 2
 * error).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditJson } from '../src/answers/audit.js';
import { run } from './helpers.js';
import { type Site, Sites } from './sites.js';

const sites = new Sites();
let site: Site;
const html = (head: string) => `<!doctype html><html><head><title>t</title>${head}</head><body>hi</body></html>`;

beforeAll(async () => {
  site = await sites.start((req, res) => {
    const page = (head: string, headers: [string, string][] = []) => {
      const flat: string[] = ['content-type', 'text/html; charset=utf-8'];
      for (const [k, v] of headers) flat.push(k, v);
      res.writeHead(200, flat).end(html(head));
    };
    switch (req.url) {
      case '/robots.txt':
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /blocked/\n');
      case '/ok':
        return page('');
      case '/meta-noindex':
        return page('<meta name="robots" content="noindex, follow">');
      case '/header-noindex':
        return page('', [['X-Robots-Tag', 'noindex']]);
      case '/googlebot-noindex':
        return page('', [['X-Robots-Tag', 'googlebot: noindex']]);
      case '/two-headers':
        // Two lines: nofollow is for googlebot only, noindex for everyone. Joined with a comma they would read
        // "googlebot: nofollow, noindex": both for googlebot only.
        return page('', [
          ['X-Robots-Tag', 'googlebot: nofollow'],
          ['X-Robots-Tag', 'noindex'],
        ]);
      case '/meta-googlebot-nofollow':
        return page('<meta name="googlebot" content="nofollow">');
      case '/blocked/noindex':
        return page('<meta name="robots" content="noindex">');
      case '/blocked/plain':
        return page('');
      case '/moved':
        return void res.writeHead(301, { location: '/ok' }).end();
      case '/expired':
        return page('<meta name="robots" content="unavailable_after: 2001-01-01">');
      case '/text':
        return void res.writeHead(200, { 'content-type': 'text/plain', 'x-robots-tag': 'noindex' }).end('plain');
      case '/slow':
        return;
      default:
        return void res.writeHead(404, { 'content-type': 'text/html' }).end(html(''));
    }
  });
});
afterAll(() => sites.closeAll());

const audit = async (path: string, ...args: string[]) => {
  const result = await run(['audit', `${site.origin}${path}`, '--json', ...args]);
  return { code: result.code, stderr: result.stderr, doc: JSON.parse(result.stdout) as AuditJson };
};

describe('robotskit audit', () => {
  it('a plain page can be crawled and indexed (exit 0)', async () => {
    const { code, doc } = await audit('/ok');
    expect(code).toBe(0);
    expect(doc).toMatchObject({
      url: `${site.origin}/ok`,
      // The default crawler: Google's.
      crawler: 'Googlebot',
      crawlable: true,
      indexable: true,
      followable: true,
      verdict: 'can be crawled and indexed',
      reasons: ['nothing stops it'],
      page: { status: 200, contentType: 'text/html; charset=utf-8', xRobotsTag: [], meta: [] },
      robots: { allowed: true, robotsUrl: `${site.origin}/robots.txt`, fetch: { status: 200 } },
    });
    const text = await run(['audit', `${site.origin}/ok`]);
    expect(text.stdout.split('\n').slice(0, 6)).toEqual([
      `${site.origin}/ok  for Googlebot (profile: Googlebot)`,
      '  verdict  can be crawled and indexed',
      `  crawl    allowed by ${site.origin}/robots.txt (rules)`,
      '  page     HTTP 200, text/html; charset=utf-8, 0 robots meta tag(s), 0 X-Robots-Tag header(s)',
      '  index    yes',
      '  follow   yes',
    ]);
  });

  it('meta noindex and X-Robots-Tag noindex each stop indexing, and say where (exit 1)', async () => {
    const meta = await audit('/meta-noindex');
    expect(meta.code).toBe(1);
    expect(meta.doc).toMatchObject({ crawlable: true, indexable: false, followable: true });
    expect(meta.doc.reasons).toEqual(['the page says noindex: <meta name="robots" content="noindex, follow">']);
    expect(meta.doc.page?.meta).toEqual([{ name: 'robots', content: 'noindex, follow' }]);
    const header = await audit('/header-noindex');
    expect(header.code).toBe(1);
    expect(header.doc.reasons).toEqual(['the page says noindex: X-Robots-Tag: noindex']);
    expect(header.doc.verdict).toBe('can be crawled, will not be indexed');
  });

  it('directives for one crawler apply to it (and its profile’s tokens) only', async () => {
    expect((await audit('/googlebot-noindex', '--ua', 'Googlebot')).doc.indexable).toBe(false);
    expect((await audit('/googlebot-noindex', '--ua', 'bingbot')).doc.indexable).toBe(true);
    // Googlebot-Image's profile obeys what is addressed to googlebot.
    const image = await audit('/meta-googlebot-nofollow', '--ua', 'Googlebot-Image');
    expect(image.doc).toMatchObject({ crawler: 'Googlebot-Image', indexable: true, followable: false });
    expect(image.doc.reasons).toContain('its links are not followed: <meta name="googlebot" content="nofollow">');
    expect(image.code).toBe(0);
  });

  it('keeps X-Robots-Tag header lines apart', async () => {
    const google = await audit('/two-headers', '--ua', 'Googlebot');
    expect(google.doc).toMatchObject({ indexable: false, followable: false });
    expect(google.doc.page?.xRobotsTag).toEqual(['googlebot: nofollow', 'noindex']);
    const other = await audit('/two-headers', '--ua', 'OtherBot');
    expect(other.doc).toMatchObject({ indexable: false, followable: true });
  });

  it('a page blocked by robots.txt never shows its noindex to the crawler, and says so', async () => {
    const blocked = await audit('/blocked/noindex');
    expect(blocked.code).toBe(1);
    expect(blocked.doc).toMatchObject({ crawlable: false, indexable: false, index: 'url-only', followable: false });
    expect(blocked.doc.reasons).toEqual([
      'robots.txt blocks it: line 2: Disallow: /blocked/',
      'Google can still index the URL, without its content, when pages link to it: it never fetches the page, so it never sees its noindex (<meta name="robots" content="noindex">); allow crawling for the noindex to work',
    ]);
    const plain = await audit('/blocked/plain');
    expect(plain.doc.reasons).toEqual([
      'robots.txt blocks it: line 2: Disallow: /blocked/',
      'Google can still index the URL, without its content, when pages link to it: it never fetches the page (so it would never see a noindex there)',
    ]);
    expect(plain.doc.verdict).toBe('cannot be crawled');
  });

  it("does not call a blocked URL's error status a reason it stays out of the index: the crawler never sees it", async () => {
    const gone = await audit('/blocked/gone');
    expect(gone.code).toBe(1);
    expect(gone.doc).toMatchObject({ crawlable: false, index: 'url-only' });
    expect(gone.doc.reasons).toEqual([
      'robots.txt blocks it: line 2: Disallow: /blocked/',
      'the page answers HTTP 404, which a crawler blocked by robots.txt never sees',
      'Google can still index the URL, without its content, when pages link to it: it never fetches the page (so it would never see a noindex there)',
    ]);
  });

  it('exits 1, as for any blocked page, when the robots.txt cannot be fetched (2 is for usage errors)', async () => {
    const down = await sites.start((req, res) => {
      if (req.url === '/robots.txt') return; // never answers
      res.writeHead(200, { 'content-type': 'text/html' }).end(html(''));
    });
    const result = await run(['audit', `${down.origin}/page`, '--json', '--timeout', '0.3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `robotskit: cannot fetch '${down.origin}/robots.txt': no response within 0.3 s (until it can be, Google treats every URL there as disallowed)\n`,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ crawlable: false, index: 'url-only' });
  });

  it('says once, without contradiction, how a blocked URL can be indexed', async () => {
    const result = await run(['audit', `${site.origin}/blocked/plain`]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('  index    the bare URL only (see why)');
    expect(lines.filter((l) => /\bindex(ed)?\b/.test(l) && /no\b/.test(l.replace(/noindex/g, '')))).toEqual([]);
    expect(result.stdout.match(/without its content/g)).toHaveLength(1);
  });

  it('redirects, errors, expired pages and non-HTML responses', async () => {
    const moved = await audit('/moved');
    expect(moved.code).toBe(1);
    expect(moved.doc.reasons).toEqual([
      `the URL redirects (HTTP 301) to ${site.origin}/ok: the target is what gets indexed`,
    ]);
    expect((await audit('/gone')).doc.reasons).toEqual(['HTTP 404: an error page is not indexed']);
    expect((await audit('/expired')).doc.reasons[0]).toBe('unavailable_after has passed (2001-01-01T00:00:00.000Z)');
    const text = await audit('/text');
    expect(text.doc).toMatchObject({ indexable: false, page: { xRobotsTag: ['noindex'], meta: [] } });
  });

  it('a --timeout longer than a timer can hold (over 24.8 days) waits rather than failing at once', async () => {
    const { code, stderr, doc } = await audit('/ok', '--timeout', '3000000');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(doc).toMatchObject({ crawlable: true, indexable: true, robots: { fetch: { status: 200, error: null } } });
  });

  it('gives a verdict for a site that cannot be reached: its robots.txt blocks it, the page is not needed', async () => {
    const closed = await sites.closedOrigin();
    const text = await run(['audit', `${closed}/x`]);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe(
      `robotskit: cannot fetch '${closed}/robots.txt': connection refused (until it can be, Google treats every URL there as disallowed)\n`,
    );
    const lines = text.stdout.split('\n');
    expect(lines[1]).toBe('  verdict  cannot be crawled');
    expect(lines[3]).toBe('  page     not fetched (see why)');
    expect(text.stdout).toContain('the page could not be fetched either (connection refused)');
    const json = await run(['audit', `${closed}/x`, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      page: null,
      crawlable: false,
      indexable: false,
      index: 'url-only',
      verdict: 'cannot be crawled',
      robots: { allowed: false, fetch: { error: { kind: 'connect', message: 'connection refused' } } },
    });
  });

  it('network errors and bad arguments are one line and exit 2', async () => {
    const slow = await run(['audit', `${site.origin}/slow`, '--timeout', '0.3']);
    expect(slow).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotskit: cannot fetch '${site.origin}/slow': no complete response within 0.3 s\n`,
    });
    expect((await run(['audit', 'ftp://example.com/x'])).stderr).toBe(
      "robotskit: cannot audit 'ftp://example.com/x': only http and https URLs are supported\n",
    );
    expect((await run(['audit', 'nope'])).stderr).toBe(
      "robotskit: invalid URL 'nope': it has no scheme (did you mean 'https://nope'?)\n",
    );
  });
});
