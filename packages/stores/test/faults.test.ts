/**
 * The stores under faults, with real processes: a redis-server of the test's own frozen (SIGSTOP) and killed;
 * PostgreSQL frozen and cut off behind a proxy of the test's own; a port that accepts and never answers. What must
 * hold: every call ends within the documented time (5 s, then at once while the store is stalled), opening ends,
 * a client answers healthy sites correctly from memory meanwhile (never blocked), and the store is used again once
 * back. Also the pool sized from the URL (waiting for a connection is no failure), expiry and pruning, a real
 * 3-node Redis Cluster and a real Sentinel.
 */

import { createServer, type Server } from 'node:http';
import { createClient } from '@redis/client';
import pg from 'pg';
import { createRobotsClient, type RetrievalResult } from 'robotskit/fetch';
import { robotsStoreContract } from 'robotskit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPostgresRobotsStore,
  createRedisRobotsStore,
  openRobotsStore,
  type RedisRobotsStore,
  RobotsStoreError,
} from '../src/index.js';
import { expiresAt } from '../src/records.js';
import {
  freePort,
  type OwnCluster,
  startFreezingProxy,
  startRedis,
  startRedisCluster,
  startSentinel,
  startSilentPort,
} from './processes.js';
import { dropSchema, freshPrefix, freshSchema, PG_URL, pgProblem } from './services.js';

const RULES = 'User-agent: *\nDisallow: /private/\n';
const DAY = 24 * 60 * 60 * 1000;
/** A generous bound for "ends": the documented 5 s timeout, and room for a loaded machine. */
const HANG_GUARD_MS = 20_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A healthy robots.txt origin on loopback that counts its requests. */
async function startSite(): Promise<{ origin: string; requests: number }> {
  const self = { origin: '', requests: 0 };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/robots.txt') return void res.writeHead(404).end();
    self.requests++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  self.origin = `http://127.0.0.1:${address.port}`;
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return self;
}

/** How long `promise` took to settle, and how it settled. */
async function timed<T>(promise: T | Promise<T>): Promise<{ ms: number; value?: Awaited<T>; error?: unknown }> {
  const start = Date.now();
  try {
    const value = await promise;
    return { ms: Date.now() - start, value };
  } catch (error) {
    return { ms: Date.now() - start, error };
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A client over `store` that reports store failures, and the answers it gives for a healthy site. */
function clientOver(store: Parameters<typeof createRobotsClient>[0]['store']) {
  const reported: string[] = [];
  const client = createRobotsClient({
    userAgent: 'FleetBot',
    ...(store === undefined ? {} : { store }),
    onStoreError: (_error, operation, origin) => reported.push(`${operation} ${origin}`),
  });
  const answers = async (origin: string) => [
    await client.isAllowed(`${origin}/private/x`),
    await client.isAllowed(`${origin}/page`),
  ];
  return { client, reported, answers };
}

describe('Redis frozen (SIGSTOP) and killed', () => {
  it('fails a call within the timeout, then at once; answers healthy sites from memory; comes back', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const store = await createRedisRobotsStore({ url: redis.url, keyPrefix: freshPrefix() });
    cleanups.push(() => store.close());
    const [known, fresh] = [await startSite(), await startSite()];
    const { client, reported, answers } = clientOver(store);
    expect(await answers(known.origin)).toEqual([false, true]);
    expect(reported).toEqual([]);

    redis.freeze();
    const first = await timed(store.get(known.origin));
    expect(first.error).toBeInstanceOf(RobotsStoreError);
    expect(String(first.error)).toMatch(/did not answer within 5000 ms/);
    expect(first.ms).toBeLessThan(HANG_GUARD_MS);
    expect(store.health()).toMatchObject({ state: 'stalled', stalls: 1 });
    // Stalled: refused at once, saying since when.
    await expect(store.set(known.origin, { origin: known.origin, history: [] })).rejects.toThrow(
      /has not answered since .*; store calls fail at once/,
    );
    // A healthy site nobody asked about yet: fetched by this client alone, answered right (never blocked).
    const fresher = await timed(answers(fresh.origin));
    expect(fresher.value).toEqual([false, true]);
    expect(fresher.ms).toBeLessThan(HANG_GUARD_MS);
    expect(fresh.requests).toBe(1);
    expect(reported).toContain(`lease ${fresh.origin}`);
    expect(client.stats().storeErrors).toBeGreaterThan(0);
    // Opening another store on the frozen server ends too, in one line.
    const opening = await timed(openRobotsStore(`${redis.url}?prefix=${encodeURIComponent(freshPrefix())}`));
    expect(opening.error).toBeInstanceOf(RobotsStoreError);
    expect(String((opening.error as Error).message)).toMatch(/^cannot reach Redis at .*: no answer within 5000 ms$/);
    expect(opening.ms).toBeLessThan(HANG_GUARD_MS);

    redis.thaw();
    await until('the store answers again', () => store.health().state === 'ok');
    expect(store.health().cameBackAt).not.toBeNull();
    expect((await store.get(known.origin))?.history.at(-1)?.outcome).toBe('rules');
  });

  it('killed: calls fail, healthy sites are answered from memory, close ends', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const store = await createRedisRobotsStore({ url: redis.url, keyPrefix: freshPrefix() });
    const site = await startSite();
    const { answers, reported } = clientOver(store);
    await redis.kill();
    const answered = await timed(answers(site.origin));
    expect(answered.value).toEqual([false, true]);
    expect(answered.ms).toBeLessThan(HANG_GUARD_MS);
    expect(reported.length).toBeGreaterThan(0);
    const closing = await timed(store.close());
    expect(closing.ms).toBeLessThan(HANG_GUARD_MS);
  });

  it('closing a store on a frozen Redis ends', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const store = await createRedisRobotsStore({ url: redis.url, keyPrefix: freshPrefix() });
    redis.freeze();
    const pending = Promise.resolve(store.get('http://a.invalid')).catch(() => {});
    const closing = await timed(store.close());
    expect(closing.error).toBeUndefined();
    expect(closing.ms).toBeLessThan(HANG_GUARD_MS);
    await pending;
  });
});

describe('a port that accepts connections and never answers', () => {
  it('Redis and PostgreSQL stores fail to open in bounded time, in one line', async () => {
    const silent = await startSilentPort();
    cleanups.push(() => silent.stop());
    for (const url of [
      `redis://127.0.0.1:${silent.port}`,
      `redis://127.0.0.1:${silent.port}/7`,
      `postgres://postgres@127.0.0.1:${silent.port}/test`,
    ]) {
      const opening = await timed(openRobotsStore(url));
      expect(opening.error, url).toBeInstanceOf(RobotsStoreError);
      const message = (opening.error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^cannot (reach Redis|use PostgreSQL) at /);
      expect(opening.ms).toBeLessThan(HANG_GUARD_MS);
    }
    expect(silent.accepted).toBeGreaterThanOrEqual(3);
  });
});

describe.skipIf(pgProblem !== null)('PostgreSQL frozen and cut off (a proxy of the test)', () => {
  const pgPort = Number(new URL(PG_URL).port || 5432);
  const via = (port: number, params = '') => {
    const u = new URL(PG_URL);
    u.port = String(port);
    return `${u.href}${params}`;
  };

  it('frozen: fails a call within the timeout, then at once; answers from memory; comes back', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    const proxy = await startFreezingProxy(pgPort);
    cleanups.push(() => proxy.stop());
    const store = await createPostgresRobotsStore({ url: via(proxy.port), schema });
    cleanups.push(() => store.close());
    const [known, fresh] = [await startSite(), await startSite()];
    const { answers, reported } = clientOver(store);
    expect(await answers(known.origin)).toEqual([false, true]);

    proxy.freeze();
    const first = await timed(store.get(known.origin));
    expect(first.error).toBeInstanceOf(Error);
    expect(first.ms).toBeLessThan(HANG_GUARD_MS);
    expect(store.health().state).toBe('stalled');
    await expect(store.get(known.origin)).rejects.toThrow(/has not answered since/);
    const fresher = await timed(answers(fresh.origin));
    expect(fresher.value).toEqual([false, true]);
    expect(fresher.ms).toBeLessThan(HANG_GUARD_MS);
    expect(reported).toContain(`lease ${fresh.origin}`);

    proxy.thaw();
    await until('the store answers again', () => store.health().state === 'ok');
    expect((await store.get(known.origin))?.history.at(-1)?.outcome).toBe('rules');
  });

  it('cut off (killed): calls fail, healthy sites are answered, close ends', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    const proxy = await startFreezingProxy(pgPort);
    const store = await createPostgresRobotsStore({ url: via(proxy.port), schema });
    const site = await startSite();
    const { answers } = clientOver(store);
    await proxy.kill();
    const answered = await timed(answers(site.origin));
    expect(answered.value).toEqual([false, true]);
    expect(answered.ms).toBeLessThan(HANG_GUARD_MS);
    const closing = await timed(store.close());
    expect(closing.ms).toBeLessThan(HANG_GUARD_MS);
  });

  it('sizes its pool from the URL, and waiting for a connection is no failure', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    const app = `robotskit_pool_${schema}`;
    const store = await openRobotsStore(`${PG_URL}?schema=${schema}&pool_size=2&application_name=${app}`);
    cleanups.push(() => store.close());
    const origins = Array.from({ length: 40 }, (_, i) => `http://site-${i}.invalid`);
    await Promise.all(origins.map((o) => store.acquireLease(o, 'me', 60_000)));
    const probe = new pg.Client({ connectionString: PG_URL });
    await probe.connect();
    cleanups.push(() => probe.end());
    const { rows } = await probe.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
      app,
    ]);
    expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
    expect((rows[0] as { n: number }).n).toBeLessThanOrEqual(2);

    // One connection, calls that each take 300 ms, a 3 s timeout: 12 calls at once take 3.6 s, none fails.
    const real = new pg.Pool({ connectionString: PG_URL, max: 1 });
    cleanups.push(() => real.end());
    const slow = {
      query: async (text: string, values?: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return real.query(text, values);
      },
      connect: () => real.connect(),
    };
    const slowStore = await createPostgresRobotsStore({ pool: slow, schema, poolSize: 1, queryTimeoutMs: 3000 });
    cleanups.push(() => slowStore.close());
    const results = await Promise.allSettled(origins.slice(0, 12).map((o) => slowStore.get(o)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(slowStore.health()).toMatchObject({ state: 'ok', failedCalls: 0 });

    await expect(openRobotsStore(`${PG_URL}?schema=${schema}&pool_size=0`)).rejects.toThrow(
      "the store URL's pool_size must be a positive integer",
    );
  });

  it('prunes records past their expiry and expired leases, with indexes for both', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    const store = await createPostgresRobotsStore({ url: PG_URL, schema, pruneEveryMs: 0 });
    cleanups.push(() => store.close());
    const site = await startSite();
    const { answers } = clientOver(store);
    await answers(site.origin);
    const probe = new pg.Client({ connectionString: PG_URL });
    await probe.connect();
    cleanups.push(() => probe.end());
    const table = `"${schema}".robotskit_robots`;
    const { rows: expiry } = await probe.query(
      `SELECT extract(epoch FROM expires_at - now()) * 1000 AS ms FROM ${table} WHERE origin = $1`,
      [site.origin],
    );
    const ms = Number((expiry[0] as { ms: number }).ms);
    expect(ms).toBeGreaterThan(30 * DAY);
    expect(ms).toBeLessThanOrEqual(31 * DAY);
    expect(await store.prune()).toEqual({ records: 0, leases: 0 });
    await probe.query(`UPDATE ${table} SET expires_at = now() - interval '1 second' WHERE origin = $1`, [site.origin]);
    expect(await store.acquireLease('http://dead.invalid', 'a process that died', 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.acquireLease('http://alive.invalid', 'a process at work', 600_000)).toBe(true);
    expect(await store.prune()).toEqual({ records: 1, leases: 1 });
    expect(await store.get(site.origin)).toBeUndefined();
    const { rows: indexes } = await probe.query('SELECT indexdef FROM pg_indexes WHERE schemaname = $1', [schema]);
    const defs = indexes.map((r) => (r as { indexdef: string }).indexdef).join('\n');
    expect(defs).toMatch(/robotskit_robots USING btree \(expires_at\)/);
    expect(defs).toMatch(/robotskit_robots USING btree \(next_fetch_at\)/);
    expect(defs).toMatch(/robotskit_robots_leases USING btree \(expires_at\)/);
  });
});

describe('expiry', () => {
  const fetchAt = (at: number, outcome: RetrievalResult['outcome']): RetrievalResult =>
    ({
      origin: 'http://a.invalid',
      robotsUrl: 'http://a.invalid/robots.txt',
      finalUrl: 'http://a.invalid/robots.txt',
      outcome,
      status: outcome === 'rules' ? 200 : 503,
      redirects: [],
      headers: { cacheControl: null, retryAfter: null, date: null },
      body: outcome === 'rules' ? new TextEncoder().encode(RULES) : null,
      size: 0,
      truncated: false,
      html: false,
      error: null,
      fetchedAt: at,
      timings: { headersMs: null, totalMs: 1 },
    }) as unknown as RetrievalResult;

  it('keeps a record the 30-day rule plus a day after its latest fetch, never longer', () => {
    const now = Date.UTC(2026, 0, 31);
    expect(expiresAt([fetchAt(now, 'rules')], now)).toBe(now + 31 * DAY);
    // Fetched 20 days ago and not since: 11 days left.
    expect(expiresAt([fetchAt(now - 20 * DAY, 'rules')], now)).toBe(now + 11 * DAY);
    // A failure after a good fetch keeps the run (and its last good copy) from the latest fetch on.
    expect(expiresAt([fetchAt(now - 25 * DAY, 'rules'), fetchAt(now - DAY, 'disallow-all')], now)).toBe(now + 30 * DAY);
  });

  it('Redis keys carry the origin as their hash tag and expire', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const keyPrefix = freshPrefix();
    const store = await createRedisRobotsStore({ url: redis.url, keyPrefix });
    cleanups.push(() => store.close());
    const site = await startSite();
    await clientOver(store).answers(site.origin);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    cleanups.push(() => raw.close());
    const ttl = await raw.pTTL(`${keyPrefix}origin:{${site.origin}}`);
    expect(ttl).toBeGreaterThan(30 * DAY);
    expect(ttl).toBeLessThanOrEqual(31 * DAY);
  });
});

describe('Redis Cluster (three redis-server nodes of the test)', () => {
  it('runs the store contract and a client on a cluster named by one node, keys spread over the nodes', async () => {
    const c: OwnCluster = await startRedisCluster();
    try {
      const named = () => `${c.nodes[1]!.url}?prefix=${encodeURIComponent(freshPrefix())}`;
      const url = named();
      for (const contractCase of robotsStoreContract(
        () => openRobotsStore(named()),
        (store) => store.close(),
      )) {
        await contractCase.run();
      }
      const store = await openRobotsStore(url);
      cleanups.push(() => store.close());
      expect((store as RedisRobotsStore).topology).toBe('cluster');
      const sites = await Promise.all(Array.from({ length: 12 }, startSite));
      const { answers, reported } = clientOver(store);
      for (const site of sites) expect(await answers(site.origin)).toEqual([false, true]);
      expect(reported).toEqual([]);
      expect(sites.map((s) => s.requests)).toEqual(sites.map(() => 1));
      const sizes = await Promise.all(
        c.nodes.map(async (node) => {
          const raw = createClient({ url: node.url });
          await raw.connect();
          try {
            return await raw.dbSize();
          } finally {
            await raw.close();
          }
        }),
      );
      expect(sizes.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
      await expect(openRobotsStore(`${c.nodes[0]!.url}/7`)).rejects.toThrow(/SELECT is not allowed in cluster mode/);
    } finally {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await c.stop();
    }
  }, 120_000);
});

describe('Redis Sentinel (a master and a sentinel of the test)', () => {
  it('opens redis+sentinel:// URLs and keeps records on the master', async () => {
    const s = await startSentinel();
    cleanups.push(() => s.stop());
    const keyPrefix = freshPrefix();
    const store = await openRobotsStore(
      `redis+sentinel://127.0.0.1:${s.sentinel.port}/${s.name}?prefix=${encodeURIComponent(keyPrefix)}`,
    );
    cleanups.push(() => store.close());
    expect((store as RedisRobotsStore).topology).toBe('sentinel');
    const site = await startSite();
    expect(await clientOver(store).answers(site.origin)).toEqual([false, true]);
    const raw = createClient({ url: s.master.url });
    await raw.connect();
    cleanups.push(() => raw.close());
    expect(await raw.exists(`${keyPrefix}origin:{${site.origin}}`)).toBe(1);
    await expect(openRobotsStore(`redis+sentinel://127.0.0.1:${await freePort()}/${s.name}`)).rejects.toThrow(
      RobotsStoreError,
    );
  });
});
