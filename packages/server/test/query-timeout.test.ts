/**
 * A PostgreSQL that stalls once connected (its bytes stop, its connections stay open): every query of the service is
 * bounded by the URL's `query_timeout`, so an API request fails with a 503 in the API's error shape within that time
 * instead of hanging (its connection is cut, so nothing it sent lands later), `GET /api/health` says the database is
 * unavailable, and both recover when it answers again.
 * The stall is the test's own TCP proxy in front of the shared PostgreSQL, frozen; the server itself is never touched.
 */

import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type FreezingProxy, startFreezingProxy } from '../../stores/test/processes.js';
import { buildApp } from '../src/http/app.js';
import { DatabaseConfigError } from '../src/storage/config.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { PG_URL, testDatabases } from './databases.js';

const postgres = testDatabases.find((t) => t.dialect === 'postgres')!;

/**
 * A generous bound for "fails within the query timeout" on a loaded machine (2 s here, and the connect timeout, 2 s,
 * for a request that meets a connection opened after the stall began).
 */
const HANG_GUARD_MS = 30_000;

/** The shared PostgreSQL's URL through `proxy`, with `query`'s parameters. */
function throughProxy(proxy: FreezingProxy, query: Record<string, string>): string {
  const url = new URL(PG_URL);
  url.host = `127.0.0.1:${proxy.port}`;
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.href;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(postgres.skip !== null)('PostgreSQL stalling after connecting', () => {
  afterAll(() => postgres.cleanup());

  it('answers 503 within the query timeout, /api/health says unavailable, and both recover', async () => {
    const proxy = await startFreezingProxy(Number(new URL(PG_URL).port || 5432), new URL(PG_URL).hostname);
    cleanups.push(() => proxy.stop());
    const base = postgres.config();
    if (base.dialect !== 'postgres') throw new Error('not postgres');
    const database: Database = await openDatabase({
      ...base,
      url: throughProxy(proxy, { query_timeout: '2', connect_timeout: '2' }),
    });
    cleanups.push(() => database.close());
    const app = await buildApp({ database, webRoot: false });
    cleanups.push(() => app.close());
    const health = async () =>
      (await app.inject({ method: 'GET', url: '/api/health' })).json<{
        databaseState: string;
        databaseError: string | null;
      }>();

    expect((await app.inject({ method: 'GET', url: '/api/properties' })).statusCode).toBe(200);
    expect(await health()).toMatchObject({ databaseState: 'ok', databaseError: null });

    proxy.freeze();
    const start = Date.now();
    const [read, write] = await Promise.all([
      app.inject({ method: 'GET', url: '/api/properties' }),
      app.inject({ method: 'POST', url: '/api/properties', payload: { property: 'https://stall.invalid/' } }),
    ]);
    expect(Date.now() - start).toBeLessThan(HANG_GUARD_MS);
    for (const reply of [read, write]) {
      expect(reply.statusCode).toBe(503);
      expect(reply.headers['retry-after']).toBe('5');
      expect(reply.json()).toEqual({
        error: { code: 'database-unavailable', message: expect.stringContaining('did not answer in time') },
      });
    }
    const stalled = await health();
    expect(stalled.databaseState).toBe('unavailable');
    expect(stalled.databaseError).toMatch(/^PostgreSQL .* did not answer in time \(stalled or overloaded\)$/);

    proxy.thaw();
    // The held bytes flow again; the service answers as before, nothing lost or stuck.
    for (let i = 0; (await app.inject({ method: 'GET', url: '/api/properties' })).statusCode !== 200; i++) {
      expect(i).toBeLessThan(300);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await health()).toMatchObject({ databaseState: 'ok', databaseError: null });
    const added = await app.inject({
      method: 'POST',
      url: '/api/properties',
      payload: { property: 'https://after.invalid/' },
    });
    expect(added.statusCode).toBe(201);
    // The write answered 503 never lands later (its connection was cut, not left to deliver it on the thaw).
    const listed = (await app.inject({ method: 'GET', url: '/api/properties' })).json<{
      properties: { input: string }[];
    }>();
    expect(JSON.stringify(listed)).toContain('after.invalid');
    expect(JSON.stringify(listed)).not.toContain('stall.invalid');
  });

  it('refuses a query_timeout that is not whole seconds, in one line', async () => {
    const base = postgres.config();
    if (base.dialect !== 'postgres') throw new Error('not postgres');
    const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}query_timeout=2.5`;
    await expect(openDatabase({ ...base, url })).rejects.toThrow(
      new DatabaseConfigError("--database-url's query_timeout must be whole seconds, not '2.5'"),
    );
  });
});
