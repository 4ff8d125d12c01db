/**
 * Crawler activity: the robots.txt versions in force over a file's stored history (every fetch and version, turned
 * into the engine's periods by `robotskit/logs`' `storedHistory`, `policyPeriods` and `periodVersions`, with the
 * service's availability timeline), and the uploads of access logs judged against them with their crawler rows.
 */

import type { Kysely } from 'kysely';
import { parseRobotsTxt, type RobotsTxt } from 'robotskit';
import type { AvailabilityOptions } from 'robotskit/fetch';
import { periodVersions, policyPeriods, type RobotsVersion, storedHistory } from 'robotskit/logs';
import { headersFromJson, observationOf } from './rows.js';
import type { LogCrawlersTable, LogUploadsTable, Schema } from './schema.js';

/**
 * The versions of `fileId`'s robots.txt in force over time, oldest first (empty before its first fetch): each stored
 * fetch and version read as the engine's history, judged by its availability timeline with `options`.
 */
export async function versionsInForce(
  db: Kysely<Schema>,
  fileId: number,
  options: AvailabilityOptions,
): Promise<RobotsVersion[]> {
  const fetches = await db
    .selectFrom('fetches')
    .select(['id', 'started_at', 'outcome', 'http_status', 'error_kind', 'error_code', 'error_phase', 'headers_json'])
    .where('file_id', '=', fileId)
    .orderBy('started_at')
    .execute();
  const versions = await db
    .selectFrom('versions')
    .select(['id', 'fetch_id', 'fetched_at', 'outcome', 'http_status', 'body_hash'])
    .where('file_id', '=', fileId)
    .orderBy('id')
    .execute();
  const startedBy = new Map(versions.filter((v) => v.fetch_id !== null).map((v) => [Number(v.fetch_id), Number(v.id)]));
  const history = storedHistory(
    fetches.map((f) => ({
      ...observationOf({
        fetchedAt: Number(f.started_at),
        outcome: f.outcome,
        status: f.http_status,
        errorKind: f.error_kind,
        errorCode: f.error_code,
        errorPhase: f.error_phase,
        headers: headersFromJson(f.headers_json),
      }),
      id: Number(f.id),
      ownVersion: startedBy.get(Number(f.id)) ?? null,
    })),
    versions.map((v) => ({
      id: Number(v.id),
      fetchId: v.fetch_id === null ? null : Number(v.fetch_id),
      fetchedAt: Number(v.fetched_at),
      outcome: v.outcome,
      status: v.http_status,
    })),
  );
  const periods = policyPeriods(history, options);
  const rules = new Map<number, RobotsTxt>();
  for (const period of periods) {
    const id = period.versionId;
    if (period.mode !== 'rules' || id === null || rules.has(id)) continue;
    const hash = versions.find((v) => Number(v.id) === id)?.body_hash ?? null;
    const body =
      hash === null
        ? undefined
        : await db.selectFrom('bodies').select('content').where('hash', '=', hash).executeTakeFirst();
    rules.set(id, parseRobotsTxt(body?.content ?? new Uint8Array()));
  }
  const fetchedAt = new Map(versions.map((v) => [Number(v.id), Number(v.fetched_at)]));
  return periodVersions(
    periods.filter((p) => p.mode !== 'rules' || p.versionId !== null),
    rules,
    fetchedAt,
  );
}

/** Stores an upload and its crawler rows; returns the upload's id. */
export async function insertUpload(
  db: Kysely<Schema>,
  upload: Omit<LogUploadsTable, 'id'>,
  crawlers: readonly Omit<LogCrawlersTable, 'id' | 'upload_id'>[],
): Promise<number> {
  const row = await db.insertInto('log_uploads').values(upload).returning('id').executeTakeFirstOrThrow();
  const id = Number(row.id);
  for (let i = 0; i < crawlers.length; i += 100) {
    await db
      .insertInto('log_crawlers')
      .values(crawlers.slice(i, i + 100).map((c) => ({ ...c, upload_id: id })))
      .execute();
  }
  return id;
}

/** A property's uploads, newest first. */
export function listUploads(db: Kysely<Schema>, propertyId: number, limit: number) {
  return db
    .selectFrom('log_uploads')
    .selectAll()
    .where('property_id', '=', propertyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** An upload's crawler rows, those with violations first, then by requests. */
export function uploadCrawlers(db: Kysely<Schema>, uploadId: number) {
  return db
    .selectFrom('log_crawlers')
    .selectAll()
    .where('upload_id', '=', uploadId)
    .orderBy('disallowed', 'desc')
    .orderBy('requests', 'desc')
    .orderBy('crawler')
    .execute();
}
