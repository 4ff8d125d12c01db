/**
 * The report service at scale (issue 17, part 4): N watched files on PostgreSQL, W fetch workers against a local
 * origin farm, and the database after simulated days of refetching.
 *
 * - Origin farm: BENCH_SCALE_FARMS processes (farm.mjs), each serving its share of the N origins, one host:port per
 *   file on loopback addresses of its own (127.<farm>.x.y). Every seventh fetch of an origin brings a new revision.
 * - Workers: W of the server's `Worker` in this process, each with its own connection pool (as on separate machines),
 *   fetching with `workerRetrieval` over the SSRF-guarded fetch (loopback allowed: every origin is this machine),
 *   with lint and alert detection as the service runs them. They share one simulated clock: day 0 fetches every
 *   file, then the clock moves a day (the farm's max-age) at a time and the workers refetch everything due, for
 *   BENCH_SCALE_DAYS days. The fetches are real; only the waiting between them is skipped.
 * - Measured: claims per second (W claimers taking batches of 16, nothing recorded), fetch throughput per simulated
 *   day (claim + fetch + lint + record), `pg_total_relation_size` per table after the simulated days (per 1,000
 *   files), and pruning (`pruneHistory`) one day past the retention window (deleting a day of history) and again
 *   right after (nothing to delete: the cost of the hourly pass in steady state).
 *
 * PostgreSQL: ROBOTSKIT_BENCH_PG, default postgres://postgres@127.0.0.1:5432/test; a schema of its own, dropped after.
 * Sizes: BENCH_SCALE_FILES (default 1,000), BENCH_SCALE_WORKERS (8), BENCH_SCALE_DAYS (30), BENCH_SCALE_FARMS (2).
 * `node bench/run.js scale` runs only this one (after `npm run build`).
 */

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createAlertHook, createGuardedFetch, openDatabase, Worker, workerRetrieval } from 'robotskit-server';
// Claims and pruning alone are measured below the package's face: the built modules of the storage layer.
import { claimDueFiles } from '../packages/server/dist/storage/claim.js';
import { pruneHistory } from '../packages/server/dist/storage/prune.js';
import { fmt, startHelperProcess, table } from './harness.js';

const PG_URL = process.env.ROBOTSKIT_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const FILES = Number(process.env.BENCH_SCALE_FILES ?? 1000);
const WORKERS = Number(process.env.BENCH_SCALE_WORKERS ?? 8);
const DAYS = Number(process.env.BENCH_SCALE_DAYS ?? 30);
const FARMS = Number(process.env.BENCH_SCALE_FARMS ?? 2);
const DAY_MS = 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;

/** Starts one farm process serving `count` origins on 127.<band>.x.y; resolves with its origins and a stop function. */
async function startFarm(count, band) {
  const { value, stop } = await startHelperProcess('farm.mjs', [count, band]);
  return { origins: value, stop };
}

async function seed(database, origins, now) {
  for (let i = 0; i < origins.length; i += 500) {
    const rows = origins.slice(i, i + 500).map((host) => ({
      url: `http://${host}/robots.txt`,
      scheme: 'http',
      host,
      created_at: now,
      next_fetch_at: now,
      priority: 1,
      consecutive_failures: 0,
    }));
    await database.db.insertInto('robots_files').values(rows).execute();
  }
}

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

async function count(db, table, where) {
  let query = db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  if (where) query = query.where(...where);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

async function tableSizes(client, schema) {
  const { rows } = await client.query(
    `select c.relname as name, pg_total_relation_size(c.oid) as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind = 'r'
      order by 2 desc`,
    [schema],
  );
  return rows.map((r) => ({ name: r.name, bytes: Number(r.bytes) }));
}

async function simulate(config, origins, fetch) {
  const databases = [await openDatabase(config)];
  for (let i = 1; i < WORKERS; i++) databases.push(await openDatabase(config, { migrate: false }));
  const first = databases[0];
  const db = first.db;
  const start = Date.UTC(2026, 0, 1);
  let clock = start;
  const now = () => clock;
  await seed(first, origins, clock);
  const results = { days: [] };
  try {
    // Claims alone: W claimers with their own pools, batches of 16, one-millisecond leases (so the files are due
    // again for the workers a minute later). Nothing is recorded.
    let t = process.hrtime.bigint();
    const claimed = await Promise.all(
      databases.map(async (database, i) => {
        let n = 0;
        for (;;) {
          const batch = await claimDueFiles(database.db, database.dialect, {
            owner: `claimer-${i}`,
            limit: 16,
            leaseMs: 1,
            now: clock,
          });
          if (batch.length === 0) return n;
          n += batch.length;
        }
      }),
    );
    results.claims = { files: claimed.reduce((a, b) => a + b, 0), seconds: seconds(t) };
    clock += 60_000;

    const retrieve = workerRetrieval(fetch, now);
    const workers = databases.map(
      (database, i) =>
        new Worker({
          db: database.db,
          dialect: database.dialect,
          retrieve,
          now,
          name: `worker-${i}`,
          onNewVersion: createAlertHook(() => {}),
          batchSize: 16,
          concurrency: 8,
          onError: (error) => console.error('worker error', error),
        }),
    );
    for (let day = 0; day <= DAYS; day++) {
      const fetchesBefore = await count(db, 'fetches');
      t = process.hrtime.bigint();
      const processed = (await Promise.all(workers.map((w) => w.runUntilIdle()))).reduce((a, b) => a + b, 0);
      const took = seconds(t);
      const fetched = (await count(db, 'fetches')) - fetchesBefore;
      results.days.push({ day, processed, fetched, seconds: took });
      // The farm answers max-age=86400: everything is due again a day later.
      clock += DAY_MS + 60_000;
    }
    results.failed = await count(db, 'fetches', ['outcome', '!=', 'rules']);
    results.rows = {
      fetches: await count(db, 'fetches'),
      versions: await count(db, 'versions'),
      bodies: await count(db, 'bodies'),
      alerts: await count(db, 'alerts'),
    };
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`analyze`);
      results.sizes = await tableSizes(client, config.schema);
      // Pruning with a window of the simulated days, one day past it: day 0's history goes (a day's worth).
      const prune = { now: start + (DAYS + 1) * DAY_MS, retentionMs: DAYS * DAY_MS };
      t = process.hrtime.bigint();
      results.prune = { result: await pruneHistory(db, first.dialect, prune) };
      results.prune.seconds = seconds(t);
      t = process.hrtime.bigint();
      results.pruneAgain = { result: await pruneHistory(db, first.dialect, prune) };
      results.pruneAgain.seconds = seconds(t);
    } finally {
      await client.end();
    }
  } finally {
    for (const database of databases) await database.close();
  }
  return results;
}

async function withPgSchema(fn) {
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  try {
    return await fn({ dialect: 'postgres', url: PG_URL, schema, poolSize: 2 });
  } finally {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

export async function runScaleBench() {
  const probe = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  let problem = null;
  await probe.connect().catch((error) => {
    problem = error.message;
  });
  await probe.end().catch(() => {});
  if (problem !== null) {
    console.log(`\nscale: PostgreSQL at ${PG_URL} unreachable (${problem}); skipped`);
    return;
  }
  const farms = [];
  const fetch = createGuardedFetch({ allowPrivate: true });
  let r;
  try {
    for (let i = 0; i < FARMS; i++) {
      const share = Math.floor(FILES / FARMS) + (i < FILES % FARMS ? 1 : 0);
      if (share > 0) farms.push(await startFarm(share, i + 1));
    }
    const origins = farms.flatMap((f) => f.origins);
    r = await withPgSchema((config) => simulate(config, origins, fetch));
  } finally {
    await fetch.close();
    for (const farm of farms) await farm.stop();
  }

  const per1000 = 1000 / FILES;
  const firstDay = r.days[0];
  const refetch = r.days.slice(1);
  const refetchFiles = refetch.reduce((a, d) => a + d.fetched, 0);
  const refetchSeconds = refetch.reduce((a, d) => a + d.seconds, 0);
  const throughput = [
    [
      'claims only (batches of 16, nothing recorded)',
      String(r.claims.files),
      fmt(r.claims.seconds, 2),
      fmt(r.claims.files / r.claims.seconds, 0),
    ],
    [
      'day 0: first fetch of every file',
      String(firstDay.fetched),
      fmt(firstDay.seconds, 2),
      fmt(firstDay.fetched / firstDay.seconds, 0),
    ],
  ];
  if (refetch.length > 0) {
    const rates = refetch.map((d) => d.fetched / d.seconds).sort((a, b) => a - b);
    throughput.push([
      `days 1–${DAYS}: daily refetch (median day ${fmt(rates[rates.length >> 1], 0)} files/s)`,
      String(refetchFiles),
      fmt(refetchSeconds, 2),
      fmt(refetchFiles / refetchSeconds, 0),
    ]);
  }
  table(
    `scale: ${FILES.toLocaleString('en-US')} files on ${FILES.toLocaleString('en-US')} loopback origins (${farms.length} farm processes), ${WORKERS} workers (own pools, claim batches of 16, 8 fetches at a time each), PostgreSQL; ${r.failed} failed fetches`,
    ['phase', 'files', 'wall s', 'files/s'],
    throughput,
  );
  const total = r.sizes.reduce((a, s) => a + s.bytes, 0);
  table(
    `scale: database after ${DAYS} simulated days (${r.rows.fetches} fetches, ${r.rows.versions} versions, ${r.rows.bodies} bodies, ${r.rows.alerts} alerts); pg_total_relation_size`,
    ['table', 'MB', 'MB per 1,000 files', 'MB per 100,000 files'],
    [...r.sizes.filter((s) => s.bytes > 64 * 1024), { name: 'all tables', bytes: total }].map((s) => [
      s.name,
      fmt(s.bytes / MB, 2),
      fmt((s.bytes / MB) * per1000, 2),
      fmt((s.bytes / MB) * per1000 * 100, 0),
    ]),
  );
  const describe = (p) => `${p.result.fetches} fetches, ${p.result.versions} versions, ${p.result.bodies} bodies`;
  table(
    `scale: pruneHistory (${DAYS}-day window)`,
    ['pass', 'deleted', 'wall s'],
    [
      ['a day past the window', describe(r.prune), fmt(r.prune.seconds, 2)],
      ['right after (nothing due)', describe(r.pruneAgain), fmt(r.pruneAgain.seconds, 2)],
    ],
  );
}
