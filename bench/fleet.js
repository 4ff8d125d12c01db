/**
 * `npm run bench -- fleet`: crawler processes sharing a robots.txt store (robotskit-stores), over loopback origins
 * whose robots.txt takes 2 s, with the client's default fleet settings. Each member is
 * `packages/stores/test/fleet-child.mjs` (a library process asking about every origin at once). Measured:
 * - 8 processes over 1,000 origins against one process alone over the same origins (a fresh place in the store each):
 *   false disallows (a healthy site answered blocked), robots.txt requests per origin, and wall time from the first
 *   member ready (modules loaded, store connected) to the last answer;
 * - the store commands the 8 processes sent, per origin: on a Redis server of the bench's own (`redis-server` on a
 *   free port), every command a client sent as MONITOR shows it (a script counts once; the commands inside it are
 *   shown on the side, with Redis's own total_commands_processed, which counts both);
 * - takeover after `kill -9` of the process holding every lease: from the kill to the successor's request, per origin
 *   (max), the successor already waiting.
 * The same rows on PostgreSQL (the shared server, a schema of its own) when it is reachable, without the count.
 */

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fmt, goal, table } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, '../packages/stores/test/fleet-child.mjs');
const ORIGINS = 1000;
const DELAY_MS = 2000;
const MEMBERS = 8;
const LEASE_MS = 10_000; // the client's default
const PG_URL = process.env.ROBOTSKIT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Loopback origins answering robots.txt after `delayMs` (held while `hold`); request times kept per origin. */
async function startFarm(count, delayMs) {
  const servers = [];
  const held = [];
  const farm = { origins: [], requests: Array.from({ length: count }, () => []), hold: false };
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => {
      if (req.url !== '/robots.txt') return res.writeHead(404).end();
      farm.requests[i].push(performance.now());
      if (farm.hold) return held.push(res);
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'),
        delayMs,
      );
      res.on('close', () => clearTimeout(timer));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', 511, resolve));
    servers.push(server);
    farm.origins.push(`http://127.0.0.1:${server.address().port}`);
  }
  farm.close = async () => {
    for (const res of held) res.destroy();
    await Promise.all(
      servers.map((s) => {
        s.closeAllConnections();
        return new Promise((resolve) => s.close(resolve));
      }),
    );
  };
  return farm;
}

/** A fleet member: resolves `ready` (its time) once connected, `done` with its result line and time. */
function member(job) {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let readyAt = null;
  let onReady;
  const ready = new Promise((resolve) => {
    onReady = resolve;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk;
    if (readyAt === null && out.startsWith('ready\n')) {
      readyAt = performance.now();
      onReady(readyAt);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    err += chunk;
  });
  const done = new Promise((resolve, reject) => {
    child.on('close', (code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code === 0 && line !== undefined) resolve({ ...JSON.parse(line), doneAt: performance.now() });
      else reject(new Error(`fleet member ended with ${code ?? signal}: ${err || out}`));
    });
  });
  return { child, ready, done };
}

/** Runs `count` members over the farm's origins at once; the farm's requests are counted from zero. */
async function fleetRun(farm, count, job) {
  for (const r of farm.requests) r.length = 0;
  const members = Array.from({ length: count }, () => member({ ...job, origins: farm.origins }));
  const firstReady = Math.min(...(await Promise.all(members.map((m) => m.ready))));
  const results = await Promise.all(members.map((m) => m.done));
  const wallMs = Math.max(...results.map((r) => r.doneAt)) - firstReady;
  let falseDisallows = 0;
  let wrong = 0;
  for (const r of results) {
    r.answers.forEach((allowed, i) => {
      // Even answers are /private/page (disallowed by the file), odd ones /page (allowed).
      if (i % 2 === 1 && !allowed) falseDisallows++;
      if (i % 2 === 0 && allowed) wrong++;
    });
  }
  const requests = farm.requests.reduce((n, r) => n + r.length, 0);
  const storeErrors = results.reduce((n, r) => n + r.storeErrors.length, 0);
  const timeouts = results.reduce((n, r) => n + r.stats.fleetTimeouts, 0);
  return { wallMs, falseDisallows, wrong, requests, storeErrors, timeouts };
}

/** Takeover after kill -9: the holder of every lease killed while its fetches hang, the successor already waiting. */
async function takeover(job) {
  const farm = await startFarm(20, 0);
  try {
    farm.hold = true;
    const holder = member({ ...job, origins: farm.origins });
    holder.done.catch(() => {});
    while (farm.requests.some((r) => r.length === 0)) await sleep(20);
    const successor = member({ ...job, origins: farm.origins });
    await successor.ready;
    // Let the successor claim and start waiting (it asks at once; a claim is one round trip).
    await sleep(1000);
    farm.hold = false;
    const killedAt = performance.now();
    holder.child.kill('SIGKILL');
    const result = await successor.done;
    const after = farm.requests.map((r) => (r[1] ?? Number.NaN) - killedAt);
    return {
      maxMs: Math.max(...after),
      wrong: result.answers.filter((a, i) => a !== (i % 2 === 1)).length,
      timeouts: result.stats.fleetTimeouts,
    };
  } finally {
    await farm.close();
  }
}

async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server of the bench's own, and a MONITOR on it counting what clients send. */
async function startRedis() {
  const port = await freePort();
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.stdout.on('data', (chunk) => {
      if (String(chunk).includes('Ready to accept connections')) resolve();
    });
  });
  const monitor = spawn('redis-cli', ['-p', String(port), 'monitor'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const counts = { sent: 0, inScripts: 0 };
  let rest = '';
  monitor.stdout.setEncoding('utf8').on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (line.includes(' lua] ')) counts.inScripts++;
      else if (line.includes('] "')) counts.sent++;
    }
  });
  const info = async () => {
    const out = await new Promise((resolve) => {
      const c = spawn('redis-cli', ['-p', String(port), 'info', 'stats'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let s = '';
      c.stdout.on('data', (d) => {
        s += d;
      });
      c.on('close', () => resolve(s));
    });
    return Number(/total_commands_processed:(\d+)/.exec(out)?.[1] ?? Number.NaN);
  };
  return {
    url: `redis://127.0.0.1:${port}/0`,
    counts,
    info,
    async stop() {
      monitor.kill();
      server.kill();
      await new Promise((resolve) => server.once('close', resolve));
    },
  };
}

async function pgReachable() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function dropSchemas(schemas) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end();
  }
}

function rowsOf(name, alone, fleet, commands) {
  return [
    [
      `${name}: 1 process alone`,
      alone.falseDisallows,
      fmt(alone.requests / ORIGINS, 3),
      fmt(alone.wallMs / 1000, 1),
      '',
      alone.storeErrors,
    ],
    [
      `${name}: ${MEMBERS} processes`,
      fleet.falseDisallows,
      fmt(fleet.requests / ORIGINS, 3),
      fmt(fleet.wallMs / 1000, 1),
      commands,
      fleet.storeErrors,
    ],
  ];
}

export async function runFleetBench() {
  const farm = await startFarm(ORIGINS, DELAY_MS);
  const rows = [];
  const schemas = [];
  try {
    const redis = await startRedis();
    try {
      const place = () => ({ kind: 'redis', url: redis.url, keyPrefix: `bench:${randomUUID()}:` });
      const alone = await fleetRun(farm, 1, place());
      await sleep(500);
      const before = { ...redis.counts, total: await redis.info() };
      const fleet = await fleetRun(farm, MEMBERS, place());
      await sleep(500);
      const sent = redis.counts.sent - before.sent;
      const inScripts = redis.counts.inScripts - before.inScripts;
      const total = (await redis.info()) - before.total;
      rows.push(...rowsOf('Redis', alone, fleet, fmt(sent / ORIGINS, 2)));
      console.log(
        `\nfleet on Redis: ${MEMBERS} processes sent ${sent} commands (${fmt(sent / ORIGINS, 2)} per origin, connection set-up included); ` +
          `the scripts among them ran ${inScripts} more inside Redis; total_commands_processed grew by ${total} ` +
          `(${fmt(total / ORIGINS, 2)} per origin, both counted). Waits that ran out: ${fleet.timeouts}; ` +
          `private pages answered allowed: ${fleet.wrong + alone.wrong}.`,
      );
      const t = await takeover(place());
      rows.push([`Redis: takeover after kill -9 (max over 20 origins)`, t.wrong, '', fmt(t.maxMs / 1000, 2), '', '']);
      fleetGoals('Redis', alone, fleet, t);
      goal(
        'fleet (Redis): store commands per origin, 8 processes',
        sent / ORIGINS,
        '<= 10',
        sent / ORIGINS <= 10,
        'commands',
      );
    } finally {
      await redis.stop();
    }
    if (await pgReachable()) {
      const place = () => {
        const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
        schemas.push(schema);
        return { kind: 'postgres', url: PG_URL, schema };
      };
      const alone = await fleetRun(farm, 1, place());
      const fleet = await fleetRun(farm, MEMBERS, place());
      rows.push(...rowsOf('PostgreSQL', alone, fleet, ''));
      const t = await takeover(place());
      rows.push([
        `PostgreSQL: takeover after kill -9 (max over 20 origins)`,
        t.wrong,
        '',
        fmt(t.maxMs / 1000, 2),
        '',
        '',
      ]);
      fleetGoals('PostgreSQL', alone, fleet, t);
    } else {
      console.log(`\nfleet on PostgreSQL: skipped, ${PG_URL} is unreachable`);
    }
  } finally {
    await farm.close();
    if (schemas.length > 0) await dropSchemas(schemas);
  }
  table(
    `fleet: ${ORIGINS.toLocaleString('en-US')} origins whose robots.txt takes ${DELAY_MS / 1000} s, default fleet settings (wall time from the first member ready to the last answer)`,
    ['run', 'false disallows', 'requests per origin', 'wall s', 'commands per origin', 'store errors'],
    rows,
  );
}

/** The goals both stores are held to: no false disallow, one request per origin, wall time, takeover after kill -9. */
function fleetGoals(store, alone, fleet, t) {
  goal(
    `fleet (${store}, ${MEMBERS} processes, ${ORIGINS} origins at 2 s): false disallows`,
    fleet.falseDisallows,
    '0',
    fleet.falseDisallows === 0,
    'sites',
  );
  goal(
    `fleet (${store}): robots.txt requests per origin`,
    fleet.requests / ORIGINS,
    '<= 1.01',
    fleet.requests / ORIGINS <= 1.01,
    'per origin',
  );
  goal(
    `fleet (${store}): wall time against one process alone`,
    fleet.wallMs / alone.wallMs,
    '<= 1.2x',
    fleet.wallMs <= 1.2 * alone.wallMs,
  );
  goal(
    `fleet (${store}): takeover after kill -9, default settings`,
    t.maxMs / 1000,
    `<= ${(LEASE_MS + 1000) / 1000} s`,
    t.maxMs <= LEASE_MS + 1000,
    's',
  );
}
