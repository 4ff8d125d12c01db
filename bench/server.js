/**
 * Report service benchmarks (issue 5). Now: how fast 4 fetch workers claim and record 1,000 due files on
 * PostgreSQL (each with its own connection pool, as workers on separate machines would), and whether any file is
 * claimed twice (it must not be). Once with a retrieval that does no I/O (the claim/record path alone), once with a
 * plain GET of 1,000 local origins through the SSRF-guarded fetch (a local HTTP server answering by Host header).
 * SQLite, one process with 4 workers sharing its connection, for comparison. `POST /api/test` throughput (autocannon)
 * comes with the tester routes.
 *
 * PostgreSQL: ROBOTSKIT_BENCH_PG, default postgres://postgres@127.0.0.1:5432/test; each run uses a schema of its own
 * and drops it.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { claimDueFiles, createGuardedFetch, openDatabase, Worker } from 'robotskit-server';
import { fmt, table } from './harness.js';

const PG_URL = process.env.ROBOTSKIT_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const FILES = 1000;
const WORKERS = 4;

async function seed(database, port) {
  const now = Date.now();
  for (let i = 0; i < FILES; i += 250) {
    const rows = [];
    for (let j = i; j < Math.min(FILES, i + 250); j++) {
      const host = `site${j}.test:${port}`;
      rows.push({
        url: `http://${host}/robots.txt`,
        scheme: 'http',
        host,
        created_at: now,
        next_fetch_at: now,
        priority: 1,
        consecutive_failures: 0,
      });
    }
    await database.db.insertInto('robots_files').values(rows).execute();
  }
}

function noIoRetrieval(claims) {
  const body = new TextEncoder().encode('User-agent: *\nDisallow: /private\n');
  return async (file) => {
    claims.set(file.id, (claims.get(file.id) ?? 0) + 1);
    const t = Date.now();
    return {
      outcome: 'fetched',
      startedAt: t,
      finishedAt: t,
      httpStatus: 200,
      body,
      headers: {},
      redirects: [],
      finalUrl: file.url,
      error: null,
    };
  };
}

function httpRetrieval(claims, fetch) {
  return async (file) => {
    claims.set(file.id, (claims.get(file.id) ?? 0) + 1);
    const startedAt = Date.now();
    const response = await fetch(file.url);
    const body = new Uint8Array(await response.arrayBuffer());
    return {
      outcome: response.ok ? 'fetched' : 'error',
      startedAt,
      finishedAt: Date.now(),
      httpStatus: response.status,
      body: response.ok ? body : null,
      headers: { 'content-type': response.headers.get('content-type') ?? '' },
      redirects: [],
      finalUrl: file.url,
      error: response.ok ? null : { kind: 'http-status', message: `HTTP ${response.status}` },
    };
  };
}

/** One run: seed, start the workers together, wait until all are idle; returns the numbers. */
async function run({ config, connections, makeRetrieval, port }) {
  const databases = [];
  const first = await openDatabase(config);
  databases.push(first);
  for (let i = 1; i < connections; i++) databases.push(await openDatabase(config, { migrate: false }));
  await seed(first, port);
  const claims = new Map();
  const retrieve = makeRetrieval(claims);
  const workers = Array.from(
    { length: WORKERS },
    (_, i) =>
      new Worker({
        db: databases[i % databases.length].db,
        dialect: first.dialect,
        retrieve,
        batchSize: 16,
        concurrency: 8,
        onError: (error) => console.error('worker error', error),
      }),
  );
  const start = process.hrtime.bigint();
  const processed = await Promise.all(workers.map((w) => w.runUntilIdle()));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const fetches = Number(
    (
      await first.db
        .selectFrom('fetches')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const duplicates = [...claims.values()].reduce((sum, n) => sum + (n - 1), 0);
  for (const database of databases) await database.close();
  return { seconds, claimed: processed.reduce((a, b) => a + b, 0), fetches, duplicates, perWorker: processed };
}

/** Claims alone: 4 claimers with their own pools take batches of 16 until nothing is due; nothing is recorded. */
async function claimOnly({ config, port }) {
  const databases = [await openDatabase(config)];
  for (let i = 1; i < WORKERS; i++) databases.push(await openDatabase(config, { migrate: false }));
  await seed(databases[0], port);
  const claims = new Map();
  const start = process.hrtime.bigint();
  const perWorker = await Promise.all(
    databases.map(async (database, i) => {
      let n = 0;
      for (;;) {
        const batch = await claimDueFiles(database.db, database.dialect, {
          owner: `claimer-${i}`,
          limit: 16,
          leaseMs: 600_000,
          now: Date.now(),
        });
        if (batch.length === 0) return n;
        n += batch.length;
        for (const file of batch) claims.set(file.id, (claims.get(file.id) ?? 0) + 1);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  for (const database of databases) await database.close();
  const duplicates = [...claims.values()].reduce((sum, n) => sum + (n - 1), 0);
  return { seconds, claimed: perWorker.reduce((a, b) => a + b, 0), fetches: 0, duplicates, perWorker };
}

async function withPgSchema(fn) {
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  try {
    return await fn({ dialect: 'postgres', url: PG_URL, schema, poolSize: 4 });
  } finally {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

async function withSqliteFile(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-bench-'));
  try {
    return await fn({ dialect: 'sqlite', file: join(dir, 'bench.sqlite') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runServerBench() {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`User-agent: *\nDisallow: /${req.headers.host}\n`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  // Every siteN.test name is this machine; the guard allows loopback only because this is a benchmark.
  const fetch = createGuardedFetch({
    allowPrivate: true,
    lookup: (_h, options, cb) =>
      options.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4),
  });

  const rows = [];
  const add = (name, r) =>
    rows.push([
      name,
      String(r.claimed),
      String(r.fetches),
      String(r.duplicates),
      fmt(r.seconds, 2),
      fmt(r.claimed / r.seconds, 0),
      r.perWorker.join(' / '),
    ]);
  try {
    let pgProblem = null;
    const probe = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
    await probe.connect().catch((error) => {
      pgProblem = error.message;
    });
    await probe.end().catch(() => {});
    if (pgProblem === null) {
      add('PostgreSQL, claims only', await withPgSchema((config) => claimOnly({ config, port })));
      add(
        'PostgreSQL, no I/O',
        await withPgSchema((config) => run({ config, connections: WORKERS, makeRetrieval: noIoRetrieval, port })),
      );
      add(
        'PostgreSQL, GET 1,000 local origins',
        await withPgSchema((config) =>
          run({ config, connections: WORKERS, makeRetrieval: (c) => httpRetrieval(c, fetch), port }),
        ),
      );
    } else {
      console.log(`\nPostgreSQL at ${PG_URL} unreachable (${pgProblem}): its rows are missing`);
    }
    add(
      'SQLite (1 connection), no I/O',
      await withSqliteFile((config) => run({ config, connections: 1, makeRetrieval: noIoRetrieval, port })),
    );
    add(
      'SQLite (1 connection), GET 1,000 local origins',
      await withSqliteFile((config) =>
        run({ config, connections: 1, makeRetrieval: (c) => httpRetrieval(c, fetch), port }),
      ),
    );
  } finally {
    await fetch.close();
    await new Promise((resolve) => server.close(resolve));
  }
  table(
    `server: ${WORKERS} workers over ${FILES} due files (claim batches of 16, 8 fetches at a time per worker)`,
    ['run', 'claimed', 'recorded', 'duplicates', 'wall s', 'files/s', 'per worker'],
    rows,
  );
  console.log(
    'POST /api/test throughput: not measured yet (the tester routes come with the engine fetch and lint modules)',
  );
}
