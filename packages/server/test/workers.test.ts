/**
 * Several workers over many due files: every file is claimed and fetched exactly once per cycle. On PostgreSQL each
 * worker has its own connection pool, as workers on different machines would. On SQLite the workers of one process
 * share its one connection (better-sqlite3 is synchronous: a second connection in the same process waiting for the
 * write lock would block the event loop that the lock holder needs to finish); separate processes on one SQLite
 * file are covered by the kill -9 test.
 */

import type { RetrievalResult } from 'robotskit/fetch';
import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisMemoryError } from '../src/analysis/threads.js';
import { claimDueFiles } from '../src/storage/claim.js';
import type { DatabaseConfig } from '../src/storage/config.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { LintThread } from '../src/worker/lint-thread.js';
import type { RobotsRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';

const FILES = 300;
const WORKERS = 4;
const DAY = 24 * 60 * 60 * 1000;

/** Inserts `count` due files directly (the property layer is tested elsewhere). */
async function seedFiles(database: Database, count: number, now: number): Promise<number[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    url: `https://site${i}.test/robots.txt`,
    scheme: 'https' as const,
    host: `site${i}.test`,
    created_at: now,
    next_fetch_at: now,
    priority: 1,
    consecutive_failures: 0,
  }));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const inserted = await database.db
      .insertInto('robots_files')
      .values(rows.slice(i, i + 100))
      .returning('id')
      .execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

/** A retrieval that counts calls per file and yields to the event loop so workers interleave. */
function countingRetrieval(clock: ManualClock, calls: Map<number, number>, cycle: { n: number }): RobotsRetrieval {
  return async (file) => {
    calls.set(file.id, (calls.get(file.id) ?? 0) + 1);
    await new Promise((resolve) => setImmediate(resolve));
    const body = new TextEncoder().encode(`User-agent: *\nDisallow: /cycle-${cycle.n}/${file.id}\n`);
    const result: RetrievalResult = {
      origin: new URL(file.url).origin,
      robotsUrl: file.url,
      finalUrl: file.url,
      outcome: 'rules',
      status: 200,
      redirects: [],
      headers: {
        cacheControl: null,
        contentType: 'text/plain',
        retryAfter: null,
        lastModified: null,
        etag: null,
        contentLength: null,
        date: null,
      },
      body,
      size: body.byteLength,
      truncated: false,
      html: false,
      error: null,
      fetchedAt: clock.now(),
      timings: { headersMs: 0, totalMs: 0 },
    };
    return result;
  };
}

describe.each(testDatabases)('workers on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'workers', () => {
    afterAll(() => target.cleanup());

    async function openMany(config: DatabaseConfig, n: number): Promise<Database[]> {
      const first = await openDatabase(config);
      if (config.dialect === 'sqlite') return Array.from({ length: n }, () => first);
      const rest = await Promise.all(Array.from({ length: n - 1 }, () => openDatabase(config, { migrate: false })));
      return [first, ...rest];
    }

    it(`${WORKERS} workers claim each of ${FILES} due files exactly once per cycle`, async () => {
      const config = target.config();
      const connections = await openMany(config, WORKERS);
      try {
        const clock = new ManualClock(10 * DAY);
        const ids = await seedFiles(connections[0]!, FILES, clock.now());
        const calls = new Map<number, number>();
        const cycle = { n: 1 };
        const perWorker = new Map<string, number>();
        const workers = connections.map(
          (connection, i) =>
            new Worker({
              db: connection.db,
              dialect: connection.dialect,
              retrieve: countingRetrieval(clock, calls, cycle),
              name: `worker-${i}`,
              now: clock.now,
              batchSize: 7,
              concurrency: 3,
              onRecorded: (_file, _result, record) => {
                expect(record.recorded).toBe(true);
                perWorker.set(`worker-${i}`, (perWorker.get(`worker-${i}`) ?? 0) + 1);
              },
              onError: (error) => {
                throw error;
              },
            }),
        );

        for (const n of [1, 2]) {
          cycle.n = n;
          const processed = await Promise.all(workers.map((w) => w.runUntilIdle()));
          expect(processed.reduce((a, b) => a + b, 0)).toBe(FILES);
          expect([...calls.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
          expect([...calls.values()].every((c) => c === n)).toBe(true);
          const db = connections[0]!.db;
          const perFile = await db
            .selectFrom('fetches')
            .select(['file_id', (eb) => eb.fn.countAll().as('n')])
            .groupBy('file_id')
            .execute();
          expect(perFile).toHaveLength(FILES);
          expect(perFile.every((r) => Number(r.n) === n)).toBe(true);
          const versions = await db.selectFrom('versions').select('id').execute();
          expect(versions).toHaveLength(FILES * n);
          const leased = await db
            .selectFrom('robots_files')
            .select('id')
            .where('lease_token', 'is not', null)
            .execute();
          expect(leased).toEqual([]);
          // The next cycle: a day later every file is due again.
          clock.advance(DAY + 1);
        }
        // More than one worker did real work (the claims interleaved rather than one worker taking everything).
        expect([...perWorker.values()].filter((n) => n > 0).length).toBeGreaterThan(1);
      } finally {
        await Promise.all([...new Set(connections)].map((c) => c.close()));
      }
    });

    it('a crashed worker\u2019s files go to another worker once the lease expires, and only then', async () => {
      const config = target.config();
      const [database] = await openMany(config, 1);
      try {
        const clock = new ManualClock(10 * DAY);
        await seedFiles(database!, 5, clock.now());
        const crashed = await claimDueFiles(database!.db, database!.dialect, {
          owner: 'crashed',
          limit: 3,
          leaseMs: 60_000,
          now: clock.now(),
        });
        expect(crashed).toHaveLength(3);
        const calls = new Map<number, number>();
        const worker = new Worker({
          db: database!.db,
          dialect: database!.dialect,
          retrieve: countingRetrieval(clock, calls, { n: 1 }),
          now: clock.now,
          leaseMs: 60_000,
        });
        expect(await worker.runUntilIdle()).toBe(2);
        expect(crashed.some((c) => calls.has(c.id))).toBe(false);
        clock.advance(60_000);
        expect(await worker.runUntilIdle()).toBe(3);
        expect(crashed.every((c) => calls.get(c.id) === 1)).toBe(true);
      } finally {
        await database!.close();
      }
    });

    it('wakes from its idle sleep when told that files are due, instead of waiting it out', async () => {
      const config = target.config();
      const [database] = await openMany(config, 1);
      const clock = new ManualClock(10 * DAY);
      const [id] = await seedFiles(database!, 1, clock.now() + DAY);
      const recorded: number[] = [];
      let rounds = 0;
      let onRecorded: () => void = () => {};
      const fetched = new Promise<void>((resolve) => {
        onRecorded = resolve;
      });
      // An idle sleep of an hour: only wake() can make this worker claim the file within the test's time.
      const worker = new Worker({
        db: database!.db,
        dialect: database!.dialect,
        retrieve: countingRetrieval(clock, new Map(), { n: 1 }),
        now: clock.now,
        idleMs: 60 * 60_000,
        eachRound: async () => {
          rounds++;
        },
        onRecorded: (file) => {
          recorded.push(file.id);
          onRecorded();
        },
      });
      try {
        worker.start();
        await expect.poll(() => rounds).toBe(1);
        expect(recorded).toEqual([]);
        await database!.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
        worker.wake();
        await fetched;
        expect(recorded).toEqual([id]);
      } finally {
        await worker.stop();
        await database!.close();
      }
    });

    it('records a retrieval that throws as a failed fetch and retries it with backoff', async () => {
      const config = target.config();
      const [database] = await openMany(config, 1);
      try {
        const clock = new ManualClock(10 * DAY);
        const [id] = await seedFiles(database!, 1, clock.now());
        const worker = new Worker({
          db: database!.db,
          dialect: database!.dialect,
          retrieve: async () => {
            throw new Error('bug in the retrieval');
          },
          now: clock.now,
        });
        expect(await worker.runUntilIdle()).toBe(1);
        const file = await database!.db
          .selectFrom('robots_files')
          .selectAll()
          .where('id', '=', id!)
          .executeTakeFirstOrThrow();
        // The engine's refresh schedule: a first failure is retried after 10 minutes.
        expect(file).toMatchObject({ consecutive_failures: 1, next_fetch_at: clock.now() + 10 * 60_000 });
        const fetch = await database!.db.selectFrom('fetches').selectAll().executeTakeFirstOrThrow();
        // In the engine's words: a failure (disallow-all) whose error is `unknown`, its message saying what threw.
        expect(fetch).toMatchObject({
          outcome: 'disallow-all',
          error_kind: 'unknown',
          error_message: 'the retrieval failed: bug in the retrieval',
        });
      } finally {
        await database!.close();
      }
    });

    it('records a fetch whose lint runs out of memory, unlinted, and does not fetch it again that round', async () => {
      const config = target.config();
      const [database] = await openMany(config, 1);
      const lint = new LintThread({ maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 });
      const errors: unknown[] = [];
      try {
        const clock = new ManualClock(10 * DAY);
        const [id] = await seedFiles(database!, 1, clock.now());
        // 500 KB of misspelled lines: 50,000 findings, far more than 8 MB of heap in the lint thread.
        const noisy = new TextEncoder().encode(
          `User-agent: *\nDisallow: /new-rule/\n${Array.from({ length: 60_000 }, (_, i) => `Disalow: /x${i}`).join('\n')}`.slice(
            0,
            512_000,
          ),
        );
        const calls = new Map<number, number>();
        const retrieve = countingRetrieval(clock, calls, { n: 0 });
        const worker = new Worker({
          db: database!.db,
          dialect: database!.dialect,
          retrieve: async (file, options) => ({
            ...(await retrieve(file, options)),
            body: noisy,
            size: noisy.byteLength,
          }),
          now: clock.now,
          lintThread: lint,
          onError: (error) => errors.push(error),
        });
        expect(await worker.runUntilIdle()).toBe(1);
        // Idle after one fetch: the file is no longer due (before, it went back still due and was fetched again).
        expect(await worker.runUntilIdle()).toBe(0);
        expect(calls.get(id!)).toBe(1);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toBeInstanceOf(AnalysisMemoryError);
        const fetches = await database!.db.selectFrom('fetches').selectAll().execute();
        expect(fetches).toHaveLength(1);
        expect(fetches[0]).toMatchObject({ outcome: 'rules', error_kind: null });
        // The version is stored, unlinted.
        const bodies = await database!.db.selectFrom('bodies').select(['lint_errors', 'lint_json']).execute();
        expect(bodies).toEqual([{ lint_errors: null, lint_json: null }]);
        const file = await database!.db
          .selectFrom('robots_files')
          .selectAll()
          .where('id', '=', id!)
          .executeTakeFirstOrThrow();
        expect(file.consecutive_failures).toBe(0);
        expect(file.next_fetch_at).toBeGreaterThan(clock.now());
      } finally {
        await lint.close();
        await database!.close();
      }
    });
  });
});
