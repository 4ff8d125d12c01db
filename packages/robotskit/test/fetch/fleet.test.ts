/**
 * Single flight across clients sharing a store with fetch leases: one fetch per origin between them, a slow holder
 * waited for, a wait that runs out ending in a fetch of the waiter's own (never a failure, never allow-all), a store
 * that cannot be reached reported and worked around.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRobotsStore, createRobotsClient, type RobotsStore } from '../../src/fetch/index.js';
import { startHttpServer, type TestServer } from './servers.js';

const RULES = 'User-agent: *\nDisallow: /private/\n';
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function site(delayMs = 0): Promise<TestServer> {
  const s = await startHttpServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(RULES);
    }, delayMs);
  });
  servers.push(s);
  return s;
}

describe('fleet single flight', () => {
  it('makes one fetch per origin between many clients sharing a store', async () => {
    const sites = await Promise.all([site(50), site(50), site(50)]);
    const store = createMemoryRobotsStore();
    const clients = Array.from({ length: 5 }, () =>
      createRobotsClient({ userAgent: 'MyBot', store, fleet: { pollMs: 10 } }),
    );
    const answers = await Promise.all(
      clients.flatMap((c) => sites.flatMap((s) => [c.isAllowed(`${s.origin}/private/x`), c.isAllowed(`${s.origin}/`)])),
    );
    expect(answers).toEqual(Array.from({ length: 15 }, () => [false, true]).flat());
    for (const s of sites) expect(s.requests.length).toBe(1);
    const stats = clients.map((c) => c.stats());
    expect(stats.reduce((n, st) => n + st.fetches, 0)).toBe(3);
    expect(stats.reduce((n, st) => n + st.fleetWaits, 0)).toBeGreaterThan(0);
  });

  it('fetches itself when a lease held elsewhere outlives its wait: never a failure of the site', async () => {
    const s = await site();
    const store = createMemoryRobotsStore();
    const origin = s.origin;
    expect(store.acquireLease(origin, 'a process that hangs', 600_000)).toBe(true);
    const client = createRobotsClient({ userAgent: 'MyBot', store, fleet: { waitMs: 200, pollMs: 20 } });
    const verdict = await client.explain(`${origin}/`);
    expect(verdict.allowed).toBe(true);
    expect(verdict.policy.mode).toBe('rules');
    expect(s.requests.length).toBe(1);
    expect(client.stats()).toMatchObject({ fleetWaits: 1, fleetTimeouts: 1, fetches: 1 });
    expect((await store.get(origin))?.history.at(-1)?.outcome).toBe('rules');
  });

  it('waits for a slow holder that renews its lease rather than fetching again', async () => {
    const s = await site(400);
    const store = createMemoryRobotsStore();
    const options = { userAgent: 'MyBot', store, fleet: { leaseMs: 100 } };
    const [a, b] = [createRobotsClient(options), createRobotsClient(options)];
    const first = a.isAllowed(`${s.origin}/`);
    while (s.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await Promise.all([first, b.isAllowed(`${s.origin}/private/x`)])).toEqual([true, false]);
    expect(s.requests.length).toBe(1);
    expect(b.stats()).toMatchObject({ fleetWaits: 1, fleetTimeouts: 0, fetches: 0 });
  });

  it('takes over a lease whose holder died once it expires', async () => {
    const s = await site();
    const store = createMemoryRobotsStore();
    expect(store.acquireLease(s.origin, 'a dead process', 300)).toBe(true);
    const client = createRobotsClient({ userAgent: 'MyBot', store, fleet: { waitMs: 60_000, pollMs: 20 } });
    expect(await client.isAllowed(`${s.origin}/`)).toBe(true);
    expect(s.requests.length).toBe(1);
    expect(client.stats()).toMatchObject({ fleetWaits: 1, fleetTimeouts: 0, fetches: 1 });
  });

  it('fetches on its own and says so when the store cannot be reached', async () => {
    const s = await site();
    const down = (): never => {
      throw new Error('store unreachable');
    };
    const store: RobotsStore = { get: down, set: down, acquireLease: down, releaseLease: down };
    const reported: string[] = [];
    const client = createRobotsClient({
      userAgent: 'MyBot',
      store,
      onStoreError: (error, operation) => reported.push(`${operation}: ${(error as Error).message}`),
    });
    expect(await client.isAllowed(`${s.origin}/private/`)).toBe(false);
    expect(await client.isAllowed(`${s.origin}/`)).toBe(true);
    expect(s.requests.length).toBe(1);
    expect(reported).toEqual(['get: store unreachable', 'set: store unreachable']);
    expect(client.stats()).toMatchObject({ storeErrors: 2, fetches: 1, hits: 1 });
  });

  it('rejects without onStoreError when the lease cannot be taken', async () => {
    const s = await site();
    const store: RobotsStore = {
      get: () => undefined,
      set: () => {},
      acquireLease: () => Promise.reject(new Error('store unreachable')),
      releaseLease: () => {},
    };
    const client = createRobotsClient({ userAgent: 'MyBot', store });
    await expect(client.isAllowed(`${s.origin}/`)).rejects.toThrow('store unreachable');
  });
});
