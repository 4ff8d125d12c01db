/**
 * The engine wired into the service: workers fetch real HTTP servers on 127.0.0.1 through the SSRF-guarded fetch
 * (loopback allowed by the explicit option) with the engine's retrieval; bodies are linted; the next fetch follows the
 * engine's refresh schedule; the files' effective policy follows the 12 h / 30 day availability timeline.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import type { Database } from '../src/storage/connect.js';
import { createPolicyResolver } from '../src/storage/history.js';
import { createProperty } from '../src/storage/properties.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';
import { type LocalOrigin, startOrigin } from './origins.js';

/** The parts of a file's JSON the assertions read directly. */
interface FileJson {
  readonly latestVersionId: number | null;
  readonly nextCheckAt: string;
  readonly effectivePolicy: { readonly message: string };
  readonly lastFetch: { readonly headers: Record<string, string>; readonly error: { message: string } | null };
  readonly [key: string]: unknown;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe.each(testDatabases)('engine wired in, on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'engine', () => {
    let database: Database;
    let clock: ManualClock;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let worker: Worker;
    let origin: LocalOrigin;
    let fileId: number;

    beforeEach(async () => {
      database = await openTestDatabase(target);
      clock = new ManualClock(100 * DAY);
      fetch = createGuardedFetch({ allowPrivate: true });
      worker = new Worker({
        db: database.db,
        dialect: database.dialect,
        retrieve: workerRetrieval(fetch, clock.now),
        now: clock.now,
      });
      app = await buildApp({ database, now: clock.now, resolvePolicy: createPolicyResolver(database.db) });
      origin = await startOrigin({ status: 200, body: 'User-agent: *\nDisallow: /private\n' });
      const property = await createProperty(
        database.db,
        database.dialect,
        parsePropertyInput(`${origin.url}/`),
        clock.now(),
      );
      const files = await database.db.selectFrom('robots_files').select('id').execute();
      expect(files).toHaveLength(1);
      fileId = files[0]!.id;
      expect(property.id).toBeGreaterThan(0);
    });
    afterEach(async () => {
      await app.close();
      await fetch.close();
      await origin.close();
      await database.close();
    });
    afterAll(() => target.cleanup());

    async function file(): Promise<FileJson> {
      const reply = await app.inject({ method: 'GET', url: `/api/files/${fileId}` });
      expect(reply.statusCode).toBe(200);
      return reply.json<FileJson>();
    }

    /** Makes the file due now and runs the worker until nothing is due. */
    async function fetchNow(): Promise<FileJson> {
      await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
      expect(await worker.runUntilIdle()).toBe(1);
      return file();
    }

    it('fetches, lints and schedules by the Cache-Control lifetime', async () => {
      origin.answer = {
        status: 200,
        headers: { 'cache-control': 'max-age=7200' },
        body: 'User-agent: *\nFoo bar baz\nAllow /x\nDisallow: /private\n',
      };
      const f = await fetchNow();
      expect(origin.requests).toEqual(['/robots.txt']);
      expect(f).toMatchObject({
        status: 'fetched',
        httpStatus: 200,
        size: 54,
        errors: 1,
        warnings: 1,
        lastCheckedAt: new Date(clock.now()).toISOString(),
        nextCheckAt: new Date(clock.now() + 2 * HOUR).toISOString(),
        effectivePolicy: { mode: 'rules', reason: 'fetched', versionId: f.latestVersionId, until: null },
      });
      expect(f.lastFetch.headers).toMatchObject({ 'cache-control': 'max-age=7200', 'content-type': 'text/plain' });
      const body = await database.db.selectFrom('bodies').select('lint_json').executeTakeFirstOrThrow();
      const diagnostics = JSON.parse(body.lint_json!) as { code: string; line: number; severity: string }[];
      const version = await app.inject({ method: 'GET', url: `/api/versions/${f.latestVersionId}` });
      expect(version.json()).toMatchObject({
        lint: {
          errors: 1,
          warnings: 1,
          diagnostics: expect.arrayContaining([
            expect.objectContaining({ code: 'unparseable-line', severity: 'error', line: 2, column: 1 }),
          ]),
        },
      });
      expect(diagnostics).toContainEqual(
        expect.objectContaining({ code: 'unparseable-line', line: 2, severity: 'error' }),
      );
      expect(diagnostics).toContainEqual(
        expect.objectContaining({ code: 'missing-colon', line: 3, severity: 'warning' }),
      );

      // Without Cache-Control: 24 h.
      clock.advance(3 * HOUR);
      origin.answer = { status: 200, body: 'User-agent: *\nDisallow: /private\n' };
      const g = await fetchNow();
      expect(g).toMatchObject({ status: 'fetched', errors: 0, nextCheckAt: new Date(clock.now() + DAY).toISOString() });
      expect(g.latestVersionId).not.toBe(f.latestVersionId);
    });

    it('keeps the Cache-Control lifetime within 5 minutes and 7 days, and retries server errors with a growing backoff', async () => {
      origin.answer = { status: 200, headers: { 'cache-control': 'max-age=10' }, body: 'User-agent: *\n' };
      expect((await fetchNow()).nextCheckAt).toBe(new Date(clock.now() + 5 * MIN).toISOString());
      origin.answer = { status: 200, headers: { 'cache-control': `max-age=${30 * 86400}` }, body: 'User-agent: *\n' };
      expect((await fetchNow()).nextCheckAt).toBe(new Date(clock.now() + 7 * DAY).toISOString());
      origin.answer = { status: 200, headers: { 'cache-control': 'no-store' }, body: 'User-agent: *\n' };
      const noStore = Date.parse((await fetchNow()).nextCheckAt) - clock.now();
      expect(noStore).toBeGreaterThanOrEqual(5 * MIN);
      expect(noStore).toBeLessThanOrEqual(DAY);

      // A run of 500s, each retried when due: the wait is the time failing so far (at least 10 minutes, at most 6
      // hours), so it doubles from one retry to the next.
      origin.answer = { status: 500 };
      const waits: number[] = [];
      for (let i = 0; i < 8; i++) {
        const f = await fetchNow();
        expect(f.status).toBe('error');
        waits.push(Date.parse(f.nextCheckAt) - clock.now());
        clock.time = Date.parse(f.nextCheckAt);
      }
      expect(waits.map((w) => w / MIN)).toEqual([10, 10, 20, 40, 80, 160, 320, 360]);
    });

    it('follows the availability timeline through failures: 12 h stop, then the last good version, then allow all', async () => {
      const good = await fetchNow();
      const goodVersion = good.latestVersionId as number;
      const firstFailure = clock.now() + DAY;
      clock.time = firstFailure;
      origin.answer = { status: 503, headers: { 'retry-after': '600' } };
      const failing = await fetchNow();
      expect(failing).toMatchObject({
        status: 'error',
        httpStatus: 503,
        failingSince: new Date(firstFailure).toISOString(),
        nextCheckAt: new Date(clock.now() + 10 * MIN).toISOString(),
        effectivePolicy: {
          mode: 'disallow-all',
          reason: 'unreachable',
          versionId: null,
          since: new Date(firstFailure).toISOString(),
          until: new Date(firstFailure + 12 * HOUR).toISOString(),
        },
      });
      expect(failing.effectivePolicy.message).toContain('crawling stops for the first 12 h');
      // In the engine's words: not "latest: HTTP 503, then http-status".
      expect(failing.effectivePolicy.message).toContain('(latest: server error (HTTP 503))');
      expect(failing.effectivePolicy.message).not.toContain('http-status');

      // 13 h later, still failing (no Retry-After): the last good version applies; backoff doubles from the first failure.
      clock.time = firstFailure + 13 * HOUR;
      origin.answer = { status: 503 };
      const later = await fetchNow();
      expect(later.effectivePolicy).toMatchObject({
        mode: 'rules',
        reason: 'last-good-version',
        versionId: goodVersion,
        until: new Date(firstFailure + 30 * DAY).toISOString(),
      });
      expect(Date.parse(later.nextCheckAt) - clock.now()).toBeGreaterThan(10 * MIN);
      expect(Date.parse(later.nextCheckAt) - clock.now()).toBeLessThanOrEqual(HOUR);

      // Time alone moves the policy: over 30 days, the server still answering, it counts as having no robots.txt.
      clock.time = firstFailure + 31 * DAY;
      expect((await file()).effectivePolicy).toMatchObject({ mode: 'allow-all', reason: 'long-unreachable-site-up' });

      // Recovery: the new fetch decides again.
      origin.answer = { status: 200, body: 'User-agent: *\nDisallow: /\n' };
      const back = await fetchNow();
      expect(back).toMatchObject({ status: 'fetched', failingSince: null, effectivePolicy: { reason: 'fetched' } });
    });

    it('reads a 404 as no robots.txt (allow all), and a 429 as a failure', async () => {
      origin.answer = { status: 404, body: 'nope' };
      expect(await fetchNow()).toMatchObject({
        status: 'not-found',
        statusReason: 'not found (HTTP 404)',
        size: null,
        errors: null,
        nextCheckAt: new Date(clock.now() + DAY).toISOString(),
        effectivePolicy: { mode: 'allow-all', reason: 'not-found', versionId: null },
      });
      origin.answer = { status: 429 };
      clock.advance(DAY);
      expect(await fetchNow()).toMatchObject({
        status: 'error',
        httpStatus: 429,
        effectivePolicy: { reason: 'unreachable' },
      });
    });

    it('falls back on a 404 during failures: allow all, as the last good fetch found no robots.txt', async () => {
      origin.answer = { status: 404 };
      await fetchNow();
      const firstFailure = clock.now() + DAY;
      clock.time = firstFailure;
      origin.answer = { status: 500 };
      await fetchNow();
      clock.time = firstFailure + 13 * HOUR;
      expect((await file()).effectivePolicy).toMatchObject({
        mode: 'allow-all',
        reason: 'last-good-not-found',
        versionId: null,
        until: new Date(firstFailure + 30 * DAY).toISOString(),
      });
    });

    it('says a redirect loop and a refused hop in the engine\'s words, not as "Not found (302)"', async () => {
      // The report status is the engine's fetchStatusOf: a redirect that leads nowhere is "not fetched, any other
      // reason" (error), while crawlers read it as allow-all.
      origin.answer = (request) =>
        request.url === '/robots.txt'
          ? { status: 302, headers: { location: '/a.txt' } }
          : { status: 302, headers: { location: '/robots.txt' } };
      expect(await fetchNow()).toMatchObject({
        status: 'error',
        statusReason: 'redirect loop',
        effectivePolicy: { mode: 'allow-all' },
        lastFetch: { summary: 'redirect loop' },
      });
      origin.answer = () => ({ status: 301, headers: { location: 'http://169.254.169.254/robots.txt' } });
      clock.advance(DAY);
      const refused = await fetchNow();
      expect(refused.statusReason).toBe(
        'not fetched: the address is private or loopback, which this service may not reach',
      );
    });

    it('follows redirects itself and refuses a hop to a forbidden address', async () => {
      origin.answer = (request) =>
        request.url === '/robots.txt'
          ? { status: 301, headers: { location: '/moved.txt' } }
          : { status: 301, headers: { location: 'http://169.254.169.254/robots.txt' } };
      const f = await fetchNow();
      expect(origin.requests).toEqual(['/robots.txt', '/moved.txt']);
      expect(f).toMatchObject({
        status: 'error',
        effectivePolicy: { mode: 'disallow-all' },
        lastFetch: {
          redirects: [
            { url: `${origin.url}/robots.txt`, status: 301 },
            { url: `${origin.url}/moved.txt`, status: 301 },
          ],
          error: { kind: 'blocked' },
        },
      });
      expect(f.lastFetch.error?.message).toContain('169.254.169.254');
    });

    it('refuses loopback without the explicit option', async () => {
      const strict = createGuardedFetch();
      try {
        const strictWorker = new Worker({
          db: database.db,
          dialect: database.dialect,
          retrieve: workerRetrieval(strict, clock.now),
          now: clock.now,
        });
        expect(await strictWorker.runUntilIdle()).toBe(1);
        expect(origin.requests).toEqual([]);
        expect((await file()).lastFetch.error).toMatchObject({ kind: 'blocked' });
      } finally {
        await strict.close();
      }
    });
  });
});
