/**
 * The versioning step: store one fetch, and a version when its content differs from the previous fetch's. Bodies are
 * content-addressed (SHA-256) and stored once. Everything happens in one transaction that first checks the claim's
 * fencing token, so a fetch is either recorded completely (fetch, body, version, the file's next due time, the lease
 * released) or not at all: a worker killed at any moment leaves no half-written cycle.
 */

import type { Kysely } from 'kysely';
import type { RobotsTxt } from 'robotskit';
import type { RetrievalOutcome } from 'robotskit/fetch';
import type { ClaimedFile } from './claim.js';
import type { DialectName } from './config.js';
import type { BodyAnalysis, FetchRecord } from './rows.js';
import type { Schema } from './schema.js';
import { writeTransaction } from './storage-dialect.js';

/** What distinguishes one version from the next: the body when its rules apply, the outcome for the others. */
export function contentKeyOf(outcome: RetrievalOutcome, bodyHash: string | null): string {
  return outcome === 'rules' ? `sha256:${bodyHash ?? ''}` : outcome;
}

/** Options of {@link recordFetch}; `Prepared` is what the new-version hook prepares before the transaction. */
interface RecordOptions<Prepared> {
  /** When the file is due next (see `nextFetchAt`). */
  readonly nextFetchAt: number;
  /** Name of the worker, stored with the fetch. */
  readonly worker?: string;
  /** Lint results for the body, stored with it when the body is new. */
  readonly analysis?: BodyAnalysis;
  /** Runs in the same transaction when the fetch made a new version (alerts are created here). */
  readonly onNewVersion?: NewVersionHook<Prepared>;
  /** The body parsed, asked for only when the hook runs (so a body is parsed at most once per fetch). */
  readonly parsed?: () => RobotsTxt;
  /** What the hook's `prepare` worked out before this transaction, handed to the hook. */
  readonly prepared?: Prepared;
}

/** A new version as the hook is told about it, inside the transaction that records it. */
export interface NewVersion<Prepared> {
  readonly fileId: number;
  readonly versionId: number;
  readonly now: number;
  /** The fetch as just recorded (so the hook need not read it back). */
  readonly fetch: FetchRecord;
  /** Its body parsed, once, when the hook asks. */
  readonly parsed?: () => RobotsTxt;
  /** What `prepare` returned for this fetch, if it ran. */
  readonly prepared?: Prepared;
}

/**
 * Told about a new version inside the transaction that records it; a throw rolls the whole fetch back. Storage knows
 * nothing of what the hook does (the service's creates alerts); `Prepared` is whatever its `prepare` hands over.
 */
export interface NewVersionHook<Prepared> {
  (trx: Kysely<Schema>, info: NewVersion<Prepared>): Promise<void>;
  /**
   * Work for a fetch that may make a new version and needs the network or time (the sitemap URLs an edit changes),
   * run by the worker before the recording transaction, never inside it, with the body as parsed already (if it
   * was). Its answer reaches the hook as `prepared`; a throw or null leaves the hook to do without.
   */
  readonly prepare?: (
    db: Kysely<Schema>,
    file: { readonly id: number; readonly url: string },
    fetch: FetchRecord,
    robots: RobotsTxt | undefined,
    signal: AbortSignal,
  ) => Promise<Prepared | null>;
}

/** What {@link recordFetch} did. */
export type RecordResult =
  | {
      readonly recorded: true;
      readonly fetchId: number;
      readonly versionId: number | null;
      readonly bodyHash: string | null;
    }
  /** The claim's lease had been taken over (it expired and another worker claimed the file): nothing was stored. */
  | { readonly recorded: false; readonly reason: 'lease-lost' };

type Trx = Kysely<Schema>;

/** The claimed file's row as recording reads it, or undefined when the claim's lease was taken over. */
function claimedFile(trx: Trx, claim: Pick<ClaimedFile, 'id' | 'leaseToken'>) {
  return trx
    .selectFrom('robots_files')
    .select([
      'id',
      'last_fetch_id',
      'leased_at',
      'recrawl_requested_at',
      'consecutive_failures',
      'failing_since',
      'allow_all_since',
    ])
    .where('id', '=', claim.id)
    .where('lease_token', '=', claim.leaseToken)
    .executeTakeFirst();
}
type FileState = NonNullable<Awaited<ReturnType<typeof claimedFile>>>;

/** Stores a body once (by hash), with its lint results when given (they replace none stored before). */
async function storeBody(trx: Trx, body: Uint8Array, hash: string, at: number, analysis?: BodyAnalysis) {
  await trx
    .insertInto('bodies')
    .values({
      hash,
      content: body,
      size: body.byteLength,
      created_at: at,
      lint_errors: analysis?.errors ?? null,
      lint_warnings: analysis?.warnings ?? null,
      lint_json: analysis ? JSON.stringify(analysis.diagnostics) : null,
    })
    .onConflict((oc) =>
      analysis
        ? oc.column('hash').doUpdateSet({
            lint_errors: analysis.errors,
            lint_warnings: analysis.warnings,
            lint_json: JSON.stringify(analysis.diagnostics),
          })
        : oc.column('hash').doNothing(),
    )
    .execute();
}

/** Inserts the fetch row; returns its id. */
async function insertFetch(trx: Trx, fileId: number, result: FetchRecord, contentKey: string, worker?: string) {
  const inserted = await trx
    .insertInto('fetches')
    .values({
      file_id: fileId,
      started_at: result.startedAt,
      finished_at: result.finishedAt,
      outcome: result.outcome,
      http_status: result.httpStatus,
      size: result.outcome === 'rules' ? (result.body?.byteLength ?? 0) : null,
      body_hash: result.outcome === 'rules' ? result.bodyHash : null,
      content_key: contentKey,
      headers_json: JSON.stringify(result.headers),
      redirects_json: JSON.stringify(result.redirects),
      final_url: result.finalUrl,
      error_kind: result.error?.kind ?? null,
      error_code: result.error?.code ?? null,
      error_phase: result.error?.phase ?? null,
      error_message: result.error?.message ?? null,
      timings_json: result.timings === null ? null : JSON.stringify(result.timings),
      worker: worker ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Inserts the version a fetch starts; returns its id. */
async function insertVersion(trx: Trx, fileId: number, fetchId: number, result: FetchRecord) {
  const version = await trx
    .insertInto('versions')
    .values({
      file_id: fileId,
      fetch_id: fetchId,
      fetched_at: result.startedAt,
      outcome: result.outcome,
      http_status: result.httpStatus,
      size: result.outcome === 'rules' ? (result.body?.byteLength ?? 0) : null,
      body_hash: result.outcome === 'rules' ? result.bodyHash : null,
      headers_json: JSON.stringify(result.headers),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(version.id);
}

/** The file after the fetch: its last fetch, when it is due next, its lease released, its current runs of outcomes. */
async function updateFile(trx: Trx, file: FileState, fetchId: number, result: FetchRecord, nextFetchAt: number) {
  // A recrawl requested while this fetch was running asks for a fetch that sees changes made after it started.
  const recrawlPending =
    file.recrawl_requested_at !== null && file.leased_at !== null && file.recrawl_requested_at > file.leased_at;
  const failed = result.outcome === 'disallow-all';
  await trx
    .updateTable('robots_files')
    .set({
      last_fetch_id: fetchId,
      next_fetch_at: recrawlPending ? (file.recrawl_requested_at as number) : nextFetchAt,
      priority: recrawlPending ? 0 : 1,
      recrawl_requested_at: recrawlPending ? file.recrawl_requested_at : null,
      lease_owner: null,
      lease_token: null,
      leased_at: null,
      lease_expires_at: null,
      consecutive_failures: failed ? file.consecutive_failures + 1 : 0,
      failing_since: failed ? (file.failing_since ?? result.startedAt) : null,
      allow_all_since: result.outcome === 'allow-all' ? (file.allow_all_since ?? result.startedAt) : null,
    })
    .where('id', '=', file.id)
    .execute();
}

/** Stores the result of fetching a claimed file. */
export async function recordFetch<Prepared>(
  db: Kysely<Schema>,
  dialect: DialectName,
  claim: Pick<ClaimedFile, 'id' | 'leaseToken'>,
  result: FetchRecord,
  options: RecordOptions<Prepared>,
): Promise<RecordResult> {
  const body = result.outcome === 'rules' ? (result.body ?? new Uint8Array()) : null;
  const bodyHash = body === null ? null : result.bodyHash;
  const contentKey = contentKeyOf(result.outcome, bodyHash);

  return writeTransaction(db, dialect, async (trx) => {
    const file = await claimedFile(trx, claim);
    if (!file) return { recorded: false, reason: 'lease-lost' } as const;
    if (body !== null && bodyHash !== null) await storeBody(trx, body, bodyHash, result.finishedAt, options.analysis);
    const previous =
      file.last_fetch_id === null
        ? undefined
        : await trx.selectFrom('fetches').select('content_key').where('id', '=', file.last_fetch_id).executeTakeFirst();
    const fetchId = await insertFetch(trx, claim.id, result, contentKey, options.worker);
    let versionId: number | null = null;
    if (previous?.content_key !== contentKey) {
      versionId = await insertVersion(trx, claim.id, fetchId, result);
      await options.onNewVersion?.(trx, {
        fileId: claim.id,
        versionId,
        now: result.finishedAt,
        fetch: result,
        ...(options.parsed ? { parsed: options.parsed } : {}),
        ...(options.prepared === undefined ? {} : { prepared: options.prepared }),
      });
    }
    await updateFile(trx, file, fetchId, result, options.nextFetchAt);
    return { recorded: true, fetchId, versionId, bodyHash } as const;
  });
}

/** Whether lint results are already stored for this body (so the worker lints each distinct body once). */
export async function bodyIsAnalysed(db: Kysely<Schema>, hash: string): Promise<boolean> {
  const row = await db.selectFrom('bodies').select('lint_errors').where('hash', '=', hash).executeTakeFirst();
  return row !== undefined && row.lint_errors !== null;
}
