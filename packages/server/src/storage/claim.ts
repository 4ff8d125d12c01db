/**
 * Claiming due files with a lease. A file is due when `next_fetch_at` has passed and nobody holds a live lease on it.
 * A claim writes the worker's name, a fresh fencing token and an expiry; a crashed worker's lease simply runs out and
 * the file becomes claimable again. Recording a fetch checks the token, so a worker that lost its lease (it was too
 * slow, another took over) cannot record a second fetch for the same cycle.
 *
 * The claim runs in the storage dialect's write transaction with its claim lock (PostgreSQL: `FOR UPDATE SKIP
 * LOCKED`; SQLite: one writer at a time), so concurrent workers pick disjoint rows.
 */

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectName } from './config.js';
import type { Schema } from './schema.js';
import { storageDialect } from './storage-dialect.js';

/** A file a worker has claimed. */
export interface ClaimedFile {
  readonly id: number;
  /** `scheme://host[:port]/robots.txt`. */
  readonly url: string;
  /** Fencing token of this claim; the fetch is recorded only while it still holds. */
  readonly leaseToken: string;
  readonly leaseExpiresAt: number;
  /** Failed fetches in a row before this one. */
  readonly consecutiveFailures: number;
  /** When the current run of failed fetches began, null when the last fetch did not fail. */
  readonly failingSince: number | null;
}

/** Options of {@link claimDueFiles}. */
interface ClaimOptions {
  /** Name of the claiming worker (host and process), stored for diagnosis. */
  readonly owner: string;
  /** Most files to claim at once. */
  readonly limit: number;
  /** How long the lease lasts; must exceed the longest fetch (timeouts included). */
  readonly leaseMs: number;
  /** Now, in epoch ms (injected so tests control time). */
  readonly now: number;
}

/** Claims up to `limit` due files, recrawl requests first, then the longest overdue. */
export async function claimDueFiles(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: ClaimOptions,
): Promise<ClaimedFile[]> {
  const { owner, limit, leaseMs, now } = options;
  if (limit <= 0) return [];
  const token = `${owner}:${randomUUID()}`;
  const expiresAt = now + leaseMs;
  const storage = storageDialect(dialect);
  return storage.write(db, async (trx) => {
    const due = storage.lockForClaim(
      trx
        .selectFrom('robots_files')
        .select('id')
        .where('next_fetch_at', '<=', now)
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
        .orderBy('priority')
        .orderBy('next_fetch_at')
        .orderBy('id')
        .limit(limit),
    );
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable('robots_files')
      .set({ lease_owner: owner, lease_token: token, leased_at: now, lease_expires_at: expiresAt })
      .where('id', 'in', ids)
      .returning(['id', 'url', 'consecutive_failures', 'failing_since', 'priority', 'next_fetch_at'])
      .execute();
    rows.sort((a, b) => a.priority - b.priority || a.next_fetch_at - b.next_fetch_at || a.id - b.id);
    return rows.map((r) => ({
      id: r.id,
      url: r.url,
      leaseToken: token,
      leaseExpiresAt: expiresAt,
      consecutiveFailures: r.consecutive_failures,
      failingSince: r.failing_since,
    }));
  });
}

/** Gives a claim back without recording anything (the worker is stopping); the file stays due. */
export async function releaseClaim(db: Kysely<Schema>, file: Pick<ClaimedFile, 'id' | 'leaseToken'>): Promise<void> {
  await db
    .updateTable('robots_files')
    .set({ lease_owner: null, lease_token: null, leased_at: null, lease_expires_at: null })
    .where('id', '=', file.id)
    .where('lease_token', '=', file.leaseToken)
    .execute();
}

/** Puts a file at the front of the queue: due now, ahead of scheduled fetches. Returns false for an unknown id. */
export async function requestRecrawl(db: Kysely<Schema>, fileId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('robots_files')
    .set({ next_fetch_at: now, priority: 0, recrawl_requested_at: now })
    .where('id', '=', fileId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
