/**
 * `robotskit logs` over logs of several sites: one real HTTP server on 127.0.0.1 answering as three virtual hosts
 * (by the Host header real clients send) writes each request as an nginx-style Combined line with the host first, as
 * one with the host last, and as a JSON line with a `host` field. Each request must be judged by its own host's
 * robots.txt (`--robots DIR` with a folder per host; then `--service URL` without `--property`, a real report service
 * watching two origins), the output grouped by host and crawler, and requests for a host with no robots.txt known
 * counted and said, never judged by another host's file.
 */

import { type ChildProcess, spawn as spawnChild } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseRobotsTxt } from 'robotskit';
import { DEFAULT_JSON_FIELDS, LogAnalysis, logHost, parseClf, parseJsonLine } from 'robotskit/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogsReport } from '../src/logs/report.js';
import { tempDir } from './cleanup.js';
import { BIN, plainEnv, run, serviceUrl, spawn, stopChild } from './helpers.js';

const dir = tempDir('logs-hosts');
const logs = { first: join(dir, 'first.log'), last: join(dir, 'last.log'), json: join(dir, 'access.ndjson') };
const robotsDir = join(dir, 'robots');
const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  browser: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `$time_local` with milliseconds (the reader takes a fraction), so a version can start between two requests. */
function clf(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)} +0000`;
}

let server: Server;
let port: number;
let lastAt = 0;

/** A request by a real client, with the Host header of a virtual host (fetch may not set one: node:http). */
function hit(host: string, path: string, ua: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'user-agent': ua, host } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The dated file name of a moment (`2026-11-28T21:05:07.123Z.txt`). */
const dated = (ms: number) => `${new Date(ms).toISOString()}.txt`;
let changedAt = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const host = String(req.headers.host ?? '-');
    const path = req.url ?? '/';
    const body = `page ${path}\n`;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    // Strictly increasing times: two requests in one millisecond would leave a version change between them unclear.
    const at = Math.max(Date.now(), lastAt + 1);
    lastAt = at;
    const ip = req.socket.remoteAddress ?? '-';
    const request = `"${req.method} ${path} HTTP/1.1" 200 ${body.length} "-" "${req.headers['user-agent'] ?? ''}"`;
    appendFileSync(logs.first, `${host} ${ip} - - [${clf(at)}] ${request}\n`);
    appendFileSync(logs.last, `${ip} - - [${clf(at)}] ${request} "${host}"\n`);
    appendFileSync(
      logs.json,
      `${JSON.stringify({ time: new Date(at).toISOString(), remote_addr: ip, host, request_uri: path, status: 200, http_user_agent: req.headers['user-agent'] })}\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // a.invalid: one robots.txt; b.invalid: a version that allows all, then one that disallows /x/ (made below).
  mkdirSync(join(robotsDir, 'a.invalid'), { recursive: true });
  mkdirSync(join(robotsDir, 'B.Invalid'));
  writeFileSync(join(robotsDir, 'a.invalid', 'robots.txt'), 'User-agent: GPTBot\nDisallow: /private/\n');
  writeFileSync(join(robotsDir, 'B.Invalid', '2020-01-01.txt'), 'User-agent: *\nAllow: /\n');
  await hit('a.invalid', '/private/1', UA.gptbot); // planted: a.invalid's line 2
  await hit('a.invalid', '/public/1', UA.gptbot);
  await hit('b.invalid', '/private/1', UA.gptbot); // a.invalid's file would disallow it; b.invalid's allows it
  await hit('b.invalid', '/x/1', UA.gptbot); // before b.invalid's change: allowed
  await hit('c.invalid', '/private/1', UA.gptbot); // no robots.txt known for c.invalid: counted, not judged
  await hit('c.invalid', '/', UA.browser);
  changedAt = lastAt + 1;
  writeFileSync(
    join(robotsDir, 'B.Invalid', dated(changedAt)),
    'User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nUser-agent: GPTBot\nDisallow: /x/\n',
  );
  await hit('b.invalid:443', '/x/2', UA.gptbot); // planted: b.invalid's second version, line 6
  await hit('B.INVALID.', '/x/3', UA.googlebot); // planted: the same, for Googlebot
  await hit('a.invalid', '/x/4', UA.googlebot);
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

interface ViolationJson {
  host: string | null;
  crawler: string;
  target: string;
  version: string;
  line: number;
}

async function judged(args: string[]): Promise<{ code: number; report: LogsReport; found: ViolationJson[] }> {
  const out = join(dir, `violations-${Math.random().toString(36).slice(2)}.ndjson`);
  const result = await run(['logs', ...args, '--robots', robotsDir, '--violations', out, '--json']);
  expect(result.stderr).toBe('');
  const found = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ViolationJson);
  return { code: result.code, report: JSON.parse(result.stdout) as LogsReport, found };
}

const EXPECTED = () => [
  { host: 'a.invalid', crawler: 'GPTBot', target: '/private/1', version: 'a.invalid/robots.txt', line: 2 },
  { host: 'b.invalid', crawler: 'GPTBot', target: '/x/2', version: `B.Invalid/${dated(changedAt)}`, line: 6 },
  { host: 'b.invalid', crawler: 'Googlebot', target: '/x/3', version: `B.Invalid/${dated(changedAt)}`, line: 6 },
];

describe('logs of several sites, --robots DIR with a folder per host', () => {
  it.each([
    ['Combined lines with the host first', () => [logs.first, '--host-field', 'first']],
    ['Combined lines with the host last', () => [logs.last, '--host-field', 'last']],
    ['JSON lines with a host field', () => [logs.json]],
  ])('%s: each request judged by its own host’s robots.txt (exit 1)', async (_, args) => {
    const { code, report, found } = await judged(args());
    expect(code).toBe(1);
    expect(found.map(({ host, crawler, target, version, line }) => ({ host, crawler, target, version, line }))).toEqual(
      EXPECTED(),
    );
    // Grouped by host, then crawler.
    expect(report.crawlers.map((c) => [c.host, c.name, c.requests, c.disallowed])).toEqual([
      ['a.invalid', 'GPTBot', 2, 1],
      ['a.invalid', 'Googlebot', 1, 0],
      ['b.invalid', 'GPTBot', 3, 1],
      ['b.invalid', 'Googlebot', 1, 1],
    ]);
    // c.invalid has no robots.txt here: its two requests are counted and said, never judged by a.invalid's file.
    expect(report.unknownHosts).toEqual([{ host: 'c.invalid', requests: 2, crawlerRequests: 1 }]);
    expect(report.versions.map((v) => [v.host, v.label])).toEqual([
      ['a.invalid', 'a.invalid/robots.txt'],
      ['b.invalid', 'B.Invalid/2020-01-01.txt'],
      ['b.invalid', `B.Invalid/${dated(changedAt)}`],
    ]);
    expect(report.violations).toBe(3);
  });

  it('says it in words, grouped by host, and warns when no line names its host', async () => {
    const result = await run(['logs', logs.first, '--host-field', 'first', '--robots', robotsDir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("judged against 3 robots.txt versions of 2 host(s), each request by its host's");
    const a = result.stdout.indexOf('== a.invalid (1 robots.txt version(s))');
    const b = result.stdout.indexOf('== b.invalid (2 robots.txt version(s))');
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    expect(result.stdout.slice(a, b)).toContain('1 × line 2 of a.invalid/robots.txt: Disallow: /private/');
    expect(result.stdout).toMatch(
      /2 request\(s\) not judged: 1 host\(s\) with no robots\.txt known\n {2}c\.invalid: 2 request\(s\), 1 by crawlers\n/,
    );
    // The same log without --host-field: its first field is read as the client's address, no line names a host.
    const blind = await run(['logs', logs.json, '--robots', robotsDir, '--field', 'host=nothing', '--json']);
    expect(blind.code).toBe(0);
    expect(blind.stderr).toBe(
      'robotskit: no line of the log names its host, so none was judged: give --host-field first|last for Common/Combined lines (the virtual host field), or --field host=NAME for JSON lines\n',
    );
  });

  it('refuses a folder it cannot read as hosts in one line (exit 2)', async () => {
    const bad = (name: string, files: Record<string, string>) => {
      const root = join(dir, name);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      return root;
    };
    const cases: [string, string][] = [
      [
        bad('mixed', { '2026-11-01.txt': '', 'a.invalid/robots.txt': '' }),
        "holds both dated versions and host folders: one robots.txt's versions, or a folder per host",
      ],
      [bad('same', { 'a.invalid/robots.txt': '', 'A.invalid:443/robots.txt': '' }), 'name the same host (a.invalid)'],
      [
        bad('both', { 'a.invalid/robots.txt': '', 'a.invalid/2026-11-01.txt': '' }),
        'holds robots.txt and dated versions',
      ],
      [bad('misnamed', { 'a.invalid/latest.txt': '' }), "'latest.txt' is not named by the time it came into force"],
      [bad('nothost', { 'a b/robots.txt': '' }), "the folder 'a b' is not named by a host"],
    ];
    for (const [root, message] of cases) {
      const result = await run(['logs', logs.json, '--robots', root]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const choice = await run(['logs', logs.first, '--robots', robotsDir, '--host-field', 'middle']);
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/--host-field <where>' argument 'middle' is invalid/);
  });
});

describe('reading a logged host', () => {
  it.each([
    ['a.example', 'a.example'],
    ['A.Example.', 'a.example'],
    ['a.example:443', 'a.example'],
    ['a.example:80', 'a.example'],
    ['a.example:8080', 'a.example:8080'],
    ['[2001:DB8::1]:443', '[2001:db8::1]'],
    ['[2001:db8::1]:8443', '[2001:db8::1]:8443'],
    ['-', null],
    ['', null],
    ['a.example:x', null],
    ['a b', null],
    ['a.example/x', null],
    ['2001:db8::1', null],
  ])('%j → %j', (raw, host) => {
    expect(logHost(raw)).toBe(host);
  });

  it('reads the host field first, last (quoted or not) or from JSON, and none when the line has no such field', () => {
    const line = '192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET /x HTTP/1.1" 200 5 "-" "GPTBot/1.2"';
    expect(parseClf(`a.invalid:443 ${line}`, true, 'first')).toMatchObject({ host: 'a.invalid:443', ip: '192.0.2.1' });
    expect(parseClf(`${line} "b.invalid"`, true, 'last')).toMatchObject({ host: 'b.invalid', userAgent: 'GPTBot/1.2' });
    expect(parseClf(`${line} b.invalid`, true, 'last')).toMatchObject({ host: 'b.invalid' });
    expect(parseClf(line, true, 'last')).toMatchObject({ host: null, userAgent: 'GPTBot/1.2' });
    expect(parseClf(line, true)).toMatchObject({ host: null });
    const common = '192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET /x HTTP/1.1" 200 5 c.invalid';
    expect(parseClf(common, false, 'last')).toMatchObject({ host: 'c.invalid', userAgent: '' });
    expect(parseClf('x', false, 'first')).toBe('no virtual host field before the Common/Combined fields');
    const json = '{"time":"2026-11-01T00:00:00Z","uri":"/x","http_host":"d.invalid"}';
    expect(parseJsonLine(json, DEFAULT_JSON_FIELDS)).toMatchObject({ host: 'd.invalid' });
    expect(parseJsonLine(json, { ...DEFAULT_JSON_FIELDS, host: [] })).toMatchObject({ host: null });
  });
});

describe('judging a log of several sites with the engine', () => {
  it('reads a proxy-form target as the host of a line that names none, and never judges an unknown host', async () => {
    const robots = parseRobotsTxt('User-agent: GPTBot\nDisallow: /private/\n');
    const sites = new Map([['a.invalid', [{ label: 'a', since: Number.NEGATIVE_INFINITY, robots }]]]);
    const analysis = new LogAnalysis({ sites, verifier: null, maxAddresses: 4 });
    const request = (host: string | null, target: string) => ({
      ip: '192.0.2.1',
      time: 0,
      method: 'GET',
      target,
      status: 200,
      userAgent: UA.gptbot,
      host,
    });
    expect(analysis.add(request(null, 'http://A.invalid:80/private/1'))).toBe(true);
    expect(analysis.violation(request(null, 'http://A.invalid:80/private/1'), '-', 1)).toMatchObject({
      host: 'a.invalid',
      version: 'a',
      line: 2,
    });
    expect(analysis.add(request('b.invalid', 'http://a.invalid/private/2'))).toBe(false);
    expect(analysis.add(request(null, '/private/3'))).toBe(false);
    expect(analysis.unknownHosts()).toEqual([
      { host: 'b.invalid', requests: 1, crawlerRequests: 1 },
      { host: null, requests: 1, crawlerRequests: 1 },
    ]);
    expect((await analysis.rows()).map((r) => [r.host, r.name, r.requests, r.disallowed])).toEqual([
      ['a.invalid', 'GPTBot', 1, 1],
    ]);
  });
});

describe('logs --service without --property: the property chosen by each request’s host', () => {
  const TOKEN = 'logs-hosts-token-1';
  let serve: ChildProcess;
  let service: string;
  /** Two origins the service watches (two ports of 127.0.0.1: two hosts, as robots.txt is per origin). */
  const origins: Server[] = [];
  const hostOf: string[] = [];
  const jsonLog = join(dir, 'service.ndjson');

  async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
    const answer = await fetch(`${service}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.ok).toBe(true);
    return (await answer.json()) as T;
  }

  beforeAll(async () => {
    const files = ['User-agent: GPTBot\nDisallow: /one/\n', 'User-agent: GPTBot\nDisallow: /two/\n'];
    for (const robots of files) {
      const origin = createServer((req, res) => {
        const path = req.url ?? '/';
        res.writeHead(200, { 'content-type': 'text/plain' }).end(path === '/robots.txt' ? robots : 'page\n');
        appendFileSync(
          jsonLog,
          `${JSON.stringify({ time: new Date().toISOString(), host: req.headers.host, remote_addr: req.socket.remoteAddress, request_uri: path, status: 200, http_user_agent: req.headers['user-agent'] ?? '' })}\n`,
        );
      });
      await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
      origins.push(origin);
      hostOf.push(`127.0.0.1:${(origin.address() as AddressInfo).port}`);
    }
    serve = spawnChild(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--db', join(dir, 'db.sqlite'), '--allow-private-addresses', '--token', TOKEN],
      { stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv() },
    );
    service = await serviceUrl(serve);
    for (const host of hostOf) {
      const { id } = await api<{ id: number }>('/api/properties', {
        method: 'POST',
        body: JSON.stringify({ property: `http://${host}/` }),
      });
      // Waits for the service's first fetch (the test's timeout bounds the wait).
      for (;;) {
        const { files } = await api<{ files: { id: number }[] }>(`/api/properties/${id}/files`);
        const fetched =
          files[0] === undefined
            ? []
            : (await api<{ fetches: unknown[] }>(`/api/files/${files[0].id}/fetches`)).fetches;
        if (fetched.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    for (const host of hostOf) {
      for (const path of ['/one/x', '/two/x']) {
        const answer = await fetch(`http://${host}${path}`, { headers: { 'user-agent': UA.gptbot } });
        await answer.arrayBuffer();
      }
    }
    // A request for a host the service does not watch (written as a log line of a third site).
    appendFileSync(
      jsonLog,
      `${JSON.stringify({ time: new Date().toISOString(), host: 'c.invalid', remote_addr: '192.0.2.9', request_uri: '/one/x', status: 200, http_user_agent: UA.gptbot })}\n`,
    );
  }, 60_000);

  afterAll(async () => {
    await stopChild(serve);
    for (const origin of origins) {
      origin.closeAllConnections();
      await new Promise((resolve) => origin.close(resolve));
    }
  });

  it('judges /one/ on the first origin and /two/ on the second, each by its own file', async () => {
    const out = join(dir, 'service-violations.ndjson');
    const result = await spawn([
      'logs',
      jsonLog,
      '--service',
      service,
      '--token',
      TOKEN,
      '--violations',
      out,
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const found = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ViolationJson);
    expect(found.map((v) => [v.host, v.target, v.line])).toEqual([
      [hostOf[0], '/one/x', 2],
      [hostOf[1], '/two/x', 2],
    ]);
    for (const v of found) expect(v.version).toMatch(new RegExp(`^${v.host!.replace(/\./g, '\\.')}: version \\d+ of `));
    const report = JSON.parse(result.stdout) as LogsReport;
    expect(report.unknownHosts).toEqual([{ host: 'c.invalid', requests: 1, crawlerRequests: 1 }]);
    // Rows by host name (the ports' order as strings), whichever origin started first.
    expect(report.crawlers.filter((c) => c.name === 'GPTBot').map((c) => [c.host, c.requests, c.disallowed])).toEqual(
      [...hostOf].sort().map((host) => [host, 2, 1]),
    );
  });
});
