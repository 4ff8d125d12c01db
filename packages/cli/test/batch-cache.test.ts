/**
 * `robotskit batch --cache`: processes sharing a Redis or PostgreSQL cache make one robots.txt request per origin
 * between them (counted on real servers on 127.0.0.1); a cache that cannot be used is a one-line error.
 */
import { type ChildProcess, execFile, spawn as spawnChild } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dropPrefix,
  dropSchema,
  freshPrefix,
  freshSchema,
  PG_URL,
  pgProblem,
  REDIS_URL,
  redisProblem,
} from '../../stores/test/services.js';
import { openSharedCache } from '../src/cache/shared-cache.js';
import { CliError } from '../src/io.js';
import { tempDir, tracked } from './cleanup.js';
import { BIN, run, serviceUrl } from './helpers.js';
import { Sites } from './sites.js';

const sites = new Sites();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await sites.closeAll();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function batch(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    tracked(
      execFile(process.execPath, [BIN, 'batch', ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 2) : 0, stdout, stderr });
      }),
    );
  });
}

async function threeProcesses(cacheUrl: string): Promise<void> {
  const origins = await Promise.all(
    [0, 1, 2, 3].map((n) => sites.serve({ '/robots.txt': { body: `User-agent: *\nDisallow: /private-${n}/\n` } })),
  );
  const urls = origins.flatMap((o, n) => [`${o.origin}/private-${n}/a`, `${o.origin}/b`, `${o.origin}/c`]);
  const file = join(tempDir('cache'), 'urls.txt');
  writeFileSync(file, urls.join('\n'));
  const results = await Promise.all([0, 1, 2].map(() => batch([file, '--cache', cacheUrl])));
  for (const r of results) {
    expect(r.stderr).toMatch(
      /^robotskit: 12 records: 8 allowed, 4 blocked, 0 invalid; [0-4] robots\.txt fetched, 0 unreachable\n$/,
    );
    expect(r.code).toBe(0);
    const allowed = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { allowed: boolean }).allowed);
    expect(allowed).toEqual(origins.flatMap(() => [false, true, true]));
  }
  expect(origins.map((o) => o.requests.filter((p) => p === '/robots.txt').length)).toEqual([1, 1, 1, 1]);
}

describe('batch --cache', () => {
  it.skipIf(redisProblem !== null)('three processes on Redis make one robots.txt request per origin', async () => {
    const prefix = freshPrefix();
    cleanups.push(() => dropPrefix(prefix));
    await threeProcesses(`${REDIS_URL}?prefix=${encodeURIComponent(prefix)}`);
  });

  it.skipIf(pgProblem !== null)('three processes on PostgreSQL make one robots.txt request per origin', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    await threeProcesses(`${PG_URL}?schema=${schema}`);
  });

  it('says in one line when the cache URL is not a store', async () => {
    const r = await run(['batch', '--cache', 'memcached://127.0.0.1:11211'], { stdin: 'http://a.invalid/\n' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^robotskit: --cache: unsupported store memcached:\/\/ \(use redis:\/\/…, redis\+sentinel:\/\/… or postgres:\/\/…\)\n$/,
    );
  });

  it('says in one line when the cache cannot be reached', async () => {
    const closed = new URL(await sites.closedOrigin());
    const r = await run(['batch', '--cache', `redis://127.0.0.1:${closed.port}/0`], { stdin: 'http://a.invalid/\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^robotskit: --cache: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/0: .+\n$/);
  });

  it('says in one line what to install when robotskit-stores is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'robotskit-stores'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const io = { stderr: { write: () => true } } as unknown as Parameters<typeof openSharedCache>[1];
    const opening = openSharedCache('redis://127.0.0.1:6379/7', io, () => Promise.reject(missing));
    await expect(opening).rejects.toThrow(CliError);
    await expect(opening).rejects.toThrow(/^--cache needs the robotskit-stores package: npm install robotskit-stores$/);
  });
});

/** Starts `robotskit serve` and resolves with its URL once it listens. */
function startServe(args: string[], children: ChildProcess[]): Promise<string> {
  const child = tracked(spawnChild(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  children.push(child);
  return serviceUrl(child);
}

describe('serve --cache', () => {
  it.skipIf(redisProblem !== null)('two services deciding the same origins fetch each robots.txt once', async () => {
    const prefix = freshPrefix();
    cleanups.push(() => dropPrefix(prefix));
    const dir = tempDir('serve-cache');
    const children: ChildProcess[] = [];
    cleanups.push(async () => {
      for (const child of children) {
        if (child.exitCode !== null) continue;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    });
    const cache = `${REDIS_URL}?prefix=${encodeURIComponent(prefix)}`;
    const common = ['--port', '0', '--workers', '0', '--allow-private-addresses', '--cache', cache];
    const urls = await Promise.all([
      startServe([...common, '--db', join(dir, 'a.sqlite')], children),
      startServe([...common, '--db', join(dir, 'b.sqlite')], children),
    ]);
    const origins = await Promise.all(
      [0, 1, 2].map((n) => sites.serve({ '/robots.txt': { body: `User-agent: *\nDisallow: /private-${n}/\n` } })),
    );
    const ask = origins.flatMap((o, n) => [`${o.origin}/private-${n}/a`, `${o.origin}/b`]);
    const answers = await Promise.all(
      urls.map(async (url) => {
        const response = await fetch(`${url}/api/decide`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ crawler: 'MyBot', urls: ask }),
        });
        return ((await response.json()) as { results: { allowed: boolean }[] }).results.map((r) => r.allowed);
      }),
    );
    for (const a of answers) expect(a).toEqual([false, true, false, true, false, true]);
    expect(origins.map((o) => o.requests.filter((p) => p === '/robots.txt').length)).toEqual([1, 1, 1]);
  });
});
