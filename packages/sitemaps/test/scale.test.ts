/**
 * The protocol's limits and scale, with files generated as streams by a real HTTP server on 127.0.0.1: 50,001 URLs,
 * more than 50 MB, a gzip bomb, and a million URLs across 20 files iterated without keeping them.
 */

import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSitemaps } from '../src/index.js';
import { walk } from './collect.js';
import { sitemapIndex, startServer, stream, type TestServer } from './server.js';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

/** A urlset of `count` URLs `${base}/p/<file>/<i>`, generated in batches of 1,000 lines. */
function* urlsetOf(base: string, file: number, count: number, padding = ''): Generator<string> {
  yield HEAD;
  for (let i = 0; i < count; i += 1000) {
    let batch = '';
    for (let j = i; j < Math.min(count, i + 1000); j++)
      batch += `<url><loc>${base}/p/${file}/${j}</loc></url>${padding}\n`;
    yield batch;
  }
  yield '</urlset>\n';
}

/** gzip of `source`, as one buffer (compressed in a stream). */
async function gzipOf(source: Iterable<string | Buffer>): Promise<Buffer> {
  const gz = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => gz.on('end', resolve));
  for (const chunk of source) {
    if (!gz.write(chunk)) await new Promise((resolve) => gz.once('drain', resolve));
  }
  gz.end();
  await ended;
  return Buffer.concat(out);
}

let s: TestServer;
const sent = new Map<string, number>();
/** Bytes written so far, per path, while a generated file is being sent. */
const progress = new Map<string, number>();
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

function generated(path: string, source: () => Iterable<string | Uint8Array>, type = 'application/xml'): void {
  s.route(path, (_req, res) => {
    res.writeHead(200, { 'content-type': type });
    progress.set(path, 0);
    const counted = function* () {
      for (const chunk of source()) {
        progress.set(
          path,
          (progress.get(path) ?? 0) + (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length),
        );
        yield chunk;
      }
    };
    void stream(res, counted()).then((n) => sent.set(path, n));
  });
}

describe('limits of the sitemaps protocol', () => {
  it('keeps the first 50,000 URLs of a file with 50,001 and says where it stopped', async () => {
    generated('/over.xml', () => urlsetOf(s.base, 0, 50_001));
    const w = await walk(`${s.base}/over.xml`);
    expect(w.entries).toHaveLength(50_000);
    expect(w.entries.at(-1)!.loc).toBe(`${s.base}/p/0/49999`);
    expect(w.codes).toEqual(['too-many-urls']);
    expect(w.diagnostics[0]!.line).toBe(50_003);
    expect(w.diagnostics[0]!.message).toBe(
      'more than 50,000 entries: read the first 50,000, stopped reading at line 50003; the rest of the file was not downloaded',
    );
    expect(w.reports[0]).toMatchObject({ urls: 50_000, truncated: true });
  });

  it('reads a file of exactly 50,000 URLs without a diagnostic, and honours a smaller maxUrlsPerFile', async () => {
    generated('/full.xml', () => urlsetOf(s.base, 0, 50_000));
    const w = await walk(`${s.base}/full.xml`);
    expect(w.entries).toHaveLength(50_000);
    expect(w.diagnostics).toEqual([]);
    const small = await walk(`${s.base}/full.xml`, { maxUrlsPerFile: 10 });
    expect(small.entries).toHaveLength(10);
    expect(small.codes).toEqual(['too-many-urls']);
  });

  it('stops reading a file at 50 MB uncompressed and reports what was kept', async () => {
    // 1,250 bytes per URL (a comment pads each line), 100 MB offered: fewer than 50,000 URLs fit in 50 MB.
    const padding = `<!--${'x'.repeat(1200)}-->`;
    generated('/huge.xml', () => urlsetOf(s.base, 0, 80_000, padding));
    const w = await walk(`${s.base}/huge.xml`);
    const report = w.reports[0]!;
    expect(report.bytes).toBe(52_428_800);
    expect(report.truncated).toBe(true);
    expect(w.codes).toEqual(['too-large']);
    // Exactly the URLs whose </url> lies within the first 52,428,800 bytes.
    let end = HEAD.length;
    let fit = 0;
    for (; ; fit++) {
      const url = `<url><loc>${s.base}/p/0/${fit}</loc></url>`;
      if (end + url.length > 52_428_800) break;
      end += url.length + padding.length + 1;
    }
    expect(w.entries).toHaveLength(fit);
    expect(w.entries.at(-1)!.loc).toBe(`${s.base}/p/0/${fit - 1}`);
    expect(w.diagnostics[0]!.message).toMatch(
      /^larger than 52,428,800 bytes uncompressed: read the first 52,428,800 bytes \([\d,]+ entries, to line \d+\); the rest was not downloaded$/,
    );
    // The server did not get to send its 100 MB: the client stopped reading.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent.get('/huge.xml')).toBeLessThan(80_000 * (padding.length + 40) * 0.9);
  });

  it('stops a gzip bomb at the cap on uncompressed bytes', async () => {
    // 10 URLs, then 256 MB of blanks (legal whitespace in XML): about 250 KB compressed.
    const mb = Buffer.alloc(1 << 20, 0x20);
    const bomb = await gzipOf(
      (function* () {
        yield* urlsetOf(s.base, 0, 10);
        for (let i = 0; i < 256; i++) yield mb;
      })(),
    );
    expect(bomb.length).toBeLessThan(1_000_000);
    s.serve('/bomb.xml.gz', bomb, { 'content-type': 'application/gzip' });
    const w = await walk(`${s.base}/bomb.xml.gz`);
    // The urlset's closing tag is past the cap: its first 10 URLs are kept, then the rest is cut.
    expect(w.entries.map((e) => e.loc)).toEqual(Array.from({ length: 10 }, (_, i) => `${s.base}/p/0/${i}`));
    expect(w.codes).toEqual(['too-large']);
    expect(w.reports[0]).toMatchObject({ gzip: true, bytes: 52_428_800, truncated: true });
  });

  it('stops a gzip bomb sent with Content-Encoding: gzip too', async () => {
    const mb = Buffer.alloc(1 << 20, 0x20);
    const bomb = await gzipOf(
      (function* () {
        yield `${s.base}/t/1\n`;
        for (let i = 0; i < 64; i++) yield mb;
      })(),
    );
    s.serve('/bomb.txt', bomb, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    const w = await walk(`${s.base}/bomb.txt`, { maxBytesPerFile: 5_000_000 });
    expect(w.entries.map((e) => e.loc)).toEqual([`${s.base}/t/1`]);
    expect(w.codes).toEqual(['too-large']);
    expect(w.reports[0]).toMatchObject({ gzip: false, bytes: 5_000_000 });
  });
});

describe('scale', () => {
  it('reads as the consumer asks: a paused consumer leaves the rest of the file on the server', async () => {
    // 100 MB on offer (1,250 bytes per URL). Loopback TCP buffers here may hold tens of MB (tcp_rmem max 32 MB), so
    // the bound is generous; a reader that buffered the file would take all of it.
    generated('/paused.xml', () => urlsetOf(s.base, 0, 80_000, `<!--${'x'.repeat(1200)}-->`));
    const events = readSitemaps(`${s.base}/paused.xml`, { maxBytesPerFile: 200_000_000 });
    const first = await events.next();
    expect(first.value).toMatchObject({ type: 'url' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(progress.get('/paused.xml')).toBeLessThan(50_000_000);
    await events.return();
  });

  it('iterates a million URLs across 20 files without keeping them', async () => {
    s.serve('/million/index.xml', sitemapIndex(Array.from({ length: 20 }, (_, i) => `${s.base}/million/${i}.xml`)));
    for (let i = 0; i < 20; i++) generated(`/million/${i}.xml`, () => urlsetOf(`${s.base}/million`, i, 50_000));
    let urls = 0;
    let files = 0;
    let last = '';
    let diagnostics = 0;
    let summary: unknown = null;
    for await (const event of readSitemaps(`${s.base}/million/index.xml`)) {
      if (event.type === 'url') {
        urls++;
        last = event.entry.loc;
      } else if (event.type === 'sitemap') files++;
      else if (event.type === 'diagnostic') diagnostics++;
      else summary = event.summary;
    }
    expect(urls).toBe(1_000_000);
    expect(files).toBe(21);
    expect(diagnostics).toBe(0);
    expect(last).toBe(`${s.base}/million/p/19/49999`);
    expect(summary).toEqual({ sitemaps: 21, urls: 1_000_000, errors: 0, warnings: 0, infos: 0, stoppedBy: null });
  });
});
