/**
 * The walk against a real HTTP server on 127.0.0.1: formats, entries, diagnostics, indexes, loops, gzip, errors and
 * timeouts.
 */

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSitemaps, SITEMAP_DIAGNOSTIC_CODES } from '../src/index.js';
import { walk } from './collect.js';
import { sitemapIndex, startServer, type TestServer, urlset } from './server.js';

let s: TestServer;
let other: TestServer;
beforeAll(async () => {
  s = await startServer();
  other = await startServer();
});
afterAll(async () => {
  await s.close();
  await other.close();
});

describe('urlset', () => {
  it('yields every entry with loc, lastmod, changefreq, priority and the sitemap it came from', async () => {
    s.serve(
      '/u/sitemap.xml',
      `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>${s.base}/u/a?x=1&amp;y=2</loc>
    <lastmod>2024-05-01T10:20:30+02:00</lastmod>
    <changefreq>Daily</changefreq>
    <priority>0.8</priority>
    <image:image><image:loc>${s.base}/img.png</image:loc></image:image>
  </url>
  <url><loc><![CDATA[${s.base}/u/b]]></loc></url>
  <url><loc>  ${s.base}/u/c  </loc><lastmod>2024</lastmod></url>
</urlset>`,
    );
    const w = await walk(`${s.base}/u/sitemap.xml`);
    expect(w.entries).toEqual([
      {
        loc: `${s.base}/u/a?x=1&y=2`,
        lastmod: '2024-05-01T10:20:30+02:00',
        changefreq: 'daily',
        priority: 0.8,
        sitemap: `${s.base}/u/sitemap.xml`,
      },
      { loc: `${s.base}/u/b`, lastmod: null, changefreq: null, priority: null, sitemap: `${s.base}/u/sitemap.xml` },
      { loc: `${s.base}/u/c`, lastmod: '2024', changefreq: null, priority: null, sitemap: `${s.base}/u/sitemap.xml` },
    ]);
    expect(w.diagnostics).toEqual([]);
    expect(w.reports).toHaveLength(1);
    expect(w.reports[0]).toMatchObject({
      url: `${s.base}/u/sitemap.xml`,
      finalUrl: `${s.base}/u/sitemap.xml`,
      parent: null,
      depth: 0,
      format: 'urlset',
      status: 200,
      gzip: false,
      urls: 3,
      sitemaps: 0,
      truncated: false,
    });
    expect(w.summary).toEqual({ sitemaps: 1, urls: 3, errors: 0, warnings: 0, infos: 0, stoppedBy: null });
    expect(w.order).toEqual(['url', 'url', 'url', 'sitemap', 'end']);
  });

  it('turns invalid entries into diagnostics with their line, and keeps going', async () => {
    s.serve(
      '/bad/sitemap.xml',
      [
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '<url><loc>/relative</loc></url>',
        '<url><loc>http://[bad</loc></url>',
        '<url><loc>ftp://example.com/x</loc></url>',
        '<url><lastmod>2024-01-01</lastmod></url>',
        `<url><loc>${s.base}/bad/ok</loc><lastmod>2024-13-01</lastmod><changefreq>sometimes</changefreq><priority>1.5</priority></url>`,
        `<url><loc>${s.base}/bad/t</loc><lastmod>2024-01-01T10:00</lastmod></url>`,
        `<url><loc>${s.base}/bad/${'x'.repeat(2100)}</loc></url>`,
        '</urlset>',
      ].join('\n'),
    );
    const w = await walk(`${s.base}/bad/sitemap.xml`);
    expect(w.diagnostics.map((d) => [d.code, d.line, d.severity])).toEqual([
      ['relative-url', 2, 'error'],
      ['invalid-url', 3, 'error'],
      ['invalid-url', 4, 'error'],
      ['missing-loc', 5, 'error'],
      ['invalid-lastmod', 6, 'warning'],
      ['invalid-changefreq', 6, 'warning'],
      ['invalid-priority', 6, 'warning'],
      ['invalid-lastmod', 7, 'warning'],
      ['url-too-long', 8, 'warning'],
    ]);
    expect(
      w.entries.map((e) => [e.loc.slice(s.base.length, s.base.length + 12), e.lastmod, e.changefreq, e.priority]),
    ).toEqual([
      ['/bad/ok', null, null, null],
      ['/bad/t', null, null, null],
      ['/bad/xxxxxxx', null, null, null],
    ]);
    expect(w.reports[0]!.counts).toEqual({
      'relative-url': 1,
      'invalid-url': 2,
      'missing-loc': 1,
      'invalid-lastmod': 2,
      'invalid-changefreq': 1,
      'invalid-priority': 1,
      'url-too-long': 1,
    });
    expect(w.summary).toMatchObject({ errors: 4, warnings: 5, urls: 3 });
    for (const d of w.diagnostics) expect(d.sitemap).toBe(`${s.base}/bad/sitemap.xml`);
  });

  it('applies the location rules: URLs outside the sitemap directory, or on another host, are dropped', async () => {
    s.serve(
      '/catalog/sitemap.xml',
      urlset([`${s.base}/catalog/a`, `${s.base}/images/b`, 'https://other.example/c', `${other.base}/catalog/d`]),
    );
    const w = await walk(`${s.base}/catalog/sitemap.xml`);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/catalog/a`]);
    expect(w.codes).toEqual(['out-of-scope-url', 'out-of-scope-url', 'out-of-scope-url']);
    expect(w.diagnostics[0]!.message).toContain(`${s.base}/catalog/`);

    const byOrigin = await walk(`${s.base}/catalog/sitemap.xml`, { scope: 'origin' });
    expect(byOrigin.entries.map((e) => e.loc)).toEqual([`${s.base}/catalog/a`, `${s.base}/images/b`]);

    // Cross-submission: the robots.txt of `other` listed this sitemap, so other's URLs are in scope.
    const allowed = await walk(`${s.base}/catalog/sitemap.xml`, { allowedOrigins: [other.base] });
    expect(allowed.entries.map((e) => e.loc)).toEqual([`${s.base}/catalog/a`, `${other.base}/catalog/d`]);

    const none = await walk(`${s.base}/catalog/sitemap.xml`, { scope: 'none' });
    expect(none.entries).toHaveLength(4);
    expect(none.diagnostics).toEqual([]);
  });

  it('reads a sitemap without the namespace, with a warning', async () => {
    s.serve('/nons.xml', `<?xml version="1.0"?>\n<urlset><url><loc>${s.base}/p</loc></url></urlset>`);
    const w = await walk(`${s.base}/nons.xml`);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/p`]);
    expect(w.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['wrong-namespace', 2, '<urlset> without the namespace http://www.sitemaps.org/schemas/sitemap/0.9'],
    ]);
  });
});

describe('malformed files', () => {
  it('reports the first XML error with its line and keeps the URLs before it', async () => {
    s.serve(
      '/broken.xml',
      [
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        `<url><loc>${s.base}/1</loc></url>`,
        `<url><loc>${s.base}/2</loc></url>`,
        `<url><loc>${s.base}/3?a=1&b=2</loc></url>`,
        `<url><loc>${s.base}/4</loc></url>`,
        '</urlset>',
      ].join('\n'),
    );
    const w = await walk(`${s.base}/broken.xml`);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/1`, `${s.base}/2`]);
    expect(w.codes).toEqual(['xml-error']);
    expect(w.diagnostics[0]!.line).toBe(4);
    expect(w.diagnostics[0]!.message).toMatch(/^XML is not well-formed: /);
    expect(w.reports[0]!.truncated).toBe(true);
  });

  it('reports a file cut short as an XML error', async () => {
    s.serve(
      '/cut.xml',
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${s.base}/1</loc></url><url><lo`,
    );
    const w = await walk(`${s.base}/cut.xml`);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/1`]);
    expect(w.codes).toEqual(['xml-error']);
  });

  it('does not expand entities from a DTD (no XXE, no billion laughs)', async () => {
    s.serve(
      '/xxe.xml',
      `<?xml version="1.0"?>
<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY a "aaaaaaaaaa">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${s.base}/ok</loc></url>
<url><loc>${s.base}/&xxe;</loc></url>
</urlset>`,
    );
    const w = await walk(`${s.base}/xxe.xml`);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/ok`]);
    expect(w.codes).toEqual(['xml-error']);
    expect(w.diagnostics[0]!.line).toBe(5);
  });

  it('says an HTML page, another XML root and an empty body are not sitemaps', async () => {
    s.serve('/page.html', '<!DOCTYPE html>\n<html><head><title>Hi</title></head><body></body></html>', {
      'content-type': 'text/html',
    });
    s.serve('/other-root.xml', '<?xml version="1.0"?><catalog><item/></catalog>');
    s.serve('/empty.xml', '  \n');
    const w = await walk([`${s.base}/page.html`, `${s.base}/other-root.xml`, `${s.base}/empty.xml`]);
    expect(w.codes).toEqual(['not-a-sitemap', 'not-a-sitemap', 'not-a-sitemap']);
    expect(w.diagnostics[0]!.message).toContain('<html>');
    expect(w.diagnostics[2]!.message).toBe('the file is empty');
    expect(w.reports.map((r) => r.format)).toEqual(['unknown', 'unknown', 'unknown']);
  });
});

describe('text sitemaps and feeds', () => {
  it('reads one URL per line, UTF-8, skipping blank lines; bad lines are diagnostics', async () => {
    s.serve('/t/sitemap.txt', `\uFEFF${s.base}/t/a\r\n\r\n   ${s.base}/t/caf\u00e9  \nnot a url\n${s.base}/t/last`, {
      'content-type': 'text/plain; charset=utf-8',
    });
    const w = await walk(`${s.base}/t/sitemap.txt`);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/t/a`, `${s.base}/t/caf%C3%A9`, `${s.base}/t/last`]);
    expect(w.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['invalid-url', 4, 'not a URL: "not a url"'],
    ]);
    expect(w.reports[0]!.format).toBe('text');
  });

  it('reads RSS 2.0 items (link, pubDate)', async () => {
    s.serve(
      '/feed.rss',
      `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>${s.base}/</link>
<item><title>a</title><link>${s.base}/a</link><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>
<item><title>no link</title></item>
<item><link>${s.base}/b</link><pubDate>yesterday</pubDate></item>
</channel></rss>`,
    );
    const w = await walk(`${s.base}/feed.rss`);
    expect(w.entries.map((e) => [e.loc, e.lastmod])).toEqual([
      [`${s.base}/a`, 'Tue, 10 Jun 2003 04:00:00 GMT'],
      [`${s.base}/b`, null],
    ]);
    expect(w.codes).toEqual(['missing-loc', 'invalid-lastmod']);
    expect(w.reports[0]!.format).toBe('rss');
  });

  it('reads Atom entries (alternate link, updated)', async () => {
    s.serve(
      '/feed.atom',
      `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><link href="${s.base}/"/>
<entry><title>a</title><link rel="edit" href="${s.base}/edit/a"/><link href="${s.base}/a"/><updated>2003-12-13T18:30:02Z</updated></entry>
<entry><link rel="alternate" href="${s.base}/b"/><published>2003-12-13T18:30:02Z</published></entry>
</feed>`,
    );
    const w = await walk(`${s.base}/feed.atom`);
    expect(w.entries.map((e) => [e.loc, e.lastmod])).toEqual([
      [`${s.base}/a`, '2003-12-13T18:30:02Z'],
      [`${s.base}/b`, '2003-12-13T18:30:02Z'],
    ]);
    expect(w.diagnostics).toEqual([]);
    expect(w.reports[0]!.format).toBe('atom');
  });
});

describe('sitemap indexes', () => {
  it('walks nested indexes in pre-order, each report after its entries and before its children', async () => {
    s.serve('/idx/root.xml', sitemapIndex([`${s.base}/idx/a.xml`, `${s.base}/idx/sub.xml`, `${s.base}/idx/d.xml`]));
    s.serve('/idx/a.xml', urlset([`${s.base}/idx/a1`, `${s.base}/idx/a2`]));
    s.serve('/idx/sub.xml', sitemapIndex([`${s.base}/idx/b.xml`, `${s.base}/idx/c.xml`]));
    s.serve('/idx/b.xml', urlset([`${s.base}/idx/b1`]));
    s.serve('/idx/c.xml', urlset([`${s.base}/idx/c1`]));
    s.serve('/idx/d.xml', urlset([`${s.base}/idx/d1`]));
    const w = await walk(`${s.base}/idx/root.xml`);
    expect(
      w.reports.map((r) => [
        r.url.slice(s.base.length),
        r.depth,
        r.parent?.slice(s.base.length) ?? null,
        r.urls,
        r.sitemaps,
      ]),
    ).toEqual([
      ['/idx/root.xml', 0, null, 0, 3],
      ['/idx/a.xml', 1, '/idx/root.xml', 2, 0],
      ['/idx/sub.xml', 1, '/idx/root.xml', 0, 2],
      ['/idx/b.xml', 2, '/idx/sub.xml', 1, 0],
      ['/idx/c.xml', 2, '/idx/sub.xml', 1, 0],
      ['/idx/d.xml', 1, '/idx/root.xml', 1, 0],
    ]);
    expect(w.entries.map((e) => e.loc.slice(s.base.length))).toEqual([
      '/idx/a1',
      '/idx/a2',
      '/idx/b1',
      '/idx/c1',
      '/idx/d1',
    ]);
    expect(w.codes).toEqual(['nested-index']);
    expect(w.diagnostics[0]!.sitemap).toBe(`${s.base}/idx/sub.xml`);
    expect(w.order).toEqual([
      'sitemap',
      'url',
      'url',
      'sitemap',
      'diagnostic',
      'sitemap',
      'url',
      'sitemap',
      'url',
      'sitemap',
      'url',
      'sitemap',
      'end',
    ]);
  });

  it('stops at maxDepth', async () => {
    s.serve('/deep/0.xml', sitemapIndex([`${s.base}/deep/1.xml`]));
    s.serve('/deep/1.xml', sitemapIndex([`${s.base}/deep/2.xml`]));
    s.serve('/deep/2.xml', urlset([`${s.base}/deep/p`]));
    const w = await walk(`${s.base}/deep/0.xml`, { maxDepth: 1 });
    expect(w.reports.map((r) => r.url.slice(s.base.length))).toEqual(['/deep/0.xml', '/deep/1.xml']);
    expect(w.codes).toEqual(['nested-index', 'too-deep']);
    expect(w.entries).toEqual([]);
    const only = await walk(`${s.base}/deep/0.xml`, { maxDepth: 0 });
    expect(only.codes).toEqual(['too-deep']);
  });

  it('detects loops and duplicates without reading a file twice', async () => {
    s.serve('/loop/a.xml', sitemapIndex([`${s.base}/loop/b.xml`, `${s.base}/loop/a.xml#self`, `${s.base}/loop/u.xml`]));
    s.serve('/loop/b.xml', sitemapIndex([`${s.base}/loop/a.xml`, `${s.base}/loop/u.xml`]));
    s.serve('/loop/u.xml', urlset([`${s.base}/loop/p`]));
    const before = s.requests.length;
    const w = await walk(`${s.base}/loop/a.xml`);
    expect(s.requests.slice(before)).toEqual(['GET /loop/a.xml', 'GET /loop/b.xml', 'GET /loop/u.xml']);
    expect(w.diagnostics.map((d) => [d.code, d.sitemap.slice(s.base.length)])).toEqual([
      ['sitemap-loop', '/loop/a.xml'],
      ['nested-index', '/loop/b.xml'],
      ['sitemap-loop', '/loop/b.xml'],
      ['duplicate-sitemap', '/loop/b.xml'],
    ]);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/loop/p`]);
  });

  it('does not follow an index to another host unless the scope is none', async () => {
    other.serve('/far.xml', urlset([`${other.base}/far/p`]));
    s.serve('/cross/index.xml', sitemapIndex([`${other.base}/far.xml`, `${s.base}/cross/near.xml`]));
    s.serve('/cross/near.xml', urlset([`${s.base}/cross/p`]));
    const w = await walk(`${s.base}/cross/index.xml`);
    expect(w.codes).toEqual(['cross-host-sitemap']);
    expect(w.reports.map((r) => r.url)).toEqual([`${s.base}/cross/index.xml`, `${s.base}/cross/near.xml`]);
    const none = await walk(`${s.base}/cross/index.xml`, { scope: 'none' });
    expect(none.entries.map((e) => e.loc)).toEqual([`${other.base}/far/p`, `${s.base}/cross/p`]);
  });

  it('stops at maxSitemaps and says how many were left', async () => {
    s.serve('/many/index.xml', sitemapIndex([1, 2, 3, 4].map((i) => `${s.base}/many/${i}.xml`)));
    for (const i of [1, 2, 3, 4]) s.serve(`/many/${i}.xml`, urlset([`${s.base}/many/p${i}`]));
    const w = await walk(`${s.base}/many/index.xml`, { maxSitemaps: 3 });
    expect(w.reports).toHaveLength(3);
    expect(w.codes).toEqual(['too-many-sitemaps']);
    expect(w.diagnostics[0]!.message).toBe(
      "the walk's limit of 3 sitemaps left no room for the rest of this index: 2 sitemaps not read",
    );
    // Reported on the index, and only the accepted children are held.
    expect(w.reports[0]!.counts).toEqual({ 'too-many-sitemaps': 1 });
    expect(w.reports[0]!.sitemaps).toBe(2);
    expect(w.summary.stoppedBy).toBe('max-sitemaps');
    const starts = await walk(
      [1, 2, 3, 4].map((i) => `${s.base}/many/${i}.xml`),
      { maxSitemaps: 2 },
    );
    expect(starts.reports).toHaveLength(2);
    expect(starts.diagnostics.map((d) => [d.code, d.sitemap, d.message])).toEqual([
      [
        'too-many-sitemaps',
        `${s.base}/many/3.xml`,
        'the walk reached its limit of 2 sitemaps: 2 sitemaps not read, starting with this one',
      ],
    ]);
    expect(starts.summary.stoppedBy).toBe('max-sitemaps');
  });

  it('stops at maxUrls', async () => {
    s.serve('/cap/a.xml', urlset([1, 2, 3].map((i) => `${s.base}/cap/${i}`)));
    s.serve('/cap/b.xml', urlset([`${s.base}/cap/4`]));
    const w = await walk([`${s.base}/cap/a.xml`, `${s.base}/cap/b.xml`], { maxUrls: 2 });
    expect(w.entries).toHaveLength(2);
    expect(w.codes).toEqual(['url-limit-reached']);
    expect(w.summary).toMatchObject({ urls: 2, stoppedBy: 'max-urls', sitemaps: 1 });
    const exact = await walk([`${s.base}/cap/a.xml`, `${s.base}/cap/b.xml`], { maxUrls: 4 });
    expect(exact.summary).toMatchObject({ urls: 4, stoppedBy: null });
  });
});

describe('gzip', () => {
  it('recognises gzip by its magic bytes, whatever the name and type say', async () => {
    s.serve('/gz/sitemap', gzipSync(urlset([`${s.base}/gz/a`])), { 'content-type': 'application/octet-stream' });
    s.serve('/gz/sitemap.xml.gz', gzipSync(`${s.base}/gz/t\n`), { 'content-type': 'application/x-gzip' });
    const w = await walk([`${s.base}/gz/sitemap`, `${s.base}/gz/sitemap.xml.gz`]);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/gz/a`, `${s.base}/gz/t`]);
    expect(w.reports.map((r) => [r.gzip, r.format])).toEqual([
      [true, 'urlset'],
      [true, 'text'],
    ]);
    expect(w.diagnostics).toEqual([]);
  });

  it('reads a Content-Encoding: gzip response, and a gzip file sent with Content-Encoding: gzip', async () => {
    const xml = urlset([`${s.base}/gz/e`]);
    s.serve('/gz/encoded.xml', gzipSync(xml), { 'content-encoding': 'gzip' });
    s.serve('/gz/double.xml.gz', gzipSync(gzipSync(xml)), { 'content-encoding': 'gzip' });
    const w = await walk([`${s.base}/gz/encoded.xml`, `${s.base}/gz/double.xml.gz`]);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/gz/e`, `${s.base}/gz/e`]);
    // The runtime removed the Content-Encoding; the file that was gzip itself is reported as gzip.
    expect(w.reports.map((r) => r.gzip)).toEqual([false, true]);
    expect(w.reports.map((r) => r.bytes)).toEqual([Buffer.byteLength(xml), Buffer.byteLength(xml)]);
  });

  it('reports a corrupt gzip stream and keeps what came before the damage', async () => {
    const text = `${Array.from({ length: 2000 }, (_, i) => `${s.base}/gz/c${i}`).join('\n')}\n`;
    const gz = gzipSync(text);
    // Cut in the middle: the complete lines before the cut are kept.
    s.serve('/gz/cut.txt.gz', gz.subarray(0, Math.floor(gz.length / 2)));
    // A wrong checksum in the trailer: the damage shows after the last byte was decoded, and zlib drops the output it
    // still held then (at most its 16 KiB output window); every line before that window is kept.
    const badCrc = Buffer.from(gz);
    badCrc[badCrc.length - 8] = badCrc[badCrc.length - 8]! ^ 0xff;
    s.serve('/gz/crc.txt.gz', badCrc);
    const cut = await walk(`${s.base}/gz/cut.txt.gz`);
    expect(cut.codes).toEqual(['gzip-error']);
    expect(cut.entries.length).toBeGreaterThan(0);
    expect(cut.entries.length).toBeLessThan(2000);
    expect(cut.entries.map((e) => e.loc)).toEqual(
      Array.from({ length: cut.entries.length }, (_, i) => `${s.base}/gz/c${i}`),
    );
    expect(cut.reports[0]!.truncated).toBe(true);
    const crc = await walk(`${s.base}/gz/crc.txt.gz`);
    expect(crc.codes).toEqual(['gzip-error']);
    expect(crc.diagnostics[0]!.message).toBe('the gzip stream is corrupt: incorrect data check');
    const guaranteed = text.slice(0, text.length - 16_384).split('\n').length - 1;
    expect(crc.entries.length).toBeGreaterThanOrEqual(guaranteed);
    expect(crc.entries.map((e) => e.loc)).toEqual(
      Array.from({ length: crc.entries.length }, (_, i) => `${s.base}/gz/c${i}`),
    );
  });
});

describe('HTTP errors and timeouts', () => {
  it('reports 404 and 500 and goes on with the next file', async () => {
    s.route('/err/500.xml', (_req, res) => res.writeHead(500).end('oops'));
    s.serve('/err/ok.xml', urlset([`${s.base}/err/p`]));
    const w = await walk([`${s.base}/err/missing.xml`, `${s.base}/err/500.xml`, `${s.base}/err/ok.xml`]);
    expect(w.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['http-error', `HTTP status 404 from ${s.base}/err/missing.xml`],
      ['http-error', `HTTP status 500 from ${s.base}/err/500.xml`],
    ]);
    expect(w.reports.map((r) => r.status)).toEqual([404, 500, 200]);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/err/p`]);
  });

  it('follows redirects and reports loops', async () => {
    s.route('/r/moved.xml', (_req, res) => res.writeHead(301, { location: '/r/there.xml' }).end());
    s.serve('/r/there.xml', urlset([`${s.base}/r/p`]));
    s.route('/r/loop.xml', (_req, res) => res.writeHead(302, { location: '/r/loop.xml' }).end());
    const w = await walk([`${s.base}/r/moved.xml`, `${s.base}/r/loop.xml`]);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/r/p`]);
    expect(w.reports[0]!.finalUrl).toBe(`${s.base}/r/there.xml`);
    expect(w.diagnostics.map((d) => d.code)).toEqual(['fetch-failed']);
    expect(w.diagnostics[0]!.message).toBe('redirect loop');
  });

  it('gives up on a server that never answers (headers timeout)', async () => {
    s.route('/slow/never.xml', () => {});
    const w = await walk(`${s.base}/slow/never.xml`, { timeouts: { headers: 300 } });
    expect(w.codes).toEqual(['fetch-failed']);
    // In the engine's words, as every surface words a timeout.
    expect(w.diagnostics[0]!.message).toBe('no response within 0.3 s');
    expect(w.reports[0]!.status).toBeNull();
  });

  it('gives up on a body that stalls, keeping the URLs read before', async () => {
    s.route('/slow/stall.xml', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${s.base}/slow/1</loc></url>`);
    });
    const w = await walk(`${s.base}/slow/stall.xml`, { timeouts: { idle: 300 } });
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/slow/1`]);
    expect(w.codes).toEqual(['fetch-failed']);
    expect(w.diagnostics[0]!.message).toBe(
      'the response stalled: no data for 0.3 s: the rest of the file was not read',
    );
    expect(w.reports[0]!.truncated).toBe(true);
  });

  it('gives up on a body that trickles forever (total timeout)', async () => {
    s.route('/slow/trickle.txt', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let i = 0;
      const timer = setInterval(() => res.write(`${s.base}/slow/t${i++}\n`), 20);
      res.on('close', () => clearInterval(timer));
    });
    const w = await walk(`${s.base}/slow/trickle.txt`, { timeouts: { idle: 5000, total: 500 } });
    expect(w.codes).toEqual(['fetch-failed']);
    expect(w.diagnostics[0]!.message).toBe('no complete response within 0.5 s: the rest of the file was not read');
    expect(w.entries.length).toBeGreaterThan(0);
  });

  it('waits for timeouts longer than a timer can hold (2^31 ms) instead of firing them at once', async () => {
    s.route('/long-timeouts.xml', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(urlset([`${s.base}/long/1`]));
    });
    const longer = 3_000_000_000; // about 35 days
    const w = await walk(`${s.base}/long-timeouts.xml`, { timeouts: { headers: longer, idle: longer, total: longer } });
    expect(w.codes).toEqual([]);
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/long/1`]);
  });

  it('does not count the time the consumer takes between entries against the total timeout', async () => {
    s.route('/slow/paced.xml', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${s.base}/slow/p1</loc></url>`);
      setTimeout(() => res.end(`<url><loc>${s.base}/slow/p2</loc></url></urlset>`), 50);
    });
    const locs: string[] = [];
    const codes: string[] = [];
    for await (const event of readSitemaps(`${s.base}/slow/paced.xml`, { timeouts: { total: 300 } })) {
      if (event.type === 'url') {
        locs.push(event.entry.loc);
        // A consumer slower than the whole budget.
        if (locs.length === 1) await new Promise((resolve) => setTimeout(resolve, 400));
      } else if (event.type === 'diagnostic') codes.push(event.diagnostic.code);
    }
    expect(locs).toEqual([`${s.base}/slow/p1`, `${s.base}/slow/p2`]);
    expect(codes).toEqual([]);
  });

  it('holds its timeouts even when the injected fetch ignores the signal', async () => {
    const w = await walk('https://example.com/sitemap.xml', {
      fetch: () => new Promise(() => {}),
      timeouts: { headers: 200 },
    });
    expect(w.codes).toEqual(['fetch-failed']);
    expect(w.diagnostics[0]!.message).toBe('no response within 0.2 s');
  });

  it('reports a refused connection as a message', async () => {
    const gone = await startServer();
    const url = `${gone.base}/sitemap.xml`;
    await gone.close();
    const w = await walk(url);
    expect(w.codes).toEqual(['fetch-failed']);
    expect(w.diagnostics[0]!.message).toBe('connection refused');
  });

  it('reads a starting file listed twice once', async () => {
    const before = s.requests.length;
    const w = await walk([`${s.base}/err/ok.xml`, `${s.base}/err/ok.xml#top`, `${s.base.toUpperCase()}/err/ok.xml`]);
    expect(w.reports).toHaveLength(1);
    expect(s.requests.slice(before)).toEqual(['GET /err/ok.xml']);
  });

  it('reports a start URL that is not http(s) without fetching', async () => {
    const w = await walk(['not a url', 'ftp://example.com/sitemap.xml']);
    expect(w.codes).toEqual(['invalid-url', 'invalid-url']);
  });

  it('stops when the caller aborts', async () => {
    s.route('/slow/abort.xml', () => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const w = await walk([`${s.base}/slow/abort.xml`, `${s.base}/u/sitemap.xml`], { signal: controller.signal });
    expect(w.summary.stoppedBy).toBe('aborted');
    expect(w.reports).toHaveLength(1);
  });

  it('cancels the response when the consumer stops early', async () => {
    let closed = false;
    s.route('/early.txt', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(`${s.base}/e1\n${s.base}/e2\n`);
      res.on('close', () => {
        closed = true;
      });
    });
    for await (const event of readSitemaps(`${s.base}/early.txt`)) {
      if (event.type === 'url') break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(true);
  });
});

describe('options', () => {
  it('refuses bad options with a clear error', () => {
    expect(() => readSitemaps('https://example.com/s.xml', { maxUrlsPerFile: 0 })).toThrow(/maxUrlsPerFile/);
  });

  it('has a severity for every code', () => {
    expect(SITEMAP_DIAGNOSTIC_CODES).toHaveLength(23);
  });
});
