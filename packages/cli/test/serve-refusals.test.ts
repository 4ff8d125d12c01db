/**
 * `robotskit serve --cache` never writes its own refusals to the shared store (issue 32, item 5): a site the service
 * may not fetch (a loopback address without `--allow-private-addresses`) is answered disallow-all by that service,
 * but the store it shares gets no record of it, and a later `robotskit batch --cache` on the same store fetches the
 * site and answers its real rules. Real processes, a real Redis under a key prefix of the test's own, a real site on
 * 127.0.0.1.
 */
import { type ChildProcess, execFile, spawn as spawnChild } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRobotsStore } from '../../stores/src/open.js';
import { dropPrefix, freshPrefix, REDIS_URL, redisProblem } from '../../stores/test/services.js';
import { tempDir, tracked } from './cleanup.js';
import { BIN, serviceUrl } from './helpers.js';
import { Sites } from './sites.js';

const RULES = 'User-agent: *\nDisallow: /private/\n';

const sites = new Sites();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await sites.closeAll();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts `robotskit serve` (stopped by SIGTERM after the test) and resolves with its URL once it listens. */
function startServe(args: string[]): Promise<string> {
  const child: ChildProcess = tracked(
    spawnChild(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });
  return serviceUrl(child);
}

function batch(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    tracked(
      execFile(process.execPath, [BIN, 'batch', ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 2) : 0, stdout, stderr });
      }),
    );
  });
}

describe('serve --cache and its own refusals', () => {
  it.skipIf(redisProblem !== null)(
    'a site the service refuses is never stored as failing: batch --cache on the same store gets its rules',
    async () => {
      const prefix = freshPrefix();
      cleanups.push(() => dropPrefix(prefix));
      const cache = `${REDIS_URL}?prefix=${encodeURIComponent(prefix)}`;
      const site = await sites.serve({ '/robots.txt': { body: RULES } });
      const dir = tempDir('serve-refusals');

      // The service: private addresses refused (the default), the shared store named.
      const service = await startServe([
        '--port',
        '0',
        '--workers',
        '0',
        '--db',
        join(dir, 'service.sqlite'),
        '--cache',
        cache,
      ]);
      const urls = [`${site.origin}/private/a`, `${site.origin}/open`];
      // An ftp:// origin on loopback is refused by the same guard, before any connection.
      const ftpOrigin = `ftp://127.0.0.1:${new URL(site.origin).port}`;
      const response = await fetch(`${service}/api/decide`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ crawler: 'MyBot', urls: [...urls, `${ftpOrigin}/pub/x`] }),
      });
      expect(response.status).toBe(200);
      const { results } = (await response.json()) as {
        results: { allowed: boolean; fetch: { error: { kind: string; message: string } | null } }[];
      };
      // The service's own answer: refused, so disallowed, and it says why.
      for (const r of results) {
        expect(r.allowed).toBe(false);
        expect(r.fetch.error).toMatchObject({ kind: 'blocked', message: expect.stringMatching(/loopback/) });
      }
      expect(site.requests).toEqual([]);

      // Nothing of it in the shared store.
      const store = await openRobotsStore(cache);
      cleanups.push(() => store.close());
      expect(await store.get(site.origin)).toBeUndefined();
      expect(await store.get(ftpOrigin)).toBeUndefined();

      // A crawler on the same store fetches the site itself and gets its real rules.
      const file = join(dir, 'urls.txt');
      writeFileSync(file, `${urls.join('\n')}\n`);
      const crawled = await batch([file, '--cache', cache]);
      // Nothing on standard error but batch's closing summary: the site was reachable.
      expect(crawled.stderr).toMatch(
        /^robotskit: 2 records: 1 allowed, 1 blocked, 0 invalid; 1 robots\.txt fetched, 0 unreachable\n$/,
      );
      const lines = crawled.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { url: string; allowed: boolean });
      expect(lines.map((l) => [l.url, l.allowed])).toEqual([
        [urls[0], false],
        [urls[1], true],
      ]);
      expect(site.requests.filter((p) => p === '/robots.txt')).toHaveLength(1);
      const record = await store.get(site.origin);
      expect(record?.history.map((r) => [r.outcome, r.error?.kind ?? null])).toEqual([['rules', null]]);
    },
  );
});
