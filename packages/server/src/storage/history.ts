/**
 * A file's effective policy from its fetch history, by the engine's availability timeline (`effectivePolicy`): the
 * latest fetch decides while it succeeds; after a failure crawling stops for 12 hours, then the last good version
 * applies until 30 days, then the file counts as absent if the server still answers. The history is read from the
 * file row (its latest fetch, when its current run of `disallow-all` or `allow-all` outcomes began) and, during
 * failures, the last good fetch and version.
 */

import type { Kysely } from 'kysely';
import { type AvailabilityOptions, effectivePolicy } from 'robotskit/fetch';
import type { FileReportRow } from './report.js';
import {
  type FilePolicy,
  filePolicyOf,
  headersFromJson,
  type ObservedFetch as Observed,
  observationOf,
} from './rows.js';
import type { Schema } from './schema.js';

/** Computes a file's effective policy at `now`; null when it cannot be told. */
export type FilePolicyResolver = (file: FileReportRow, now: number) => Promise<FilePolicy | null> | FilePolicy | null;

/** The newest good (`rules` or `allow-all`) fetch and version of a file before `before`. */
async function lastGood(db: Kysely<Schema>, fileId: number, before: number): Promise<Observed | null> {
  const version = await db
    .selectFrom('versions')
    .select(['id', 'fetched_at', 'outcome', 'http_status', 'headers_json'])
    .where('file_id', '=', fileId)
    .where('outcome', '!=', 'disallow-all')
    .where('fetched_at', '<', before)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!version) return null;
  // The last fetch that saw it (versions record when content first appeared); pruned fetches fall back on the version.
  const fetch = await db
    .selectFrom('fetches')
    .select(['started_at', 'http_status', 'headers_json'])
    .where('file_id', '=', fileId)
    .where('outcome', '=', version.outcome)
    .where('started_at', '<', before)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    ...observationOf({
      fetchedAt: fetch?.started_at ?? version.fetched_at,
      outcome: version.outcome,
      status: fetch?.http_status ?? version.http_status,
      errorKind: null,
      headers: headersFromJson(fetch?.headers_json ?? version.headers_json),
    }),
    versionId: Number(version.id),
  };
}

/** The fetches the timeline needs for `file` (at most three, in time order). */
async function historyOf(db: Kysely<Schema>, file: FileReportRow): Promise<Observed[]> {
  if (file.fetch_outcome === null || file.fetch_started_at === null) return [];
  const latest: Observed = {
    ...observationOf({
      fetchedAt: file.fetch_started_at,
      outcome: file.fetch_outcome,
      status: file.fetch_http_status,
      errorKind: file.fetch_error_kind,
      errorCode: file.fetch_error_code,
      errorPhase: file.fetch_error_phase,
      headers: headersFromJson(file.fetch_headers_json),
    }),
    versionId: file.fetch_outcome === 'disallow-all' ? null : file.latest_version_id,
  };
  const runStart =
    file.fetch_outcome === 'disallow-all'
      ? file.failing_since
      : file.fetch_outcome === 'allow-all'
        ? file.allow_all_since
        : null;
  const history: Observed[] = [];
  if (runStart !== null && runStart < latest.fetchedAt) {
    if (file.fetch_outcome === 'disallow-all') {
      const good = await lastGood(db, file.id, runStart);
      if (good) history.push(good);
    }
    history.push({ ...latest, fetchedAt: runStart, error: null });
  } else if (file.fetch_outcome === 'disallow-all') {
    const good = await lastGood(db, file.id, latest.fetchedAt);
    if (good) history.push(good);
  }
  history.push(latest);
  return history;
}

/** The resolver the service runs: the engine's `effectivePolicy` over the file's stored history in `db`. */
export function createPolicyResolver(db: Kysely<Schema>, options: AvailabilityOptions = {}): FilePolicyResolver {
  return async (file, now) => filePolicyOf(effectivePolicy(await historyOf(db, file), now, options));
}
