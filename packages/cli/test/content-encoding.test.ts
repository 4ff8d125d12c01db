/**
 * One content decoder for every command (`src/transport/decode.ts`): `check` (robots.txt) and `audit` (robots.txt and
 * the page) read the same gzip, zlib-wrapped deflate, raw deflate and br answers of a real server on 127.0.0.1 alike.
 * Before, `audit`'s page reader had a decoder of its own that failed on raw deflate ("incorrect header check") and on
 * any list of codings, which `check` read.
 */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditJson } from '../src/answers/audit.js';
import type { CheckJson } from '../src/crawl/verdict.js';
import { contentDecoders, decodedBody } from '../src/transport/decode.js';
import { run } from './helpers.js';
import { type Site, Sites } from './sites.js';

const ROBOTS = 'User-agent: *\nDisallow: /private/\n';
const PAGE = '<!doctype html><html><head><meta name="robots" content="noindex"></head><body>hi</body></html>';

/** Each encoding as a server sends it: the header, and the bytes under it. */
const ENCODINGS: Record<string, { header: string; encode: (bytes: Buffer) => Buffer }> = {
  gzip: { header: 'gzip', encode: (b) => gzipSync(b) },
  'deflate (zlib)': { header: 'deflate', encode: (b) => deflateSync(b) },
  'deflate (raw)': { header: 'deflate', encode: (b) => deflateRawSync(b) },
  br: { header: 'br', encode: (b) => brotliCompressSync(b) },
  'gzip, br': { header: 'gzip, br', encode: (b) => brotliCompressSync(gzipSync(b)) },
};

const sites = new Sites();
const byEncoding = new Map<string, Site>();

beforeAll(async () => {
  for (const [name, { header, encode }] of Object.entries(ENCODINGS)) {
    const site = await sites.start((req, res) => {
      const [type, body] = req.url === '/robots.txt' ? ['text/plain', ROBOTS] : ['text/html', PAGE];
      res.writeHead(200, { 'content-type': type, 'content-encoding': header }).end(encode(Buffer.from(body)));
    });
    byEncoding.set(name, site);
  }
});
afterAll(() => sites.closeAll());

describe.each(Object.keys(ENCODINGS))('a site answering in %s', (name) => {
  const origin = () => byEncoding.get(name)!.origin;

  it('check reads its robots.txt', async () => {
    const result = await run(['check', `${origin()}/private/x`, `${origin()}/page`, '--json']);
    expect(result.stderr).toBe('');
    const [blocked, allowed] = JSON.parse(result.stdout) as CheckJson[];
    expect(blocked).toMatchObject({
      allowed: false,
      line: 2,
      rule: { pattern: '/private/' },
      fetch: { status: 200, outcome: 'rules', error: null, bytes: ROBOTS.length },
    });
    expect(allowed).toMatchObject({ allowed: true, line: 0 });
    expect(result.code).toBe(1);
  });

  it('audit reads its robots.txt and the page', async () => {
    const page = await run(['audit', `${origin()}/page`, '--json']);
    expect(page.stderr).toBe('');
    const doc = JSON.parse(page.stdout) as AuditJson;
    expect(doc.robots).toMatchObject({ allowed: true, fetch: { outcome: 'rules', bytes: ROBOTS.length } });
    expect(doc.page?.meta).toEqual([{ name: 'robots', content: 'noindex' }]);
    expect(doc).toMatchObject({ crawlable: true, indexable: false, verdict: 'can be crawled, will not be indexed' });
    expect(page.code).toBe(1);

    const blocked = JSON.parse((await run(['audit', `${origin()}/private/x`, '--json'])).stdout) as AuditJson;
    expect(blocked.robots).toMatchObject({ allowed: false, line: 2 });
  });
});

describe('the decoder', () => {
  const decode = (bytes: Buffer, coding: string | null) => text(decodedBody(Readable.from([bytes]), coding));

  it('undoes the codings of a list last first, and leaves a body under an unknown coding as sent', async () => {
    const plain = Buffer.from(ROBOTS);
    expect(await decode(gzipSync(deflateRawSync(plain)), 'deflate, gzip')).toBe(ROBOTS);
    expect(await decode(deflateSync(plain), ' DEFLATE ')).toBe(ROBOTS);
    expect(await decode(gzipSync(plain), 'x-gzip')).toBe(ROBOTS);
    expect(await decode(plain, null)).toBe(ROBOTS);
    expect(contentDecoders('gzip, zstd-unknown')).toEqual([]);
    expect(await decode(plain, 'gzip, zstd-unknown')).toBe(ROBOTS);
  });

  it('reads a body cut off as far as it goes, as fetch does, and refuses more than five codings', async () => {
    const whole = gzipSync(Buffer.from(ROBOTS.repeat(50)));
    const cut = await decode(whole.subarray(0, whole.length - 8), 'gzip');
    expect(ROBOTS.repeat(50).startsWith(cut)).toBe(true);
    expect(cut.length).toBeGreaterThan(0);
    expect(() => contentDecoders('gzip,gzip,gzip,gzip,gzip,gzip')).toThrow(/too many content-encodings/);
  });
});
