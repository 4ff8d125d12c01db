/**
 * The test world of `robotskit logs`: a real HTTP server on 127.0.0.1 writing nginx's combined lines (the client's
 * address from X-Forwarded-For, as nginx's realip module behind a proxy does) for real requests sent with crawlers'
 * User-Agents, its robots.txt changing between two days (the server's clock is the test's, so each line's time is
 * known), a DNS server on 127.0.0.1 answering PTR and A/AAAA for genuine and spoofed bots (and never for one address),
 * and OpenAI's range file. `robotskit logs`, run as a process, must find exactly the planted violations, each with its
 * version, line and verification, and mark every crawler right.
 */

import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reverseName, startDnsServer, type TestDnsServer } from '../../robotskit/test/dns-server.js';
import { tempDir } from './cleanup.js';
import { spawn } from './helpers.js';

const V1 = '2026-11-01T00:00:00Z.txt';
const V2 = '2026-11-05T00:00:00Z.txt';
const ROBOTS: Record<string, string> = {
  [V1]: [
    'User-agent: *',
    'Disallow: /private/',
    '',
    'User-agent: Googlebot',
    'Disallow: /private/',
    'Allow: /',
    '',
    'User-agent: GPTBot',
    'Disallow: /members/',
    'Crawl-delay: 10',
    '',
  ].join('\n'),
  [V2]: [
    'User-agent: *',
    'Disallow: /private/',
    'Disallow: /drafts/',
    '',
    'User-agent: Googlebot',
    'Disallow: /private/',
    'Disallow: /drafts/',
    '',
    'User-agent: GPTBot',
    'Disallow: /',
    '',
  ].join('\n'),
};

const UA = {
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  applebot:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  browser: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  unknown: 'ExampleCrawler/1.0 (+https://crawler.invalid/about)',
};

const IP = {
  google: '66.249.66.1',
  fakeGoogle: '203.0.113.9',
  fakeGoogleNoForward: '198.51.100.7',
  gptbot: '20.171.206.5',
  fakeGptbot: '192.0.2.99',
  bing: '2001:db8::b1',
  apple: '192.0.2.77',
  browser: '192.0.2.50',
  unknown: '198.51.100.20',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** nginx's `$time_local`, in UTC. */
function timeLocal(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** nginx escapes `"` and `\` in logged values as \xHH. */
function escaped(value: string | undefined): string {
  return value === undefined || value === ''
    ? '-'
    : value.replace(/["\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`);
}

let dir: string;
let logPath: string;
let server: Server;
let origin: string;
let dns: TestDnsServer;
/** The server's clock: each request is logged at it, and moves it 2 seconds on. */
let clock = 0;

function robotsAt(ms: number): string {
  return ms >= Date.parse('2026-11-05T00:00:00Z') ? ROBOTS[V2]! : ROBOTS[V1]!;
}

async function hit(path: string, ua: string, ip: string): Promise<number> {
  const response = await fetch(`${origin}${path}`, { headers: { 'user-agent': ua, 'x-forwarded-for': ip } });
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  dir = tempDir('logs-world');
  logPath = join(dir, 'access.log');
  mkdirSync(join(dir, 'robots'));
  for (const [name, body] of Object.entries(ROBOTS)) writeFileSync(join(dir, 'robots', name), body);
  writeFileSync(
    join(dir, 'gptbot.json'),
    JSON.stringify({ creationTime: '2026-11-01T00:00:00.000000', prefixes: [{ ipv4Prefix: '20.171.206.0/24' }] }),
  );
  server = createServer((req, res) => {
    const at = clock;
    clock += 2000;
    const path = req.url ?? '/';
    const body = path === '/robots.txt' ? robotsAt(at) : `page ${path}\n`;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(body);
    const ip = String(req.headers['x-forwarded-for'] ?? req.socket.remoteAddress);
    appendFileSync(
      logPath,
      `${ip} - - [${timeLocal(at)}] "${req.method} ${path} HTTP/${req.httpVersion}" 200 ${Buffer.byteLength(body)} "${escaped(req.headers.referer)}" "${escaped(req.headers['user-agent'])}"\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dns = await startDnsServer(
    new Map([
      [reverseName(IP.google), { PTR: ['crawl-66-249-66-1.googlebot.com'] }],
      ['crawl-66-249-66-1.googlebot.com', { A: [IP.google] }],
      [reverseName(IP.fakeGoogle), { PTR: ['crawl.googlebot.com.evil.invalid'] }],
      ['crawl.googlebot.com.evil.invalid', { A: [IP.fakeGoogle] }],
      [reverseName(IP.fakeGoogleNoForward), { PTR: ['crawl-fake.googlebot.com'] }],
      ['crawl-fake.googlebot.com', { A: ['192.0.2.1'] }],
      [reverseName(IP.bing), { PTR: ['msnbot-2001-db8--b1.search.msn.com'] }],
      ['msnbot-2001-db8--b1.search.msn.com', { AAAA: [IP.bing] }],
    ]),
    new Set([reverseName(IP.apple)]),
  );

  // Day one, under the first version.
  clock = Date.parse('2026-11-02T09:00:00Z');
  await hit('/robots.txt', UA.googlebot, IP.google);
  await hit('/', UA.googlebot, IP.google);
  await hit('/drafts/one', UA.googlebot, IP.google);
  await hit('/public/a', UA.googlebot, IP.google);
  await hit('/robots.txt', UA.gptbot, IP.gptbot);
  await hit('/articles/1', UA.gptbot, IP.gptbot);
  await hit('/articles/2', UA.gptbot, IP.gptbot);
  await hit('/members/x', UA.gptbot, IP.gptbot); // planted: GPTBot, V1 line 9
  await hit('/private/secret', UA.googlebot, IP.fakeGoogle); // planted: spoofed Googlebot, V1 line 5
  await hit('/private/admin', UA.browser, IP.browser);
  await hit('/private/x', UA.unknown, IP.unknown); // planted: ExampleCrawler, V1 line 2
  // Day five, under the second.
  clock = Date.parse('2026-11-06T08:00:00Z');
  await hit('/robots.txt', UA.googlebot, IP.google);
  await hit('/drafts/two', UA.googlebot, IP.google); // planted: Googlebot, V2 line 7
  await hit('/articles/3', UA.gptbot, IP.gptbot); // planted: GPTBot, V2 line 10
  await hit('/articles/4', UA.gptbot, IP.fakeGptbot); // planted: spoofed GPTBot, V2 line 10
  await hit('/drafts/x', UA.bingbot, IP.bing); // planted: bingbot over IPv6, V2 line 3
  await hit('/public/b', UA.googlebot, IP.fakeGoogleNoForward);
  await hit('/public/c', UA.applebot, IP.apple);
  await hit('/', UA.browser, IP.browser);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await dns?.close();
});

interface Row {
  name: string;
  requests: number;
  disallowed: number;
  robotsTxt: { fetches: number; fetchedFirst: boolean };
  crawlDelay: { seconds: number; line: number; version: string; tooSoon: number } | null;
  verification: { status: string; requests: Record<string, number> };
}

describe('robotskit logs in a world of real processes', () => {
  it('finds exactly the planted violations, each with its version, line and verification', async () => {
    const violationsPath = join(dir, 'violations.ndjson');
    const result = await spawn([
      'logs',
      logPath,
      '--robots',
      join(dir, 'robots'),
      '--dns-server',
      dns.address,
      '--dns-timeout',
      '1',
      '--ranges',
      join(dir, 'gptbot.json'),
      '--violations',
      violationsPath,
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const found = readFileSync(violationsPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .map((v) => [v.crawler, v.ip, v.target, v.version, v.line, v.rule, v.verification]);
    expect(found).toEqual([
      ['GPTBot', IP.gptbot, '/members/x', V1, 9, 'Disallow: /members/', 'verified'],
      ['Googlebot', IP.fakeGoogle, '/private/secret', V1, 5, 'Disallow: /private/', 'spoofed'],
      ['ExampleCrawler', IP.unknown, '/private/x', V1, 2, 'Disallow: /private/', 'unverifiable'],
      ['Googlebot', IP.google, '/drafts/two', V2, 7, 'Disallow: /drafts/', 'verified'],
      ['GPTBot', IP.gptbot, '/articles/3', V2, 10, 'Disallow: /', 'verified'],
      ['GPTBot', IP.fakeGptbot, '/articles/4', V2, 10, 'Disallow: /', 'spoofed'],
      ['bingbot', IP.bing, '/drafts/x', V2, 3, 'Disallow: /drafts/', 'verified'],
    ]);

    const report = JSON.parse(result.stdout) as {
      requests: number;
      otherRequests: number;
      violations: number;
      crawlers: Row[];
    };
    expect(report.requests).toBe(19);
    expect(report.otherRequests).toBe(2);
    expect(report.violations).toBe(7);
    const rows = new Map(report.crawlers.map((r) => [r.name, r]));
    expect([...rows.keys()].sort()).toEqual(['Applebot', 'ExampleCrawler', 'GPTBot', 'Googlebot', 'bingbot']);
    const google = rows.get('Googlebot')!;
    expect([google.requests, google.disallowed, google.robotsTxt]).toEqual([8, 2, { fetches: 2, fetchedFirst: true }]);
    expect(google.verification).toEqual({
      status: 'spoofed',
      requests: { verified: 6, spoofed: 2, unverifiable: 0, unchecked: 0 },
      reason: expect.stringContaining(IP.fakeGoogle),
    });
    const gpt = rows.get('GPTBot')!;
    expect([gpt.requests, gpt.disallowed, gpt.robotsTxt]).toEqual([6, 3, { fetches: 1, fetchedFirst: true }]);
    // Crawl-delay 10 in the first version; its requests came 2 seconds apart.
    expect(gpt.crawlDelay).toMatchObject({ seconds: 10, line: 10, version: V1, tooSoon: 3 });
    expect(gpt.verification.requests).toEqual({ verified: 5, spoofed: 1, unverifiable: 0, unchecked: 0 });
    expect(rows.get('bingbot')!.verification.status).toBe('verified');
    // Its address's reverse DNS question is never answered: the DNS timeout, not a hang.
    expect(rows.get('Applebot')!.verification).toMatchObject({
      status: 'unverifiable',
      reason: expect.stringContaining('DNS'),
    });
    expect(rows.get('ExampleCrawler')!.verification.status).toBe('unverifiable');
    expect(dns.questions).toContain(`PTR ${reverseName(IP.fakeGoogleNoForward)}`);
    expect(dns.questions).toContain('A crawl-fake.googlebot.com');
  });

  it('says the same in words on a terminal summary, and exits 0 on the first day alone', async () => {
    const firstDay = readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((line) => line.includes('/Nov/2026:') && line.includes('[02/Nov/2026'))
      .filter((line) => !/members|secret|private\/x/.test(line))
      .join('\n');
    writeFileSync(join(dir, 'day1.log'), `${firstDay}\n`);
    const clean = await spawn(['logs', join(dir, 'day1.log'), '--robots', join(dir, 'robots')]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('no violations');
    const words = await spawn(['logs', logPath, '--robots', join(dir, 'robots')]);
    expect(words.code).toBe(1);
    expect(words.stdout).toContain(`1 × line 7 of ${V2}: Disallow: /drafts/`);
    expect(words.stdout).toContain('7 violation(s)');
    expect(words.stdout).toContain('verification: not checked');
  });
});
