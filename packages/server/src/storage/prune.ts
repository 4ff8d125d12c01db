/**
 * History retention. Fetches older than the retention window are deleted, except each file's newest fetch (the
 * versioning step compares against it). Versions older than the window are deleted except the ones still needed:
 * each file's newest version (its current content), its newest successfully fetched version (the last copy of its
 * rules) and its newest version that was not a failure (what the availability timeline falls back on: rules, or a 404
 * meaning allow all). Alerts older than the window go too (with their webhook deliveries). Bodies nobody references
 * any more go last.
 */

import type { Kysely } from 'kysely';
import type { DialectName } from './config.js';
import type { Schema } from './schema.js';
import { writeTransaction } from './storage-dialect.js';

/** The default retention window: 30 days, as Search Console shows. */
export const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** What one pruning pass deleted. */
interface PruneResult {
  readonly fetches: number;
  readonly versions: number;
  readonly bodies: number;
  readonly alerts: number;
}

/** Deletes history older than `now - retentionMs` that nothing needs. */
export async function pruneHistory(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: { now: number; retentionMs?: number },
): Promise<PruneResult> {
  const cutoff = options.now - (options.retentionMs ?? DEFAULT_RETENTION_MS);
  return writeTransaction(db, dialect, async (trx) => {
    const fetches = await trx
      .deleteFrom('fetches')
      .where('started_at', '<', cutoff)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('robots_files')
              .select('robots_files.id')
              .whereRef('robots_files.last_fetch_id', '=', 'fetches.id'),
          ),
        ),
      )
      .executeTakeFirst();

    const newestPerFile = trx
      .selectFrom('versions as v')
      .select((eb) => eb.fn.max('v.id').as('id'))
      .groupBy('v.file_id');
    const newestGoodPerFile = trx
      .selectFrom('versions as g')
      .select((eb) => eb.fn.max('g.id').as('id'))
      .where('g.outcome', '=', 'rules')
      .groupBy('g.file_id');
    const newestNotFailedPerFile = trx
      .selectFrom('versions as n')
      .select((eb) => eb.fn.max('n.id').as('id'))
      .where('n.outcome', '!=', 'disallow-all')
      .groupBy('n.file_id');
    const versions = await trx
      .deleteFrom('versions')
      .where('fetched_at', '<', cutoff)
      .where('id', 'not in', newestPerFile)
      .where('id', 'not in', newestGoodPerFile)
      .where('id', 'not in', newestNotFailedPerFile)
      .executeTakeFirst();

    const alerts = await trx.deleteFrom('alerts').where('created_at', '<', cutoff).executeTakeFirst();

    const bodies = await deleteUnusedBodies(trx);

    return {
      fetches: Number(fetches.numDeletedRows),
      versions: Number(versions.numDeletedRows),
      bodies,
      alerts: Number(alerts.numDeletedRows),
    };
  });
}

/** Deletes the bodies no fetch or version refers to any more; returns how many. */
export async function deleteUnusedBodies(db: Kysely<Schema>): Promise<number> {
  const result = await db
    .deleteFrom('bodies')
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(eb.selectFrom('fetches').select('fetches.id').whereRef('fetches.body_hash', '=', 'bodies.hash')),
        ),
        eb.not(
          eb.exists(eb.selectFrom('versions').select('versions.id').whereRef('versions.body_hash', '=', 'bodies.hash')),
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
