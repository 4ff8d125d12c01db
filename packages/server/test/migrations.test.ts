/**
 * Migration 0003 (the engine's vocabulary) on both databases: a database as the code before it wrote it, with fetches
 * of every stored outcome and error kind, reads back after migrating in the engine's words, through storage and the
 * API, and goes on versioning as before (an unchanged failure after the migration is no new version).
 */

import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { openDatabase } from '../src/storage/connect.js';
import { migrateToLatest, migrator } from '../src/storage/migrations.js';
import { recordFetch } from '../src/storage/record-fetch.js';
import { contentHash } from '../src/storage/rows.js';
import { testDatabases } from './databases.js';
import { resultOf } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: the rows are written as the schema before the migration had them.
type OldDb = Kysely<any>;

const BODY = new TextEncoder().encode('User-agent: *\nDisallow: /a\n');
const HASH = contentHash(BODY);

/**
 * The fetches the code before 0003 stored: outcome, status, error kind and message, as `fetchRecordOf` wrote them,
 * and what each reads as afterwards (outcome, error kind, code, report status and its words).
 */
const OLD_FETCHES = [
  ['fetched', 200, null, null, 'rules', null, null, 'fetched', null],
  ['not-found', 404, null, null, 'allow-all', null, null, 'not-found', 'not found (HTTP 404)'],
  ['not-found', 403, null, null, 'allow-all', null, null, 'error', 'access denied (HTTP 403)'],
  [
    'not-found',
    301,
    'too-many-redirects',
    'more than 5 redirects',
    'allow-all',
    'too-many-redirects',
    null,
    'error',
    'too many redirects',
  ],
  ['not-found', 302, 'redirect-loop', 'redirect loop', 'allow-all', 'redirect-loop', null, 'error', 'redirect loop'],
  [
    'not-found',
    302,
    'invalid-url',
    'no Location',
    'allow-all',
    'invalid-url',
    null,
    'error',
    'redirect to an unusable address',
  ],
  [
    'not-found',
    550,
    'protocol',
    'FTP 550 No such file; treated as no robots.txt',
    'allow-all',
    'protocol',
    'FTP_550',
    'not-found',
    'no such file (FTP 550)',
  ],
  ['error', 503, 'http-status', 'HTTP 503', 'disallow-all', null, null, 'error', 'server error (HTTP 503)'],
  ['error', 429, 'http-status', 'HTTP 429', 'disallow-all', null, null, 'error', 'too many requests (HTTP 429)'],
  ['error', null, 'dns', 'getaddrinfo ENOTFOUND x.invalid', 'disallow-all', 'dns', null, 'error', 'host not found'],
  [
    'error',
    null,
    'connect',
    'connect ECONNREFUSED 127.0.0.1:9',
    'disallow-all',
    'connect',
    null,
    'error',
    'connection refused',
  ],
  [
    'error',
    null,
    'tls',
    'wrong version number',
    'disallow-all',
    'tls',
    null,
    'error',
    'TLS failure: the server does not speak TLS on this port (plain http?)',
  ],
  [
    'error',
    null,
    'timeout',
    'no response headers within 10000 ms',
    'disallow-all',
    'timeout',
    null,
    'error',
    'no response in time',
  ],
  ['error', null, 'reset', 'read ECONNRESET', 'disallow-all', 'reset', null, 'error', 'connection reset by the server'],
  [
    'error',
    null,
    'protocol',
    'FTP login refused: FTP 530 Login incorrect',
    'disallow-all',
    'protocol',
    'FTP_530',
    'error',
    'FTP login refused (530)',
  ],
  [
    'error',
    200,
    'body',
    'terminated',
    'disallow-all',
    'body',
    null,
    'error',
    'the response broke off while being read',
  ],
  [
    'error',
    null,
    'address-refused',
    '127.0.0.1 is a loopback address',
    'disallow-all',
    'blocked',
    null,
    'error',
    'not fetched: the address is private or loopback, which this service may not reach',
  ],
  ['error', null, 'unknown', 'boom', 'disallow-all', 'unknown', null, 'error', 'fetch failed'],
  ['error', null, 'retrieval-failed', 'bug in the retrieval', 'disallow-all', 'unknown', null, 'error', 'fetch failed'],
] as const;

/** Writes one property watching three files as the code before 0003 did: fetched, not found for a while, failing. */
async function writeOldRows(
  db: OldDb,
  now: number,
): Promise<{ property: number; fetched: number; notFound: number; failing: number }> {
  const property = await db
    .insertInto('properties')
    .values({ kind: 'url-prefix', name: 'https://example.com/', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const host = await db
    .insertInto('hosts')
    .values({ property_id: property.id, host: 'example.com', source: 'property', rank: 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const files: number[] = [];
  for (const [i, url] of [
    'https://example.com/robots.txt',
    'http://example.com/robots.txt',
    'https://x.example.com/robots.txt',
  ].entries()) {
    const file = await db
      .insertInto('robots_files')
      .values({
        url,
        scheme: url.startsWith('https') ? 'https' : 'http',
        host: new URL(url).host,
        created_at: now,
        next_fetch_at: now,
        priority: 1,
        consecutive_failures: i === 2 ? 2 : 0,
        failing_since: i === 2 ? now - 5_000 : null,
        not_found_since: i === 1 ? now - 9_000 : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('host_files').values({ host_id: host.id, file_id: file.id }).execute();
    files.push(Number(file.id));
  }
  await db
    .insertInto('bodies')
    .values({
      hash: HASH,
      content: BODY,
      size: BODY.byteLength,
      created_at: now,
      lint_errors: 0,
      lint_warnings: 0,
      lint_json: '[]',
    })
    .execute();
  // Every kind of fetch on the failing file (newest last), then one fetch each on the other two.
  const [fetched, notFound, failing] = files as [number, number, number];
  let at = now - 100_000;
  const insertFetch = async (fileId: number, row: (typeof OLD_FETCHES)[number]) => {
    const [outcome, status, kind, message] = row;
    at += 1000;
    const inserted = await db
      .insertInto('fetches')
      .values({
        file_id: fileId,
        started_at: at,
        finished_at: at + 5,
        outcome,
        http_status: status,
        size: outcome === 'fetched' ? BODY.byteLength : null,
        body_hash: outcome === 'fetched' ? HASH : null,
        content_key: outcome === 'fetched' ? `sha256:${HASH}` : outcome,
        headers_json: '{}',
        redirects_json: '[]',
        final_url: null,
        error_kind: kind,
        error_message: message,
        timings_json: null,
        worker: 'old',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('versions')
      .values({
        file_id: fileId,
        fetch_id: inserted.id,
        fetched_at: at,
        outcome,
        http_status: status,
        size: outcome === 'fetched' ? BODY.byteLength : null,
        body_hash: outcome === 'fetched' ? HASH : null,
        headers_json: '{}',
      })
      .execute();
    await db.updateTable('robots_files').set({ last_fetch_id: inserted.id }).where('id', '=', fileId).execute();
  };
  for (const row of OLD_FETCHES) await insertFetch(failing, row);
  await insertFetch(fetched, OLD_FETCHES[0]);
  await insertFetch(notFound, OLD_FETCHES[1]);
  return { property: Number(property.id), fetched, notFound, failing };
}

describe.each(testDatabases)('migration to the engine vocabulary on $dialect', (target) => {
  afterAll(async () => {
    await target.cleanup();
  });

  it.skipIf(target.skip !== null)(
    'reads fetches of every old outcome and error kind back in the engine’s words, and versions on',
    async () => {
      const database = await openDatabase(target.config(), { migrate: false });
      const now = 10_000_000;
      try {
        const db = database.db as unknown as OldDb;
        const before = await (await migrator(db, database.dialect)).migrateTo('0002_foreign_key_indexes');
        expect(before.error).toBeUndefined();
        const files = await writeOldRows(db, now);
        expect(await migrateToLatest(db, database.dialect)).toEqual([
          '0003_engine_vocabulary',
          '0004_sitemap_shares',
          '0005_crawler_activity',
        ]);

        const fetches = await database.db
          .selectFrom('fetches')
          .select(['outcome', 'content_key', 'error_kind', 'error_code', 'error_message'])
          .where('file_id', '=', files.failing)
          .orderBy('id')
          .execute();
        expect(fetches.map((f) => [f.outcome, f.error_kind, f.error_code])).toEqual(
          OLD_FETCHES.map((row) => [row[4], row[5], row[6]]),
        );
        // The key that starts a new version is in the new words too; an HTTP status is no error message.
        expect(fetches.map((f) => f.content_key)).toEqual(
          OLD_FETCHES.map((row) => (row[4] === 'rules' ? `sha256:${HASH}` : row[4])),
        );
        expect(fetches.filter((f) => f.error_message === 'HTTP 503' || f.error_message === 'HTTP 429')).toEqual([]);
        const versions = await database.db
          .selectFrom('versions')
          .select('outcome')
          .where('file_id', '=', files.failing)
          .orderBy('id')
          .execute();
        expect(versions.map((v) => v.outcome)).toEqual(OLD_FETCHES.map((row) => row[4]));
        const notFound = await database.db
          .selectFrom('robots_files')
          .select(['allow_all_since', 'failing_since'])
          .where('id', '=', files.notFound)
          .executeTakeFirstOrThrow();
        expect(notFound).toEqual({ allow_all_since: now - 9_000, failing_since: null });

        // Through the API: each fetch's report status is the engine's fetchStatusOf, worded by the engine.
        const app = await buildApp({ database, now: () => now, webRoot: false });
        try {
          const timeline = (await app.inject({ method: 'GET', url: `/api/files/${files.failing}/fetches` })).json();
          expect(
            [...timeline.fetches]
              .reverse()
              .map((f: { outcome: string; status: string; summary: string | null }) => [
                f.outcome,
                f.status,
                f.summary,
              ]),
          ).toEqual(OLD_FETCHES.map((row) => [row[4], row[7], row[8]]));
          const listed = (
            await app.inject({ method: 'GET', url: `/api/properties/${files.property}/files?all=true` })
          ).json() as { files: { id: number; status: string; allowAllSince: string | null }[] };
          expect(
            listed.files.map((f) => [f.id, f.status, f.allowAllSince]).sort((a, b) => Number(a[0]) - Number(b[0])),
          ).toEqual([
            [files.fetched, 'fetched', null],
            [files.notFound, 'not-found', new Date(now - 9_000).toISOString()],
            [files.failing, 'error', null],
          ]);
        } finally {
          await app.close();
        }

        // Versioning goes on: the same failure again is no new version, a 404 on the not-found file neither.
        const again = async (fileId: number, result: ReturnType<typeof resultOf>) => {
          const token = `t-${fileId}`;
          await database.db
            .updateTable('robots_files')
            .set({ lease_token: token, leased_at: now, lease_expires_at: now + 60_000 })
            .where('id', '=', fileId)
            .execute();
          return recordFetch(database.db, database.dialect, { id: fileId, leaseToken: token }, result, {
            nextFetchAt: now + 1,
          });
        };
        const unknownAgain = {
          ...resultOf('disallow-all', { at: now }),
          httpStatus: null,
          error: { kind: 'unknown', code: null, phase: 'request', message: 'again' } as const,
        };
        expect(await again(files.failing, unknownAgain)).toMatchObject({ recorded: true, versionId: null });
        expect(await again(files.notFound, resultOf('allow-all', { at: now }))).toMatchObject({
          recorded: true,
          versionId: null,
        });
        expect(
          await database.db
            .selectFrom('robots_files')
            .select(['allow_all_since', 'failing_since', 'consecutive_failures'])
            .where('id', 'in', [files.notFound, files.failing])
            .orderBy('id')
            .execute(),
        ).toEqual([
          { allow_all_since: now - 9_000, failing_since: null, consecutive_failures: 0 },
          { allow_all_since: null, failing_since: now - 5_000, consecutive_failures: 3 },
        ]);
      } finally {
        await database.close();
      }
    },
  );
});
