/**
 * The decision service (issue 17): `POST /api/decide` with 1,000 URLs per request over 100 origins on loopback (a
 * separate process serving robots.txt on 100 ports, `origins.mjs`), answered as NDJSON. The first request fetches
 * every robots.txt (cold); then BENCH_DECIDE_REQUESTS requests (default 200) from 4 concurrent clients over the warm
 * cache: URLs per second over the whole run, and the latency of a request (until its last line arrived), p50 and p99.
 * The service runs in this process on SQLite (the decide route does not touch the database).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, createGuardedFetch, openDatabase } from 'robotskit-server';
import { fmt, startHelperProcess, table } from './harness.js';

const ORIGINS = 100;
const URLS_PER_REQUEST = 1000;
const REQUESTS = Number(process.env.BENCH_DECIDE_REQUESTS ?? 200);
const CLIENTS = 4;

/** Starts the origin process (one port per origin); resolves with its ports and a stop function. */
async function startOrigins(count) {
  const { value, stop } = await startHelperProcess('origins.mjs', [count]);
  return { ports: value, stop };
}

function urlsFor(ports, round) {
  return Array.from({ length: URLS_PER_REQUEST }, (_, i) => {
    const port = ports[i % ports.length];
    return `http://127.0.0.1:${port}/${i % 4 === 0 ? `private/${port}/` : ''}page-${round}-${i}`;
  });
}

async function decide(address, urls) {
  const started = performance.now();
  const response = await fetch(`${address}/api/decide`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: JSON.stringify({ crawler: 'MyBot', urls }),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const lines = text.split('\n').filter((l) => l !== '').length;
  if (response.status !== 200 || lines !== urls.length)
    throw new Error(`decide answered ${response.status}, ${lines} lines`);
  return ms;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function runDecideBench() {
  const origins = await startOrigins(ORIGINS);
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-bench-decide-'));
  const database = await openDatabase({ dialect: 'sqlite', file: join(dir, 'bench.sqlite') });
  const guarded = createGuardedFetch({ allowPrivate: true });
  const app = await buildApp({ database, fetch: guarded, webRoot: false, bodyLimit: 4 * 1024 * 1024 });
  try {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const cold = await decide(address, urlsFor(origins.ports, 0));
    const latencies = [];
    let next = 1;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next <= REQUESTS) {
          const round = next++;
          latencies.push(await decide(address, urlsFor(origins.ports, round)));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    table(
      `POST /api/decide: ${URLS_PER_REQUEST.toLocaleString('en-US')} URLs per request over ${ORIGINS} origins, NDJSON, ${CLIENTS} clients`,
      ['measure', 'value'],
      [
        ['first request (fetches 100 robots.txt)', `${fmt(cold, 0)} ms`],
        [`URLs/s (${REQUESTS} warm requests)`, fmt((REQUESTS * URLS_PER_REQUEST) / seconds, 0)],
        ['request latency p50', `${fmt(percentile(latencies, 50), 1)} ms`],
        ['request latency p99', `${fmt(percentile(latencies, 99), 1)} ms`],
      ],
    );
  } finally {
    await app.close();
    await guarded.close();
    await database.close();
    await origins.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDecideBench();
