/**
 * The tester's plain-data modules, outside the browser: the share-link codec and reading the service's live-file
 * answers. (Everything that needs a page is in ../browser.)
 */

import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FileAnalysis, sameBytes, verdictsOf } from '../src/engine/analyze.js';
import { liveFileFrom, liveTarget, retargetUrls } from '../src/pages/tester/live-fetch.js';
import { shortOperator } from '../src/pages/tester/operator.js';
import { decodeState, encodeState, MAX_STATE_BYTES, type TesterState } from '../src/pages/tester/share.js';
import { bytesFor, needsBytes, sourceOf } from '../src/pages/tester/source-bytes.js';

describe('share links', () => {
  const state: TesterState = {
    text: 'User-agent: *\nDisallow: /ä/ and emoji 🤖\n',
    urls: 'https://example.com/a\n/b',
    crawler: 'Googlebot, GPTBot',
    dialect: 'legacy',
  };

  it('round-trips every field through a URL-safe hash', async () => {
    const hash = await encodeState(state);
    expect(hash).toMatch(/^#s=[A-Za-z0-9_-]+$/);
    expect(await decodeState(hash)).toEqual(state);
    expect(await decodeState(hash.slice(1))).toEqual(state);
  });

  it('carries the purpose the "By purpose" view shows, and drops a purpose the catalogue does not have', async () => {
    for (const purpose of ['ai', 'ai-training', 'control-token'] as const) {
      expect(await decodeState(await encodeState({ ...state, purpose }))).toEqual({ ...state, purpose });
    }
    expect(await decodeState(await encodeState({ ...state, purpose: null }))).toEqual(state);
    const bogus = await encodeState({ ...state, purpose: 'world-domination' as never });
    expect(await decodeState(bogus)).toEqual(state);
  });

  it('ignores hashes that are not share links and explains damaged ones', async () => {
    expect(await decodeState('')).toBeNull();
    expect(await decodeState('#section-2')).toBeNull();
    await expect(decodeState('#s=AAAAnot-deflate')).rejects.toThrow(/The link is damaged/);
    const hash = await encodeState(state);
    await expect(decodeState(hash.slice(0, hash.length - 10))).rejects.toThrow(/cut short/);
  });

  it('stops unpacking a link past its cap and says so, while the largest file a link can carry still opens', async () => {
    // 32 KB of link that would unpack to 32 MiB (deflate packs a repeated byte about 1,000 to 1).
    const huge = Buffer.from(`{"v":1,"t":"${'a'.repeat(32 * 1024 * 1024)}","u":"","c":"","d":"google"}`);
    const bomb = `#s=${deflateRawSync(huge, { level: 9 }).toString('base64url')}`;
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(decodeState(bomb)).rejects.toThrow(
      'The link unpacks to more than 2 MiB, more than any link the tester writes, so it was not opened.',
    );
    // A 500 KiB file (Google's limit) with its exact bytes beside its text fits under the cap.
    const text = 'User-agent: *\nDisallow: /"quoted"\\path\n'.repeat(13_000).slice(0, 500 * 1024);
    const bytes = new TextEncoder().encode(text);
    bytes[0] = 0xff;
    const largest = { ...state, text: sourceOf(bytes).text, bytes };
    const hash = await encodeState(largest);
    const restored = await decodeState(hash);
    expect(restored?.text === largest.text).toBe(true);
    // Compared as one buffer: a deep comparison of 500 KiB element by element takes seconds.
    expect(Buffer.from(restored?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
    expect(MAX_STATE_BYTES).toBe(2 * 1024 * 1024);
  });

  it('carries the exact bytes of a file whose text is not its UTF-8', async () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0x55, 0x3a, 0xe9, 0x0d]);
    const withBytes = { ...state, text: sourceOf(bytes).text, bytes };
    expect(await decodeState(await encodeState(withBytes))).toEqual(withBytes);
    // The text shown is always the bytes' own, whatever the link's text says.
    expect((await decodeState(await encodeState({ ...state, bytes })))?.text).toBe('\ufffdU:\ufffd\n');
  });

  it('tests the loaded bytes only while the editor still shows their text', () => {
    const bytes = Uint8Array.from([...Buffer.from('User-agent: *\rDisallow: /caf'), 0xe9]);
    const source = sourceOf(bytes);
    expect(source.text).toBe('User-agent: *\nDisallow: /caf\ufffd');
    expect(bytesFor(source, source.text)).toBe(bytes);
    expect(bytesFor(source, `${source.text}x`)).toBeNull();
    expect(needsBytes(bytes, source.text)).toBe(true);
    expect(needsBytes(new TextEncoder().encode('plain\n'), 'plain\n')).toBe(false);
    expect(sameBytes(Uint8Array.from([1, 2]), Uint8Array.from([1, 2]))).toBe(true);
    expect(sameBytes(Uint8Array.from([1, 2]), null)).toBe(false);
  });

  it('falls back to defaults for fields a link lacks', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ v: 1, t: 'User-agent: *' }));
    const deflated = new Uint8Array(
      await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer(),
    );
    const hash = `#s=${Buffer.from(deflated).toString('base64url')}`;
    expect(await decodeState(hash)).toEqual({ text: 'User-agent: *', urls: '', crawler: '', dialect: 'google' });
  });
});

describe('live file targets and example URLs', () => {
  it('asks for loopback and IP addresses with no scheme over http, and leaves the rest', () => {
    expect(liveTarget('127.0.0.1:18720')).toBe('http://127.0.0.1:18720');
    expect(liveTarget('localhost:3000/robots.txt')).toBe('http://localhost:3000/robots.txt');
    expect(liveTarget('[::1]:8080')).toBe('http://[::1]:8080');
    expect(liveTarget('example.com')).toBe('example.com');
    expect(liveTarget('https://127.0.0.1:8443/')).toBe('https://127.0.0.1:8443/');
  });

  it('moves example.com URLs to the loaded origin and keeps the others', () => {
    expect(retargetUrls('https://example.com/a?b=1\n/path\nhttps://other.invalid/x', 'http://127.0.0.1:9')).toBe(
      'http://127.0.0.1:9/a?b=1\n/path\nhttps://other.invalid/x',
    );
    // A lone `?` is kept: the engine matches `/search?` against `/*?`.
    expect(retargetUrls('https://example.com/search?\nhttps://example.com/s?#f', 'http://127.0.0.1:9')).toBe(
      'http://127.0.0.1:9/search?\nhttp://127.0.0.1:9/s?',
    );
    const mine = 'https://shop.invalid/a';
    expect(retargetUrls(mine, 'http://127.0.0.1:9')).toBe(mine);
  });

  it('says operators in a few words', () => {
    expect(shortOperator('Unclear at this time.')).toBe('');
    expect(shortOperator('[Ai2](https://allenai.org/crawler)')).toBe('Ai2');
    expect(shortOperator('Ai2, a non-profit AI research institute')).toBe('Ai2');
    expect(shortOperator('Google')).toBe('Google');
  });
});

describe('live file answers', () => {
  const base = {
    robotsUrl: 'https://example.com/robots.txt',
    finalUrl: 'https://www.example.com/robots.txt',
    outcome: 'rules',
    status: 200,
    error: null,
    content: 'User-agent: *\nDisallow: /x\n',
    truncated: false,
    html: false,
  };

  it('reads the body and where it came from', () => {
    expect(liveFileFrom(base, 'example.com')).toEqual({
      url: 'https://www.example.com/robots.txt',
      // The origin the file governs is the one asked for, also after a redirect to www.
      origin: 'https://example.com',
      text: 'User-agent: *\nDisallow: /x\n',
      bytes: null,
      outcome: 'rules',
      status: 200,
      problem: null,
      notes: [],
    });
  });

  it('keeps the exact bytes when the service sends them, and shows their text', () => {
    const bytes = Uint8Array.from([...Buffer.from('User-agent: *\r\nDisallow: /caf'), 0xe9, 0x0a]);
    const file = liveFileFrom({ ...base, contentBase64: Buffer.from(bytes).toString('base64') }, 'example.com');
    expect(file.bytes).toEqual(bytes);
    expect(file.text).toBe('User-agent: *\nDisallow: /caf\ufffd\n');
  });

  it('says what a cut, HTML or non-rules body means', () => {
    expect(liveFileFrom({ ...base, truncated: true, html: true, outcome: 'allow-all' }, 'x').notes).toEqual([
      'It is longer than 500 KiB: Google reads only the first 500 KiB, shown here.',
      'The server sent an HTML page, not a robots.txt.',
      'Crawlers must treat this answer as allowing everything.',
    ]);
  });

  it('explains a missing body: the error, or the status, and what crawlers must do', () => {
    const network = liveFileFrom(
      {
        ...base,
        finalUrl: null,
        content: null,
        status: null,
        outcome: 'disallow-all',
        error: { kind: 'network', message: 'connection refused' },
      },
      'example.com',
    );
    expect(network.url).toBe('https://example.com/robots.txt');
    expect(network.text).toBeNull();
    expect(network.problem).toBe('connection refused. Crawlers must treat the whole site as disallowed for now.');
    const missing = liveFileFrom({ ...base, content: null, status: 404, outcome: 'allow-all' }, 'example.com');
    expect(missing.problem).toBe(
      'The server answered HTTP 404 with no robots.txt. Crawlers may fetch everything on this site.',
    );
    // The service's words from the engine's catalogue win over a runtime's raw text.
    const tls = liveFileFrom(
      {
        ...base,
        content: null,
        status: null,
        outcome: 'disallow-all',
        error: { kind: 'tls', message: 'C0:error:0A00010B:SSL routines::wrong version number' },
        summary: 'TLS failure: the server does not speak TLS on this port (plain http?)',
      },
      'example.com',
    );
    expect(tls.problem).toBe(
      'TLS failure: the server does not speak TLS on this port (plain http?). Crawlers must treat the whole site as disallowed for now.',
    );
    const blocked = liveFileFrom(
      {
        ...base,
        content: null,
        status: null,
        outcome: 'disallow-all',
        error: { kind: 'blocked', message: 'x' },
        summary: 'not fetched: the address is private or loopback, which this service may not reach',
      },
      'example.com',
    );
    expect(blocked.problem).toMatch(/^Not fetched: the address is private.*--allow-private-addresses\./);
  });

  it('accepts a body as base64 and survives answers that are not objects', () => {
    const encoded = liveFileFrom({ bodyBase64: Buffer.from('User-agent: *\n').toString('base64') }, 'example.com');
    expect(encoded.text).toBe('User-agent: *\n');
    expect(encoded.url).toBe('example.com');
    expect(liveFileFrom(null, 'example.com').problem).toBe('The service returned no robots.txt body.');
  });
});

describe("the tester's crawler summary", () => {
  it('asks "did you mean" for a name a typo away from a catalogue name, as the command line warns', () => {
    const file = new FileAnalysis('User-agent: Googlebot\nDisallow: /\n');
    const ask = (crawlers: string[]) =>
      verdictsOf(file, { urls: ['https://example.com/x'], crawlers, dialect: 'google', matrix: false, textId: 1 })
        .crawlerSummary;
    expect(ask(['Googelbot'])).toBe('Not in the catalogue: matched as a product token. Did you mean Googlebot?');
    expect(ask(['MyOwnCrawler'])).toBe('Not in the catalogue: matched as a product token.');
  });
});
