/**
 * Report service benchmarks (issue 5).
 *
 * Workers: how fast 4 fetch workers claim, fetch and record 1,000 due files on PostgreSQL (each worker with its own
 * connection pool, as workers on separate machines would), and whether any file is fetched twice (it must not be).
 * Rows: claims alone; a retrieval that does no I/O (the claim/record path); and the real path: the engine's
 * retrieval over the SSRF-guarded fetch to 1,000 origins (a separate process listening on 1,000 ports of 127.0.0.1),
 * lint, the engine's schedule and alert detection. SQLite, one process with 4 workers sharing its connection, for
 * comparison.
 *
 * API: `POST /api/test` throughput with autocannon on loopback (10 connections), next to `GET /api/health` on the same
 * server as the reference (the framework's own cost per request).
 *
 * PostgreSQL: ROBOTSKIT_BENCH_PG, default postgres://postgres@127.0.0.1:5432/test; each run uses a schema of its own
 * and drops it. Scale with BENCH_SERVER_FILES (files and origins, default 1,000) and BENCH_SERVER_SECONDS (each API
 * measurement, default 5), e.g. a quick check that it runs: BENCH_SERVER_FILES=50 BENCH_SERVER_SECONDS=1.
 * BENCH_NO_PREPARE=1 gives the alert hook no fetch, so its prepare step (one query per fetch, a sitemap walk when an
 * edit's meaning changes) is off: the same build's baseline for that step's cost.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp, createAlertHook, createGuardedFetch, openDatabase, Worker, workerRetrieval } from 'robotskit-server';
// Claims alone are measured below the package's face: the built module of the storage layer.
import { claimDueFiles } from '../packages/server/dist/storage/claim.js';
import { fmt, startHelperProcess, table } from './harness.js';

const PG_URL = process.env.ROBOTSKIT_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const FILES = Number(process.env.BENCH_SERVER_FILES ?? 1000);
const API_SECONDS = Number(process.env.BENCH_SERVER_SECONDS ?? 5);
const FILES_TEXT = FILES.toLocaleString('en-US');
const WORKERS = 4;

async function seed(database, ports) {
  const now = Date.now();
  for (let i = 0; i < FILES; i += 250) {
    const rows = [];
    for (let j = i; j < Math.min(FILES, i + 250); j++) {
      const host = `127.0.0.1:${ports[j]}`;
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
    // The engine's RetrievalResult of a 200 with a small body, as fetchRobotsTxt would give it.
    const headers = { cacheControl: null, contentType: 'text/plain', retryAfter: null, lastModified: null };
    return {
      origin: new URL(file.url).origin,
      robotsUrl: file.url,
      finalUrl: file.url,
      outcome: 'rules',
      status: 200,
      redirects: [],
      headers: { ...headers, etag: null, contentLength: null, date: null },
      body,
      size: body.byteLength,
      truncated: false,
      html: false,
      error: null,
      fetchedAt: t,
      timings: { headersMs: 0, totalMs: 0 },
    };
  };
}

/** The service's real path: the engine's retrieval over the guarded fetch, counting fetches per file. */
function engineRetrieval(claims, deps) {
  const retrieve = workerRetrieval(deps.fetch, deps.now);
  return async (file, context) => {
    claims.set(file.id, (claims.get(file.id) ?? 0) + 1);
    return retrieve(file, context);
  };
}

/** One run: seed, start the workers together, wait until all are idle; returns the numbers. */
async function run({ config, connections, makeRetrieval, ports, full = false, fetch }) {
  const databases = [];
  const first = await openDatabase(config);
  databases.push(first);
  for (let i = 1; i < connections; i++) databases.push(await openDatabase(config, { migrate: false }));
  await seed(first, ports);
  const claims = new Map();
  const retrieve = makeRetrieval(claims, first);
  // The full path: the worker always lints new bodies and schedules with the engine; alerts on top, with the
  // guarded fetch as the service passes it (the hook's prepare step reads sitemaps when an edit's meaning changes).
  const extras = full
    ? { onNewVersion: createAlertHook(() => {}, process.env.BENCH_NO_PREPARE === '1' ? {} : { fetch }) }
    : {};
  const workers = Array.from(
    { length: WORKERS },
    (_, i) =>
      new Worker({
        db: databases[i % databases.length].db,
        dialect: first.dialect,
        retrieve,
        ...extras,
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
  const fetched = Number(
    (
      await first.db
        .selectFrom('fetches')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('outcome', '=', 'rules')
        .executeTakeFirstOrThrow()
    ).n,
  );
  const duplicates = [...claims.values()].reduce((sum, n) => sum + (n - 1), 0);
  for (const database of databases) await database.close();
  return { seconds, claimed: processed.reduce((a, b) => a + b, 0), fetches, fetched, duplicates, perWorker: processed };
}

/** Claims alone: 4 claimers with their own pools take batches of 16 until nothing is due; nothing is recorded. */
async function claimOnly({ config, ports }) {
  const databases = [await openDatabase(config)];
  for (let i = 1; i < WORKERS; i++) databases.push(await openDatabase(config, { migrate: false }));
  await seed(databases[0], ports);
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
  return { seconds, claimed: perWorker.reduce((a, b) => a + b, 0), fetches: 0, fetched: 0, duplicates, perWorker };
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

/** Starts the origin process (one port per origin); resolves with its ports and a stop function. */
async function startOrigins(count) {
  const { value, stop } = await startHelperProcess('origins.mjs', [count]);
  return { ports: value, stop };
}

async function apiThroughput() {
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-bench-api-'));
  const database = await openDatabase({ dialect: 'sqlite', file: join(dir, 'api.sqlite') });
  const app = await buildApp({ database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const robots = [
    'User-agent: *',
    'Disallow: /private',
    'Allow: /private/public',
    'Disallow: /*.pdf$',
    'Disallow: /search?',
    '',
    'User-agent: Googlebot',
    'Disallow: /nogoogle',
    '',
    'User-agent: GPTBot',
    'Disallow: /',
    '',
    'Sitemap: https://example.com/sitemap.xml',
  ].join('\n');
  const body = JSON.stringify({
    robots,
    urls: Array.from(
      { length: 10 },
      (_, i) => `https://example.com/${i % 2 ? 'private' : 'shop'}/item-${i}.pdf?x=${i}`,
    ),
    userAgents: ['Googlebot', 'bingbot', 'GPTBot'],
  });
  const cannon = (opts) =>
    new Promise((resolve, reject) =>
      autocannon({ connections: 10, duration: API_SECONDS, ...opts }, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    );
  const rows = [];
  try {
    // Warm up both routes, then measure them alternately.
    await cannon({ url: `${base}/api/health`, duration: 1 });
    await cannon({
      url: `${base}/api/test`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duration: 1,
    });
    const health = await cannon({ url: `${base}/api/health` });
    const test = await cannon({
      url: `${base}/api/test`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    for (const [name, r] of [
      ['GET /api/health (reference)', health],
      ['POST /api/test (10 URLs × 3 crawlers)', test],
    ]) {
      rows.push([
        name,
        fmt(r.requests.average, 0),
        fmt(r.latency.p50, 1),
        fmt(r.latency.p99, 1),
        String(r.non2xx + r.errors + r.timeouts),
      ]);
    }
    rows.push(['POST /api/test / health', fmt(test.requests.average / health.requests.average, 2), '', '', '']);
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
  table(
    `server API on loopback (autocannon, 10 connections, ${API_SECONDS} s each, SQLite)`,
    ['route', 'req/s', 'p50 ms', 'p99 ms', 'failed'],
    rows,
  );
}

export async function runServerBench() {
  const origins = await startOrigins(FILES);
  const ports = origins.ports;
  // Every origin is this machine; the guard allows loopback only because this is a benchmark.
  const fetch = createGuardedFetch({ allowPrivate: true });
  const engine = (claims, database) => engineRetrieval(claims, { fetch, database, now: Date.now });

  const rows = [];
  const add = (name, r) =>
    rows.push([
      name,
      String(r.claimed),
      String(r.fetches),
      String(r.fetched),
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
      add('PostgreSQL, claims only', await withPgSchema((config) => claimOnly({ config, ports })));
      add(
        'PostgreSQL, no I/O',
        await withPgSchema((config) => run({ config, connections: WORKERS, makeRetrieval: noIoRetrieval, ports })),
      );
      add(
        `PostgreSQL, engine fetch of ${FILES_TEXT} origins + lint + alerts`,
        await withPgSchema((config) =>
          run({ config, connections: WORKERS, makeRetrieval: engine, ports, full: true, fetch }),
        ),
      );
    } else {
      console.log(`\nPostgreSQL at ${PG_URL} unreachable (${pgProblem}): its rows are missing`);
    }
    add(
      'SQLite (1 connection), no I/O',
      await withSqliteFile((config) => run({ config, connections: 1, makeRetrieval: noIoRetrieval, ports })),
    );
    add(
      `SQLite (1 connection), engine fetch of ${FILES_TEXT} origins + lint + alerts`,
      await withSqliteFile((config) =>
        run({ config, connections: 1, makeRetrieval: engine, ports, full: true, fetch }),
      ),
    );
  } finally {
    await fetch.close();
    await origins.stop();
  }
  table(
    `server: ${WORKERS} workers over ${FILES} due files on ${FILES} origins (claim batches of 16, 8 fetches at a time per worker)`,
    ['run', 'claimed', 'recorded', 'fetched (2xx)', 'duplicates', 'wall s', 'files/s', 'per worker'],
    rows,
  );
  await apiThroughput();
}
