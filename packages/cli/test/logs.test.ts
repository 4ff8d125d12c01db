/**
 * `robotskit logs` in-process: the line formats (Combined, Common, JSON lines with named fields), gzip by magic bytes,
 * dated versions, malformed lines counted, the verifier's verdicts over a scripted resolver and range files, and a clear
 * one-line error (exit 2) for every bad input.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type IdentifiedCrawler, identifyCrawler } from 'robotskit';
import {
  arpaName,
  clfTime,
  DEFAULT_JSON_FIELDS,
  type Dns,
  LogAnalysis,
  parseClf,
  parseJsonLine,
  parseLogLineAt,
  parseRangeFile,
  Verifier,
  versionTime,
} from 'robotskit/logs';
import { describe, expect, it } from 'vitest';
import { processIo } from '../src/io.js';
import { logBlocks } from '../src/logs/input.js';
import { tempDir } from './cleanup.js';
import { run } from './helpers.js';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const dir = tempDir('logs');
const robotsFile = join(dir, 'robots.txt');
writeFileSync(
  robotsFile,
  'User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n',
);

function combined(ip: string, time: string, target: string, ua: string, status = 200): string {
  return `${ip} - - [${time}] "GET ${target} HTTP/1.1" ${status} 12 "-" "${ua}"`;
}

describe('log lines', () => {
  it('reads Combined Log Format, escaped quotes and a proxy-form target included', () => {
    const line = `66.249.66.1 - frank [10/Oct/2026:13:55:36 -0700] "GET http://site.invalid/a?b=1 HTTP/1.0" 200 2326 "http://ref.invalid/\\"x\\"" "Mozilla/5.0 (compatible; \\"Quoted\\"Bot/1.0)"`;
    expect(parseClf(line, true)).toEqual({
      ip: '66.249.66.1',
      time: Date.parse('2026-10-10T20:55:36Z'),
      method: 'GET',
      target: 'http://site.invalid/a?b=1',
      status: 200,
      userAgent: 'Mozilla/5.0 (compatible; "Quoted"Bot/1.0)',
      host: null,
    });
  });

  it('reads Common Log Format (no User-Agent) unless combined is required', () => {
    const line = '192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET /x HTTP/1.1" 404 0';
    expect(parseClf(line, false)).toMatchObject({ target: '/x', status: 404, userAgent: '' });
    expect(parseClf(line, true)).toBe('no User-Agent field (a Common Log Format line?)');
  });

  it.each([
    ['', 'not a Common or Combined Log Format line'],
    ['1.2.3.4 - - [32/Foo/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1', "unreadable time '32/Foo/2026:00:00:00 +0000'"],
    ['1.2.3.4 - - [01/Nov/2026:00:00:00 +0000] "-" 408 0 "-" "-"', 'no request line'],
    ['1.2.3.4 - - [01/Nov/2026:00:00:00 +0000] "GET / HTTP/1.1 200 1', 'the request line has no closing quote'],
  ])('says what is wrong with %j', (line, reason) => {
    expect(parseClf(line, false)).toBe(reason);
  });

  it('reads the lines of a block in place, each escape within its own line', () => {
    const agents = ['A/1 \\"x\\"', 'B/2', 'C/3 \\\\', 'D/4'];
    const block = agents.map((ua, i) => combined('192.0.2.1', `01/Nov/2026:00:00:0${i} +0000`, `/${i}`, ua)).join('\n');
    const read = () => {
      const found: unknown[] = [];
      for (let start = 0; start <= block.length; ) {
        const end = block.indexOf('\n', start) < 0 ? block.length : block.indexOf('\n', start);
        found.push(parseLogLineAt(block, start, end, 'combined', DEFAULT_JSON_FIELDS));
        start = end + 1;
      }
      return found;
    };
    const expected = ['A/1 "x"', 'B/2', 'C/3 \\', 'D/4'].map((userAgent, i) => ({
      target: `/${i}`,
      time: Date.parse(`2026-11-01T00:00:0${i}Z`),
      userAgent,
    }));
    expect(read()).toMatchObject(expected);
    // The same text again (what a search remembered of it must not leak into the second reading).
    expect(read()).toMatchObject(expected);
  });

  it('reads CLF times with their offset', () => {
    expect(clfTime('01/Nov/2026:02:00:00 +0200')).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(clfTime('01/Nov/2026:00:00:00.250 -0130')).toBe(Date.parse('2026-11-01T01:30:00.250Z'));
    expect(clfTime('1/Nov/2026')).toBeNaN();
  });

  it('reads JSON lines by the usual names, nested ones and a whole request line', () => {
    expect(
      parseJsonLine(
        '{"time":"2026-11-01T00:00:00Z","remote_addr":"1.2.3.4","request":"HEAD /a?b HTTP/2.0","status":"200","http_user_agent":"X"}',
        DEFAULT_JSON_FIELDS,
      ),
    ).toEqual({
      ip: '1.2.3.4',
      time: Date.parse('2026-11-01T00:00:00Z'),
      method: 'HEAD',
      target: '/a?b',
      status: 200,
      userAgent: 'X',
      host: null,
    });
    expect(
      parseJsonLine(
        '{"ts":1793491200.5,"request":{"remote_ip":"::1","method":"GET","uri":"/z","headers":{"User-Agent":["Y"]}},"status":301}',
        DEFAULT_JSON_FIELDS,
      ),
    ).toMatchObject({ ip: '::1', time: 1793491200500, target: '/z', status: 301, userAgent: 'Y' });
    expect(parseJsonLine('[1]', DEFAULT_JSON_FIELDS)).toBe('not a JSON object');
    expect(parseJsonLine('{"uri":"/a"}', DEFAULT_JSON_FIELDS)).toMatch(/^no readable time/);
    expect(parseJsonLine('{"time":1}', DEFAULT_JSON_FIELDS)).toMatch(/^no request target/);
  });
});

describe('robots.txt versions', () => {
  it('reads the moment from the file name, UTC unless it says otherwise', () => {
    expect(versionTime('2026-11-01.txt')).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(versionTime('2026-11-01T08:30:00Z.txt')).toBe(Date.parse('2026-11-01T08:30:00Z'));
    expect(versionTime('2026-11-01T08-30-00Z.txt')).toBe(Date.parse('2026-11-01T08:30:00Z'));
    expect(versionTime('2026-11-01T08:30:00+02:00.txt')).toBe(Date.parse('2026-11-01T06:30:00Z'));
    expect(versionTime('2026-02-30.txt')).toBeNaN();
    expect(versionTime('robots.txt')).toBeNaN();
  });
});

describe('the verifier', () => {
  const ranges = new Map([
    [
      'gptbot',
      [
        parseRangeFile(
          '{"prefixes":[{"ipv4Prefix":"20.171.206.0/24"},{"ipv6Prefix":"2001:db8:1::/48"}]}',
          'gptbot.json',
        ),
      ],
    ],
  ]);
  const records: Record<string, string[]> = {
    [arpaName('66.249.66.1', 'ipv4')]: ['crawl-66-249-66-1.googlebot.com'],
    'crawl-66-249-66-1.googlebot.com': ['66.249.66.1'],
    [arpaName('192.0.2.1', 'ipv4')]: ['crawl.googlebot.com.example.invalid'],
  };
  const asked: string[] = [];
  const lookup = async (name: string) => {
    asked.push(name);
    if (name === arpaName('192.0.2.2', 'ipv4')) throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
    const found = records[name];
    if (found === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found;
  };
  const dns: Dns = { resolvePtr: lookup, resolve4: lookup, resolve6: lookup };
  let now = 0;
  const verifier = new Verifier({ dns, ranges, ttl: 10_000, timeout: 1000, now: () => now });
  const googlebot = identifyCrawler(GOOGLEBOT)!;
  const gptbot = identifyCrawler('GPTBot/1.2')!;

  it('verifies by forward-confirmed reverse DNS, and caches the answer for its time', async () => {
    expect(await verifier.verify(googlebot, '66.249.66.1')).toEqual({
      status: 'verified',
      reason: 'crawl-66-249-66-1.googlebot.com (resolves back)',
    });
    const before = asked.length;
    await verifier.verify(googlebot, '66.249.66.1');
    expect(asked.length).toBe(before);
    now = 20_000;
    await verifier.verify(googlebot, '66.249.66.1');
    expect(asked.length).toBe(before + 2);
  });

  it('calls spoofed a name not the operator’s and an address with no name; a DNS failure unverifiable', async () => {
    expect((await verifier.verify(googlebot, '192.0.2.1')).status).toBe('spoofed');
    expect((await verifier.verify(googlebot, '192.0.2.3')).status).toBe('spoofed');
    expect(await verifier.verify(googlebot, '192.0.2.2')).toEqual({ status: 'unverifiable', reason: 'DNS timed out' });
  });

  it('verifies by range files, both families, and calls an address outside them spoofed', async () => {
    expect(await verifier.verify(gptbot, '20.171.206.9')).toEqual({ status: 'verified', reason: 'in gptbot.json' });
    expect((await verifier.verify(gptbot, '::ffff:20.171.206.10')).status).toBe('verified');
    expect((await verifier.verify(gptbot, '2001:db8:1::7')).status).toBe('verified');
    expect(await verifier.verify(gptbot, '20.171.207.1')).toEqual({ status: 'spoofed', reason: 'not in gptbot.json' });
  });

  it('cannot verify an unknown bot, a crawler whose operator documents nothing, or a non-address', async () => {
    expect((await verifier.verify(identifyCrawler('ExampleCrawler/1')!, '1.2.3.4')).status).toBe('unverifiable');
    expect((await verifier.verify(identifyCrawler('ClaudeBot/1.0')!, '1.2.3.4')).reason).toMatch(/documents no way/);
    expect((await verifier.verify(googlebot, '-')).reason).toBe("'-' is not an IP address");
  });

  it('answers at once, as verify does, what needs no DNS question; null for what needs one', async () => {
    const cases: [IdentifiedCrawler, string][] = [
      [gptbot, '20.171.206.9'],
      [gptbot, '20.171.207.1'],
      [gptbot, '2001:db8:1::7'],
      [identifyCrawler('ExampleCrawler/1')!, '1.2.3.4'],
      [identifyCrawler('ClaudeBot/1.0')!, '1.2.3.4'],
      [googlebot, '-'],
    ];
    const before = asked.length;
    for (const [crawler, ip] of cases)
      expect(verifier.verifyNow(crawler, ip)).toEqual(await verifier.verify(crawler, ip));
    expect(asked.length).toBe(before);
    expect(verifier.verifyNow(googlebot, '66.249.66.1')).toBeNull();
    const noDns = new Verifier({ dns: null, ranges, ttl: 1000, timeout: 1000, hints: { dns: ': give --verify' } });
    expect(noDns.verifyNow(googlebot, '66.249.66.1')).toEqual({
      status: 'unverifiable',
      reason: 'reverse DNS is off: give --verify',
    });
  });

  it('asks at most `concurrency` DNS questions at once', async () => {
    let open = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const slow = (name: string) =>
      new Promise<string[]>((resolve, reject) => {
        open++;
        most = Math.max(most, open);
        releases.push(() => {
          open--;
          if (name.endsWith('.arpa')) reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
          else resolve([]);
        });
      });
    const limited = new Verifier({
      dns: { resolvePtr: slow, resolve4: slow, resolve6: slow },
      ranges: new Map(),
      ttl: 1000,
      timeout: 60_000,
      concurrency: 3,
    });
    const answers = Array.from({ length: 10 }, (_, i) => limited.verify(googlebot, `192.0.2.${i + 10}`));
    while (releases.length > 0 || open > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual(Array(10).fill('spoofed'));
    expect(most).toBe(3);
  });

  it('keeps at most maxEntries answers, dropping the oldest first; settled gives a kept answer without waiting', async () => {
    const seen: string[] = [];
    const counted = async (name: string): Promise<string[]> => {
      seen.push(name);
      throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
    };
    const small = new Verifier({
      dns: { resolvePtr: counted, resolve4: counted, resolve6: counted },
      ranges: new Map(),
      ttl: 60_000,
      timeout: 1000,
      maxEntries: 32,
    });
    expect(small.settled(googlebot, '192.0.2.1')).toBeUndefined();
    for (let i = 1; i <= 40; i++) await small.verify(googlebot, `192.0.2.${i}`);
    expect(seen.length).toBe(40);
    // The newest are kept (answered again without a question), the oldest were dropped (asked again).
    expect(small.settled(googlebot, '192.0.2.40')?.status).toBe('spoofed');
    await small.verify(googlebot, '192.0.2.40');
    expect(seen.length).toBe(40);
    expect(small.settled(googlebot, '192.0.2.1')).toBeUndefined();
    await small.verify(googlebot, '192.0.2.1');
    expect(seen.length).toBe(41);
  });

  it('writes IPv6 reverse names in full nibbles', () => {
    expect(arpaName('2001:db8::b1', 'ipv6')).toBe(`1.b.0.0.${'0.'.repeat(20)}8.b.d.0.1.0.0.2.ip6.arpa`);
  });
});

describe('per-crawler aggregates', () => {
  it('keep at most the configured addresses, counting further requests as not checked', async () => {
    const { loadVersions } = await import('../src/logs/load-versions.js');
    const { versions } = await loadVersions(robotsFile);
    const analysis = new LogAnalysis({ versions, verifier: null, maxAddresses: 2 });
    for (let i = 0; i < 5; i++) {
      analysis.add({
        ip: `10.0.0.${i}`,
        time: i * 1000,
        method: 'GET',
        target: '/',
        status: 200,
        userAgent: GOOGLEBOT,
        host: null,
      });
    }
    const [row] = await analysis.rows();
    expect(row!.addresses).toBe(2);
    expect(row!.verification.requests).toEqual({ verified: 0, spoofed: 0, unverifiable: 0, unchecked: 5 });
  });
});

describe('robotskit logs', () => {
  const lines = [
    combined('66.249.66.1', '01/Nov/2026:00:00:00 +0000', '/robots.txt', GOOGLEBOT),
    combined('66.249.66.1', '01/Nov/2026:00:00:01 +0000', '/nogoogle/x', GOOGLEBOT),
    combined('192.0.2.8', '01/Nov/2026:00:00:01 +0000', '/private/a', 'SomeSpider/2.0'),
    combined('192.0.2.8', '01/Nov/2026:00:00:01 +0000', '/private/b', 'SomeSpider/2.0'),
    combined(
      '192.0.2.9',
      '01/Nov/2026:00:00:02 +0000',
      '/private/a',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/132.0',
    ),
    'this is not a log line',
  ];
  const log = join(dir, 'access.log');
  writeFileSync(log, `${lines.join('\n')}\n`);

  it('judges every request, reports per crawler, and exits 1 on violations', async () => {
    const result = await run(['logs', log, '--robots', robotsFile, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ lines: 6, requests: 5, otherRequests: 1, violations: 3, malformed: { lines: 1 } });
    expect(report.malformed.examples).toEqual([
      { file: log, line: 6, reason: 'not a Common or Combined Log Format line' },
    ]);
    const spider = report.crawlers.find((c: { name: string }) => c.name === 'SomeSpider');
    expect(spider).toMatchObject({
      known: false,
      requests: 2,
      disallowed: 2,
      robotsTxt: { fetches: 0, fetchedFirst: false },
    });
    // Crawl-delay 1 in the * group: the second request came in the same second.
    expect(spider.crawlDelay).toMatchObject({ seconds: 1, line: 3, tooSoon: 1 });
    const google = report.crawlers.find((c: { name: string }) => c.name === 'Googlebot');
    expect(google).toMatchObject({ disallowed: 1, robotsTxt: { fetches: 1, fetchedFirst: true }, crawlDelay: null });
    expect(google.violations).toEqual([{ version: 'robots.txt', line: 6, rule: 'Disallow: /nogoogle', requests: 1 }]);
    expect(google.verification.status).toBe('unchecked');
  });

  it('counts a line over 1 MiB as unreadable, without keeping it', async () => {
    const long = join(dir, 'long.log');
    writeFileSync(long, `${lines[1]}\n${'x'.repeat(3 << 20)}\n${lines[2]}\n${'y'.repeat((1 << 20) + 5)}`);
    const result = await run(['logs', long, '--robots', robotsFile, '--json']);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ lines: 4, requests: 2, violations: 2 });
    expect(report.malformed.examples).toEqual([
      { file: long, line: 2, reason: 'line over 1 MiB' },
      { file: long, line: 4, reason: 'line over 1 MiB' },
    ]);
  });

  it('reads a log of many chunks: a BOM, CRLF ends, UTF-8 cut at a chunk edge, escaped quotes', async () => {
    const filler = (i: number) =>
      combined('192.0.2.9', '01/Nov/2026:00:00:03 +0000', `/page/${i}`, 'Mozilla/5.0 (X11; Linux) Firefox/132.0');
    const head = [
      `\uFEFF${lines[0]}`,
      '192.0.2.8 - - [01/Nov/2026:00:00:01 +0000] "GET /private/a HTTP/1.1" 200 12 "-" "SomeSpider/2.0 \\"q\\""',
      ...Array.from({ length: 5000 }, (_, i) => filler(i)),
    ];
    // A Googlebot line whose referer is 1.2 MB of two-byte characters; the file is read in 1 MiB chunks, and the
    // first chunk ends in the middle of one of them.
    let before = `${head.join('\r\n')}\r\n66.249.66.1 - - [01/Nov/2026:00:00:04 +0000] "GET /nogoogle/y HTTP/1.1" 200 12 "`;
    if ((2 ** 20 - Buffer.byteLength(before)) % 2 === 0) before += 'a';
    expect(Buffer.byteLength(before)).toBeLessThan(2 ** 20);
    const tail = [
      ...Array.from({ length: 5000 }, (_, i) => filler(i)),
      '192.0.2.8 - - [01/Nov/2026:00:00:05 +0000] "GET /private/b HTTP/1.1" 200 12 "-" "SomeSpider/2.0"',
    ];
    const text = `${before}${'\u00e9'.repeat(600_000)}" "${GOOGLEBOT}"\r\n${tail.join('\r\n')}\r\n`;
    const big = join(dir, 'chunks.log');
    writeFileSync(big, text);
    // The blocks of text, joined at the line feeds they were cut at, are the file's text, whole, without its BOM.
    const blocks: string[] = [];
    for await (const block of logBlocks(processIo, big)) blocks.push(block);
    expect(blocks.length).toBeGreaterThan(1);
    expect(blocks.join('\n') === text.slice(1, -1)).toBe(true);
    const report = JSON.parse((await run(['logs', big, '--robots', robotsFile, '--json'])).stdout);
    expect(report).toMatchObject({ lines: 10_004, requests: 10_004, otherRequests: 10_000, malformed: { lines: 0 } });
    const google = report.crawlers.find((c: { name: string }) => c.name === 'Googlebot');
    expect(google).toMatchObject({
      requests: 2,
      addresses: 1,
      disallowed: 1,
      robotsTxt: { fetches: 1, fetchedFirst: true },
    });
    const spider = report.crawlers.find((c: { name: string }) => c.name === 'SomeSpider');
    expect(spider).toMatchObject({ requests: 2, disallowed: 2 });
  });

  it('draws a progress bar on a terminal, and clears it before the summary', async () => {
    const result = await run(['logs', log, '--robots', robotsFile], { tty: true });
    expect(result.code).toBe(1);
    expect(result.stderr.startsWith(`\r[${'#'.repeat(20)}] 100% 0 lines, 0 violation(s)\u001b[K`)).toBe(true);
    expect(result.stderr.endsWith('\r\u001b[K')).toBe(true);
    const piped = await run(['logs', log, '--robots', robotsFile]);
    expect(piped.stderr).toBe('');
  });

  it('reads gzip by its magic bytes, whatever the name, and standard input', async () => {
    const gz = join(dir, 'rotated.1');
    writeFileSync(gz, gzipSync(readFileSync(log)));
    const fromGzip = await run(['logs', gz, '--robots', robotsFile, '--json']);
    expect(JSON.parse(fromGzip.stdout)).toMatchObject({ lines: 6, violations: 3 });
    const fromStdin = await run(['logs', '-', '--robots', robotsFile, '--violations', '-'], {
      stdin: gzipSync(readFileSync(log)),
    });
    expect(fromStdin.code).toBe(1);
    expect(
      fromStdin.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).target),
    ).toEqual(['/nogoogle/x', '/private/a', '/private/b']);
    expect(fromStdin.stderr).toContain('3 violation(s)');
  });

  it('reads JSON lines with --field, and exits 0 with no violation', async () => {
    const json = join(dir, 'access.ndjson');
    writeFileSync(
      json,
      `${JSON.stringify({ when: '2026-11-01T00:00:00Z', client: '192.0.2.1', uri: '/ok', agent: GOOGLEBOT })}\n`,
    );
    const result = await run([
      'logs',
      json,
      '--robots',
      robotsFile,
      '--field',
      'time=when',
      '--field',
      'ip=client',
      '--field',
      'userAgent=agent',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Googlebot (Google): 1 request(s), 0 disallowed');
    expect(result.stdout).toContain('no violations');
  });

  it('judges by the version in force, and leaves requests before the first unjudged', async () => {
    const versions = join(dir, 'versions');
    mkdirSync(versions);
    writeFileSync(join(versions, '2026-11-01T00:00:01Z.txt'), 'User-agent: *\nDisallow: /private/\n');
    writeFileSync(join(versions, '2026-11-01T00-00-02Z.txt'), 'User-agent: *\nAllow: /\n');
    writeFileSync(join(versions, 'notes.md'), 'ignored');
    const result = await run(['logs', log, '--robots', versions, '--json']);
    const report = JSON.parse(result.stdout);
    const spider = report.crawlers.find((c: { name: string }) => c.name === 'SomeSpider');
    expect(spider.violations).toEqual([
      { version: '2026-11-01T00:00:01Z.txt', line: 2, rule: 'Disallow: /private/', requests: 2 },
    ]);
    const google = report.crawlers.find((c: { name: string }) => c.name === 'Googlebot');
    expect([google.unjudged, google.disallowed]).toEqual([0, 0]);
    expect(report.versions.map((v: { since: string }) => v.since)).toEqual([
      '2026-11-01T00:00:01.000Z',
      '2026-11-01T00:00:02.000Z',
    ]);
  });

  it.each([
    [['logs', 'nope.log', '--robots', 'robots.txt'], "cannot read the log 'nope.log': no such file"],
    [
      ['logs', '{log}'],
      'logs needs --robots FILE (one robots.txt), --robots DIR (dated versions, or a folder per host) or --service URL (with --property P for one site)',
    ],
    [['logs', '{log}', '--robots', '{dir}/missing'], 'no such file or folder'],
    [['logs', '{log}', '--robots', '{robots}', '--field', 'color=x'], '--field must be KEY=NAME'],
    [['logs', '{log}', '--robots', '{robots}', '--dns-timeout', '0'], '--dns-timeout must be a positive number'],
    [['logs', '{log}', '--robots', '{robots}', '--max-addresses', 'x'], '--max-addresses must be an integer'],
    [['logs', '{log}', '--robots', '{robots}', '--ranges', '{robots}'], 'is not JSON'],
    [
      ['logs', '{log}', '--robots', '{robots}', '--ranges', '{dir}/ranges.json'],
      "no crawler's operator publishes a file named 'ranges.json'",
    ],
    [
      ['logs', '{log}', '--robots', '{robots}', '--ranges', 'GPTBot={dir}/bad-prefix.json'],
      'is not an ipv4Prefix or ipv6Prefix CIDR',
    ],
    [['logs', '{log}', '--robots', '{robots}', '--log-format', 'json'], 'no line of the log could be read as json'],
    [['logs', '{dir}/bad.gz', '--robots', '{robots}'], 'not a valid gzip file'],
    [['logs', '{log}', '--robots', '{robots}', '--violations', '{dir}/no/such/v.ndjson'], 'cannot write --violations'],
    [
      ['logs', '{dir}/badversions/x.log', '--robots', '{dir}/badversions'],
      "'current.txt' is not named by the time it came into force",
    ],
  ])('%j is a one-line error, exit 2', async (argv, message) => {
    writeFileSync(join(dir, 'ranges.json'), '{"prefixes":[]}');
    writeFileSync(join(dir, 'bad-prefix.json'), '{"prefixes":[{"ipv4Prefix":"300.1.1.1/8"}]}');
    writeFileSync(join(dir, 'bad.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5]));
    mkdirSync(join(dir, 'badversions'), { recursive: true });
    writeFileSync(join(dir, 'badversions', 'current.txt'), 'User-agent: *\n');
    writeFileSync(join(dir, 'badversions', 'x.log'), `${lines[0]}\n`);
    const args = argv.map((a) => a.replace('{log}', log).replace('{robots}', robotsFile).replace('{dir}', dir));
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
