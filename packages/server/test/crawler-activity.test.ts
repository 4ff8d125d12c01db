/**
 * A property's crawler activity through the API, on both databases: a 127.0.0.1 origin whose robots.txt changes
 * between two fetches by the service's worker, an access log (gzip) with requests before the first fetch, under the
 * first version and under the second, judged against the version in force at each request's time; the crawlers'
 * addresses verified by a DNS server on loopback (a genuine Googlebot, and a spoofed one whose name is not Google's);
 * the `crawler-ignores-robots` alert for the genuine one only; and the upload's limits (token, cross-site, size, a
 * body that is no log).
 */

import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { parseRanges, rangesFor } from 'robotskit/logs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reverseName, startDnsServer, type TestDnsServer } from '../../robotskit/test/dns-server.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { dnsResolver } from '../src/net/dns.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';
import { type LocalOrigin, startOrigin } from './origins.js';

const DAY = 24 * 3_600_000;
const TOKEN = 'activity-token-1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
/** OpenAI's range file, in its published format (documentation addresses). */
const GPTBOT_RANGES = new Map(
  rangesFor(
    parseRanges('{"creationTime":"2026-11-01T00:00:00Z","prefixes":[{"ipv4Prefix":"203.0.113.0/24"}]}', 'gptbot.json'),
    null,
  ).map(([crawler, file]) => [crawler, [file]]),
);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IP = { google: '66.249.66.1', fake: '192.0.2.9', silent: '192.0.2.77' };
const V1 = 'User-agent: *\nDisallow: /private\n';
const V2 = 'User-agent: *\nDisallow: /private\nDisallow: /drafts\n';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A Combined Log Format line at `ms`. */
function line(ms: number, ip: string, path: string, agent: string): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
  return `${ip} - - [${time}] "GET ${path} HTTP/1.1" 200 12 "-" "${agent}"`;
}

interface Detail {
  id: number;
  fileUrl: string;
  lines: number;
  requests: number;
  otherRequests: number;
  malformed: number;
  violations: number;
  versions: { label: string; since: string | null }[];
  crawlers: {
    name: string;
    requests: number;
    unjudged: number;
    disallowed: number;
    verifiedDisallowed: number;
    verification: { status: string; requests: Record<string, number> };
    versions: {
      version: string;
      requests: number;
      disallowed: number;
      verification: Record<string, number>;
      lines: { line: number; rule: string }[];
    }[];
  }[];
  firstViolations: {
    crawler: string;
    ip: string;
    target: string;
    version: string;
    line: number;
    verification: string;
  }[];
}

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer(
    new Map([
      [reverseName(IP.google), { PTR: ['crawl-66-249-66-1.googlebot.com'] }],
      ['crawl-66-249-66-1.googlebot.com', { A: [IP.google] }],
      [reverseName(IP.fake), { PTR: ['crawl.googlebot.com.spoof.invalid'] }],
      ['crawl.googlebot.com.spoof.invalid', { A: [IP.fake] }],
    ]),
    new Set([reverseName(IP.silent)]),
  );
});
afterAll(() => dns.close());

describe.each(testDatabases)('crawler activity on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'crawler activity', () => {
    let database: Database;
    let clock: ManualClock;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let worker: Worker;
    let origin: LocalOrigin;
    let propertyId: number;
    const fetchedAt: number[] = [];

    beforeEach(async () => {
      database = await openDatabase(target.config());
      clock = new ManualClock(100 * DAY);
      fetch = createGuardedFetch({ allowPrivate: true });
      worker = new Worker({
        db: database.db,
        dialect: database.dialect,
        retrieve: workerRetrieval(fetch, clock.now),
        now: clock.now,
      });
      app = await buildApp({
        database,
        now: clock.now,
        fetch,
        token: TOKEN,
        logs: {
          dns: dnsResolver([dns.address], 1000),
          dnsTimeoutMs: 1000,
          ranges: GPTBOT_RANGES,
          maxBytes: 64 * 1024,
        },
      });
      origin = await startOrigin({ status: 200, body: V1 });
      propertyId = (
        await createProperty(database.db, database.dialect, parsePropertyInput(`${origin.url}/`), clock.now())
      ).id;
      fetchedAt.length = 0;
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
      fetchedAt.push(clock.now());
    }

    function upload(body: string | Uint8Array, headers: Record<string, string> = {}, query = '') {
      return app.inject({
        method: 'POST',
        url: `/api/properties/${propertyId}/logs${query}`,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/octet-stream', ...headers },
        payload: typeof body === 'string' ? body : Buffer.from(body),
      });
    }

    it('judges each request by the version in force at its time, verifies the crawlers, alerts on the genuine one', async () => {
      await fetchNow();
      origin.answer = { status: 200, body: V2 };
      await fetchNow();
      const [first, second] = fetchedAt as [number, number];
      const log = [
        line(first - 3_600_000, IP.google, '/private/early', GOOGLEBOT),
        line(first + 1000, IP.google, '/robots.txt', GOOGLEBOT),
        line(first + 2000, IP.google, '/drafts/a', GOOGLEBOT),
        line(first + 3000, IP.fake, '/private/x', GOOGLEBOT),
        line(first + 4000, '198.51.100.7', '/private/y', BROWSER),
        'this is no log line',
        line(second + 1000, IP.google, '/drafts/b', GOOGLEBOT),
        line(second + 2000, IP.google, '/drafts/c', GOOGLEBOT),
        line(second + 3000, IP.google, '/public', GOOGLEBOT),
        line(second + 4000, IP.fake, '/drafts/d', GOOGLEBOT),
        '',
      ].join('\n');
      const reply = await upload(gzipSync(log), {}, '?name=access.log.gz');
      expect(reply.statusCode, reply.body).toBe(201);
      const detail = reply.json<Detail>();
      expect(detail).toMatchObject({
        fileUrl: `${origin.url}/robots.txt`,
        lines: 10,
        requests: 9,
        otherRequests: 1,
        malformed: 1,
        violations: 4,
      });
      expect(detail.versions.map((v) => v.since)).toEqual(fetchedAt.map((t) => new Date(t).toISOString()));
      const [v1, v2] = detail.versions.map((v) => v.label) as [string, string];
      expect(detail.firstViolations.map((v) => [v.ip, v.target, v.version, v.line, v.verification])).toEqual([
        [IP.fake, '/private/x', v1, 2, 'spoofed'],
        [IP.google, '/drafts/b', v2, 3, 'verified'],
        [IP.google, '/drafts/c', v2, 3, 'verified'],
        [IP.fake, '/drafts/d', v2, 3, 'spoofed'],
      ]);
      expect(detail.crawlers).toHaveLength(1);
      const googlebot = detail.crawlers[0]!;
      expect(googlebot).toMatchObject({
        name: 'Googlebot',
        requests: 8,
        unjudged: 1,
        disallowed: 4,
        verifiedDisallowed: 2,
        verification: { status: 'spoofed', requests: { verified: 6, spoofed: 2, unverifiable: 0, unchecked: 0 } },
      });
      expect(googlebot.versions.map((v) => [v.version, v.requests, v.disallowed, v.verification])).toEqual([
        [v1, 3, 1, { verified: 2, spoofed: 1, unverifiable: 0, unchecked: 0 }],
        [v2, 4, 3, { verified: 3, spoofed: 1, unverifiable: 0, unchecked: 0 }],
      ]);
      expect(googlebot.versions[1]!.lines).toEqual([{ line: 3, rule: 'Disallow: /drafts', requests: 3 }]);
      expect(dns.questions).toContain(`PTR ${reverseName(IP.fake)}`);

      // What GET says is what was stored.
      const shown = await app.inject({ method: 'GET', url: `/api/properties/${propertyId}/logs` });
      expect(shown.statusCode).toBe(200);
      const body = shown.json<{ uploads: { id: number; name: string }[]; upload: Detail }>();
      expect(body.uploads.map((u) => [u.id, u.name])).toEqual([[detail.id, 'access.log.gz']]);
      expect(body.upload).toEqual(detail);

      // The alert: the verified Googlebot ignored the file; the spoofed requests raise none.
      const alerts = (
        await app.inject({ method: 'GET', url: `/api/alerts?propertyId=${propertyId}&kind=crawler-ignores-robots` })
      ).json<{ alerts: { severity: string; message: string; details: Record<string, unknown> }[] }>().alerts;
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.severity).toBe('warning');
      expect(alerts[0]!.message).toBe(
        `Googlebot, verified as its operator's (crawl-66-249-66-1.googlebot.com (resolves back)), fetched 2 URLs that ` +
          `robots.txt disallowed, such as /drafts/b at ${new Date(second + 1000).toISOString()} (line 3 of ${v2}: Disallow: /drafts)`,
      );
      expect(alerts[0]!.details).toMatchObject({ uploadId: detail.id, crawler: 'Googlebot', verifiedDisallowed: 2 });
    });

    it('takes a plain log sent as any type; no alert when only spoofed requests break the rules', async () => {
      await fetchNow();
      const at = fetchedAt[0]! + 1000;
      const reply = await upload(`${line(at, IP.fake, '/private/1', GOOGLEBOT)}\n`, { 'content-type': 'text/plain' });
      expect(reply.statusCode, reply.body).toBe(201);
      expect(reply.json<Detail>().firstViolations.map((v) => v.verification)).toEqual(['spoofed']);
      const alerts = await app.inject({ method: 'GET', url: `/api/alerts?propertyId=${propertyId}` });
      expect(alerts.json<{ alerts: { kind: string }[] }>().alerts.map((a) => a.kind)).not.toContain(
        'crawler-ignores-robots',
      );
    });

    it('says unverifiable, and raises no alert, when the DNS server does not answer', async () => {
      await fetchNow();
      const at = fetchedAt[0]! + 1000;
      const reply = await upload(`${line(at, IP.silent, '/private/1', GOOGLEBOT)}\n`);
      expect(reply.statusCode, reply.body).toBe(201);
      const violation = reply.json<Detail & { firstViolations: { verificationReason: string }[] }>()
        .firstViolations[0]!;
      expect([violation.verification, violation.verificationReason]).toEqual(['unverifiable', 'DNS timed out']);
      const alerts = await app.inject({ method: 'GET', url: `/api/alerts?propertyId=${propertyId}` });
      expect(alerts.json<{ alerts: { kind: string }[] }>().alerts.map((a) => a.kind)).not.toContain(
        'crawler-ignores-robots',
      );
    });

    it('verifies a crawler by its operator’s published ranges: GPTBot from them alerts, from elsewhere is spoofed', async () => {
      await fetchNow();
      const at = fetchedAt[0]! + 1000;
      const log = `${line(at, '203.0.113.40', '/private/1', GPTBOT)}\n${line(at + 1000, '198.51.100.3', '/private/2', GPTBOT)}\n`;
      const reply = await upload(log);
      expect(reply.statusCode, reply.body).toBe(201);
      const detail = reply.json<Detail>();
      expect(detail.firstViolations.map((v) => [v.ip, v.verification])).toEqual([
        ['203.0.113.40', 'verified'],
        ['198.51.100.3', 'spoofed'],
      ]);
      expect(detail.crawlers.map((c) => [c.name, c.verifiedDisallowed])).toEqual([['GPTBot', 1]]);
      const alerts = (
        await app.inject({ method: 'GET', url: `/api/alerts?propertyId=${propertyId}&kind=crawler-ignores-robots` })
      ).json<{ alerts: { message: string }[] }>().alerts;
      expect(alerts.map((a) => a.message)).toEqual([
        `GPTBot, verified as its operator's (in gptbot.json), fetched 1 URL that robots.txt disallowed, such as ` +
          `/private/1 at ${new Date(at).toISOString()} (line 2 of ${detail.versions[0]!.label}: Disallow: /private)`,
      ]);
    });

    it('refuses what is no log, too large, without the token, or from another site, in the API’s words', async () => {
      const early = await upload(line(clock.now(), IP.google, '/', GOOGLEBOT));
      expect([early.statusCode, early.json().error.message]).toEqual([
        400,
        `${origin.url}/robots.txt has not been fetched yet: no version to judge the log by`,
      ]);
      await fetchNow();
      const cases: [ReturnType<typeof upload>, number, string, string][] = [
        [upload(''), 400, 'invalid-request', 'the upload holds no log line'],
        [
          upload('hello\nworld\n'),
          400,
          'invalid-request',
          'no line of the upload could be read as a Common/Combined Log Format or JSON line (line 1: not a Common or Combined Log Format line)',
        ],
        [
          upload(new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
          400,
          'invalid-request',
          'the upload starts like gzip but is not a valid gzip stream',
        ],
        [
          upload(`${line(clock.now(), IP.google, '/', GOOGLEBOT)}\n`.repeat(1000)),
          413,
          'payload-too-large',
          'the upload is larger than the 65536 bytes this service accepts',
        ],
        [
          upload(gzipSync(`${line(clock.now(), IP.google, '/', GOOGLEBOT)}\n`.repeat(1000))),
          413,
          'payload-too-large',
          'the log is larger than the 65536 bytes this service accepts',
        ],
        [upload('x', { authorization: 'Bearer wrong-token-1' }), 401, 'unauthorized', 'the bearer token is wrong'],
      ];
      for (const [pending, status, code, message] of cases) {
        const reply = await pending;
        expect([reply.statusCode, reply.json().error]).toEqual([status, { code, message }]);
      }
      const crossSite = await upload('x', { 'sec-fetch-site': 'cross-site' });
      expect([crossSite.statusCode, crossSite.json().error.code]).toEqual([403, 'cross-site-request']);
      const missing = await app.inject({
        method: 'POST',
        url: '/api/properties/999/logs',
        headers: { authorization: `Bearer ${TOKEN}` },
        payload: 'x',
      });
      expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'not-found']);
      const shown = await app.inject({ method: 'GET', url: `/api/properties/${propertyId}/logs` });
      expect(shown.json()).toEqual({ uploads: [], upload: null });
    });
  });
});
