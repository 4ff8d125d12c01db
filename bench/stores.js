/**
 * `npm run bench -- stores`: the memory a shared store spends per origin, on a redis-server of its own (`used_memory`
 * before and after) and on PostgreSQL (a fresh schema: `pg_total_relation_size` of both tables, indexes and TOAST
 * included), for records as the crawl client writes them: one fetch of a real robots.txt each, the corpus's files in
 * turn. Also the same with three fetches per record (a good fetch, then a run of failures: the most a record holds).
 * PostgreSQL at ROBOTSKIT_TEST_PG (default postgres://postgres@127.0.0.1:5432/test).
 */

import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createPostgresRobotsStore, createRedisRobotsStore } from '../packages/stores/dist/index.js';
import { loadCorpus } from './corpus.js';
import { fmt, table } from './harness.js';

const ORIGINS = 20_000;
const REDIS_SERVER = process.env.ROBOTSKIT_BENCH_REDIS_SERVER ?? 'redis-server';
const REDIS_CLI = process.env.ROBOTSKIT_BENCH_REDIS_CLI ?? 'redis-cli';
const run = promisify(execFile);
const PG_URL = process.env.ROBOTSKIT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

function fetchOf(origin, bytes, at, failed) {
  const robotsUrl = `${origin}/robots.txt`;
  return {
    origin,
    robotsUrl,
    finalUrl: robotsUrl,
    outcome: failed ? 'disallow-all' : 'rules',
    status: failed ? 503 : 200,
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
    body: failed ? null : bytes,
    size: failed ? 0 : bytes.byteLength,
    truncated: false,
    html: false,
    error: failed ? { kind: 'http-status', message: 'HTTP 503', phase: 'request', code: null } : null,
    fetchedAt: at,
    timings: { headersMs: 40, totalMs: 55 },
  };
}

function recordsOf(files, fetches) {
  const now = Date.now();
  return Array.from({ length: ORIGINS }, (_, i) => {
    const origin = `https://www.site-${i}.example`;
    const bytes = files[i % files.length].bytes;
    const history =
      fetches === 1
        ? [fetchOf(origin, bytes, now, false)]
        : [
            fetchOf(origin, bytes, now - 3_600_000, false),
            fetchOf(origin, bytes, now - 60_000, true),
            fetchOf(origin, bytes, now, true),
          ];
    return { origin, history };
  });
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function writeAll(store, records) {
  for (let i = 0; i < records.length; i += 200) {
    await Promise.all(records.slice(i, i + 200).map((r) => store.set(r.origin, r)));
  }
}

async function redisBytesPerOrigin(records) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  try {
    const url = `redis://127.0.0.1:${port}`;
    const info = async () =>
      (await run(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), 'INFO', 'memory'], { timeout: 10_000 })).stdout;
    for (let i = 0; ; i++) {
      try {
        await info();
        break;
      } catch (error) {
        if (i > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const used = async () => Number(/used_memory:(\d+)/.exec(await info())[1]);
    const store = await createRedisRobotsStore({ url });
    const before = await used();
    await writeAll(store, records);
    const after = await used();
    await store.close();
    return (after - before) / records.length;
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresBytesPerOrigin(records) {
  const schema = `bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const store = await createPostgresRobotsStore({ url: PG_URL, schema, pruneEveryMs: 0 });
    await writeAll(store, records);
    await store.close();
    await admin.query(`VACUUM ANALYZE "${schema}".robotskit_robots`);
    const { rows } = await admin.query(
      `SELECT pg_total_relation_size('"${schema}".robotskit_robots') + pg_total_relation_size('"${schema}".robotskit_robots_leases') AS bytes`,
    );
    return Number(rows[0].bytes) / records.length;
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

export async function runStoresBench() {
  const { robots } = loadCorpus();
  const sizes = robots.map((f) => f.bytes.byteLength).sort((a, b) => a - b);
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  const rows = [];
  for (const fetches of [1, 3]) {
    const records = recordsOf(robots, fetches);
    const redis = await redisBytesPerOrigin(records);
    const postgres = await postgresBytesPerOrigin(records);
    rows.push([
      `${fetches} fetch${fetches === 1 ? '' : 'es'} per record`,
      fmt(redis / 1024, 2),
      fmt(postgres / 1024, 2),
      fmt((redis * 1e7) / 2 ** 30, 1),
      fmt((postgres * 1e7) / 2 ** 30, 1),
    ]);
  }
  table(
    `stores: memory per origin over ${ORIGINS} origins, bodies from the corpus (${robots.length} files, median ${sizes[sizes.length >> 1]} B, mean ${fmt(mean, 0)} B)`,
    ['record', 'Redis KiB/origin', 'PostgreSQL KiB/origin', 'Redis GiB @10M', 'PostgreSQL GiB @10M'],
    rows,
  );
}
