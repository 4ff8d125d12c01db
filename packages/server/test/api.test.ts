/**
 * The HTTP API over a real socket on 127.0.0.1, against both databases.
 */

import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type AvailabilityOptions, availabilityRules } from 'robotskit/fetch';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { checkServiceConfig, ServiceConfigError, startService } from '../src/service.js';
import { claimDueFiles } from '../src/storage/claim.js';
import type { Database } from '../src/storage/connect.js';
import type { FilePolicyResolver } from '../src/storage/history.js';
import { recordFetch } from '../src/storage/record-fetch.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { ManualClock, resultOf } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;
const TOKEN = 'correct horse battery staple';

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

describe.each(testDatabases)('API on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'api', () => {
    let database: Database;
    let app: FastifyInstance;
    let base: string;
    let clock: ManualClock;
    let policyCalls = 0;

    async function start(
      options: { token?: string; resolvePolicy?: FilePolicyResolver; availability?: AvailabilityOptions } = {},
    ) {
      await app?.close();
      app = await buildApp({ database, now: clock.now, ...options });
      await app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    }

    beforeEach(async () => {
      database = await openTestDatabase(target);
      clock = new ManualClock(100 * DAY);
      policyCalls = 0;
      await start();
    });
    afterEach(async () => {
      await app.close();
      await database.close();
    });
    afterAll(() => target.cleanup());

    async function call(
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<Reply> {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(base + path, init);
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    }

    async function fetchAndRecord(
      fileId: number,
      result: ReturnType<typeof resultOf>,
      analysis?: { errors: number; warnings: number },
    ) {
      await database.db
        .updateTable('robots_files')
        .set({ next_fetch_at: result.startedAt })
        .where('id', '=', fileId)
        .execute();
      const claims = await claimDueFiles(database.db, database.dialect, {
        owner: 't',
        limit: 100,
        leaseMs: 1000,
        now: result.startedAt,
      });
      const claim = claims.find((c) => c.id === fileId)!;
      await recordFetch(database.db, database.dialect, claim, result, {
        nextFetchAt: result.finishedAt + DAY,
        ...(analysis ? { analysis: { ...analysis, diagnostics: [] } } : {}),
      });
      await database.db.updateTable('robots_files').set({ lease_token: null, lease_expires_at: null }).execute();
    }

    const VALID: [typed: string, kind: string, name: string, hosts: string[]][] = [
      ['example.com', 'domain', 'example.com', ['example.com', 'www.example.com']],
      ['  EXAMPLE.org ', 'domain', 'example.org', ['example.org', 'www.example.org']],
      ['example.edu.', 'domain', 'example.edu', ['example.edu', 'www.example.edu']],
      ['www.example.net', 'domain', 'www.example.net', ['www.example.net']],
      ['m.example.co.uk', 'domain', 'm.example.co.uk', ['m.example.co.uk', 'www.m.example.co.uk']],
      ['someone.github.io', 'domain', 'someone.github.io', ['someone.github.io', 'www.someone.github.io']],
      ['bücher.de', 'domain', 'xn--bcher-kva.de', ['xn--bcher-kva.de', 'www.xn--bcher-kva.de']],
      ['例え.jp', 'domain', 'xn--r8jz45g.jp', ['xn--r8jz45g.jp', 'www.xn--r8jz45g.jp']],
      ['https://example.com/', 'url-prefix', 'https://example.com/', ['example.com']],
      ['https://Example.com', 'url-prefix', 'https://example.com/', ['example.com']],
      ['http://example.com:80/', 'url-prefix', 'http://example.com/', ['example.com']],
      ['https://example.com:8443/', 'url-prefix', 'https://example.com:8443/', ['example.com:8443']],
      ['http://127.0.0.1:8080/', 'url-prefix', 'http://127.0.0.1:8080/', ['127.0.0.1:8080']],
      ['https://münchen.de/', 'url-prefix', 'https://xn--mnchen-3ya.de/', ['xn--mnchen-3ya.de']],
      ['http://[::1]:9000/', 'url-prefix', 'http://[::1]:9000/', ['[::1]:9000']],
    ];

    it.each(VALID)('accepts %j as a %s property named %s', async (typed, kind, name, hosts) => {
      const created = await call('POST', '/api/properties', { property: typed });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ kind, name, hostCount: hosts.length });
      expect((created.body as { hosts: { host: string }[] }).hosts.map((h) => h.host)).toEqual(hosts);
      const files = await call('GET', `/api/properties/${(created.body as { id: number }).id}/files`);
      const schemes = kind === 'domain' ? ['https', 'http'] : [name.split(':')[0]];
      expect((files.body as { files: { url: string }[] }).files.map((f) => f.url)).toEqual(
        hosts.flatMap((h) => schemes.map((s) => `${s}://${h}/robots.txt`)),
      );
    });

    it('says at add time why a loopback or private site cannot be fetched, and how to allow it', async () => {
      const local = await call('POST', '/api/properties', { property: 'http://127.0.0.1:18720/' });
      expect(local.status).toBe(201);
      expect((local.body as { notice: string }).notice).toMatch(
        /^127\.0\.0\.1:18720 is a loopback address\. .*start the service with --allow-private-addresses\.$/,
      );
      const id = (local.body as { id: number }).id;
      expect((await call('GET', `/api/properties/${id}`)).body).toMatchObject({
        notice: expect.stringMatching(/loopback/),
      });
      const lan = await call('POST', '/api/properties', { property: 'http://192.168.1.20/' });
      expect((lan.body as { notice: string }).notice).toMatch(/^192\.168\.1\.20 is a private/);
      const named = await call('POST', '/api/properties', { property: 'example.com' });
      expect((named.body as { notice: string | null }).notice).toBeNull();
      // A service that may reach private networks says nothing.
      const open = await buildApp({ database, now: () => 1, privateAddressesAllowed: true });
      try {
        const reply = await open.inject({
          method: 'POST',
          url: '/api/properties',
          payload: { property: 'http://10.0.0.1/' },
        });
        expect(reply.json()).toMatchObject({ notice: null });
      } finally {
        await open.close();
      }
    });

    const INVALID: [typed: unknown, code: string, message: RegExp][] = [
      ['https://example.com/path/', 'invalid-property', /path, query or fragment.*https:\/\/example\.com\//],
      ['https://example.com/?q=1', 'invalid-property', /path, query or fragment/],
      ['https://example.com/#top', 'invalid-property', /path, query or fragment/],
      ['https://user:pw@example.com/', 'invalid-property', /credentials/],
      ['https://user@example.com/', 'invalid-property', /credentials/],
      ['ftp://user:pw@example.com/', 'invalid-property', /credentials/],
      ['ftp://example.com/pub/', 'invalid-property', /path, query or fragment.*ftp:\/\/example\.com\//],
      ['gopher://example.com/', 'invalid-property', /only http:\/\/, https:\/\/ and ftp:\/\//],
      ['file:///etc/passwd', 'invalid-property', /only http:\/\/, https:\/\/ and ftp:\/\//],
      ['javascript:alert(1)', 'invalid-property', /only http:\/\/, https:\/\/ and ftp:\/\//],
      ['mailto:a@example.com', 'invalid-property', /only http:\/\/, https:\/\/ and ftp:\/\//],
      ['https://', 'invalid-property', /not a valid URL/],
      ['http://exa mple.com/', 'invalid-property', /not a valid URL/],
      ['example.com/shop', 'invalid-property', /neither a domain/],
      ['example.com:8080', 'invalid-property', /has a port.*URL prefix: type https:\/\/example\.com:8080\/$/],
      ['127.0.0.1:18720', 'invalid-property', /has a port.*URL prefix: type http:\/\/127\.0\.0\.1:18720\/$/],
      ['co.uk', 'invalid-property', /public suffix.*example\.co\.uk/],
      ['github.io', 'invalid-property', /public suffix.*example\.github\.io/],
      ['com', 'invalid-property', /not a domain name/],
      ['user@example.com', 'invalid-property', /neither a domain/],
      ['localhost', 'invalid-property', /not a domain name/],
      ['192.168.1.1', 'invalid-property', /IP address.*URL prefix/],
      ['-bad-.com', 'invalid-property', /not a domain name/],
      ['example..com', 'invalid-property', /not a domain name/],
      ['example.com..', 'invalid-property', /not a domain name/],
      ['.example.com', 'invalid-property', /not a domain name/],
      ['exa mple.com', 'invalid-property', /neither a domain/],
      ['   ', 'invalid-property', /empty/],
      [`${'a'.repeat(64)}.com`, 'invalid-property', /not a domain name/],
      ['', 'invalid-request', /fewer than 1 characters/],
      [1, 'invalid-request', /body\/property must be string/],
      [null, 'invalid-request', /body\/property must be string/],
      [['example.com'], 'invalid-request', /body\/property must be string/],
    ];

    it.each(INVALID)('refuses %j with %s', async (typed, code, message) => {
      const reply = await call('POST', '/api/properties', { property: typed });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: { code, message: expect.stringMatching(message) } });
      expect((await call('GET', '/api/properties')).body).toEqual({ properties: [], next: null });
    });

    it('refuses malformed requests with JSON errors and proper statuses', async () => {
      const cases: [string, string, unknown, Record<string, string>, number, string][] = [
        ['POST', '/api/properties', '{"property": ', {}, 400, 'invalid-json'],
        ['POST', '/api/properties', '', {}, 400, 'invalid-request'],
        ['POST', '/api/properties', '  ', {}, 400, 'invalid-request'],
        ['POST', '/api/properties', '{"property": "a.com"} x', {}, 400, 'invalid-json'],
        ['POST', '/api/properties', '{"__proto__": {"x": 1}, "property": "a.com"}', {}, 400, 'invalid-json'],
        ['POST', '/api/properties', 'example.com', { 'content-type': 'text/plain' }, 415, 'unsupported-media-type'],
        ['POST', '/api/properties', { property: 'example.com', extra: true }, {}, 400, 'invalid-request'],
        ['POST', '/api/properties', {}, {}, 400, 'invalid-request'],
        ['POST', '/api/properties', [], {}, 400, 'invalid-request'],
        ['POST', '/api/properties', { property: 'x'.repeat(2 * 1024 * 1024) }, {}, 413, 'payload-too-large'],
        ['GET', '/api/files/abc', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/0', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/-3', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/1.5', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/99999999999999999999', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/1e3', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/%E0%A4%A', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/%FF', undefined, {}, 400, 'invalid-request'],
        ['GET', '/%E0%A4%A', undefined, {}, 400, 'invalid-request'],
        ['GET', `/api/files/${'1'.repeat(150)}`, undefined, {}, 404, 'not-found'],
        ['GET', '/api/files/0x10', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/files/0b1', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/versions/1/diff?against=1e2', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/alerts?limit=0x10', undefined, {}, 400, 'invalid-request'],
        ['POST', '/api/files/77/recrawl', '', { 'content-type': 'application/json' }, 404, 'not-found'],
        ['DELETE', '/api/properties/77', '', { 'content-type': 'application/json' }, 404, 'not-found'],
        ['GET', '/api/files/77', undefined, {}, 404, 'not-found'],
        ['GET', '/api/files/77/versions', undefined, {}, 404, 'not-found'],
        ['POST', '/api/files/77/recrawl', undefined, {}, 404, 'not-found'],
        ['GET', '/api/versions/77', undefined, {}, 404, 'not-found'],
        ['GET', '/api/versions/77/raw', undefined, {}, 404, 'not-found'],
        ['GET', '/api/properties/77', undefined, {}, 404, 'not-found'],
        ['GET', '/api/properties/77/files', undefined, {}, 404, 'not-found'],
        ['GET', '/api/properties/1/files?all=maybe', undefined, {}, 400, 'invalid-request'],
        ['GET', '/api/properties/1/files?sort=x', undefined, {}, 400, 'invalid-request'],
        ['DELETE', '/api/properties/77', undefined, {}, 404, 'not-found'],
        ['GET', '/api/nothing-here', undefined, {}, 404, 'not-found'],
        ['PUT', '/api/properties', { property: 'example.com' }, {}, 404, 'not-found'],
      ];
      for (const [method, path, body, headers, status, code] of cases) {
        const reply = await call(method, path, body, headers);
        expect([method, path, reply.status], reply.text).toEqual([method, path, status]);
        expect(reply.body, `${method} ${path}`).toEqual({ error: { code, message: expect.any(String) } });
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      }
    });

    it('says which field is wrong and what it may be', async () => {
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/properties', { property: 'example.com', extra: true }, "body has an unknown field 'extra'"],
        ['POST', '/api/properties', '', 'body must be a JSON object'],
        ['POST', '/api/properties', [], 'body must be a JSON object'],
        ['GET', '/api/files/1e3', undefined, 'params/id must be an integer in decimal digits'],
        ['GET', '/api/files/abc', undefined, 'params/id must be an integer in decimal digits'],
        ['GET', '/api/files/0', undefined, 'params/id must be >= 1'],
        ['GET', '/api/alerts?limit=0x10', undefined, 'querystring/limit must be an integer in decimal digits'],
        ['GET', '/api/properties/1/files?sort=x', undefined, "querystring has an unknown field 'sort'"],
        [
          'GET',
          '/api/alerts?severity=urgent',
          undefined,
          'querystring/severity must be one of "critical", "warning", "info"',
        ],
        [
          'POST',
          '/api/webhooks',
          { url: 'https://hooks.example/x', kinds: ['file-changed', 'nope'] },
          'body/kinds/1 must be one of "file-changed", "file-unreachable", "file-recovered", "disallow-all-added", ' +
            '"sitemap-removed", "became-html", "assets-blocked", "no-rules", "ai-policy-changed", ' +
            '"crawler-ignores-robots"',
        ],
      ];
      for (const [method, path, body, message] of cases) {
        const reply = await call(method, path, body);
        expect([method, path, reply.status]).toEqual([method, path, 400]);
        expect(reply.body, `${method} ${path}`).toEqual({ error: { code: 'invalid-request', message } });
      }
      // Numbers in decimal digits still work, with or without a JSON content type on a bodiless request.
      const created = await call('POST', '/api/properties', { property: 'example.com' });
      const { id } = created.body as { id: number };
      expect((await call('GET', `/api/properties/${id}`)).status).toBe(200);
      expect((await call('DELETE', `/api/properties/${id}`, '', { 'content-type': 'application/json' })).status).toBe(
        204,
      );
    });

    it('refuses a duplicate property with 409, and deletes properties', async () => {
      const first = await call('POST', '/api/properties', { property: 'example.com' });
      const duplicate = await call('POST', '/api/properties', { property: 'EXAMPLE.com' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({ error: { code: 'property-exists' } });
      const id = (first.body as { id: number }).id;
      expect((await call('GET', `/api/properties/${id}`)).body).toMatchObject({ name: 'example.com', fileCount: 4 });
      const deleted = await call('DELETE', `/api/properties/${id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await call('GET', `/api/properties/${id}`)).status).toBe(404);
      expect((await call('GET', '/api/properties')).body).toEqual({ properties: [], next: null });
    });

    it('adds hosts to a domain property only, inside the domain', async () => {
      const domain = (await call('POST', '/api/properties', { property: 'example.com' })).body as { id: number };
      const added = await call('POST', `/api/properties/${domain.id}/hosts`, { host: 'Shop.Example.com' });
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ host: 'shop.example.com', source: 'user', rank: 2 });
      expect((await call('POST', `/api/properties/${domain.id}/hosts`, { host: 'shop.example.com' })).status).toBe(409);
      expect((await call('POST', `/api/properties/${domain.id}/hosts`, { host: 'evil.com' })).body).toMatchObject({
        error: { code: 'invalid-property', message: expect.stringContaining('not part of example.com') },
      });
      const prefix = (await call('POST', '/api/properties', { property: 'https://example.org/' })).body as {
        id: number;
      };
      expect((await call('POST', `/api/properties/${prefix.id}/hosts`, { host: 'a.example.org' })).status).toBe(400);
      const files = (await call('GET', `/api/properties/${domain.id}/files`)).body as { files: { url: string }[] };
      expect(files.files.map((f) => f.url).slice(-2)).toEqual([
        'https://shop.example.com/robots.txt',
        'http://shop.example.com/robots.txt',
      ]);
    });

    it('reports files for the Search Console table, with honest nulls for what is not known yet', async () => {
      const property = (await call('POST', '/api/properties', { property: 'example.com' })).body as { id: number };
      const listed = (await call('GET', `/api/properties/${property.id}/files`)).body as {
        files: Record<string, unknown>[];
      };
      const [https, http, wwwHttps, wwwHttp] = listed.files as { id: number }[];
      expect(listed.files[0]).toEqual({
        id: https!.id,
        url: 'https://example.com/robots.txt',
        scheme: 'https',
        host: 'example.com',
        status: null,
        statusReason: null,
        httpStatus: null,
        reply: null,
        lastCheckedAt: null,
        nextCheckAt: new Date(clock.now()).toISOString(),
        recrawlPending: false,
        fetchingSince: null,
        size: null,
        errors: null,
        warnings: null,
        effectivePolicy: null,
        latestVersionId: null,
        allowAllSince: null,
        failingSince: null,
        // Not fetched yet: nothing to say about what the rules do.
        headline: null,
        hostSource: 'property',
        hostRank: 0,
      });

      const t = clock.now();
      await fetchAndRecord(
        https!.id,
        resultOf('rules', {
          body: 'User-agent: *\nDisallow: /a\n',
          at: t,
          headers: { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' },
        }),
      );
      await fetchAndRecord(http!.id, resultOf('disallow-all', { at: t }));
      await fetchAndRecord(wwwHttps!.id, resultOf('rules', { body: 'User-agent: *\nDisalow: /b\n', at: t }), {
        errors: 1,
        warnings: 2,
      });
      const after = (await call('GET', `/api/properties/${property.id}/files`)).body as {
        files: Record<string, unknown>[];
      };
      expect(after.files.map((f) => [f.url, f.status, f.statusReason, f.size, f.errors, f.warnings])).toEqual([
        ['https://example.com/robots.txt', 'fetched', null, 27, null, null],
        ['http://example.com/robots.txt', 'error', 'server error (HTTP 503)', null, null, null],
        ['https://www.example.com/robots.txt', 'fetched', null, 26, 1, 2],
        ['http://www.example.com/robots.txt', null, null, null, null, null],
      ]);
      expect(after.files[0]).toMatchObject({ lastCheckedAt: new Date(t).toISOString(), httpStatus: 200 });
      // The properties list sums it up: two fetched (with their lint counts), one failing, one not checked yet; the
      // second property's one file is not found.
      const other = (await call('POST', '/api/properties', { property: 'https://other.example/' })).body as {
        id: number;
      };
      const [otherFile] = ((await call('GET', `/api/properties/${other.id}/files`)).body as { files: { id: number }[] })
        .files;
      await fetchAndRecord(otherFile!.id, resultOf('allow-all', { at: t }));
      const list = (await call('GET', '/api/properties')).body as { properties: Record<string, unknown>[] };
      expect(list.properties.map((p) => [p.name, p.health])).toEqual([
        ['example.com', { fetched: 2, notFound: 0, error: 1, unchecked: 1, lintErrors: 1, lintWarnings: 2 }],
        ['https://other.example/', { fetched: 0, notFound: 1, error: 0, unchecked: 0, lintErrors: 0, lintWarnings: 0 }],
      ]);

      const detail = (await call('GET', `/api/files/${https!.id}`)).body as Record<string, unknown>;
      expect(detail).toMatchObject({
        url: 'https://example.com/robots.txt',
        status: 'fetched',
        properties: [{ id: property.id, name: 'example.com' }],
        lastFetch: {
          outcome: 'rules',
          status: 'fetched',
          httpStatus: 200,
          size: 27,
          headers: { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' },
          redirects: [],
          error: null,
          timings: { total: 5 },
          content: 'User-agent: *\nDisallow: /a\n',
        },
      });
      // Clients that poll the status can leave the content out.
      const light = (await call('GET', `/api/files/${https!.id}?content=false`)).body as Record<string, unknown>;
      expect(light).toMatchObject({ status: 'fetched', lastFetch: { size: 27, content: null } });
      expect((await call('GET', `/api/files/${https!.id}?content=maybe`)).status).toBe(400);
      const failed = (await call('GET', `/api/files/${http!.id}`)).body as Record<string, unknown>;
      expect(failed).toMatchObject({
        status: 'error',
        failingSince: new Date(t).toISOString(),
        lastFetch: {
          outcome: 'disallow-all',
          status: 'error',
          httpStatus: 503,
          error: null,
          summary: 'server error (HTTP 503)',
          size: null,
          content: null,
        },
      });
      const unfetched = (await call('GET', `/api/files/${wwwHttp!.id}`)).body as Record<string, unknown>;
      expect(unfetched).toMatchObject({ status: null, lastFetch: null });
    });

    it('lists versions and serves their content, decoded and as exact bytes', async () => {
      const property = (await call('POST', '/api/properties', { property: 'https://example.com/' })).body as {
        id: number;
      };
      const [file] = ((await call('GET', `/api/properties/${property.id}/files`)).body as { files: { id: number }[] })
        .files;
      const t = clock.now();
      const bytes = new Uint8Array([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9, 0x0a]);
      await fetchAndRecord(file!.id, resultOf('rules', { body: 'User-agent: *\nDisallow:\n', at: t }));
      await fetchAndRecord(file!.id, resultOf('rules', { body: 'User-agent: *\nDisallow:\n', at: t + 1000 }));
      await fetchAndRecord(file!.id, resultOf('rules', { body: bytes, at: t + 2000 }));
      const versions = (
        (await call('GET', `/api/files/${file!.id}/versions`)).body as { versions: Record<string, unknown>[] }
      ).versions;
      expect(versions.map((v) => [v.fetchedAt, v.size, v.httpStatus])).toEqual([
        [new Date(t + 2000).toISOString(), bytes.length, 200],
        [new Date(t).toISOString(), 24, 200],
      ]);
      // Each with its diff to the version before it.
      expect(versions.map((v) => [v.previousVersionId, v.diffUrl])).toEqual([
        [versions[1]!.id, `/api/versions/${versions[0]!.id}/diff?against=${versions[1]!.id}`],
        [null, null],
      ]);
      const diff = (await call('GET', versions[0]!.diffUrl as string)).body as {
        hunks: { lines: { kind: string; text: string }[] }[];
      };
      expect(
        diff.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== 'context').map((l) => `${l.kind} ${l.text}`)),
      ).toEqual(['removed Disallow:', 'added Disallow: /caf\uFFFD']);
      const newest = (await call('GET', `/api/versions/${versions[0]!.id}`)).body as Record<string, unknown>;
      expect(newest).toMatchObject({
        previousVersionId: versions[1]!.id,
        content: 'User-agent: *\nDisallow: /caf\uFFFD\n',
      });
      // Without the text (the web UI reads the bytes from /raw), the rest of the answer is the same.
      const light = (await call('GET', `/api/versions/${versions[0]!.id}?content=false`)).body as Record<
        string,
        unknown
      >;
      expect(light).toEqual({ ...newest, content: null });
      const oldest = (await call('GET', `/api/versions/${versions[1]!.id}`)).body as Record<string, unknown>;
      expect(oldest).toMatchObject({ previousVersionId: null, content: 'User-agent: *\nDisallow:\n' });
      const raw = await fetch(`${base}/api/versions/${versions[0]!.id}/raw`);
      // Latin-1 bytes are served as they are, not labelled UTF-8; a UTF-8 version is.
      expect(raw.headers.get('content-type')).toBe('text/plain');
      expect([...new Uint8Array(await raw.arrayBuffer())]).toEqual([...bytes]);
      const utf8 = await fetch(`${base}/api/versions/${versions[1]!.id}/raw`);
      expect(utf8.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await utf8.text()).toBe('User-agent: *\nDisallow:\n');
      expect((await call('GET', `/api/files/${file!.id}`)).body).toMatchObject({ latestVersionId: versions[0]!.id });
    });

    it("lists a file's fetches newest first, each with the version it started, for its timeline", async () => {
      const property = (await call('POST', '/api/properties', { property: 'https://example.com/' })).body as {
        id: number;
      };
      const [file] = ((await call('GET', `/api/properties/${property.id}/files`)).body as { files: { id: number }[] })
        .files;
      const t = clock.now();
      await fetchAndRecord(file!.id, resultOf('rules', { body: 'User-agent: *\nDisallow:\n', at: t }));
      await fetchAndRecord(file!.id, resultOf('rules', { body: 'User-agent: *\nDisallow:\n', at: t + DAY }));
      await fetchAndRecord(file!.id, resultOf('disallow-all', { at: t + 2 * DAY }));
      await fetchAndRecord(file!.id, resultOf('rules', { body: 'User-agent: *\nDisallow: /x\n', at: t + 3 * DAY }));
      const versions = (
        (await call('GET', `/api/files/${file!.id}/versions`)).body as { versions: { id: number; fetchId: number }[] }
      ).versions;
      expect(versions).toHaveLength(3);

      const reply = await call('GET', `/api/files/${file!.id}/fetches`);
      expect(reply.status).toBe(200);
      const fetches = (reply.body as { fetches: Record<string, unknown>[] }).fetches;
      expect(fetches.map((f) => [f.startedAt, f.outcome, f.httpStatus, f.size])).toEqual([
        [new Date(t + 3 * DAY).toISOString(), 'rules', 200, 27],
        [new Date(t + 2 * DAY).toISOString(), 'disallow-all', 503, null],
        [new Date(t + DAY).toISOString(), 'rules', 200, 24],
        [new Date(t).toISOString(), 'rules', 200, 24],
      ]);
      expect(fetches.map((f) => f.status)).toEqual(['fetched', 'error', 'fetched', 'fetched']);
      expect(fetches[1]).toMatchObject({ error: null, summary: 'server error (HTTP 503)' });
      expect(fetches.map((f) => f.versionId)).toEqual([versions[0]!.id, versions[1]!.id, null, versions[2]!.id]);
      for (const version of versions) {
        expect(fetches.find((f) => f.versionId === version.id)?.id).toBe(version.fetchId);
      }

      const page = (await call('GET', `/api/files/${file!.id}/fetches?limit=2`)).body as { fetches: { id: number }[] };
      expect(page.fetches.map((f) => f.id)).toEqual(fetches.slice(0, 2).map((f) => f.id));
      const next = (await call('GET', `/api/files/${file!.id}/fetches?limit=2&before=${page.fetches[1]!.id}`)).body as {
        fetches: { id: number }[];
      };
      expect(next.fetches.map((f) => f.id)).toEqual(fetches.slice(2).map((f) => f.id));
      const since = (await call('GET', `/api/files/${file!.id}/fetches?since=${new Date(t + DAY).toISOString()}`))
        .body as { fetches: unknown[] };
      expect(since.fetches).toHaveLength(3);

      expect((await call('GET', `/api/files/${file!.id}/fetches?since=yesterday`)).body).toEqual({
        error: { code: 'invalid-request', message: 'since is not a date: yesterday' },
      });
      expect((await call('GET', `/api/files/${file!.id}/fetches?limit=0`)).status).toBe(400);
      expect((await call('GET', `/api/files/${file!.id}/fetches?color=red`)).status).toBe(400);
      expect((await call('GET', '/api/files/999999/fetches')).body).toMatchObject({ error: { code: 'not-found' } });
    });

    it('says which files a worker is fetching right now, and forgets leases that ran out', async () => {
      const property = (await call('POST', '/api/properties', { property: 'https://example.com/' })).body as {
        id: number;
      };
      const filesOf = async () =>
        ((await call('GET', `/api/properties/${property.id}/files`)).body as { files: Record<string, unknown>[] })
          .files;
      expect((await filesOf())[0]).toMatchObject({ fetchingSince: null });
      const claimedAt = clock.now();
      const [claim] = await claimDueFiles(database.db, database.dialect, {
        owner: 'w',
        limit: 1,
        leaseMs: 60_000,
        now: claimedAt,
      });
      expect((await filesOf())[0]).toMatchObject({ fetchingSince: new Date(claimedAt).toISOString() });
      expect((await call('GET', `/api/files/${claim!.id}`)).body).toMatchObject({
        fetchingSince: new Date(claimedAt).toISOString(),
      });
      clock.advance(60_000);
      expect((await filesOf())[0]).toMatchObject({ fetchingSince: null });
    });

    it('hides files not found for 30 days unless all=true', async () => {
      const property = (await call('POST', '/api/properties', { property: 'https://example.com/' })).body as {
        id: number;
      };
      const [file] = ((await call('GET', `/api/properties/${property.id}/files`)).body as { files: { id: number }[] })
        .files;
      await fetchAndRecord(file!.id, resultOf('allow-all', { at: clock.now() }));
      clock.advance(30 * DAY - 1);
      expect(
        ((await call('GET', `/api/properties/${property.id}/files`)).body as { files: unknown[] }).files,
      ).toHaveLength(1);
      clock.advance(1);
      expect(
        ((await call('GET', `/api/properties/${property.id}/files`)).body as { files: unknown[] }).files,
      ).toHaveLength(0);
      const all = (await call('GET', `/api/properties/${property.id}/files?all=true`)).body as {
        files: Record<string, unknown>[];
      };
      expect(all.files).toMatchObject([{ status: 'not-found', statusReason: 'not found (HTTP 404)' }]);
    });

    it('puts a recrawled file at the front of the queue', async () => {
      const property = (await call('POST', '/api/properties', { property: 'example.com' })).body as { id: number };
      const files = ((await call('GET', `/api/properties/${property.id}/files`)).body as { files: { id: number }[] })
        .files;
      await database.db
        .updateTable('robots_files')
        .set({ next_fetch_at: clock.now() + DAY })
        .execute();
      clock.advance(1000);
      const reply = await call('POST', `/api/files/${files[3]!.id}/recrawl`);
      expect(reply.status).toBe(202);
      expect(reply.body).toMatchObject({ recrawlPending: true, nextCheckAt: new Date(clock.now()).toISOString() });
      const claims = await claimDueFiles(database.db, database.dialect, {
        owner: 'w',
        limit: 10,
        leaseMs: 1,
        now: clock.now(),
      });
      expect(claims.map((c) => c.id)).toEqual([files[3]!.id]);
    });

    it('asks the configured resolver for the effective policy', async () => {
      await start({
        resolvePolicy: (file, now) => {
          policyCalls++;
          return {
            mode: 'disallow-all',
            reason: 'unreachable',
            message: `test ${file.id} at ${now}`,
            versionId: null,
            since: now - 1000,
            until: now + 1000,
          };
        },
      });
      const property = (await call('POST', '/api/properties', { property: 'https://example.com/' })).body as {
        id: number;
      };
      const [file] = (
        (await call('GET', `/api/properties/${property.id}/files`)).body as { files: Record<string, unknown>[] }
      ).files;
      expect(file!.effectivePolicy).toEqual({
        mode: 'disallow-all',
        reason: 'unreachable',
        message: `test ${file!.id} at ${clock.now()}`,
        versionId: null,
        since: new Date(clock.now() - 1000).toISOString(),
        until: new Date(clock.now() + 1000).toISOString(),
      });
      expect(policyCalls).toBe(1);
    });

    it('requires the bearer token for writes when one is configured, never for reads', async () => {
      await start({ token: TOKEN });
      const none = await call('POST', '/api/properties', { property: 'example.com' });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      expect(none.body).toMatchObject({ error: { code: 'unauthorized', message: expect.stringContaining('Bearer') } });
      const wrong = await call(
        'POST',
        '/api/properties',
        { property: 'example.com' },
        { authorization: 'Bearer nope' },
      );
      expect(wrong).toMatchObject({
        status: 401,
        body: { error: { code: 'unauthorized', message: 'the bearer token is wrong' } },
      });
      expect(
        (await call('POST', '/api/properties', { property: 'example.com' }, { authorization: TOKEN })).status,
      ).toBe(401);
      const ok = await call(
        'POST',
        '/api/properties',
        { property: 'example.com' },
        { authorization: `Bearer ${TOKEN}` },
      );
      expect(ok.status).toBe(201);
      const id = (ok.body as { id: number }).id;
      expect((await call('GET', '/api/properties')).status).toBe(200);
      expect((await call('GET', `/api/properties/${id}/files`)).status).toBe(200);
      expect((await call('DELETE', `/api/properties/${id}`)).status).toBe(401);
      expect((await call('POST', '/api/files/1/recrawl')).status).toBe(401);
      expect(
        (await call('DELETE', `/api/properties/${id}`, undefined, { authorization: `bearer ${TOKEN}` })).status,
      ).toBe(204);
    });

    it('serves an OpenAPI 3.1 document that describes every route', async () => {
      const reply = await call('GET', '/api/openapi.json');
      const doc = reply.body as {
        openapi: string;
        paths: Record<
          string,
          Record<string, { summary?: string; responses: Record<string, unknown>; security?: unknown }>
        >;
        components: { securitySchemes: Record<string, unknown> };
      };
      expect(doc.openapi).toBe('3.1.0');
      const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(operations.sort()).toEqual(
        [
          'GET /api/health',
          'GET /api/openapi.json',
          'POST /api/properties',
          'GET /api/properties',
          'GET /api/properties/{id}',
          'DELETE /api/properties/{id}',
          'POST /api/properties/{id}/hosts',
          'GET /api/properties/{id}/files',
          'GET /api/files/{id}',
          'GET /api/files/{id}/versions',
          'GET /api/files/{id}/fetches',
          'POST /api/files/{id}/recrawl',
          'GET /api/versions/{id}',
          'GET /api/versions/{id}/diagnostics',
          'GET /api/versions/{id}/raw',
          'GET /api/versions/{id}/diff',
          'GET /api/versions/{id}/ai-use',
          'GET /api/alerts',
          'GET /api/webhooks',
          'POST /api/webhooks',
          'DELETE /api/webhooks/{id}',
          'PATCH /api/webhooks/{id}',
          'GET /api/alerts/summary',
          'GET /api/webhooks/{id}/deliveries',
          'POST /api/webhooks/{id}/test',
          'POST /api/test',
          'GET /api/fetch',
          'POST /api/impact',
          'POST /api/properties/{id}/discover-hosts',
          'GET /api/properties/{id}/logs',
          'POST /api/properties/{id}/logs',
          'POST /api/properties/{id}/access',
          'POST /api/decide',
        ].sort(),
      );
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          expect(operation.summary, `${method} ${path}`).toEqual(expect.any(String));
          expect(Object.keys(operation.responses).length, `${method} ${path}`).toBeGreaterThan(0);
          if (method !== 'get') expect(operation.security, `${method} ${path}`).toEqual([{ bearer: [] }]);
          // Every route exists in the app as documented.
          const url = path.replace('{id}', '1');
          expect(
            app.hasRoute({ method: method.toUpperCase() as 'GET', url: url.replace('/1', '/:id') }),
            `${method} ${path}`,
          ).toBe(true);
        }
      }
      expect(doc.components.securitySchemes).toHaveProperty('bearer');
      expect(JSON.stringify(doc.paths['/api/properties']?.post)).toContain('host-level URL prefix');
    });

    it('reports its health', async () => {
      expect((await call('GET', '/api/health')).body).toEqual({
        status: 'ok',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        database: target.dialect,
        databaseState: 'ok',
        databaseError: null,
        fetching: 'not-configured',
        availability: availabilityRules(),
        eventLoop: {
          recentMaxMs: expect.any(Number),
          maxMs: expect.any(Number),
          p99Ms: expect.any(Number),
          meanMs: expect.any(Number),
        },
        hideAllowAllAfterMs: 30 * DAY,
      });
    });

    it('says its availability timeline in the engine’s words, with the periods it was given', async () => {
      const availability = { disallowPeriod: 6 * 3_600_000, lastGoodVersionPeriod: 10 * DAY };
      await start({ availability });
      const health = (await call('GET', '/api/health')).body as { availability: { words: unknown; summary: string } };
      expect(health.availability.words).toEqual({ disallowPeriod: '6 h', lastGoodVersionPeriod: '10 days' });
      expect(health.availability).toEqual(availabilityRules(availability));
      expect(health.availability.summary).toContain('crawling stops for 6 h');
    });
  });
});

describe('service configuration', () => {
  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '127.0.0.1.', 'localhost.example.com', '::ffff:10.0.0.1'])(
    'refuses to listen on %s without a token',
    (host) => {
      expect(() => checkServiceConfig({ host, port: 8787 })).toThrow(ServiceConfigError);
      expect(() => checkServiceConfig({ host, port: 8787 })).toThrow(
        `refusing to listen on ${host} without a token: anyone who can reach it could add and delete properties. ` +
          'Pass --token <secret> (clients then send Authorization: Bearer <secret> for changes), or listen on 127.0.0.1.',
      );
      expect(() => checkServiceConfig({ host, port: 8787, token: TOKEN })).not.toThrow();
    },
  );
  it('says an empty host means every address', () => {
    expect(() => checkServiceConfig({ host: '', port: 8787 })).toThrow(
      'refusing to listen on every address (--host is empty) without a token',
    );
  });
  it.each(['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])(
    'listens on the loopback address %s without a token',
    (host) => {
      expect(() => checkServiceConfig({ host, port: 8787 })).not.toThrow();
    },
  );
  it('refuses short tokens and bad ports', () => {
    expect(() => checkServiceConfig({ host: '127.0.0.1', port: 8787, token: 'short' })).toThrow(/at least 8/);
    expect(() => checkServiceConfig({ host: '127.0.0.1', port: 70000 })).toThrow(/--port/);
  });
  it('refuses before opening anything', async () => {
    await expect(
      startService({
        host: '0.0.0.0',
        port: 0,
        database: { dialect: 'sqlite', file: '/nonexistent/never/created.sqlite' },
      }),
    ).rejects.toThrow(ServiceConfigError);
  });
});
