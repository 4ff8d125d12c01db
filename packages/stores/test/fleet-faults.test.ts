/**
 * The fleet under the faults a fleet operator meets, with real processes on real Redis and PostgreSQL and real HTTP
 * origins on 127.0.0.1 whose robots.txt takes 2 to 5 s: two `robotskit batch --cache` processes (the second started
 * 2 s after the first), eight library processes at once, and the holder of every lease killed with `kill -9`, all
 * with the default fleet settings. What must hold whatever the machine's speed: no healthy site is ever answered
 * blocked, one robots.txt request per origin when nothing fails, every command ends.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dropPrefix,
  dropSchema,
  freshPrefix,
  freshSchema,
  PG_URL,
  pgProblem,
  REDIS_URL,
  redisProblem,
} from './services.js';

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, 'fleet-child.mjs');
const CLI = join(here, '../../cli/bin/robotskit.js');
const ORIGINS = 120;
/** A hang guard, not a speed claim: processes on a shared, loaded machine may take long to start. */
const GUARD_MS = 300_000;
/**
 * Where no fault is meant, the timeouts of the fetches and the store calls are generous, so that a loaded machine (a
 * process starved of CPU for seconds) cannot turn a healthy 2-5 s site or a healthy store into a failure; the fleet
 * settings stay the defaults (its wait grows with the fetch timeout, as it must).
 */
const PATIENT = { timeouts: { headers: 60_000, idle: 60_000, total: 90_000 }, storeTimeoutMs: 30_000 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Healthy origins on 127.0.0.1, each answering its robots.txt after its delay; requests counted per origin. */
interface Farm {
  readonly origins: string[];
  readonly requests: number[];
  /** While true, robots.txt requests are held unanswered (a fetcher to be killed mid-fetch). */
  hold: boolean;
  close(): Promise<void>;
}

async function startFarm(count: number, delayOf: (i: number) => number): Promise<Farm> {
  const servers: Server[] = [];
  const held: ServerResponse[] = [];
  const farm: Farm = {
    origins: [],
    requests: Array.from({ length: count }, () => 0),
    hold: false,
    async close() {
      for (const res of held) res.destroy();
      await Promise.all(
        servers.map((s) => {
          s.closeAllConnections();
          return new Promise<void>((resolve) => s.close(() => resolve()));
        }),
      );
    },
  };
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => {
      if (req.url !== '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      farm.requests[i]!++;
      if (farm.hold) {
        held.push(res);
        return;
      }
      const timer = setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      }, delayOf(i));
      res.on('close', () => clearTimeout(timer));
    });
    server.keepAliveTimeout = 200;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    servers.push(server);
    farm.origins.push(`http://127.0.0.1:${address.port}`);
  }
  cleanups.push(() => farm.close());
  return farm;
}

/** 2, 3, 4 or 5 seconds. */
const slow = (i: number) => 2000 + (i % 4) * 1000;

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A process of the fleet; ended with SIGKILL if its test ends first. */
function start(args: string[], stdin?: string): { child: ChildProcess; ended: Promise<Ended> } {
  const child = spawn(process.execPath, args, { stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
    }
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise<Ended>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, ended };
}

interface ChildResult {
  failures: Record<string, number>;
  wrong: unknown[];
  answers: boolean[];
  stats: Record<string, number>;
  storeErrors: string[];
}

function resultOf(ended: Ended): ChildResult {
  const line = ended.stdout.split('\n').find((l) => l.startsWith('{'));
  if (ended.code !== 0 || line === undefined) {
    throw new Error(`fleet child ended with ${ended.code ?? ended.signal}: ${ended.stderr || ended.stdout}`);
  }
  return JSON.parse(line) as ChildResult;
}

interface Kind {
  readonly name: 'redis' | 'postgres';
  readonly skip: string | null;
  /** A new place in the store: the job fields for a child, its `--cache` URL, and how to drop it. */
  place(): { job: Record<string, unknown>; cacheUrl: string; drop(): Promise<void> };
}

const kinds: Kind[] = [
  {
    name: 'redis',
    skip: redisProblem,
    place() {
      const keyPrefix = freshPrefix();
      const url = new URL(REDIS_URL);
      url.searchParams.set('prefix', keyPrefix);
      return {
        job: { kind: 'redis', url: REDIS_URL, keyPrefix },
        cacheUrl: url.href,
        drop: () => dropPrefix(keyPrefix),
      };
    },
  },
  {
    name: 'postgres',
    skip: pgProblem,
    place() {
      const schema = freshSchema();
      const url = new URL(PG_URL);
      url.searchParams.set('schema', schema);
      return { job: { kind: 'postgres', url: PG_URL, schema }, cacheUrl: url.href, drop: () => dropSchema(schema) };
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const kind of kinds) {
  describe.skipIf(kind.skip !== null)(`a fleet on ${kind.name} with slow origins and faults`, () => {
    it(
      'two batch --cache processes, the second 2 s later: every healthy site allowed, one request each',
      async () => {
        const place = kind.place();
        cleanups.push(place.drop);
        const farm = await startFarm(ORIGINS, slow);
        const urls = `${farm.origins.flatMap((o) => [`${o}/private/page`, `${o}/page`]).join('\n')}\n`;
        const first = start([CLI, 'batch', '--cache', place.cacheUrl, '--timeout', '60'], urls);
        await sleep(2000);
        const second = start([CLI, 'batch', '--cache', place.cacheUrl, '--timeout', '60'], urls);
        for (const ended of await Promise.all([first.ended, second.ended])) {
          // Nothing on standard error but batch's closing summary: no store failure, no site unreachable.
          const summary = new RegExp(
            `^robotskit: ${2 * ORIGINS} records: ${ORIGINS} allowed, ${ORIGINS} blocked, 0 invalid; \\d+ robots\\.txt fetched, 0 unreachable\\n$`,
          );
          expect(ended.stderr).toMatch(summary);
          expect(ended.code).toBe(0);
          const records = ended.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { url: string; allowed: boolean });
          expect(records.filter((r) => r.allowed !== !r.url.endsWith('/private/page'))).toEqual([]);
          expect(records).toHaveLength(2 * ORIGINS);
        }
        expect(farm.requests.filter((n) => n !== 1)).toEqual([]);
      },
      GUARD_MS,
    );

    it(
      'eight processes at once: every healthy site allowed, one request each, no wait runs out',
      async () => {
        const place = kind.place();
        cleanups.push(place.drop);
        const farm = await startFarm(ORIGINS, slow);
        const runs = Array.from({ length: 8 }, () =>
          start([CHILD, JSON.stringify({ ...place.job, ...PATIENT, origins: farm.origins })]),
        );
        const results = (await Promise.all(runs.map((r) => r.ended))).map(resultOf);
        for (const r of results) {
          expect(r.storeErrors).toEqual([]);
          expect(r.failures).toEqual({});
          expect(r.wrong).toEqual([]);
          expect(r.answers).toEqual(farm.origins.flatMap(() => [false, true]));
          expect(r.stats.fleetTimeouts).toBe(0);
        }
        expect(farm.requests.filter((n) => n !== 1)).toEqual([]);
        expect(results.reduce((n, r) => n + (r.stats.fetches ?? 0), 0)).toBe(ORIGINS);
      },
      GUARD_MS,
    );

    it(
      'the holder of every lease killed with kill -9: taken over with the default settings, nothing blocked',
      async () => {
        const place = kind.place();
        cleanups.push(place.drop);
        const count = 20;
        const farm = await startFarm(count, () => 0);
        farm.hold = true;
        const holder = start([CHILD, JSON.stringify({ ...place.job, origins: farm.origins })]);
        // Every origin's lease is held once its request has arrived (the lease is taken just before the fetch).
        while (farm.requests.some((n) => n === 0)) await sleep(20);
        holder.child.kill('SIGKILL');
        expect((await holder.ended).signal).toBe('SIGKILL');
        farm.hold = false;
        const successor = start([CHILD, JSON.stringify({ ...place.job, origins: farm.origins })]);
        const result = resultOf(await successor.ended);
        expect(result.answers).toEqual(farm.origins.flatMap(() => [false, true]));
        // Each taken over at the end of its lease (10 s), long before the wait (45 s) could run out.
        expect(result.stats).toMatchObject({ fetches: count, fleetTimeouts: 0 });
        expect(result.storeErrors).toEqual([]);
        expect(farm.requests).toEqual(farm.origins.map(() => 2));
      },
      GUARD_MS,
    );
  });
}
