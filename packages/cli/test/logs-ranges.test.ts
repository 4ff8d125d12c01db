/**
 * Range files beyond Google's format: the JAFAR draft's (services per prefix, the most specific prefix deciding,
 * prefix objects with both or neither family ignored), and `--ranges URL` fetched from a loopback server into the
 * user cache: used while fresh, revalidated with ETag (304), kept when the publisher fails, `no-store` honoured,
 * `--offline` from the cache alone, and a JAFAR major version above 1 refused.
 */

import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseRanges } from 'robotskit/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRanges } from '../src/logs/load-ranges.js';
import { tempDir } from './cleanup.js';
import { run } from './helpers.js';

const dir = tempDir('logs-ranges');
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

describe('JAFAR range files', () => {
  const aggregated = {
    synctoken: '20261101000000',
    creationTime: '2026-11-01T00:00:00Z',
    notes: 'an aggregated feed',
    prefixes: [
      { ipv4Prefix: '198.51.100.0/22', services: ['GPTBot'] },
      { ipv4Prefix: '198.51.100.0/24', services: ['OAI-SearchBot'] },
      { ipv4Prefix: '203.0.113.0/24' },
      { ipv4Prefix: '192.0.2.0/24', ipv6Prefix: '2001:db8::/32' },
      { services: ['GPTBot'] },
      { ipv6Prefix: '2001:db8:1::/48', services: ['GPTBot'], unknownMember: true },
      { ipv4Prefix: '100.64.0.0/16', services: ['SomeOtherService'] },
    ],
  };
  const noCache = { dir, offline: true, timeoutMs: 1000, warn: () => {} };

  it('ignores prefix objects with both or neither prefix, and reads the services', () => {
    const parsed = parseRanges(JSON.stringify(aggregated), 'bots.json');
    expect(parsed.ignored).toBe(2);
    expect(parsed.prefixes.map((p) => `${p.family}/${p.bits}`)).toEqual([
      'ipv4/24',
      'ipv4/24',
      'ipv4/22',
      'ipv4/16',
      'ipv6/48',
    ]);
    expect([...parsed.serviceCrawlers]).toEqual([
      ['gptbot', ['GPTBot']],
      ['oai-searchbot', ['OAI-SearchBot']],
    ]);
  });

  it('applies a file to the crawlers its services name, the most specific prefix deciding', async () => {
    writeFileSync(join(dir, 'bots.json'), JSON.stringify(aggregated));
    const ranges = await loadRanges([join(dir, 'bots.json')], noCache);
    expect([...ranges.keys()].sort()).toEqual(['gptbot', 'oai-searchbot']);
    const inRanges = (crawler: string, ip: string) =>
      ranges.get(crawler)![0]!.list.check(ip, ip.includes(':') ? 'ipv6' : 'ipv4');
    expect(inRanges('gptbot', '198.51.101.5')).toBe(true);
    // In GPTBot's /22 too, but the /24 inside it is OAI-SearchBot's.
    expect(inRanges('gptbot', '198.51.100.5')).toBe(false);
    expect(inRanges('oai-searchbot', '198.51.100.5')).toBe(true);
    expect(inRanges('oai-searchbot', '198.51.101.5')).toBe(false);
    // A prefix without services is every crawler's the file applies to.
    expect(inRanges('gptbot', '203.0.113.9')).toBe(true);
    expect(inRanges('oai-searchbot', '203.0.113.9')).toBe(true);
    // The ignored object's prefixes are nobody's; another publisher's service is not these crawlers'.
    expect(inRanges('gptbot', '192.0.2.1')).toBe(false);
    expect(inRanges('gptbot', '100.64.1.1')).toBe(false);
    expect(inRanges('gptbot', '2001:db8:1::5')).toBe(true);
    expect(inRanges('oai-searchbot', '2001:db8:1::5')).toBe(false);
  });

  it('verifies the crawlers of a logs run by the services of an aggregated file', async () => {
    writeFileSync(join(dir, 'bots.json'), JSON.stringify(aggregated));
    writeFileSync(join(dir, 'robots-all.txt'), 'User-agent: *\nAllow: /\n');
    const lines = ['198.51.101.5', '198.51.100.5', '203.0.113.9'].map(
      (ip, i) => `${ip} - - [01/Nov/2026:10:00:0${i} +0000] "GET /p${i} HTTP/1.1" 200 5 "-" "${GPTBOT}"`,
    );
    writeFileSync(join(dir, 'bots.log'), `${lines.join('\n')}\n`);
    const result = await run([
      'logs',
      join(dir, 'bots.log'),
      '--robots',
      join(dir, 'robots-all.txt'),
      '--ranges',
      join(dir, 'bots.json'),
      '--json',
    ]);
    expect(result.code).toBe(0);
    const row = (JSON.parse(result.stdout) as { crawlers: { name: string; verification: unknown }[] }).crawlers[0]!;
    expect(row).toMatchObject({
      name: 'GPTBot',
      verification: {
        status: 'spoofed',
        requests: { verified: 2, spoofed: 1, unverifiable: 0, unchecked: 0 },
        reason: '198.51.100.5: not in bots.json',
      },
    });
  });

  it('still refuses a prefix that is not a CIDR, and a file that names no crawler', async () => {
    expect(() => parseRanges('{"prefixes":[{"ipv4Prefix":"300.1.1.1/8"}]}', 'x.json')).toThrow(
      'is not an ipv4Prefix or ipv6Prefix CIDR',
    );
    writeFileSync(join(dir, 'others.json'), '{"prefixes":[{"ipv4Prefix":"10.0.0.0/8","services":["NotACrawler"]}]}');
    await expect(loadRanges([join(dir, 'others.json')], noCache)).rejects.toThrow(
      `no crawler's operator publishes a file named 'others.json'`,
    );
  });
});

describe('--ranges URL with the user cache', () => {
  let server: Server;
  let base: string;
  let closed: string;
  const seen: string[] = [];
  let failing = false;
  const body = JSON.stringify({ creationTime: '2026-11-01T00:00:00Z', prefixes: [{ ipv4Prefix: '20.171.206.0/24' }] });
  const cacheDir = join(dir, 'cache');
  const log = join(dir, 'access.log');
  const robots = join(dir, 'robots.txt');

  function answer(req: IncomingMessage): { status: number; headers: Record<string, string>; body?: string } {
    const path = req.url ?? '/';
    if (failing) return { status: 500, headers: {} };
    if (path === '/fresh/gptbot.json') return { status: 200, headers: { 'cache-control': 'max-age=3600' }, body };
    if (path === '/revalidate/gptbot.json') {
      if (req.headers['if-none-match'] === '"v1"') return { status: 304, headers: { etag: '"v1"' } };
      return { status: 200, headers: { 'cache-control': 'no-cache', etag: '"v1"' }, body };
    }
    if (path === '/nostore/gptbot.json') return { status: 200, headers: { 'cache-control': 'no-store' }, body };
    if (path === '/v2/gptbot.json') {
      return { status: 200, headers: { 'content-type': 'application/jafar+json; version=2.0' }, body };
    }
    if (path === '/v1/gptbot.json') {
      return { status: 200, headers: { 'content-type': 'application/jafar+json; version=1.3' }, body };
    }
    return { status: 404, headers: {} };
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers['if-none-match'] ?? '-'}`);
      const a = answer(req);
      res.writeHead(a.status, a.headers);
      res.end(a.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    writeFileSync(robots, 'User-agent: *\nAllow: /\n');
    writeFileSync(
      log,
      [
        `20.171.206.5 - - [01/Nov/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "${GPTBOT}"`,
        `192.0.2.99 - - [01/Nov/2026:10:00:02 +0000] "GET /b HTTP/1.1" 200 5 "-" "${GPTBOT}"`,
        '',
      ].join('\n'),
    );
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function verification(...args: string[]) {
    const result = await run(['logs', log, '--robots', robots, '--json', ...args], {
      env: { ROBOTSKIT_CACHE_DIR: cacheDir },
    });
    const rows =
      result.code === 0
        ? (
            JSON.parse(result.stdout) as {
              crawlers: { name: string; verification: { requests: Record<string, number> } }[];
            }
          ).crawlers
        : [];
    return { ...result, gptbot: rows.find((r) => r.name === 'GPTBot')?.verification.requests };
  }

  it('fetches once, then uses the copy while Cache-Control says it is fresh', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await verification('--ranges', `${base}/fresh/gptbot.json`);
      expect(result.stderr).toBe('');
      expect(result.gptbot).toEqual({ verified: 1, spoofed: 1, unverifiable: 0, unchecked: 0 });
    }
    expect(seen.filter((s) => s.startsWith('/fresh/'))).toEqual(['/fresh/gptbot.json -']);
    expect(readdirSync(join(cacheDir, 'ranges'))).toHaveLength(1);
  });

  it('revalidates a no-cache copy with its ETag (304), and reads it alone with --offline', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await verification('--ranges', `${base}/revalidate/gptbot.json`);
      expect(result.gptbot).toEqual({ verified: 1, spoofed: 1, unverifiable: 0, unchecked: 0 });
    }
    expect(seen.filter((s) => s.startsWith('/revalidate/'))).toEqual([
      '/revalidate/gptbot.json -',
      '/revalidate/gptbot.json "v1"',
    ]);
    const offline = await verification('--ranges', `${base}/revalidate/gptbot.json`, '--offline');
    expect(offline.gptbot).toEqual({ verified: 1, spoofed: 1, unverifiable: 0, unchecked: 0 });
    expect(seen.filter((s) => s.startsWith('/revalidate/'))).toHaveLength(2);
  });

  it('keeps using the last copy when the publisher fails, and says so', async () => {
    failing = true;
    try {
      const result = await verification('--ranges', `${base}/revalidate/gptbot.json`);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        new RegExp(`^robotskit: ${base}/revalidate/gptbot\\.json answered HTTP 500; using the copy of \\S+\\n$`),
      );
      expect(result.gptbot).toEqual({ verified: 1, spoofed: 1, unverifiable: 0, unchecked: 0 });
    } finally {
      failing = false;
    }
  });

  it('keeps nothing of a no-store answer, and reads a JAFAR version 1.x file', async () => {
    const before = readdirSync(join(cacheDir, 'ranges')).length;
    for (let i = 0; i < 2; i++) {
      const result = await verification('--ranges', `${base}/nostore/gptbot.json`);
      expect(result.gptbot).toEqual({ verified: 1, spoofed: 1, unverifiable: 0, unchecked: 0 });
    }
    expect(seen.filter((s) => s.startsWith('/nostore/'))).toHaveLength(2);
    expect(readdirSync(join(cacheDir, 'ranges'))).toHaveLength(before);
    const v1 = await verification('--ranges', `${base}/v1/gptbot.json`);
    expect(v1.gptbot).toEqual({ verified: 1, spoofed: 1, unverifiable: 0, unchecked: 0 });
  });

  it.each([
    [
      ['--ranges', '{base}/v2/gptbot.json'],
      "--ranges '{base}/v2/gptbot.json' is JAFAR version 2.0; this robotskit reads version 1",
    ],
    [['--ranges', '{base}/missing/gptbot.json'], "cannot fetch --ranges '{base}/missing/gptbot.json': HTTP 404"],
    [
      ['--ranges', '{base}/never/gptbot.json', '--offline'],
      "--offline: no copy of '{base}/never/gptbot.json' in the cache",
    ],
    [['--ranges', '{closed}/gptbot.json'], "cannot fetch --ranges '{closed}/gptbot.json': connection refused"],
  ])('%j is a one-line error, exit 2', async (args, message) => {
    const fill = (text: string) => text.replaceAll('{base}', base).replaceAll('{closed}', closed);
    const result = await verification(...args.map(fill));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(fill(message));
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(cacheDir, 'ranges'))).toBe(true);
  });
});
