/**
 * `serve --log-ranges URL` in a service that runs for weeks: the published range file is read again for each uploaded
 * log (through the user cache: revalidated when its copy is no longer fresh), so verification follows the publisher's
 * changes without a restart; when the publisher fails, the last good reading is used and standard error says so. A
 * real `robotskit serve` process, a real range publisher and a real origin on 127.0.0.1.
 */

import { type ChildProcess, spawn as spawnChild } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { BIN, plainEnv, serviceUrl, stopChild } from './helpers.js';

const TOKEN = 'serve-ranges-token-1';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const SEARCHBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot';
const RANGES = {
  v1: '20.171.206.0/24',
  v2: '52.230.152.0/24',
};

const dir = tempDir('serve-ranges');
const searchbotFile = join(dir, 'searchbot.json');
let publisher: Server;
let published: { version: keyof typeof RANGES; failing: boolean } = { version: 'v1', failing: false };
const requests: string[] = [];
let origin: Server;
let originUrl: string;
let serve: ChildProcess;
let stderr = '';
let service: string;
let propertyId: number;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const answer = await fetch(`${service}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
  });
  expect(answer.ok, await answer.clone().text()).toBe(true);
  return (await answer.json()) as T;
}

beforeAll(async () => {
  publisher = createServer((req, res) => {
    requests.push(`${req.url} ${req.headers['if-none-match'] ?? '-'}`);
    if (published.failing) {
      res.writeHead(500);
      res.end();
      return;
    }
    const etag = `"${published.version}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache', etag });
    res.end(
      JSON.stringify({
        creationTime: '2026-11-01T00:00:00Z',
        prefixes: [{ ipv4Prefix: RANGES[published.version] }],
      }),
    );
  });
  await new Promise<void>((resolve) => publisher.listen(0, '127.0.0.1', resolve));
  const rangesUrl = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}/gptbot.json`;
  origin = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('User-agent: GPTBot\nDisallow: /members/\n');
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  writeRanges(searchbotFile, RANGES.v1);
  serve = spawnChild(
    process.execPath,
    [
      BIN,
      'serve',
      '--port',
      '0',
      '--db',
      join(dir, 'db.sqlite'),
      '--allow-private-addresses',
      '--token',
      TOKEN,
      '--log-ranges',
      rangesUrl,
      '--log-ranges',
      `OAI-SearchBot=${searchbotFile}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...plainEnv(), ROBOTSKIT_CACHE_DIR: join(dir, 'cache') } },
  );
  serve.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  service = await serviceUrl(serve);
  propertyId = (
    await api<{ id: number }>('/api/properties', {
      method: 'POST',
      body: JSON.stringify({ property: `${originUrl}/` }),
    })
  ).id;
  const { files } = await api<{ files: { id: number }[] }>(`/api/properties/${propertyId}/files`);
  // Polled without a deadline of its own: the hook's timeout bounds it.
  for (;;) {
    const { fetches } = await api<{ fetches: unknown[] }>(`/api/files/${files[0]!.id}/fetches`);
    if (fetches.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 60_000);

afterAll(async () => {
  await stopChild(serve);
  for (const server of [publisher, origin]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

function writeRanges(path: string, prefix: string): void {
  writeFileSync(path, JSON.stringify({ creationTime: '2026-11-01T00:00:00Z', prefixes: [{ ipv4Prefix: prefix }] }));
}

interface Verification {
  verified: number;
  spoofed: number;
  unverifiable: number;
  unchecked: number;
}

/** Uploads a log of one request of `crawler` from `ip` (now) and answers the crawler's verification counts. */
async function requestFrom(ip: string, crawler: 'GPTBot' | 'OAI-SearchBot' = 'GPTBot'): Promise<Verification> {
  const time = new Date()
    .toUTCString()
    .replace(
      /^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/,
      (_m, day, month, year, clock) => `${day}/${month}/${year}:${clock} +0000`,
    );
  const log = `${ip} - - [${time}] "GET /members/a HTTP/1.1" 200 5 "-" "${crawler === 'GPTBot' ? GPTBOT : SEARCHBOT}"\n`;
  const answer = await fetch(`${service}/api/properties/${propertyId}/logs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/octet-stream' },
    body: log,
  });
  const text = await answer.text();
  expect(answer.status, text).toBe(201);
  const detail = JSON.parse(text) as { crawlers: { name: string; verification: { requests: Verification } }[] };
  return detail.crawlers.find((c) => c.name === crawler)!.verification.requests;
}

const one = (kind: keyof Verification): Verification => ({
  verified: 0,
  spoofed: 0,
  unverifiable: 0,
  unchecked: 0,
  [kind]: 1,
});

describe('serve --log-ranges URL', () => {
  it('reads the publisher again for each upload: a change applies without a restart, a failure keeps the last good reading', async () => {
    expect(await requestFrom('20.171.206.5')).toEqual(one('verified'));
    expect(await requestFrom('52.230.152.9')).toEqual(one('spoofed'));

    published = { version: 'v2', failing: false };
    expect(await requestFrom('20.171.206.5')).toEqual(one('spoofed'));
    expect(await requestFrom('52.230.152.9')).toEqual(one('verified'));
    // Revalidated with the copy's ETag each time (no-cache); a 304 keeps the copy.
    expect(requests.at(-1)).toBe('/gptbot.json "v2"');

    // The publisher fails: the cache's copy is used, and standard error says so.
    published = { version: 'v2', failing: true };
    expect(await requestFrom('52.230.152.9')).toEqual(one('verified'));
    expect(stderr).toMatch(/gptbot\.json answered HTTP 500; using the copy of /);
  });

  it('reads a range file again for each upload, and keeps the last good reading when it is gone', async () => {
    expect(await requestFrom('20.171.206.5', 'OAI-SearchBot')).toEqual(one('verified'));
    writeRanges(searchbotFile, RANGES.v2);
    expect(await requestFrom('20.171.206.5', 'OAI-SearchBot')).toEqual(one('spoofed'));
    expect(await requestFrom('52.230.152.9', 'OAI-SearchBot')).toEqual(one('verified'));
    rmSync(searchbotFile);
    expect(await requestFrom('52.230.152.9', 'OAI-SearchBot')).toEqual(one('verified'));
    expect(stderr).toContain(
      `robotskit: cannot read --log-ranges '${searchbotFile}': no such file; the ranges read before are used\n`,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
