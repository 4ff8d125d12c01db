/**
 * Losing the database connection (a PostgreSQL restart or failover terminates every backend) must not crash the
 * process: the request in flight fails with a 503 in the API's error shape, the pool reconnects, and the next
 * request is answered. Real PostgreSQL: this test's own backends (found by their application_name, unique to the
 * test) are terminated with pg_terminate_backend while a request waits on a lock; other tests' backends are not
 * touched. The SQLite path: a writer holding the database past the busy timeout is a 503 too, not a 500.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { PG_URL, testDatabases } from './databases.js';

const postgres = testDatabases.find((t) => t.dialect === 'postgres')!;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe.skipIf(postgres.skip !== null)('PostgreSQL terminating the connections', () => {
  afterAll(() => postgres.cleanup());

  it('fails the request in flight with a 503, reconnects, carries on; the process survives', async () => {
    const base = postgres.config();
    if (base.dialect !== 'postgres') throw new Error('not postgres');
    const name = `robotskit_loss_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}application_name=${name}`;
    const database: Database = await openDatabase({ ...base, url });
    const app = await buildApp({ database, webRoot: false });
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const ours = async (where = '') =>
      (
        await admin.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1 ${where}`, [
          name,
        ])
      ).rows.map((r) => r.pid);
    const locker = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${base.schema}` });
    try {
      await createProperty(database.db, database.dialect, parsePropertyInput('https://site.invalid/'), Date.now());
      expect((await app.inject({ method: 'GET', url: '/api/properties' })).statusCode).toBe(200);

      // Park a read on a lock, so it is certainly in flight on a checked-out client when its backend goes away.
      await locker.connect();
      await locker.query('begin');
      await locker.query('lock table properties in access exclusive mode');
      const inFlight = app.inject({ method: 'GET', url: '/api/properties' });
      await until(async () => (await ours("and wait_event_type = 'Lock'")).length > 0, 'the read to wait on the lock');

      // What a restart does to this service: every one of its backends terminated (57P01), busy or idle.
      for (const pid of await ours()) await admin.query('select pg_terminate_backend($1)', [pid]);
      const failed = await inFlight;
      await locker.query('rollback');
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toEqual({
        error: { code: 'database-unavailable', message: expect.stringContaining('database is unavailable') },
      });

      // The pool reconnects: once the terminated connections are gone (a request that meets one first is a 503,
      // never anything else), reads are answered, several at once; and again after a second termination.
      for (let round = 0; round < 2; round++) {
        await until(async () => (await ours()).length === 0, 'the terminated backends to go');
        await until(async () => {
          const reply = await app.inject({ method: 'GET', url: '/api/properties' });
          if (reply.statusCode !== 200) expect(reply.statusCode).toBe(503);
          return reply.statusCode === 200;
        }, 'a read to be answered again');
        const replies = await Promise.all(
          Array.from({ length: 8 }, () => app.inject({ method: 'GET', url: '/api/properties' })),
        );
        expect(replies.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
        expect(replies[0]!.json().properties).toHaveLength(1);
        // Idle clients this time: their error events arrive with no query to fail (they would crash an unguarded
        // process as well).
        for (const pid of await ours()) await admin.query('select pg_terminate_backend($1)', [pid]);
      }
      await until(async () => (await ours()).length === 0, 'the terminated backends to go');

      // Under read load: four readers without pause while the backends are terminated five times. A connection
      // that goes while its client is checked out (its error event arriving between queries) crashed the process.
      let stop = false;
      const statuses = new Set<number>();
      let answered = 0;
      const reader = async () => {
        while (!stop) {
          const reply = await app.inject({ method: 'GET', url: '/api/properties' });
          statuses.add(reply.statusCode);
          answered++;
        }
      };
      const readers = Array.from({ length: 4 }, reader);
      for (let i = 0; i < 5; i++) {
        const before = answered;
        await until(async () => answered > before + 4, 'reads to go on');
        for (const pid of await ours()) await admin.query('select pg_terminate_backend($1)', [pid]);
      }
      const before = answered;
      await until(async () => answered > before + 20, 'reads to go on');
      stop = true;
      await Promise.all(readers);
      expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/api/properties' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await locker.end().catch(() => {});
      await admin.end();
      await app.close();
      await database.close();
    }
  }, 60_000);
});

describe('SQLite locked by another writer', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 database-unavailable, then carries on when the lock goes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robotskit-lock-'));
    dirs.push(dir);
    const file = join(dir, 'db.sqlite');
    const database = await openDatabase({ dialect: 'sqlite', file, busyTimeoutMs: 50 });
    const app = await buildApp({ database, webRoot: false });
    const other = new BetterSqlite3(file);
    try {
      other.exec('begin exclusive');
      const reply = await app.inject({
        method: 'POST',
        url: '/api/properties',
        payload: { property: 'https://site.invalid/' },
      });
      expect(reply.statusCode).toBe(503);
      expect(reply.json().error.code).toBe('database-unavailable');
      other.exec('rollback');
      const again = await app.inject({
        method: 'POST',
        url: '/api/properties',
        payload: { property: 'https://site.invalid/' },
      });
      expect(again.statusCode).toBe(201);
    } finally {
      other.close();
      await app.close();
      await database.close();
    }
  });
});
