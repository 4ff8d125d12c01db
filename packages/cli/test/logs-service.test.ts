/**
 * `robotskit logs --service URL --property P` against a real `robotskit serve` process watching a real origin on
 * 127.0.0.1 whose robots.txt changes between two recrawls and then fails (HTTP 503). The origin writes a JSON-lines
 * access log of every request at its real time, as crawlers' requests arrive between the recrawls: each violation must
 * be judged by the version in force when it was logged, and the outage as Google treats it (disallow all).
 */

import { type ChildProcess, spawn as spawnChild } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type PolicyPeriod, policyPeriods, type StoredFetch } from 'robotskit/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tracked } from './cleanup.js';
import { BIN, plainEnv, run, serviceUrl, spawn, stopChild } from './helpers.js';

const TOKEN = 'logs-service-token-1';
const A = ['User-agent: *', 'Disallow: /private/', '', 'User-agent: GPTBot', 'Disallow: /members/', ''].join('\n');
const B = [
  'User-agent: *',
  'Disallow: /private/',
  'Disallow: /drafts/',
  '',
  'User-agent: GPTBot',
  'Disallow: /',
  '',
].join('\n');
const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

const dir = tempDir('logs-service');
const logPath = join(dir, 'access.ndjson');
let origin: Server;
let originUrl: string;
let robots: { status: number; body: string } = { status: 200, body: A };
let serve: ChildProcess;
let service: string;
let fileId: number;
let propertyId: number;
const times: Record<string, number> = {};

interface FetchPoint {
  id: number;
  startedAt: string;
  outcome: string;
}

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const answer = await fetch(`${service}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
  });
  expect(answer.ok).toBe(true);
  return (await answer.json()) as T;
}

/** Waits (polling, without a deadline of its own: the test's timeout bounds it) until the file has `count` fetches. */
async function fetchesReach(count: number): Promise<FetchPoint[]> {
  for (;;) {
    if (fileId !== undefined) {
      const { fetches } = await api<{ fetches: FetchPoint[] }>(`/api/files/${fileId}/fetches`);
      if (fetches.length >= count) return fetches;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function hit(path: string, ua: string): Promise<void> {
  const answer = await fetch(`${originUrl}${path}`, { headers: { 'user-agent': ua } });
  await answer.arrayBuffer();
}

beforeAll(async () => {
  origin = createServer((req, res) => {
    const path = req.url ?? '/';
    const isRobots = path === '/robots.txt';
    const status = isRobots ? robots.status : 200;
    const body = isRobots ? robots.body : `page ${path}\n`;
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body);
    appendFileSync(
      logPath,
      `${JSON.stringify({ time: new Date().toISOString(), remote_addr: req.socket.remoteAddress, method: req.method, request_uri: path, status, http_user_agent: req.headers['user-agent'] ?? '' })}\n`,
    );
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  serve = spawnChild(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--db', join(dir, 'db.sqlite'), '--allow-private-addresses', '--token', TOKEN],
    { stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv() },
  );
  service = await serviceUrl(serve);
  propertyId = (
    await api<{ id: number }>('/api/properties', {
      method: 'POST',
      body: JSON.stringify({ property: `${originUrl}/` }),
    })
  ).id;
  const { files } = await api<{ files: { id: number }[] }>(`/api/properties/${propertyId}/files`);
  fileId = files[0]!.id;
  // Under version A.
  const [first] = await fetchesReach(1);
  times.first = Date.parse(first!.startedAt);
  await hit('/members/x', UA.gptbot); // planted: GPTBot under A, line 5
  await hit('/articles/1', UA.gptbot);
  await hit('/drafts/a', UA.googlebot);
  // Under version B.
  robots = { status: 200, body: B };
  await api(`/api/files/${fileId}/recrawl`, { method: 'POST' });
  times.second = Date.parse((await fetchesReach(2))[0]!.startedAt);
  await hit('/articles/2', UA.gptbot); // planted: GPTBot under B, line 6
  await hit('/drafts/b', UA.googlebot); // planted: Googlebot under B, line 3
  await hit('/public/b', UA.googlebot);
  // The origin fails: disallow all for the first 12 hours.
  robots = { status: 503, body: 'down\n' };
  await api(`/api/files/${fileId}/recrawl`, { method: 'POST' });
  times.third = Date.parse((await fetchesReach(3))[0]!.startedAt);
  await hit('/public/c', UA.googlebot); // planted: Googlebot during the outage
}, 60_000);

afterAll(async () => {
  // Stopped and waited for, so its database files are closed before the folder is removed.
  await stopChild(serve);
  origin?.closeAllConnections();
  await new Promise((resolve) => origin?.close(resolve));
});

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('logs --service', () => {
  it('judges each request by the version the service had fetched at its time, and the outage as disallow-all', async () => {
    const violations = join(dir, 'violations.ndjson');
    const result = await spawn([
      'logs',
      logPath,
      '--service',
      service,
      '--token',
      TOKEN,
      '--property',
      String(propertyId),
      '--violations',
      violations,
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const found = readFileSync(violations, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .map((v) => [v.crawler, v.target, v.version, v.line, v.rule]);
    const { versions } = await api<{ versions: { id: number; fetchedAt: string; outcome: string }[] }>(
      `/api/files/${fileId}/versions`,
    );
    const [vA, vB] = [...versions].reverse();
    expect([vA!.outcome, vB!.outcome]).toEqual(['rules', 'rules']);
    const labelA = `version ${vA!.id} of ${iso(Date.parse(vA!.fetchedAt))}`;
    const labelB = `version ${vB!.id} of ${iso(Date.parse(vB!.fetchedAt))}`;
    expect(found).toEqual([
      ['GPTBot', '/members/x', labelA, 5, 'Disallow: /members/'],
      ['GPTBot', '/articles/2', labelB, 6, 'Disallow: /'],
      ['Googlebot', '/drafts/b', labelB, 3, 'Disallow: /drafts/'],
      ['Googlebot', '/public/c', `unreachable since ${iso(times.third!)} (disallow all)`, 2, 'Disallow: /'],
    ]);
    const report = JSON.parse(result.stdout) as { versions: { label: string; since: string }[] };
    expect(report.versions.map((v) => v.label)).toEqual([
      labelA,
      labelB,
      `unreachable since ${iso(times.third!)} (disallow all)`,
      // What would apply if the outage went on: 12 hours in, the last good version; 30 days in, allow all (the
      // server still answers).
      `${labelB} (unreachable since ${iso(times.third!)})`,
      `unreachable since ${iso(times.third!)} (allow all)`,
    ]);
    expect(report.versions.slice(3).map((v) => Date.parse(v.since) - times.third!)).toEqual([
      12 * 3600 * 1000,
      30 * 24 * 3600 * 1000,
    ]);
    expect(report.versions[0]!.since).toBe(new Date(times.first!).toISOString());
  });

  it('finds the property by its name or a URL of its origin, with the token from ROBOTSKIT_TOKEN', async () => {
    for (const property of [`${originUrl}/`, `${originUrl}/some/page`]) {
      const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = tracked(
          spawnChild(
            process.execPath,
            [BIN, 'logs', logPath, '--service', service, '--property', property, '--quiet'],
            { env: plainEnv({ ROBOTSKIT_TOKEN: TOKEN }), stdio: ['ignore', 'pipe', 'pipe'] },
          ),
        );
        let stdout = '';
        child.stdout!.on('data', (chunk) => {
          stdout += chunk;
        });
        child.on('exit', (code) => resolve({ code, stdout }));
      });
      expect(result).toEqual({ code: 1, stdout: '' });
    }
  });

  it.each([
    [['--token', 'a-wrong-token-1'], 'refused the token (HTTP 401)'],
    [['--token', TOKEN, '--property', '999'], "the report service has no property '999'"],
    [['--token', TOKEN, '--property', 'unknown.example'], "the report service has no property 'unknown.example'"],
  ])('%j is a one-line error, exit 2', async (args, message) => {
    const result = await spawn(['logs', logPath, '--service', service, '--property', String(propertyId), ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('says when the URL is not a report service, or nothing answers there', async () => {
    const notService = await spawn(['logs', logPath, '--service', originUrl, '--property', '1']);
    expect(notService.code).toBe(2);
    expect(notService.stderr).toBe(
      `robotskit: ${originUrl} does not answer as a robotskit report service (GET /api/health: HTTP 200, not JSON)\n`,
    );
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    const unreachable = await spawn(['logs', logPath, '--service', closed, '--property', '1']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toBe(`robotskit: cannot reach the report service at ${closed}: connection refused\n`);
  });
});

describe('the policy periods of a stored history', () => {
  const H = 3600 * 1000;
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  const headers = { cacheControl: null, retryAfter: null, date: null };
  const good = (at: number, versionId: number): StoredFetch => ({
    fetchedAt: at,
    outcome: 'rules',
    status: 200,
    error: null,
    headers,
    versionId,
  });
  const failed = (at: number, status: number | null): StoredFetch => ({
    fetchedAt: at,
    outcome: 'disallow-all',
    status,
    error: status === null ? { kind: 'connect' } : null,
    headers,
    versionId: null,
  });
  const brief = (periods: PolicyPeriod[]) => periods.map((p) => [(p.since - t0) / H, p.mode, p.reason, p.versionId]);

  it('follows the engine: 12 hours of disallow-all, then the last good version, until a fetch succeeds', () => {
    const history = [good(0, 1), failed(10 * H, 503), failed(11 * H, 503), failed(30 * H, 503), good(40 * H, 2)].map(
      (f) => ({ ...f, fetchedAt: t0 + f.fetchedAt }),
    );
    expect(brief(policyPeriods(history))).toEqual([
      [0, 'rules', 'fetched', 1],
      [10, 'disallow-all', 'unreachable', null],
      [22, 'rules', 'last-good-version', 1],
      [40, 'rules', 'fetched', 2],
    ]);
  });

  it('keeps crawling stopped with no good version, and after 30 days of a server that does not answer', () => {
    const never = [failed(t0, 503), failed(t0 + 24 * H, 503)];
    expect(brief(policyPeriods(never))).toEqual([
      [0, 'disallow-all', 'unreachable', null],
      [12, 'disallow-all', 'no-good-version', null],
      [720, 'allow-all', 'long-unreachable-site-up', null],
    ]);
    const down = [good(t0, 7), failed(t0 + H, null)];
    expect(brief(policyPeriods(down))).toEqual([
      [0, 'rules', 'fetched', 7],
      [1, 'disallow-all', 'unreachable', null],
      [13, 'rules', 'last-good-version', 7],
      [721, 'disallow-all', 'long-unreachable-site-down', null],
    ]);
  });

  it('follows the service periods it is given', () => {
    const history = [good(t0, 1), failed(t0 + H, 503)];
    expect(brief(policyPeriods(history, { disallowPeriod: 2 * H, lastGoodVersionPeriod: 5 * H }))).toEqual([
      [0, 'rules', 'fetched', 1],
      [1, 'disallow-all', 'unreachable', null],
      [3, 'rules', 'last-good-version', 1],
      [6, 'allow-all', 'long-unreachable-site-up', null],
    ]);
  });
});

describe('logs --service usage', () => {
  it.each([
    // Without --property, every host the service watches: it must be reached first.
    [['--service', 'http://127.0.0.1:9/'], 'cannot reach the report service at http://127.0.0.1:9'],
    [['--property', '1'], '--property needs --service'],
    [
      ['--service', 'http://127.0.0.1:9/', '--property', '1', '--robots', 'x.txt'],
      'give --robots or --service, not both',
    ],
    [['--service', 'nope', '--property', '1'], "--service must be the report service's http(s) URL"],
    [['--service', 'ftp://127.0.0.1/', '--property', '1'], '--service must be an http or https URL'],
    [['--service', 'http://127.0.0.1:9/', '--property', '1', '--timeout', '0'], '--timeout must be a positive number'],
  ])('%j is a one-line error, exit 2', async (args, message) => {
    const result = await run(['logs', logPath, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
