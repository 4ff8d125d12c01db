/**
 * Alerts from real fetches of a local origin (engine retrieval and lint wired in), the diff they link to, and webhook
 * deliveries to a local receiver: signed, retried with backoff, never delivered twice by concurrent workers.
 */

import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../src/alerts/deliveries.js';
import { createAlertHook } from '../src/alerts/store.js';
import { retryDelayAfter, signatureOf, signingKey } from '../src/alerts/webhooks.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';
import { type LocalOrigin, startOrigin } from './origins.js';

/** A resolver that knows no name. */
const noNames = ((_host: string, _options: unknown, callback: (error: NodeJS.ErrnoException) => void) => {
  const error: NodeJS.ErrnoException = new Error('no such name');
  error.code = 'ENOTFOUND';
  callback(error);
}) as unknown as LookupFunction;

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

interface AlertJson {
  id: number;
  kind: string;
  severity: string;
  message: string;
  fileId: number;
  versionId: number;
  previousVersionId: number;
  diffUrl: string;
  details: Record<string, unknown>;
}

/** A webhook receiver on 127.0.0.1 that answers with `status` and keeps what it got. */
async function startReceiver(status: () => number) {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status());
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDatabases)('alerts and webhooks on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'alerts', () => {
    let database: Database;
    let clock: ManualClock;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let worker: Worker;
    let origin: LocalOrigin;
    let propertyId: number;
    let log: string[];
    let config: ReturnType<typeof target.config>;

    beforeEach(async () => {
      config = target.config();
      database = await openDatabase(config);
      clock = new ManualClock(100 * DAY);
      // No name resolves (no DNS traffic from tests); loopback receivers and origins are reached by address.
      fetch = createGuardedFetch({ allowPrivate: true, lookup: noNames });
      log = [];
      worker = new Worker({
        db: database.db,
        dialect: database.dialect,
        retrieve: workerRetrieval(fetch, clock.now),
        onNewVersion: createAlertHook((line) => log.push(line)),
        now: clock.now,
      });
      app = await buildApp({ database, now: clock.now, fetch });
      origin = await startOrigin({
        status: 200,
        body: 'User-agent: *\nDisallow: /private\n\nSitemap: https://example.com/a.xml\nSitemap: https://example.com/b.xml\n',
      });
      propertyId = (
        await createProperty(database.db, database.dialect, parsePropertyInput(`${origin.url}/`), clock.now())
      ).id;
    });
    afterEach(async () => {
      await app.close();
      await fetch.close();
      await origin.close();
      await database.close();
    });
    afterAll(() => target.cleanup());

    async function fetchNow(): Promise<void> {
      clock.advance(DAY);
      await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
      expect(await worker.runUntilIdle()).toBe(1);
    }

    async function get<T>(url: string): Promise<T> {
      const reply = await app.inject({ method: 'GET', url });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<T>();
    }

    async function alerts(query = ''): Promise<AlertJson[]> {
      return (await get<{ alerts: AlertJson[] }>(`/api/alerts${query}`)).alerts;
    }

    it('alerts on a file that fails from its very first fetch, once, and on its recovery', async () => {
      origin.answer = { status: 503 };
      await fetchNow();
      const first = await alerts();
      expect(first.map((a) => [a.kind, a.severity])).toEqual([['file-unreachable', 'critical']]);
      expect(first[0]!.message).toBe(
        'robots.txt could not be fetched from its first fetch on: server error (HTTP 503). Google does not crawl ' +
          'the site until a fetch succeeds',
      );
      expect(first[0]!.details).toEqual({ firstFetch: true });
      expect(first[0]!.previousVersionId).toBeNull();
      await fetchNow();
      expect(await alerts()).toHaveLength(1);
      origin.answer = { status: 200, body: 'User-agent: *\nDisallow:\n' };
      await fetchNow();
      expect((await alerts()).map((a) => a.kind)).toContain('file-recovered');
    });

    it('says what changed: whole site blocked, sitemap removed, scripts blocked; unreachable, recovered, HTML', async () => {
      await fetchNow();
      expect(await alerts()).toEqual([]);

      origin.answer = {
        status: 200,
        body:
          'User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private\nDisallow: /*.js$\n\n' +
          'Sitemap: https://example.com/a.xml\n',
      };
      await fetchNow();
      const second = await alerts();
      expect(second.map((a) => [a.kind, a.severity]).sort()).toEqual(
        [
          ['assets-blocked', 'warning'],
          ['disallow-all-added', 'critical'],
          ['file-changed', 'info'],
          ['sitemap-removed', 'warning'],
        ].sort(),
      );
      const byKind = Object.fromEntries(second.map((a) => [a.kind, a]));
      expect(byKind['disallow-all-added']!.message).toBe(
        'The whole site is now blocked for every crawler (*): line 2 disallows /',
      );
      expect(byKind['sitemap-removed']!.message).toBe('Sitemap line removed: https://example.com/b.xml');
      expect(byKind['assets-blocked']!.message).toContain('/*.js$ (line 6, Googlebot)');
      // What the edit means, exactly (the engine's comparison): Applebot follows Googlebot's group.
      expect(byKind['file-changed']!.message).toBe(
        'robots.txt changed (+4 −1 lines): now blocks /*.js$ for Googlebot, Applebot, Googlebot-Image, ' +
          'Googlebot-News and 2 more; ' +
          'now blocks / for bingbot, GPTBot, ClaudeBot and other crawlers (*)',
      );
      const meaning = byKind['file-changed']!.details.meaning as {
        equivalent: boolean;
        complete: boolean;
        changes: {
          crawler: string;
          regions: number;
          examples: { change: string; pattern: string; witness: string }[];
        }[];
      };
      expect(meaning.equivalent).toBe(false);
      expect(meaning.complete).toBe(true);
      expect(meaning.changes.find((c) => c.crawler === 'Googlebot')?.examples).toEqual([
        expect.objectContaining({ change: 'blocked', pattern: '/*.js$', witness: '/.js' }),
      ]);
      expect(log.filter((l) => l.startsWith('alert '))).toHaveLength(4);

      // The link leads to the diff of exactly these versions.
      const diff = await get<{
        version: { id: number };
        against: { id: number };
        added: number;
        removed: number;
        hunks: { lines: { kind: string; text: string }[] }[];
        lint: { added: unknown[]; removed: unknown[] };
      }>(byKind['file-changed']!.diffUrl);
      expect(diff.version.id).toBe(byKind['file-changed']!.versionId);
      expect(diff.against.id).toBe(byKind['file-changed']!.previousVersionId);
      expect([diff.added, diff.removed]).toEqual([4, 1]);
      expect(diff.hunks.flatMap((h) => h.lines.filter((l) => l.kind === 'removed').map((l) => l.text))).toEqual([
        'Sitemap: https://example.com/b.xml',
      ]);
      expect(diff.hunks.flatMap((h) => h.lines.filter((l) => l.kind === 'added').map((l) => l.text))).toEqual([
        'Disallow: /',
        '',
        'User-agent: Googlebot',
        'Disallow: /*.js$',
      ]);

      // Unreachable: one alert; failing again: none; recovered as HTML: three.
      origin.answer = { status: 500 };
      await fetchNow();
      await fetchNow();
      const unreachable = await alerts('?kind=file-unreachable');
      expect(unreachable).toHaveLength(1);
      expect(unreachable[0]!.message).toContain('robots.txt became unreachable: server error (HTTP 500)');
      origin.answer = { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Hello</p>' };
      await fetchNow();
      const latest = (await alerts()).slice(0, 4);
      expect(latest.map((a) => a.kind).sort()).toEqual([
        'became-html',
        'file-changed',
        'file-recovered',
        'sitemap-removed',
      ]);
      // Rules are compared with the last good version, across the outage: / is allowed again, nothing critical.
      expect((await alerts('?severity=critical')).map((a) => a.kind).sort()).toEqual([
        'disallow-all-added',
        'file-unreachable',
      ]);
      expect((await alerts('?severity=warning')).map((a) => a.kind).sort()).toEqual([
        'assets-blocked',
        'became-html',
        'sitemap-removed',
        'sitemap-removed',
      ]);
      expect((await alerts('?severity=info')).map((a) => a.kind).sort()).toEqual([
        'file-changed',
        'file-changed',
        'file-recovered',
      ]);
      expect(await alerts(`?propertyId=${propertyId}&limit=2`)).toHaveLength(2);
      expect(await alerts(`?propertyId=${propertyId + 1000}`)).toEqual([]);
      expect(await alerts(`?since=${new Date(clock.now() + 1).toISOString()}`)).toEqual([]);
      expect((await alerts(`?since=${new Date(clock.now()).toISOString()}`)).length).toBe(4);
      const badSince = await app.inject({ method: 'GET', url: '/api/alerts?since=yesterday' });
      expect([badSince.statusCode, badSince.json().error.code]).toEqual([400, 'invalid-request']);
      const bad = await app.inject({ method: 'GET', url: '/api/alerts?kind=nope' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'invalid-request' } });
    });

    it('delivers each alert once to each webhook, signed, with retries and backoff', async () => {
      let status = 500;
      const receiver = await startReceiver(() => status);
      try {
        const created = await app.inject({
          method: 'POST',
          url: '/api/webhooks',
          payload: { url: receiver.url, secret: 'hook-secret-1', propertyId },
        });
        expect(created.statusCode, created.body).toBe(201);
        expect(created.json()).toMatchObject({ hasSecret: true, propertyId, kinds: null });
        const onlyCritical = await app.inject({
          method: 'POST',
          url: '/api/webhooks',
          payload: { url: receiver.url, kinds: ['disallow-all-added'] },
        });
        expect(onlyCritical.statusCode).toBe(201);

        await fetchNow();
        origin.answer = { status: 200, body: 'User-agent: *\nDisallow: /\n' };
        await fetchNow();
        // file-changed, disallow-all-added (* and Googlebot: one alert), sitemap-removed (both lines: one alert) for
        // the first hook; disallow-all-added for the second.
        const pending = await database.db.selectFrom('webhook_deliveries').selectAll().execute();
        expect(pending).toHaveLength(4);

        // At most 2 deliveries per webhook at a time: the first hook's third one waits for the next claim.
        const first = await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w1', now: clock.now });
        expect(first.map((a) => a.status)).toEqual(['pending', 'pending', 'pending']);
        expect(first.filter((a) => a.webhookId === created.json().id)).toHaveLength(2);
        const third = await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w1', now: clock.now });
        expect(third.map((a) => [a.webhookId, a.status])).toEqual([[created.json().id, 'pending']]);
        expect(receiver.received).toHaveLength(4);
        // Not due again before the backoff.
        expect(await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w1', now: clock.now })).toEqual(
          [],
        );
        clock.advance(retryDelayAfter(1));
        status = 204;
        const firstIds = receiver.received.map((r) => String(r.headers['webhook-id'])).sort();
        const firstTimes = new Set(receiver.received.map((r) => r.headers['webhook-timestamp']));
        receiver.received.length = 0;
        // Two workers at once (separate connections on PostgreSQL): each delivery is made once.
        const other = database.dialect === 'postgres' ? await openDatabase(config, { migrate: false }) : database;
        const [a, b] = await Promise.all([
          deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w1', now: clock.now, limit: 2 }),
          deliverDueWebhooks(other.db, other.dialect, { fetch, owner: 'w2', now: clock.now, limit: 10 }),
        ]);
        if (other !== database) await other.close();
        let rest = await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w1', now: clock.now });
        expect(a.length + b.length + rest.length).toBe(4);
        expect(receiver.received).toHaveLength(4);
        rest = await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w1', now: clock.now });
        expect(rest).toEqual([]);

        const signed = receiver.received.filter((r) => r.headers['webhook-signature'] !== undefined);
        expect(signed).toHaveLength(3);
        for (const r of signed) {
          // Standard Webhooks: v1,base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)), computed here by hand.
          const id = String(r.headers['webhook-id']);
          const timestamp = String(r.headers['webhook-timestamp']);
          expect(id).toMatch(/^msg_\d+_\d+$/);
          expect(Number(timestamp)).toBe(Math.floor(clock.now() / 1000));
          const mac = createHmac('sha256', 'hook-secret-1').update(`${id}.${timestamp}.${r.body}`).digest('base64');
          expect(r.headers['webhook-signature']).toBe(`v1,${mac}`);
          expect(r.headers['webhook-signature']).toBe(signatureOf('hook-secret-1', id, Number(timestamp), r.body));
          // The old body-only signature (replayable) is gone.
          expect(r.headers['x-robotskit-signature']).toBeUndefined();
          const payload = JSON.parse(r.body) as { event: string; alert: AlertJson & { fileUrl: string } };
          expect(payload.event).toBe('alert');
          expect(payload.alert.fileUrl).toBe(`${origin.url}/robots.txt`);
          expect(payload.alert.diffUrl).toMatch(/^\/api\/versions\/\d+\/diff\?against=\d+$/);
        }
        // A retry keeps the delivery's id (receivers deduplicate on it) and is signed with its own timestamp.
        expect(receiver.received.map((r) => String(r.headers['webhook-id'])).sort()).toEqual(firstIds);
        for (const r of receiver.received) expect(firstTimes.has(r.headers['webhook-timestamp'])).toBe(false);
        const unsigned = receiver.received.find((r) => r.headers['webhook-signature'] === undefined)!;
        expect(unsigned.headers['webhook-id']).toMatch(/^msg_\d+_\d+$/);
        expect((JSON.parse(unsigned.body) as { alert: AlertJson }).alert.kind).toBe('disallow-all-added');

        const list = await get<{ webhooks: { deliveries: Record<string, number> }[] }>('/api/webhooks');
        expect(list.webhooks.map((w) => w.deliveries)).toEqual([
          { pending: 0, delivered: 3, failed: 0 },
          { pending: 0, delivered: 1, failed: 0 },
        ]);
      } finally {
        await receiver.close();
      }
    });

    it('refuses forbidden webhook addresses when they are added, with the reason', async () => {
      for (const [url, words] of [
        ['http://169.254.169.254/latest/meta-data', 'link-local'],
        ['http://[fd00:ec2::254]/latest/meta-data', 'AWS instance metadata'],
        ['http://100.100.100.200/latest/meta-data', 'Alibaba Cloud instance metadata'],
        ['http://0.0.0.0:9/hook', 'unspecified'],
      ] as const) {
        const created = await app.inject({ method: 'POST', url: '/api/webhooks', payload: { url } });
        expect([created.statusCode, created.json().error.code], url).toEqual([400, 'invalid-request']);
        expect(created.json().error.message).toContain(words);
      }
      expect(await database.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
    });

    it('tells hooks to one host apart, and changes the alert kinds a hook is sent', async () => {
      const add = async (url: string) => {
        const created = await app.inject({ method: 'POST', url: '/api/webhooks', payload: { url } });
        expect(created.statusCode, created.body).toBe(201);
        return created.json<{ id: number; url: string; fingerprint: string; kinds: string[] | null }>();
      };
      const a = await add('http://127.0.0.1:9/services/T0/B0/secret-a');
      const b = await add('http://127.0.0.1:9/services/T0/B0/secret-b');
      // The same origin shown (the path is a secret), told apart by a fingerprint of the whole URL.
      expect([a.url, b.url]).toEqual(['http://127.0.0.1:9/…', 'http://127.0.0.1:9/…']);
      expect(a.fingerprint).toMatch(/^[0-9a-f]{8}$/);
      expect(a.fingerprint).not.toBe(b.fingerprint);
      expect(JSON.stringify([a, b])).not.toContain('secret-');

      const patch = (id: number, payload: unknown) =>
        app.inject({ method: 'PATCH', url: `/api/webhooks/${id}`, payload: payload as object });
      const changed = await patch(a.id, { kinds: ['disallow-all-added', 'file-unreachable'] });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ id: a.id, kinds: ['disallow-all-added', 'file-unreachable'] });
      const every = await patch(a.id, { kinds: null });
      expect(every.json()).toMatchObject({ id: a.id, kinds: null });
      const bad = await patch(a.id, { kinds: ['no-such-kind'] });
      expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'invalid-request']);
      const none = await patch(a.id, { kinds: [] });
      expect(none.statusCode).toBe(400);
      expect((await patch(9999, { kinds: null })).statusCode).toBe(404);
      for (const id of [a.id, b.id]) await app.inject({ method: 'DELETE', url: `/api/webhooks/${id}` });
    });

    it('gives up after 8 attempts, and refuses forbidden webhook addresses at delivery', async () => {
      // Added before addresses were checked at creation (or a name that now resolves elsewhere): still refused.
      await database.db
        .insertInto('webhooks')
        .values({
          url: 'http://169.254.169.254/latest/meta-data',
          secret: null,
          property_id: null,
          kinds_json: null,
          created_at: clock.now(),
          disabled_at: null,
        })
        .execute();
      await fetchNow();
      origin.answer = { status: 404 };
      await fetchNow();
      // Gone (404): file-changed and sitemap-removed.
      const statuses: string[] = [];
      for (let i = 0; i < 8; i++) {
        const attempts = await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w', now: clock.now });
        expect(attempts).toHaveLength(2);
        for (const a of attempts) expect(a.error).toContain('169.254.169.254');
        statuses.push(attempts[0]!.status);
        clock.advance(6 * 60 * MIN);
      }
      expect(statuses).toEqual([...Array(7).fill('pending'), 'failed']);
      expect(await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 'w', now: clock.now })).toEqual(
        [],
      );
    });

    it('counts alerts per property for the badges, and tests a webhook at once with its delivery history', async () => {
      origin.answer = { status: 503 };
      await fetchNow();
      const summary = await get<{ properties: { propertyId: number; critical: number; warning: number }[] }>(
        '/api/alerts/summary',
      );
      expect(summary.properties).toEqual([expect.objectContaining({ propertyId, critical: 1, warning: 0, info: 0 })]);
      const later = await get<{ properties: unknown[] }>(
        `/api/alerts/summary?since=${new Date(clock.now() + 1).toISOString()}`,
      );
      expect(later.properties).toEqual([]);

      const receiver = await startReceiver(() => 204);
      const refusing = await startReceiver(() => 500);
      // A service whose fetch may reach loopback (as with --allow-private-addresses), and one whose fetch may not.
      const open = await buildApp({ database, now: clock.now, fetch });
      try {
        const hook = (
          await open.inject({
            method: 'POST',
            url: '/api/webhooks',
            payload: { url: receiver.url, secret: 's'.repeat(16) },
          })
        ).json<{ id: number }>();
        const test = await open.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test` });
        expect(test.json()).toEqual({ ok: true, httpStatus: 204, error: null });
        expect(receiver.received).toHaveLength(1);
        expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ event: 'test', webhookId: hook.id });
        // Signed as alert deliveries are (Standard Webhooks: id, timestamp, body).
        const sent = receiver.received[0]!;
        const id = sent.headers['webhook-id'] as string;
        const timestamp = Number(sent.headers['webhook-timestamp']);
        expect(id).toMatch(/^msg_test_/);
        expect(sent.headers['webhook-signature']).toBe(signatureOf('s'.repeat(16), id, timestamp, sent.body));

        const bad = (await open.inject({ method: 'POST', url: '/api/webhooks', payload: { url: refusing.url } })).json<{
          id: number;
        }>();
        expect((await open.inject({ method: 'POST', url: `/api/webhooks/${bad.id}/test` })).json()).toEqual({
          ok: false,
          httpStatus: 500,
          error: 'the receiver answered HTTP 500; a webhook must answer 2xx',
        });
        // A service whose guarded fetch refuses loopback (the default): the test delivery says so in words.
        const strictFetch = createGuardedFetch({ lookup: noNames });
        const strict = await buildApp({ database, now: clock.now, fetch: strictFetch });
        try {
          const guarded = await strict.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test` });
          expect(guarded.json()).toMatchObject({
            ok: false,
            httpStatus: null,
            error: expect.stringContaining('refused'),
          });
        } finally {
          await strict.close();
          await strictFetch.close();
        }
        const missing = await app.inject({ method: 'POST', url: '/api/webhooks/9999/test' });
        expect(missing.statusCode).toBe(404);

        // The next alert is queued for both hooks; delivering it fills the history.
        origin.answer = { status: 200, body: 'User-agent: *\nDisallow: /\n' };
        await fetchNow();
        await deliverDueWebhooks(database.db, database.dialect, { fetch, owner: 't', now: clock.now });
        const history = (
          await get<{ deliveries: { status: string; alertKind: string; lastError: string | null }[] }>(
            `/api/webhooks/${bad.id}/deliveries`,
          )
        ).deliveries;
        // On failure, what the fetch recorded and the alerts there are (a failed fetch makes no new alert).
        expect(history.length, JSON.stringify({ log, alerts: await alerts() })).toBeGreaterThan(0);
        expect(
          history.every(
            (d) =>
              d.status === 'pending' && d.lastError === 'the receiver answered HTTP 500; a webhook must answer 2xx',
          ),
        ).toBe(true);
        expect(history.map((d) => d.alertKind)).toContain('file-recovered');
        const good = (await get<{ deliveries: { status: string }[] }>(`/api/webhooks/${hook.id}/deliveries`))
          .deliveries;
        expect(good.every((d) => d.status === 'delivered')).toBe(true);
        expect((await app.inject({ method: 'GET', url: '/api/webhooks/9999/deliveries' })).statusCode).toBe(404);
      } finally {
        await open.close();
        await receiver.close();
        await refusing.close();
      }
    });

    it('validates webhooks and deletes them', async () => {
      const cases: [unknown, number, string][] = [
        [{ url: 'ftp://example.com/x' }, 400, 'invalid-request'],
        [{ url: 'not a url' }, 400, 'invalid-request'],
        [{ url: 'https://user:pw@example.com/' }, 400, 'invalid-request'],
        [{ url: 'https://example.com/', kinds: ['nope'] }, 400, 'invalid-request'],
        [{ url: 'https://example.com/', secret: 'short' }, 400, 'invalid-request'],
        [{ url: 'https://example.com/', propertyId: 999 }, 404, 'not-found'],
        [{ url: 'https://example.com/', extra: 1 }, 400, 'invalid-request'],
      ];
      for (const [payload, status, code] of cases) {
        const reply = await app.inject({ method: 'POST', url: '/api/webhooks', payload: payload as object });
        expect([reply.statusCode, reply.json().error.code], JSON.stringify(payload)).toEqual([status, code]);
      }
      const ok = await app.inject({ method: 'POST', url: '/api/webhooks', payload: { url: 'https://example.com/h' } });
      const id = ok.json<{ id: number }>().id;
      expect((await app.inject({ method: 'DELETE', url: `/api/webhooks/${id}` })).statusCode).toBe(204);
      const again = await app.inject({ method: 'DELETE', url: `/api/webhooks/${id}` });
      expect([again.statusCode, again.json().error.code]).toEqual([404, 'not-found']);
    });

    it('diffs against the previous version by default, or any version, with lint changes', async () => {
      origin.answer = { status: 200, body: 'User-agent: *\nDisallow: /a\n' };
      await fetchNow();
      origin.answer = { status: 200, body: 'User-agent: *\nDisallow: /a\nFoo bar baz\n' };
      await fetchNow();
      const ids = (await database.db.selectFrom('versions').select('id').orderBy('id').execute()).map((r) => r.id);
      expect(ids).toHaveLength(2);
      const diff = await get<{
        against: { id: number } | null;
        added: number;
        removed: number;
        hunks: {
          oldStart: number;
          newStart: number;
          lines: { kind: string; text: string; newLine: number | null }[];
        }[];
        lint: {
          errors: { before: number; after: number };
          added: { code: string; line: number }[];
          removed: unknown[];
        };
      }>(`/api/versions/${ids[1]}/diff`);
      expect(diff.against?.id).toBe(ids[0]);
      expect([diff.added, diff.removed]).toEqual([1, 0]);
      expect(diff.hunks[0]!.lines.at(-1)).toEqual({ kind: 'added', text: 'Foo bar baz', oldLine: null, newLine: 3 });
      expect(diff.lint.errors).toEqual({ before: 0, after: 1 });
      expect(diff.lint.added).toEqual([expect.objectContaining({ code: 'unparseable-line', line: 3 })]);
      expect(diff.lint.removed).toEqual([]);

      const first = await get<{ against: null; added: number }>(`/api/versions/${ids[0]}/diff`);
      expect(first).toMatchObject({ against: null, added: 2, removed: 0 });
      const reverse = await get<{ added: number; removed: number }>(`/api/versions/${ids[0]}/diff?against=${ids[1]}`);
      expect([reverse.added, reverse.removed]).toEqual([0, 1]);
      for (const [url, status] of [
        [`/api/versions/${ids[1]! + 100}/diff`, 404],
        [`/api/versions/${ids[1]}/diff?against=${ids[1]! + 100}`, 404],
        [`/api/versions/${ids[1]}/diff?against=abc`, 400],
      ] as const) {
        const reply = await app.inject({ method: 'GET', url });
        expect(reply.statusCode, url).toBe(status);
        expect(reply.json()).toHaveProperty('error.code');
      }
    });
  });
});

describe('Standard Webhooks signing key', () => {
  it('reads a whsec_ secret as the base64 bytes it encodes, any other secret as its UTF-8 bytes', () => {
    const bytes = Buffer.from('0123456789abcdef0123456789abcdef');
    expect(signingKey(`whsec_${bytes.toString('base64')}`)).toEqual(bytes);
    expect(signingKey('hook-secret-1')).toEqual(Buffer.from('hook-secret-1'));
    const mac = createHmac('sha256', bytes).update('msg_1_2.1700000000.{}').digest('base64');
    expect(signatureOf(`whsec_${bytes.toString('base64')}`, 'msg_1_2', 1_700_000_000, '{}')).toBe(`v1,${mac}`);
  });
});
