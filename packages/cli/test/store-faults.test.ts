/**
 * The commands over stores that stall or never answer, with real processes: `batch --cache` on a redis-server of
 * the test's own frozen (SIGSTOP) mid-run ends with every healthy site answered right and says so once with counts;
 * SIGTERM ends it within seconds; `serve --cache` answers decide requests for new sites while its Redis is frozen,
 * `/api/health` says the store stalled, and its log says so once per stall (when it starts, when the store answers
 * again or at shutdown, with counts), never per request; `serve --database-url` and `worker` against a port that accepts and never
 * answers fail in one line.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type OwnRedis,
  startFreezingProxy,
  startRedis,
  startSilentPort,
  storeOpened,
} from '../../stores/test/processes.js';
import { dropSchema, freshSchema, PG_URL, pgProblem } from '../../stores/test/services.js';
import { tempDir, tracked } from './cleanup.js';
import { BIN, plainEnv } from './helpers.js';
import { Sites } from './sites.js';

const sites = new Sites();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await sites.closeAll();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A generous bound for "ends within seconds" on a loaded machine (the store's timeout is 5 s). */
const HANG_GUARD_MS = 30_000;

/** A running command: its output so far, lines as they come, and its end. */
function command(args: string[]) {
  const child: ChildProcess = tracked(
    spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: plainEnv() }),
  );
  const state = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    state.stdout += s;
  });
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    state.stderr += s;
  });
  const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, state, ended };
}

/**
 * Waits until a command has opened its store on `redis`, past its first answer (batch reads its input in chunks:
 * nothing is answered first). Freezing the server before that fails the opening instead (exit 2, "cannot reach").
 */
async function connected(redis: OwnRedis): Promise<void> {
  while (!(await storeOpened(redis))) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function ownRedis(): Promise<OwnRedis> {
  const redis = await startRedis();
  cleanups.push(() => redis.stop());
  return redis;
}

async function robotsSite(n: number) {
  return sites.serve({ '/robots.txt': { body: `User-agent: *\nDisallow: /private-${n}/\n` } });
}

describe('batch --cache on a Redis that freezes', () => {
  it('ends with every healthy site answered, and says so once with counts', async () => {
    const redis = await ownRedis();
    const origins = await Promise.all([0, 1, 2].map(robotsSite));
    const run = command(['batch', '--cache', `${redis.url}?prefix=batch-freeze:`]);
    await connected(redis);
    redis.freeze();
    const start = Date.now();
    run.child.stdin!.end(origins.map((o, n) => `${o.origin}/private-${n}/a\n${o.origin}/b\n`).join(''));
    const end = await run.ended;
    expect(Date.now() - start).toBeLessThan(HANG_GUARD_MS);
    expect(end.code, run.state.stderr).toBe(0);
    const allowed = run.state.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { allowed: boolean }).allowed);
    expect(allowed).toEqual([false, true, false, true, false, true]);
    expect(origins.map((o) => o.requests.filter((p) => p === '/robots.txt').length)).toEqual([1, 1, 1]);
    const said = run.state.stderr.trim().split('\n');
    // The cache's failure once when it happens; at the end batch's own summary and the cache's counts.
    expect(said).toHaveLength(3);
    expect(said[0]).toMatch(/^robotskit: the cache failed \(.*\); going on from memory, fetching what is missing/);
    expect(said.slice(1).sort()).toEqual([
      expect.stringMatching(
        /^robotskit: 6 records: 3 allowed, 3 blocked, 0 invalid; 3 robots\.txt fetched, 0 unreachable/,
      ),
      expect.stringMatching(
        /^robotskit: the cache failed \d+ store calls? between \S+ and \S+; it was still not answering at the end; 3 robots\.txt fetches were made without the fleet's lease/,
      ),
    ]);
  });

  it('ends on SIGTERM within seconds while its Redis is frozen', async () => {
    const redis = await ownRedis();
    const origins = await Promise.all([0, 1].map(robotsSite));
    const run = command(['batch', '--cache', `${redis.url}?prefix=batch-term:`]);
    await connected(redis);
    redis.freeze();
    // Questions that wait on the frozen store when the signal comes (the input stays open).
    run.child.stdin!.write(`${origins[0]!.origin}/b\n${origins[1]!.origin}/b\n`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const start = Date.now();
    run.child.kill('SIGTERM');
    const end = await run.ended;
    expect(Date.now() - start).toBeLessThan(HANG_GUARD_MS);
    expect(end.code).toBe(143);
    expect(run.state.stderr).toMatch(/robotskit: interrupted: /);
  });
});

/** `serve --cache` on the test's own Redis: its URL, health and decide requests. */
async function serveOnCache(redis: OwnRedis, prefix: string) {
  const dir = tempDir(prefix);
  const serve = command([
    'serve',
    '--port',
    '0',
    '--workers',
    '0',
    '--allow-private-addresses',
    '--db',
    join(dir, 'a.sqlite'),
    '--cache',
    `${redis.url}?prefix=${prefix}:`,
  ]);
  cleanups.push(async () => {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
    await serve.ended;
  });
  while (!/service on (http:\/\/\S+) /.test(serve.state.stdout)) {
    if (serve.child.exitCode !== null) throw new Error(serve.state.stderr);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /service on (http:\/\/\S+) /.exec(serve.state.stdout)![1]!;
  const health = async () =>
    (await (await fetch(`${url}/api/health`)).json()) as {
      robotsStore?: { state: string; stalls: number; cameBackAt: string | null };
    };
  const decide = async (urls: string[]) => {
    const response = await fetch(`${url}/api/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ crawler: 'MyBot', urls }),
    });
    return ((await response.json()) as { results: { allowed: boolean }[] }).results.map((r) => r.allowed);
  };
  /** What it said about its store on standard error, line by line. */
  const storeLines = () => serve.state.stderr.split('\n').filter((l) => l.includes('robots store'));
  return { serve, health, decide, storeLines };
}

describe('serve --cache on a Redis that freezes', () => {
  it('answers decide requests for new sites from memory, and /api/health says the store stalled', async () => {
    const redis = await ownRedis();
    const { serve, health, decide, storeLines } = await serveOnCache(redis, 'serve-freeze');
    expect((await health()).robotsStore).toMatchObject({ state: 'ok', stalls: 0 });
    const [first, second, third] = await Promise.all([0, 1, 2].map(robotsSite));
    expect(await decide([`${first!.origin}/private-0/a`, `${first!.origin}/b`])).toEqual([false, true]);
    redis.freeze();
    const start = Date.now();
    expect(await decide([`${second!.origin}/private-1/a`, `${second!.origin}/b`])).toEqual([false, true]);
    expect((await health()).robotsStore).toMatchObject({ state: 'stalled', stalls: 1 });
    expect(await decide([`${third!.origin}/private-2/a`, `${third!.origin}/b`])).toEqual([false, true]);
    expect(Date.now() - start).toBeLessThan(HANG_GUARD_MS);
    // The failure said once, not per request.
    expect(storeLines()).toEqual([
      expect.stringMatching(
        /^robotskit: robots store \S+ http:\/\/127\.0\.0\.1:\d+ failed \(.+\); POST \/api\/decide answers from memory/,
      ),
    ]);
    // SIGTERM ends it while the store is still frozen, saying the stall's counts.
    const stopping = Date.now();
    serve.child.kill('SIGTERM');
    expect((await serve.ended).code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(HANG_GUARD_MS);
    expect(storeLines()).toHaveLength(2);
    expect(storeLines()[1]).toMatch(
      /^robotskit: robots store still failing at shutdown \(since \S+\): \d+ store calls? failed, 2 origins answered from memory$/,
    );
  });

  it('says the stall once when it starts and once when the store answers again, with counts', async () => {
    const redis = await ownRedis();
    const { serve, health, decide, storeLines } = await serveOnCache(redis, 'serve-stall-words');
    const origins = await Promise.all([0, 1, 2, 3, 4, 5].map(robotsSite));
    const ask = (n: number) => decide([`${origins[n]!.origin}/private-${n}/a`, `${origins[n]!.origin}/b`]);
    expect(await ask(0)).toEqual([false, true]);
    redis.freeze();
    // Requests for four new sites while frozen, one after another: each is answered right, the failure said once.
    for (const n of [1, 2, 3, 4]) expect(await ask(n)).toEqual([false, true]);
    expect((await health()).robotsStore).toMatchObject({ state: 'stalled', stalls: 1 });
    expect(storeLines()).toHaveLength(1);
    expect(storeLines()[0]).toMatch(/^robotskit: robots store \S+ http:\/\/127\.0\.0\.1:\d+ failed \(/);

    redis.thaw();
    // The store's own probe finds it back; the next request that uses the store ends the stall, said once.
    while ((await health()).robotsStore?.state !== 'ok') await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await ask(5)).toEqual([false, true]);
    expect(await decide([`${origins[0]!.origin}/c`])).toEqual([true]);
    const lines = storeLines();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^robotskit: robots store answers again after failing since \S+Z: \d+ store calls? failed, 4 origins answered from memory$/,
    );
    expect(origins.map((o) => o.requests.filter((p) => p === '/robots.txt').length)).toEqual([1, 1, 1, 1, 1, 1]);
    serve.child.kill('SIGTERM');
    expect((await serve.ended).code).toBe(0);
    expect(storeLines()).toHaveLength(2);
  });
});

describe('a PostgreSQL port that accepts connections and never answers', () => {
  for (const [name, args] of [
    ['serve', ['serve', '--port', '0', '--workers', '0']],
    ['worker', ['worker']],
  ] as const) {
    it(`${name} --database-url fails in one line within the connect timeout`, async () => {
      const silent = await startSilentPort();
      cleanups.push(() => silent.stop());
      const start = Date.now();
      const run = command([...args, '--database-url', `postgres://postgres@127.0.0.1:${silent.port}/test`]);
      run.child.stdin!.end();
      const end = await run.ended;
      expect(Date.now() - start).toBeLessThan(HANG_GUARD_MS);
      expect(end.code).toBe(2);
      expect(run.state.stderr).toMatch(
        /^robotskit: cannot (open|use) PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:\d+\/test: .+\n$/,
      );
      expect(silent.accepted).toBeGreaterThan(0);
    });
  }
});

describe.skipIf(pgProblem !== null)('worker on a PostgreSQL that freezes mid-run', () => {
  it('says so, fetches again once it answers, and ends on SIGTERM within seconds while frozen', async () => {
    // The service's tables in a schema of the test's own; the worker reaches them through a proxy the test freezes.
    const schema = freshSchema();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    cleanups.push(async () => {
      await admin.end();
      await dropSchema(schema);
    });
    await admin.query(`CREATE SCHEMA "${schema}"`);
    const withSchema = (port: string) => {
      const url = new URL(PG_URL);
      url.port = port;
      url.searchParams.set('query_timeout', '2');
      url.searchParams.set('connect_timeout', '2');
      url.searchParams.set('options', `-c search_path=${schema}`);
      return url.href;
    };
    const target = new URL(PG_URL);
    const proxy = await startFreezingProxy(Number(target.port || 5432), target.hostname);
    cleanups.push(() => proxy.stop());
    const stopped = (run: ReturnType<typeof command>) => async () => {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
      await run.ended;
    };
    // The API (no workers of its own) straight on PostgreSQL, the worker behind the proxy.
    const serve = command([
      'serve',
      '--port',
      '0',
      '--workers',
      '0',
      '--allow-private-addresses',
      '--database-url',
      withSchema(target.port || '5432'),
    ]);
    cleanups.push(stopped(serve));
    const waitFor = async (what: string, ok: () => boolean | Promise<boolean>) => {
      const start = Date.now();
      while (!(await ok())) {
        if (Date.now() - start > 60_000) throw new Error(`${what} did not happen; stderr: ${worker?.state.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    let worker: ReturnType<typeof command> | undefined;
    await waitFor('serve to start', () => /service on http:\/\/\S+ /.test(serve.state.stdout));
    const api = /service on (http:\/\/\S+) /.exec(serve.state.stdout)![1]!;
    worker = command(['worker', '--allow-private-addresses', '--database-url', withSchema(String(proxy.port))]);
    cleanups.push(stopped(worker));
    const running = worker;
    await waitFor('the worker to start', () => /fetch worker\(s\) on PostgreSQL/.test(running.state.stdout));
    const [first, second] = await Promise.all([robotsSite(0), robotsSite(1)]);
    const fetched = (site: typeof first) => site.requests.filter((p) => p === '/robots.txt').length;
    const watch = async (site: typeof first) => {
      const response = await fetch(`${api}/api/properties`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ property: `${site.origin}/` }),
      });
      expect(response.status).toBe(201);
    };
    await watch(first);
    // Recorded, not only requested: a fetch whose record the freeze cut off is fetched again, rightly.
    const recorded = async () =>
      (await admin.query(`SELECT count(*)::int AS n FROM "${schema}".fetches`)).rows[0].n as number;
    await waitFor('the first fetch to be recorded', async () => (await recorded()) === 1);

    proxy.freeze();
    const said = () => running.state.stderr.split('\n').filter((l) => l.startsWith('robotskit: workers '));
    await waitFor('the worker to say the database does not answer', () => said().length > 0);
    expect(said()[0]).toMatch(
      /^robotskit: workers paused: the database (did not answer in time|cannot be reached) \(.+\); each worker tries again every round$/,
    );
    // Frozen, it fetches nothing new and ends nothing: the API still adds a property, fetched once the proxy thaws.
    await watch(second);
    proxy.thaw();
    await waitFor('the second fetch after the thaw', async () => (await recorded()) === 2);
    expect(running.child.exitCode).toBeNull();
    // Said once when it began and once when it ended, never once per round.
    await waitFor('the worker to say the database answers again', () => said().length === 2);
    expect(said()[1]).toMatch(
      /^robotskit: workers fetching again: the database answers after \d+ s \(\d+ rounds? failed\)$/,
    );
    expect(running.state.stderr).not.toMatch(/worker error/);

    proxy.freeze();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const start = Date.now();
    running.child.kill('SIGTERM');
    const end = await running.ended;
    expect(Date.now() - start).toBeLessThan(HANG_GUARD_MS);
    expect(end.code).toBe(0);
    expect([fetched(first), fetched(second)]).toEqual([1, 1]);
  });
});
