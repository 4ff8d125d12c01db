/**
 * Creating alerts when a file gets a new version, in the transaction that records the fetch (so a killed worker
 * leaves either the version with its alerts and queued deliveries, or none of them), and reading them back.
 */

import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema.js';
import { headersFromJson } from '../engine/observation.js';
import type { NewVersionHook } from '../monitor/record-fetch.js';
import { type DetectedAlert, detectAlerts, type VersionSnapshot } from './detect.js';
import { lineDiff } from './diff.js';

/** A version with its body, lint results and the error of the fetch that saw it first. */
export interface LoadedVersion {
  readonly id: number;
  readonly file_id: number;
  readonly fetched_at: number;
  readonly outcome: VersionSnapshot['outcome'];
  readonly http_status: number | null;
  readonly headers_json: string;
  readonly content: Uint8Array | null;
  readonly lint_errors: number | null;
  readonly lint_warnings: number | null;
  readonly lint_json: string | null;
  readonly error_kind: string | null;
  readonly error_message: string | null;
}

/** One version with what the diff and the alerts need, or undefined. */
export async function loadVersion(db: Kysely<Schema>, id: number): Promise<LoadedVersion | undefined> {
  const row = await db
    .selectFrom('versions as v')
    .leftJoin('bodies as b', 'b.hash', 'v.body_hash')
    .leftJoin('fetches as f', 'f.id', 'v.fetch_id')
    .select([
      'v.id',
      'v.file_id',
      'v.fetched_at',
      'v.outcome',
      'v.http_status',
      'v.headers_json',
      'b.content',
      'b.lint_errors',
      'b.lint_warnings',
      'b.lint_json',
      'f.error_kind',
      'f.error_message',
    ])
    .where('v.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, id: Number(row.id), content: row.content ?? null };
}

/** The newest version of the file before `versionId`, optionally only good ones (not failures). */
export async function versionBefore(
  db: Kysely<Schema>,
  fileId: number,
  versionId: number,
  goodOnly = false,
): Promise<number | null> {
  let query = db
    .selectFrom('versions')
    .select('id')
    .where('file_id', '=', fileId)
    .where('id', '<', versionId)
    .orderBy('id', 'desc')
    .limit(1);
  if (goodOnly) query = query.where('outcome', '!=', 'error');
  const row = await query.executeTakeFirst();
  return row ? Number(row.id) : null;
}

export function snapshotOf(v: LoadedVersion): VersionSnapshot {
  return {
    outcome: v.outcome,
    httpStatus: v.http_status,
    body: v.outcome === 'fetched' ? (v.content ?? new Uint8Array()) : null,
    contentType: headersFromJson(v.headers_json)['content-type'] ?? null,
    errorKind: v.error_kind,
    errorMessage: v.error_message,
  };
}

const decoder = new TextDecoder();
/** The text of a version (empty without a body). */
export function textOf(v: LoadedVersion): string {
  return v.outcome === 'fetched' && v.content ? decoder.decode(v.content) : '';
}

/** An alert as stored. */
export interface CreatedAlert extends DetectedAlert {
  readonly id: number;
  readonly fileId: number;
  readonly fileUrl: string;
  readonly versionId: number;
  readonly previousVersionId: number | null;
  readonly diffUrl: string | null;
}

/**
 * Detects and stores the alerts for a new version of a file, and queues a delivery to each webhook that wants them.
 * Runs in the caller's transaction.
 */
export async function createAlertsForVersion(
  trx: Kysely<Schema>,
  input: { readonly fileId: number; readonly versionId: number; readonly now: number },
): Promise<CreatedAlert[]> {
  const { fileId, versionId, now } = input;
  const file = await trx.selectFrom('robots_files').select('url').where('id', '=', fileId).executeTakeFirst();
  const next = await loadVersion(trx, versionId);
  if (!file || !next) return [];
  const previousId = await versionBefore(trx, fileId, versionId);
  const previous = previousId === null ? null : ((await loadVersion(trx, previousId)) ?? null);
  const lastGoodId =
    previous === null
      ? null
      : previous.outcome === 'error'
        ? await versionBefore(trx, fileId, versionId, true)
        : previousId;
  const lastGood =
    lastGoodId === null ? null : lastGoodId === previousId ? previous : ((await loadVersion(trx, lastGoodId)) ?? null);
  const compared = lastGood ?? previous;
  const changes =
    compared !== null && (compared.outcome === 'fetched' || next.outcome === 'fetched')
      ? lineDiff(textOf(compared), textOf(next))
      : undefined;
  const origin = new URL(file.url).origin;
  const detected = detectAlerts(
    origin,
    snapshotOf(next),
    previous === null ? null : snapshotOf(previous),
    lastGood ? snapshotOf(lastGood) : null,
    changes ? { added: changes.added, removed: changes.removed } : undefined,
  );
  if (detected.length === 0) return [];

  const propertyIds = (
    await trx
      .selectFrom('host_files as hf')
      .innerJoin('hosts as h', 'h.id', 'hf.host_id')
      .select('h.property_id')
      .distinct()
      .where('hf.file_id', '=', fileId)
      .execute()
  ).map((r) => Number(r.property_id));
  const webhooks = await trx
    .selectFrom('webhooks')
    .select(['id', 'property_id', 'kinds_json'])
    .where('disabled_at', 'is', null)
    .execute();

  const created: CreatedAlert[] = [];
  for (const a of detected) {
    const againstId =
      previous === null
        ? null
        : a.kind === 'file-unreachable' || a.kind === 'file-recovered'
          ? previous.id
          : (compared ?? previous).id;
    const diffUrl = againstId === null ? null : `/api/versions/${versionId}/diff?against=${againstId}`;
    const row = await trx
      .insertInto('alerts')
      .values({
        property_id: null,
        file_id: fileId,
        kind: a.kind,
        severity: a.severity,
        message: a.message,
        details_json: JSON.stringify(diffUrl === null ? a.details : { ...a.details, diffUrl }),
        version_id: versionId,
        previous_version_id: againstId,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const alertId = Number(row.id);
    for (const hook of webhooks) {
      if (hook.property_id !== null && !propertyIds.includes(Number(hook.property_id))) continue;
      const kinds = hook.kinds_json === null ? null : (JSON.parse(hook.kinds_json) as string[]);
      if (kinds !== null && !kinds.includes(a.kind)) continue;
      await trx
        .insertInto('webhook_deliveries')
        .values({ webhook_id: hook.id, alert_id: alertId, status: 'pending', attempts: 0, next_attempt_at: now })
        .execute();
    }
    created.push({
      ...a,
      id: alertId,
      fileId,
      fileUrl: file.url,
      versionId,
      previousVersionId: againstId,
      diffUrl,
    });
  }
  return created;
}

/** The worker hook that creates alerts for each new version and writes a log line for each. */
export function createAlertHook(log: (line: string) => void): NewVersionHook {
  return async (trx, info) => {
    for (const alert of await createAlertsForVersion(trx, info)) {
      log(
        `alert ${alert.severity} ${alert.kind} ${alert.fileUrl}: ${alert.message}` +
          (alert.diffUrl === null ? '' : ` (diff: ${alert.diffUrl})`),
      );
    }
  };
}
