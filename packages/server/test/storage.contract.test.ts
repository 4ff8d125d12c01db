/**
 * The storage contract: the same tests against SQLite and PostgreSQL.
 */

import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePropertyInput } from '../src/http/property-input.js';
import { type ClaimedFile, claimDueFiles, requestRecrawl } from '../src/storage/claim.js';
import type { Database } from '../src/storage/connect.js';
import { acquireJobLease } from '../src/storage/job-lease.js';
import { migrateToLatest } from '../src/storage/migrations.js';
import { createProperty, deleteProperty, listProperties, PropertyExistsError } from '../src/storage/properties.js';
import { pruneHistory } from '../src/storage/prune.js';
import { recordFetch } from '../src/storage/record-fetch.js';
import { getFileReport, getVersion, listPropertyFiles, listVersions } from '../src/storage/report.js';
import { contentHash } from '../src/storage/rows.js';

import { openTestDatabase, testDatabases } from './databases.js';
import { resultOf } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabases)('storage on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'contract', () => {
    let database: Database;
    const dialect = target.dialect;

    beforeEach(async () => {
      database = await openTestDatabase(target);
    });
    afterEach(async () => {
      await database.close();
    });
    afterAll(async () => {
      await target.cleanup();
    });

    async function addProperty(typed: string, now = 1_000) {
      return createProperty(database.db, dialect, parsePropertyInput(typed), now);
    }

    async function claimOne(fileId: number, now: number): Promise<ClaimedFile> {
      // Claim everything due, keep the one we want, give the others back untouched by recording nothing.
      const claims = await claimDueFiles(database.db, dialect, { owner: 'test', limit: 1000, leaseMs: 60_000, now });
      const claim = claims.find((c) => c.id === fileId);
      if (!claim) throw new Error(`file ${fileId} was not due at ${now}`);
      await database.db
        .updateTable('robots_files')
        .set({ lease_owner: null, lease_token: null, lease_expires_at: null, leased_at: null })
        .where('id', '!=', fileId)
        .execute();
      return claim;
    }

    async function fetchOnce(fileId: number, result: ReturnType<typeof resultOf>) {
      const claim = await claimOne(fileId, result.startedAt);
      const recorded = await recordFetch(database.db, dialect, claim, result, { nextFetchAt: result.finishedAt });
      if (!recorded.recorded) throw new Error('lease lost');
      return recorded;
    }

    it('migrates once; running the migrations again changes nothing', async () => {
      expect(await migrateToLatest(database.db, dialect)).toEqual([]);
      const tables = (await database.db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(
        expect.arrayContaining([
          'alerts',
          'bodies',
          'fetches',
          'host_files',
          'hosts',
          'leases',
          'properties',
          'robots_files',
          'versions',
          'webhook_deliveries',
          'webhooks',
        ]),
      );
    });

    it('indexes the foreign keys pruning deletes through (else each deleted row scans the referring table)', async () => {
      const query =
        dialect === 'postgres'
          ? sql<{ table: string; definition: string }>`
              select tablename as "table", indexdef as definition from pg_indexes where schemaname = current_schema()`
          : sql<{ table: string; definition: string }>`
              select tbl_name as "table", sql as definition from sqlite_master where type = 'index' and sql is not null`;
      const { rows } = await query.execute(database.db);
      const indexed = (table: string, column: string) =>
        rows.some((r) => r.table === table && new RegExp(`\\(\\s*"?${column}"?\\s*\\)`).test(r.definition));
      expect(indexed('versions', 'fetch_id')).toBe(true);
      expect(indexed('alerts', 'version_id')).toBe(true);
      expect(indexed('alerts', 'previous_version_id')).toBe(true);
      // The check itself tells an unindexed column apart.
      expect(indexed('alerts', 'message')).toBe(false);
    });

    it('creates a domain property with http and https files for the apex and www hosts', async () => {
      const property = await addProperty('Example.COM', 5_000);
      expect(property).toMatchObject({ kind: 'domain', name: 'example.com', created_at: 5_000 });
      expect(typeof property.id).toBe('number');
      const files = await listPropertyFiles(database.db, property.id);
      expect(files.map((f) => [f.url, f.host_source, f.host_rank])).toEqual([
        ['https://example.com/robots.txt', 'property', 0],
        ['http://example.com/robots.txt', 'property', 0],
        ['https://www.example.com/robots.txt', 'www', 1],
        ['http://www.example.com/robots.txt', 'www', 1],
      ]);
      for (const file of files) {
        expect(file).toMatchObject({ next_fetch_at: 5_000, last_fetch_id: null, fetch_outcome: null });
        expect(typeof file.next_fetch_at).toBe('number');
      }
      await expect(addProperty('example.com')).rejects.toBeInstanceOf(PropertyExistsError);
      expect((await listProperties(database.db)).map((p) => [p.name, p.host_count, p.file_count])).toEqual([
        ['example.com', 2, 4],
      ]);
    });

    it('shares one file between properties that watch the same origin and deletes it with the last one', async () => {
      const domain = await addProperty('example.com');
      const prefix = await addProperty('https://example.com/');
      const [shared] = await listPropertyFiles(database.db, prefix.id);
      expect(shared?.url).toBe('https://example.com/robots.txt');
      const domainFiles = await listPropertyFiles(database.db, domain.id);
      expect(domainFiles.find((f) => f.url === shared?.url)?.id).toBe(shared?.id);
      await fetchOnce(shared!.id, resultOf('rules', { body: 'User-agent: *\nDisallow:\n', at: 2_000 }));

      expect(await deleteProperty(database.db, dialect, domain.id)).toBe(true);
      expect(await getFileReport(database.db, shared!.id)).toBeDefined();
      expect((await database.db.selectFrom('robots_files').select('url').execute()).map((r) => r.url)).toEqual([
        'https://example.com/robots.txt',
      ]);
      expect(await deleteProperty(database.db, dialect, prefix.id)).toBe(true);
      expect(await database.db.selectFrom('robots_files').selectAll().execute()).toEqual([]);
      expect(await database.db.selectFrom('fetches').selectAll().execute()).toEqual([]);
      expect(await database.db.selectFrom('versions').selectAll().execute()).toEqual([]);
      expect(await database.db.selectFrom('bodies').selectAll().execute()).toEqual([]);
      expect(await deleteProperty(database.db, dialect, prefix.id)).toBe(false);
    });

    it('creates a version only when the content differs from the previous fetch, and stores each body once', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      const id = file!.id;
      const a = 'User-agent: *\nDisallow: /a\n';
      const b = 'User-agent: *\nDisallow: /b\n';
      const steps = [
        [resultOf('rules', { body: a, at: 10_000 }), true],
        [resultOf('rules', { body: a, at: 20_000 }), false],
        [resultOf('rules', { body: b, at: 30_000 }), true],
        [resultOf('disallow-all', { at: 40_000 }), true],
        [resultOf('disallow-all', { at: 50_000 }), false],
        [resultOf('rules', { body: a, at: 60_000 }), true],
        [resultOf('allow-all', { at: 70_000 }), true],
        [resultOf('allow-all', { at: 80_000 }), false],
      ] as const;
      for (const [result, newVersion] of steps) {
        const recorded = await fetchOnce(id, result);
        expect(recorded.versionId !== null, `fetch at ${result.startedAt}`).toBe(newVersion);
      }
      const versions = await listVersions(database.db, id);
      expect(versions.map((v) => [v.fetched_at, v.outcome, v.http_status, v.size])).toEqual([
        [70_000, 'allow-all', 404, null],
        [60_000, 'rules', 200, a.length],
        [40_000, 'disallow-all', 503, null],
        [30_000, 'rules', 200, b.length],
        [10_000, 'rules', 200, a.length],
      ]);
      expect(JSON.parse(versions[1]!.headers_json)).toEqual({ 'content-type': 'text/plain' });
      const bodies = await database.db.selectFrom('bodies').select(['hash', 'size']).orderBy('size').execute();
      expect(bodies).toHaveLength(2);
      expect(await database.db.selectFrom('fetches').select('id').execute()).toHaveLength(8);

      const report = await getFileReport(database.db, id);
      expect(report).toMatchObject({
        fetch_outcome: 'allow-all',
        fetch_http_status: 404,
        allow_all_since: 70_000,
        failing_since: null,
        consecutive_failures: 0,
        latest_version_id: versions[0]!.id,
        lint_errors: null,
        lint_warnings: null,
      });
      const previous = await getVersion(database.db, versions[1]!.id);
      expect(previous?.previous_version_id).toBe(versions[2]!.id);
      expect(new TextDecoder().decode(previous?.content ?? new Uint8Array())).toBe(a);
    });

    it('keeps body bytes exactly, including bytes that are not UTF-8', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x55, 0x00, 0xff, 0xfe, 0x0d, 0x0a, 0x80, 0xc3]);
      const recorded = await fetchOnce(file!.id, resultOf('rules', { body: bytes }));
      const version = await getVersion(database.db, recorded.versionId!);
      expect([...(version?.content ?? [])]).toEqual([...bytes]);
      expect(recorded.bodyHash).toBe(contentHash(bytes));
      const empty = await fetchOnce(file!.id, resultOf('rules', { body: '', at: 5_000 }));
      expect([...((await getVersion(database.db, empty.versionId!))?.content ?? [1])]).toEqual([]);
    });

    it('records failures with their kind and counts them for the backoff', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      await fetchOnce(file!.id, resultOf('disallow-all', { at: 1_000 }));
      await fetchOnce(file!.id, resultOf('disallow-all', { at: 2_000 }));
      const report = await getFileReport(database.db, file!.id);
      // A 503 is the engine's disallow-all with its status, and no error.
      expect(report).toMatchObject({
        fetch_outcome: 'disallow-all',
        fetch_http_status: 503,
        fetch_error_kind: null,
        fetch_error_message: null,
        consecutive_failures: 2,
        failing_since: 1_000,
        fetch_size: null,
      });
      const dns = { kind: 'dns', code: 'ENOTFOUND', phase: 'request', message: 'getaddrinfo ENOTFOUND x' } as const;
      await fetchOnce(file!.id, { ...resultOf('disallow-all', { at: 2_500 }), httpStatus: null, error: dns });
      expect(await getFileReport(database.db, file!.id)).toMatchObject({
        fetch_error_kind: 'dns',
        fetch_error_code: 'ENOTFOUND',
        fetch_error_phase: 'request',
        fetch_error_message: 'getaddrinfo ENOTFOUND x',
        consecutive_failures: 3,
        failing_since: 1_000,
      });
      await fetchOnce(file!.id, resultOf('rules', { body: 'x', at: 3_000 }));
      expect(await getFileReport(database.db, file!.id)).toMatchObject({
        consecutive_failures: 0,
        failing_since: null,
      });
    });

    it('claims only due files, recrawl requests first, and leases keep other workers off', async () => {
      const property = await addProperty('example.com', 1_000);
      const files = await listPropertyFiles(database.db, property.id);
      expect(await claimDueFiles(database.db, dialect, { owner: 'w', limit: 10, leaseMs: 100, now: 999 })).toEqual([]);
      // Push every file into the future, then ask for a recrawl of the last one.
      await database.db.updateTable('robots_files').set({ next_fetch_at: 50_000 }).execute();
      const last = files.at(-1)!;
      expect(await requestRecrawl(database.db, last.id, 2_000)).toBe(true);
      expect(await requestRecrawl(database.db, 999_999, 2_000)).toBe(false);
      const first = await claimDueFiles(database.db, dialect, { owner: 'a', limit: 10, leaseMs: 100, now: 2_000 });
      expect(first.map((c) => c.id)).toEqual([last.id]);
      expect(await claimDueFiles(database.db, dialect, { owner: 'b', limit: 10, leaseMs: 100, now: 2_050 })).toEqual(
        [],
      );

      // Its holder never recorded (it crashed): once the lease has expired the recrawl is still at the front.
      const due = await claimDueFiles(database.db, dialect, { owner: 'b', limit: 2, leaseMs: 100, now: 60_000 });
      expect(due.map((c) => c.id)).toEqual([last.id, files[0]!.id]);
      const rest = await claimDueFiles(database.db, dialect, { owner: 'c', limit: 10, leaseMs: 100, now: 60_000 });
      expect(rest.map((c) => c.id).sort()).toEqual([files[1]!.id, files[2]!.id].sort());
    });

    it('hands a file over when its lease expires, and the old holder can no longer record', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      const [crashed] = await claimDueFiles(database.db, dialect, { owner: 'a', limit: 1, leaseMs: 1_000, now: 2_000 });
      expect(crashed?.id).toBe(file!.id);
      expect(await claimDueFiles(database.db, dialect, { owner: 'b', limit: 1, leaseMs: 1_000, now: 2_999 })).toEqual(
        [],
      );
      const [taken] = await claimDueFiles(database.db, dialect, { owner: 'b', limit: 1, leaseMs: 1_000, now: 3_000 });
      expect(taken?.id).toBe(file!.id);
      const late = await recordFetch(database.db, dialect, crashed!, resultOf('rules', { body: 'x' }), {
        nextFetchAt: 10_000,
      });
      expect(late).toEqual({ recorded: false, reason: 'lease-lost' });
      const ok = await recordFetch(database.db, dialect, taken!, resultOf('rules', { body: 'y', at: 3_000 }), {
        nextFetchAt: 90_000,
      });
      expect(ok.recorded).toBe(true);
      expect(await database.db.selectFrom('fetches').select('worker').execute()).toHaveLength(1);
      const row = await database.db.selectFrom('robots_files').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ next_fetch_at: 90_000, lease_token: null, lease_owner: null, priority: 1 });
    });

    it('keeps a recrawl requested during a fetch: the file stays due at the front', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      const [claim] = await claimDueFiles(database.db, dialect, { owner: 'a', limit: 1, leaseMs: 60_000, now: 2_000 });
      await requestRecrawl(database.db, file!.id, 2_500);
      await recordFetch(database.db, dialect, claim!, resultOf('rules', { body: 'x', at: 2_000 }), {
        nextFetchAt: 99_000,
      });
      const row = await database.db.selectFrom('robots_files').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ next_fetch_at: 2_500, priority: 0, lease_token: null });
    });

    it('prunes history past the retention window but keeps the versions still needed', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      const id = file!.id;
      const t0 = 100 * DAY;
      await fetchOnce(id, resultOf('rules', { body: 'old good', at: t0 }));
      await fetchOnce(id, resultOf('rules', { body: 'older replaced', at: t0 + DAY }));
      await fetchOnce(id, resultOf('rules', { body: 'last good', at: t0 + 2 * DAY }));
      await fetchOnce(id, resultOf('disallow-all', { at: t0 + 3 * DAY }));
      await fetchOnce(id, resultOf('disallow-all', { at: t0 + 4 * DAY }));
      const result = await pruneHistory(database.db, dialect, { now: t0 + 40 * DAY, retentionMs: 30 * DAY });
      // Fetches: all but the newest are older than the window.
      expect(result.fetches).toBe(4);
      const versions = await listVersions(database.db, id);
      expect(versions.map((v) => [v.outcome, v.fetched_at])).toEqual([
        ['disallow-all', t0 + 3 * DAY],
        ['rules', t0 + 2 * DAY],
      ]);
      expect(versions.map((v) => v.fetch_id)).toEqual([null, null]);
      const kept = await getVersion(database.db, versions[1]!.id);
      expect(new TextDecoder().decode(kept!.content!)).toBe('last good');
      const bodies = await database.db.selectFrom('bodies').select('hash').execute();
      expect(bodies).toEqual([{ hash: contentHash(new TextEncoder().encode('last good')) }]);
      expect(result).toEqual({ fetches: 4, versions: 2, bodies: 2, alerts: 0 });
      // Nothing within the window is touched.
      expect(await pruneHistory(database.db, dialect, { now: t0 + 40 * DAY, retentionMs: 30 * DAY })).toEqual({
        fetches: 0,
        versions: 0,
        bodies: 0,
        alerts: 0,
      });
    });

    it('keeps the last good version when it was a 404 (allow all), and prunes old alerts', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      const id = file!.id;
      const t0 = 100 * DAY;
      await fetchOnce(id, resultOf('rules', { body: 'rules long ago', at: t0 }));
      await fetchOnce(id, resultOf('allow-all', { at: t0 + DAY }));
      await fetchOnce(id, resultOf('disallow-all', { at: t0 + 35 * DAY }));
      await database.db
        .insertInto('alerts')
        .values([
          { file_id: id, kind: 'file-changed', severity: 'info', message: 'old', created_at: t0 },
          { file_id: id, kind: 'file-unreachable', severity: 'critical', message: 'new', created_at: t0 + 35 * DAY },
        ])
        .execute();
      const result = await pruneHistory(database.db, dialect, { now: t0 + 40 * DAY, retentionMs: 30 * DAY });
      const versions = await listVersions(database.db, id);
      // The 404 is what applies after 12 h of failures; the older rules stay as the newest fetched copy.
      expect(versions.map((v) => v.outcome)).toEqual(['disallow-all', 'allow-all', 'rules']);
      expect(result).toMatchObject({ versions: 0, alerts: 1 });
      expect((await database.db.selectFrom('alerts').select('message').execute()).map((a) => a.message)).toEqual([
        'new',
      ]);
    });

    it('hides files not found for longer than asked, and still keeps them scheduled', async () => {
      const property = await addProperty('https://example.com/');
      const [file] = await listPropertyFiles(database.db, property.id);
      await fetchOnce(file!.id, resultOf('allow-all', { at: 1_000 }));
      await fetchOnce(file!.id, resultOf('allow-all', { at: 40 * DAY }));
      expect(await listPropertyFiles(database.db, property.id, { hideAllowAllBefore: 10 * DAY })).toEqual([]);
      expect(await listPropertyFiles(database.db, property.id, { hideAllowAllBefore: 500 })).toHaveLength(1);
    });

    it('gives a job lease to one owner at a time until it expires', async () => {
      const take = (owner: string, now: number) =>
        acquireJobLease(database.db, dialect, { name: 'prune', owner, now, ttlMs: 1_000 });
      expect(await take('a', 0)).toBe(true);
      expect(await take('b', 500)).toBe(false);
      expect(await take('a', 600)).toBe(true);
      expect(await take('b', 1_599)).toBe(false);
      expect(await take('b', 1_600)).toBe(true);
    });

    it('enforces foreign keys', async () => {
      await expect(
        database.db
          .insertInto('hosts')
          .values({ property_id: 12345, host: 'x', source: 'user', rank: 0, created_at: 0 })
          .execute(),
      ).rejects.toThrow();
      const mode =
        dialect === 'sqlite' ? await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db) : null;
      if (mode) expect(mode.rows[0]?.journal_mode).toBe('wal');
    });
  });
});
