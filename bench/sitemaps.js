/**
 * Sitemap benchmarks (issue 4 §4): a 50,000-URL urlset (the protocol's maximum; loc, lastmod, changefreq, priority)
 * served by a local HTTP server, plain and gzip, read to the last entry by robotskit-sitemaps' `readSitemaps` and by
 * the `sitemap` package's streaming `XMLToSitemapItemStream` (sax-based) over the same server. Both count entries
 * without keeping them. The two run alternately, round after round; the ratio is the median of per-round ratios.
 */

import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gzipSync } from 'node:zlib';
import { readSitemaps } from 'robotskit-sitemaps';
import { XMLToSitemapItemStream } from 'sitemap';
import { fmt, table } from './harness.js';

const URLS = 50_000;

function urlset(base) {
  let xml = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  for (let i = 0; i < URLS; i++) {
    xml += `<url><loc>${base}/products/item-${i}?color=blue&amp;size=${i % 7}</loc><lastmod>2024-05-${String((i % 28) + 1).padStart(2, '0')}</lastmod><changefreq>weekly</changefreq><priority>0.${i % 10}</priority></url>\n`;
  }
  return `${xml}</urlset>\n`;
}

async function elapsed(fn) {
  const start = process.hrtime.bigint();
  const n = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, n };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function ours(url) {
  let n = 0;
  for await (const event of readSitemaps(url)) if (event.type === 'url') n++;
  return n;
}

async function theirs(url, gzip) {
  const response = await fetch(url);
  let n = 0;
  const counter = new XMLToSitemapItemStream();
  counter.on('data', () => n++);
  const body = Readable.fromWeb(response.body);
  await (gzip ? pipeline(body, createGunzip(), counter) : pipeline(body, counter));
  return n;
}

export async function runSitemapsBench({ rounds = 9, warmup = 2 } = {}) {
  const server = createServer((req, res) => {
    const body = req.url === '/sitemap.xml.gz' ? gz : xml;
    res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
  });
  await new Promise((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const xml = Buffer.from(urlset(base));
  const gz = gzipSync(xml);
  const rows = [];
  try {
    for (const [name, path, gzip] of [
      ['plain', '/sitemap.xml', false],
      ['gzip', '/sitemap.xml.gz', true],
    ]) {
      const url = `${base}${path}`;
      for (let i = 0; i < warmup; i++) {
        await ours(url);
        await theirs(url, gzip);
      }
      const a = [];
      const b = [];
      const ratios = [];
      for (let i = 0; i < rounds; i++) {
        // Alternate who goes first.
        let ra;
        let rb;
        if (i % 2 === 0) {
          ra = await elapsed(() => ours(url));
          rb = await elapsed(() => theirs(url, gzip));
        } else {
          rb = await elapsed(() => theirs(url, gzip));
          ra = await elapsed(() => ours(url));
        }
        if (ra.n !== URLS || rb.n !== URLS) throw new Error(`counted ${ra.n} and ${rb.n} entries, expected ${URLS}`);
        a.push(ra.ms);
        b.push(rb.ms);
        ratios.push(rb.ms / ra.ms);
      }
      rows.push([
        `${name} (${(xml.length / 1e6).toFixed(1)} MB${gzip ? `, ${(gz.length / 1e6).toFixed(1)} MB gzip` : ''})`,
        `${fmt(median(a))} ms`,
        `${fmt(median(b))} ms`,
        `${fmt((URLS / median(a)) * 1000)} URLs/s`,
        `${median(ratios).toFixed(2)}×`,
      ]);
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  table(
    `sitemaps: one 50,000-URL urlset over loopback HTTP, read to the end (median of ${rounds} alternating rounds)`,
    ['file', 'robotskit-sitemaps', 'sitemap (XMLToSitemapItemStream)', 'robotskit URLs/s', 'ratio (theirs/ours)'],
    rows,
  );
}
