/**
 * Webhook deliveries beside the fetches, with real parts: three worker processes (`runWorkers` of the built package,
 * as `robotskit worker` runs it) on one SQLite file or PostgreSQL schema, a receiver on 127.0.0.1 that never answers,
 * one that answers at once, and a robots.txt origin. Every delivery is sent exactly once (counted by `webhook-id`),
 * the healthy webhook is not held up behind the hanging one, and a new property is fetched while the hanging
 * receiver still holds every lane it was given. In process: the loop's retry times are the documented backoff.
 *
 * No assertion depends on the machine's speed: the hanging receiver holds its requests for the whole test (the
 * workers' webhook timeout is 10 minutes), so "the fetch happened while deliveries hung" is an order of events, not a
 * race. Waits poll with a give-up bound of minutes, only to end a broken run.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DeliveryLoop } from '../src/alerts/deliveries.js';
import { retryDelayAfter } from '../src/alerts/webhooks.js';
import { createGuardedFetch } from '../src/net/guarded-fetch.js';
import { insertAlert, insertWebhook, queueDelivery } from '../src/storage/alerts.js';
import type { DatabaseConfig } from '../src/storage/config.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, 'fixtures/delivery-worker.mjs');
const WORKERS = 3;
/** Deliveries a process sends to one webhook at a time (the loop's default). */
const LANES_PER_WEBHOOK = 2;
const ALERTS = 12;

/** Waits for `condition`, polling; the bound (about 3 minutes) only ends a broken run, it asserts no speed. */
async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1800; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A receiver on 127.0.0.1: answers 204 at once, or (`hang`) never, holding each request open until closed. */
async function startReceiver(hang: boolean) {
  const ids: string[] = [];
  const held = new Set<ServerResponse>();
  let mostHeld = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      ids.push(String(request.headers['webhook-id']));
      if (!hang) {
        response.writeHead(204).end();
        return;
      }
      held.add(response);
      mostHeld = Math.max(mostHeld, held.size);
      response.on('close', () => held.delete(response));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret-path?key=secret-query`,
    ids,
    held,
    mostHeld: () => mostHeld,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A robots.txt origin on 127.0.0.1 that notes when it is first asked. */
async function startOrigin() {
  let firstRequestAt: number | null = null;
  const server = createServer((_request, response) => {
    firstRequestAt ??= Date.now();
    response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    firstRequestAt: () => firstRequestAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function startWorkerProcess(config: DatabaseConfig) {
  const child: ChildProcess = spawn(process.execPath, [CHILD], {
    env: { ...process.env, DELIVERY_TEST_DB: JSON.stringify(config), DELIVERY_TEST_TIMEOUT_MS: String(10 * 60_000) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe.each(testDatabases)('webhook deliveries on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'deliveries', () => {
    afterAll(() => target.cleanup());

    it('three worker processes, a hanging and a healthy receiver: each delivery once, fetching goes on', async () => {
      const hanging = await startReceiver(true);
      const healthy = await startReceiver(false);
      const origin = await startOrigin();
      const config = target.config();
      const database = await openDatabase(config);
      const workers: ReturnType<typeof startWorkerProcess>[] = [];
      try {
        const now = Date.now();
        const hangingId = await insertWebhook(database.db, {
          url: hanging.url,
          secret: null,
          property_id: null,
          kinds_json: null,
          now,
        });
        const healthyId = await insertWebhook(database.db, {
          url: healthy.url,
          secret: 'whsec_dGVzdC1zZWNyZXQ=',
          property_id: null,
          kinds_json: null,
          now,
        });
        for (let i = 0; i < ALERTS; i++) {
          const alertId = await insertAlert(database.db, {
            property_id: null,
            file_id: null,
            kind: 'file-changed',
            severity: 'info',
            message: `change ${i}`,
            details_json: null,
            version_id: null,
            previous_version_id: null,
            created_at: now,
          });
          await queueDelivery(database.db, hangingId, alertId, now);
          await queueDelivery(database.db, healthyId, alertId, now);
        }
        for (let i = 0; i < WORKERS; i++) workers.push(startWorkerProcess(config));

        // The hanging receiver fills every lane the processes give its webhook, and keeps them; the healthy webhook's
        // deliveries go out meanwhile.
        await until(() => hanging.held.size === WORKERS * LANES_PER_WEBHOOK, 'the hanging receiver to fill its lanes');
        await until(() => healthy.ids.length >= ALERTS, 'the healthy deliveries');

        // A new property while the hanging receiver holds its lanes: its first fetch does not wait for them.
        const addedAt = Date.now();
        await createProperty(
          database.db,
          database.dialect,
          {
            kind: 'url-prefix',
            name: `http://127.0.0.1:${origin.port}/`,
            hosts: [{ host: `127.0.0.1:${origin.port}`, source: 'property' }],
            schemes: ['http'],
          },
          addedAt,
        );
        const fetched = async () =>
          (await database.db.selectFrom('fetches').select('id').executeTakeFirst()) !== undefined;
        await until(fetched, 'the new property to be fetched');
        const firstFetchMs = (origin.firstRequestAt() ?? Number.NaN) - addedAt;
        console.info(
          `[deliveries ${target.dialect}] first fetch of a new property ${firstFetchMs} ms after it was added`,
        );
        expect(hanging.held.size).toBe(WORKERS * LANES_PER_WEBHOOK);
        // Its first fetch is alerted on (everything disallowed): one more delivery each, the healthy one delivered too.
        await until(() => healthy.ids.length === ALERTS + 1, 'the new alert at the healthy receiver');

        // Exactly once: no webhook-id twice at either receiver, and never more lanes than the processes have.
        expect(new Set(healthy.ids).size).toBe(healthy.ids.length);
        expect(new Set(hanging.ids).size).toBe(hanging.ids.length);
        expect(hanging.ids).toHaveLength(WORKERS * LANES_PER_WEBHOOK);
        expect(hanging.mostHeld()).toBe(WORKERS * LANES_PER_WEBHOOK);

        // Stopping gives the hanging deliveries back unattempted (no failure counted against the receiver).
        for (const w of workers) w.child.kill('SIGTERM');
        expect(await Promise.all(workers.map((w) => w.exited))).toEqual(Array(WORKERS).fill(0));
        const rows = await database.db
          .selectFrom('webhook_deliveries')
          .select(['webhook_id', 'status', 'attempts', 'lease_owner'])
          .execute();
        const ofHealthy = rows.filter((r) => Number(r.webhook_id) === healthyId);
        expect(ofHealthy.map((r) => [r.status, r.attempts])).toEqual(Array(ALERTS + 1).fill(['delivered', 1]));
        const ofHanging = rows.filter((r) => Number(r.webhook_id) === hangingId);
        expect(ofHanging).toHaveLength(ALERTS + 1);
        expect(ofHanging.every((r) => r.status === 'pending' && r.attempts === 0 && r.lease_owner === null)).toBe(true);
        // The log names the receiver by its origin only: never its path or query (often its secret).
        const logs = workers.map((w) => w.output()).join('');
        expect(logs).toContain(`to http://127.0.0.1:${new URL(healthy.url).port}/…: delivered`);
        expect(logs).not.toContain('secret-path');
        expect(logs).not.toContain('secret-query');
      } finally {
        for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
        await Promise.all(workers.map((w) => w.exited));
        await Promise.all([hanging.close(), healthy.close(), origin.close()]);
        await database.close();
      }
    }, 240_000);

    it('retries at the documented times: 1, 2, 4 minutes after each failure', async () => {
      let status = 500;
      const attempts: number[] = [];
      const server = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          attempts.push(clock.now());
          response.writeHead(status).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const clock = new ManualClock(Date.UTC(2026, 0, 1));
      const database: Database = await openDatabase(target.config());
      const fetch = createGuardedFetch({ allowPrivate: true });
      const loop = new DeliveryLoop({
        db: database.db,
        dialect: database.dialect,
        fetch,
        owner: 'retry-test',
        now: clock.now,
        // Looks only when woken, so the manual clock alone decides when a retry is due.
        idleMs: 60 * 60_000,
      });
      try {
        const hook = await insertWebhook(database.db, {
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
          secret: null,
          property_id: null,
          kinds_json: null,
          now: clock.now(),
        });
        const alert = await insertAlert(database.db, {
          property_id: null,
          file_id: null,
          kind: 'file-changed',
          severity: 'info',
          message: 'changed',
          details_json: null,
          version_id: null,
          previous_version_id: null,
          created_at: clock.now(),
        });
        await queueDelivery(database.db, hook, alert, clock.now());
        const delivery = () => database.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
        const start = clock.now();
        loop.start();
        for (const n of [1, 2, 3]) {
          await until(async () => (await delivery()).attempts === n, `attempt ${n}`);
          const row = await delivery();
          expect(row.status).toBe('pending');
          // Due exactly the documented delay after the failed attempt.
          expect(Number(row.next_attempt_at)).toBe(clock.now() + retryDelayAfter(n));
          expect(retryDelayAfter(n)).toBe(2 ** (n - 1) * 60_000);
          clock.advance(retryDelayAfter(n));
          if (n === 3) status = 204;
          loop.wake();
        }
        await until(async () => (await delivery()).status === 'delivered', 'the delivery');
        expect(attempts.map((t) => (t - start) / 60_000)).toEqual([0, 1, 3, 7]);
      } finally {
        await loop.stop();
        await fetch.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await database.close();
      }
    });
  });
});
