/**
 * Both stores on real servers: the engine's RobotsStore contract (leases included), a fleet of processes making one
 * robots.txt fetch per origin between them, a fetcher killed mid-fetch, and the store cut off and brought back.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createRobotsClient, fetchRobotsTxt } from 'robotskit/fetch';
import { robotsStoreContract } from 'robotskit/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createPostgresRobotsStore,
  createRedisRobotsStore,
  type OpenedRobotsStore,
  openRobotsStore,
  RobotsStoreError,
} from '../src/index.js';
import {
  dropPrefix,
  dropSchema,
  freshPrefix,
  freshSchema,
  PG_URL,
  pgProblem,
  REDIS_URL,
  redisProblem,
  startProxy,
} from './services.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fleet-child.mjs');
const RULES = 'User-agent: *\nDisallow: /private/\n';

/** A robots.txt origin on loopback that counts its requests; `hold` keeps requests unanswered until released. */
interface Origin {
  readonly origin: string;
  requests: number;
  hold: boolean;
  readonly held: ServerResponse[];
  close(): Promise<void>;
}

async function startOrigin(): Promise<Origin> {
  const self: Origin = {
    origin: '',
    requests: 0,
    hold: false,
    held: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    self.requests++;
    if (self.hold) {
      self.held.push(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
  });
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  (self as { origin: string }).origin = `http://127.0.0.1:${address.port}`;
  const close = self.close;
  self.close = async () => {
    for (const res of self.held) res.destroy();
    server.closeAllConnections();
    await close();
  };
  return self;
}

interface ChildRun {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly result: Promise<{ answers: boolean[]; stats: Record<string, number> }>;
}

function runChild(job: Record<string, unknown>): ChildRun {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'pipe'] });
  // A child still running when its test ends (the test failed first) is ended with it.
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  let err = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (out.startsWith('ready\n')) onReady();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const result = new Promise<{ answers: boolean[]; stats: Record<string, number> }>((resolve, reject) => {
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code === 0 && line !== undefined) resolve(JSON.parse(line));
      else reject(new Error(`fleet child exited with ${code}: ${err || out}`));
    });
  });
  return { child, ready, result };
}

interface Kind {
  readonly name: 'redis' | 'postgres';
  readonly skip: string | null;
  /** A new place in the store (prefix or schema): the job fields for a child, and how to open the store there. */
  place(): { job: Record<string, unknown>; open(url?: string): Promise<OpenedRobotsStore>; drop(): Promise<void> };
  readonly host: string;
  readonly port: number;
  /** The URL with another port (for the proxy). */
  via(port: number): string;
}

const kinds: Kind[] = [
  {
    name: 'redis',
    skip: redisProblem,
    place() {
      const keyPrefix = freshPrefix();
      return {
        job: { kind: 'redis', url: REDIS_URL, keyPrefix },
        open: (url = REDIS_URL) => createRedisRobotsStore({ url, keyPrefix }),
        drop: () => dropPrefix(keyPrefix),
      };
    },
    host: new URL(REDIS_URL).hostname,
    port: Number(new URL(REDIS_URL).port || 6379),
    via(port) {
      const u = new URL(REDIS_URL);
      u.port = String(port);
      return u.href;
    },
  },
  {
    name: 'postgres',
    skip: pgProblem,
    place() {
      const schema = freshSchema();
      return {
        job: { kind: 'postgres', url: PG_URL, schema },
        open: (url = PG_URL) => createPostgresRobotsStore({ url, schema }),
        drop: () => dropSchema(schema),
      };
    },
    host: new URL(PG_URL).hostname,
    port: Number(new URL(PG_URL).port || 5432),
    via(port) {
      const u = new URL(PG_URL);
      u.port = String(port);
      return u.href;
    },
  },
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

for (const kind of kinds) {
  describe.skipIf(kind.skip !== null)(`${kind.name} store`, () => {
    const places: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const drop of places) await drop();
    });

    describe('contract', () => {
      for (const c of robotsStoreContract(
        async () => {
          const place = kind.place();
          places.push(place.drop);
          return place.open();
        },
        (store) => store.close(),
      )) {
        it(c.name, c.run);
      }
    });

    it('makes one robots.txt request per origin across five processes', async () => {
      const place = kind.place();
      cleanups.push(place.drop);
      const origins = await Promise.all(Array.from({ length: 4 }, startOrigin));
      for (const o of origins) cleanups.push(o.close);
      const runs = Array.from({ length: 5 }, () => runChild({ ...place.job, origins: origins.map((o) => o.origin) }));
      const results = await Promise.all(runs.map((r) => r.result));
      for (const r of results) expect(r.answers).toEqual(origins.flatMap(() => [false, true]));
      expect(origins.map((o) => o.requests)).toEqual([1, 1, 1, 1]);
      expect(results.reduce((n, r) => n + (r.stats.fetches ?? 0), 0)).toBe(4);
      // The record is in the store for the next process, bytes and all.
      const store = await place.open();
      cleanups.push(() => store.close());
      const record = await store.get(origins[0]!.origin);
      expect(new TextDecoder().decode(record?.history.at(-1)?.body ?? undefined)).toBe(RULES);
    });

    it('takes over from a fetcher killed mid-fetch once its lease expires', async () => {
      const place = kind.place();
      cleanups.push(place.drop);
      const site = await startOrigin();
      cleanups.push(site.close);
      site.hold = true;
      const first = runChild({ ...place.job, origins: [site.origin], fleet: { leaseMs: 4000 } });
      first.result.catch(() => {});
      while (site.requests === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('close', resolve));
      site.hold = false;
      const second = runChild({ ...place.job, origins: [site.origin], fleet: { waitMs: 120_000 } });
      const result = await second.result;
      expect(result.answers).toEqual([false, true]);
      expect(site.requests).toBe(2);
      // It fetched itself, after waiting for the lease or not (how long starting a process takes is the machine's).
      expect(result.stats).toMatchObject({ fetches: 1, fleetTimeouts: 0 });
    });

    it('fetches itself when a lease held elsewhere outlives its wait: never a failure of the site', async () => {
      const place = kind.place();
      cleanups.push(place.drop);
      const store = await place.open();
      cleanups.push(() => store.close());
      const site = await startOrigin();
      cleanups.push(site.close);
      expect(await store.acquireLease(site.origin, 'a process that hangs', 600_000)).toBe(true);
      const client = createRobotsClient({ userAgent: 'FleetBot', store, fleet: { waitMs: 300, pollMs: 50 } });
      const verdict = await client.explain(`${site.origin}/page`);
      expect(verdict).toMatchObject({ allowed: true, policy: { mode: 'rules' } });
      expect(client.stats()).toMatchObject({ fetches: 1, fleetWaits: 1, fleetTimeouts: 1 });
      expect(site.requests).toBe(1);
      expect((await store.get(site.origin))?.history.at(-1)?.outcome).toBe('rules');
    });

    it('answers from memory and says so while the store is cut off, and uses it again once back', async () => {
      const place = kind.place();
      cleanups.push(place.drop);
      const proxy = await startProxy(kind.host, kind.port);
      cleanups.push(() => proxy.close());
      const store = await place.open(kind.via(proxy.port));
      cleanups.push(() => store.close());
      const [a, b] = [await startOrigin(), await startOrigin()];
      cleanups.push(a.close, b.close);
      const reported: string[] = [];
      const client = createRobotsClient({
        userAgent: 'FleetBot',
        store,
        onStoreError: (_error, operation, origin) => reported.push(`${operation} ${origin}`),
      });
      expect(await client.isAllowed(`${a.origin}/private/x`)).toBe(false);
      expect(reported).toEqual([]);
      await proxy.down();
      // A known origin from memory; a new one fetched by this process alone, each store failure reported.
      expect(await client.isAllowed(`${a.origin}/ok`)).toBe(true);
      expect(await client.isAllowed(`${b.origin}/private/x`)).toBe(false);
      expect(await client.isAllowed(`${b.origin}/ok`)).toBe(true);
      expect([a.requests, b.requests]).toEqual([1, 1]);
      // The record is read with the lease claim: one call.
      expect(reported).toEqual([`lease ${b.origin}`, `set ${b.origin}`]);
      expect(client.stats().storeErrors).toBe(2);
      await proxy.up();
      // Back: a refresh writes to the store again (the connection is re-made; wait for it, however long it takes).
      for (;;) {
        reported.length = 0;
        await client.refresh(b.origin);
        if (reported.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const stored = await store.get(b.origin);
      expect(stored?.history.at(-1)?.outcome).toBe('rules');
    });

    it('says what is wrong when it cannot reach the store at start', async () => {
      const proxy = await startProxy(kind.host, kind.port);
      await proxy.close();
      const place = kind.place();
      await expect(place.open(kind.via(proxy.port))).rejects.toThrow(RobotsStoreError);
      await expect(place.open(kind.via(proxy.port))).rejects.toThrow(/cannot (reach|use)/);
    });
  });
}

describe('openRobotsStore', () => {
  it('refuses other schemes and non-URLs with a one-line message', async () => {
    await expect(openRobotsStore('memcached://127.0.0.1')).rejects.toThrow('unsupported store memcached://');
    await expect(openRobotsStore('not a url')).rejects.toThrow('not a store URL');
  });

  it.skipIf(redisProblem !== null)('opens Redis by URL', async () => {
    const store = await openRobotsStore(REDIS_URL);
    await store.close();
  });

  it.skipIf(pgProblem !== null)('opens PostgreSQL by URL with a schema parameter', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    const store = await openRobotsStore(`${PG_URL}?schema=${schema}`);
    cleanups.push(() => store.close());
    expect(await store.get('http://a.invalid')).toBeUndefined();
  });
});

describe('createPostgresRobotsStore', () => {
  // The option's type is the store's own (PostgresPool), which a pg.Pool satisfies: this compiles with @types/pg.
  it.skipIf(pgProblem !== null)('works on a pg.Pool of the caller, and leaves it open on close', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
    cleanups.push(() => pool.end());
    const store = await createPostgresRobotsStore({ pool, schema });
    expect(await store.get('http://a.invalid')).toBeUndefined();
    expect(await store.acquireLease('http://a.invalid', 'me', 60_000)).toBe(true);
    expect(await store.acquireLease('http://a.invalid', 'other', 60_000)).toBe(false);
    await store.close();
    const { rows } = await pool.query(`SELECT holder FROM "${schema}".robotskit_robots_leases`);
    expect(rows).toEqual([{ holder: 'me' }]);
  });
});

describe('PostgreSQL claims', () => {
  // A claim reads the record in its statement's snapshot but takes the lease against the newest rows: a holder whose
  // publish commits while the claim waits on the lease row left a lease to take and a fresh record that snapshot
  // cannot see. The claim must see the record and leave the lease, or two processes fetch the origin.
  it.skipIf(pgProblem !== null)('a claim that waited on a publish sees its record and takes no lease', async () => {
    const schema = freshSchema();
    cleanups.push(() => dropSchema(schema));
    const store = await createPostgresRobotsStore({ url: PG_URL, schema, pruneEveryMs: 0 });
    cleanups.push(() => store.close());
    const site = await startOrigin();
    cleanups.push(() => site.close());
    const origin = site.origin;
    const now = Date.now();
    // A due record (its next fetch has come) and a lease of another holder, fetching it again.
    await store.set(origin, { origin, history: [await fetchRobotsTxt(origin)], nextFetchAt: now - 1000 });
    expect(await store.acquireLease(origin, 'holder', 60_000)).toBe(true);
    // The holder's publish, held open: the record made fresh and the lease deleted, not committed yet.
    const publisher = new pg.Client({ connectionString: PG_URL });
    await publisher.connect();
    cleanups.push(() => publisher.end());
    await publisher.query('BEGIN');
    await publisher.query(
      `UPDATE "${schema}".robotskit_robots SET next_fetch_at = now() + interval '1 hour' WHERE origin = $1`,
      [origin],
    );
    await publisher.query(`DELETE FROM "${schema}".robotskit_robots_leases WHERE origin = $1`, [origin]);
    const claim = store.claimLease(origin, 'waiter', 60_000, now, 30_000);
    // The claim waits on the lease row the publish locked.
    const watcher = new pg.Client({ connectionString: PG_URL });
    await watcher.connect();
    cleanups.push(() => watcher.end());
    await expect
      .poll(
        async () =>
          (await watcher.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`)).rows[0].n as number,
        { timeout: 20_000, interval: 20 },
      )
      .toBeGreaterThan(0);
    await publisher.query('COMMIT');
    const claimed = await claim;
    expect(claimed.lease).toBe('fresh');
    expect(claimed.record?.history).toHaveLength(1);
    const { rows } = await watcher.query(`SELECT holder FROM "${schema}".robotskit_robots_leases`);
    expect(rows).toEqual([]);
  });
});
