/**
 * `robotskit audit` against a hostile page on 127.0.0.1: a gzip bomb (a small compressed body that inflates to
 * 128 MiB of HTML). The page reader stops at its cap (15 MB: what Google reads of HTML) and destroys the decompressor, so the command answers at
 * once instead of inflating (and copying) the whole bomb.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditJson } from '../src/answers/audit.js';
import { fetchPage, MAX_PAGE_BYTES } from '../src/transport/page.js';
import { spawn } from './helpers.js';
import { type Site, Sites } from './sites.js';

const sites = new Sites();
let site: Site;
const INFLATED = 128 * 1024 * 1024;
let bomb: Buffer;
/** A page whose robots meta tag comes after 3 MiB of its head. */
const late = `<!doctype html><html><head>${' '.repeat(3 * 1024 * 1024)}<meta name="robots" content="noindex"></head></html>`;

beforeAll(async () => {
  const page = Buffer.alloc(INFLATED, 0x20);
  page.write('<!doctype html><html><head><meta name="robots" content="noindex"></head><body>', 'latin1');
  bomb = gzipSync(page, { level: 9 });
  site = await sites.start((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('');
    if (req.url === '/late') return void res.writeHead(200, { 'content-type': 'text/html' }).end(late);
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb);
  });
}, 60_000);
afterAll(() => sites.closeAll());

describe('audit on a gzip bomb', () => {
  it('the bomb is small on the wire and large inflated', () => {
    expect(bomb.length).toBeLessThan(INFLATED / 500);
  });

  it('reads as much HTML as Google reads: a robots meta tag after 3 MiB counts (before: cut at 2 MiB, "indexable")', async () => {
    const r = await spawn(['audit', `${site.origin}/late`, '--timeout', '10', '--json']);
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as AuditJson).directives.noindex).toBe(true);
    expect(MAX_PAGE_BYTES).toBe(15 * 1024 * 1024);
  }, 60_000);

  it('reads at most the cap and stops inflating (before: every chunk kept and concatenated, minutes)', async () => {
    let inflated = 0;
    const page = await fetchPage(new URL(`${site.origin}/bomb`), {
      timeoutMs: 5000,
      userAgent: 'test',
      onInflated: (bytes) => {
        inflated += bytes;
      },
    });
    expect(page.html?.length).toBe(MAX_PAGE_BYTES);
    expect(page.html).toContain('noindex');
    // Give a decompressor that was left running the time to go on; it must not.
    const before = inflated;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inflated).toBe(before);
    // Work is bounded by the cap plus one decompressor chunk, not by the bomb's size.
    expect(inflated).toBeLessThan(MAX_PAGE_BYTES + 1024 * 1024);
  });

  it('the command answers from the first 15 MB and exits (before: it went on inflating for minutes)', async () => {
    const r = await spawn(['audit', `${site.origin}/bomb`, '--timeout', '5', '--json']);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as AuditJson;
    expect(doc.directives.noindex).toBe(true);
    expect(r.code).toBe(1);
  }, 60_000);
});
