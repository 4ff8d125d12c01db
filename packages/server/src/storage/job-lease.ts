/**
 * Named leases for jobs that one process at a time should run, such as pruning: whoever holds the lease runs the
 * job; a crashed holder's lease expires and someone else takes it.
 */

import type { Kysely } from 'kysely';
import type { DialectName } from './config.js';
import type { Schema } from './schema.js';
import { writeTransaction } from './storage-dialect.js';

/** Takes (or renews) the lease `name` for `owner` until `now + ttlMs`; false when someone else holds it. */
export async function acquireJobLease(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: { name: string; owner: string; now: number; ttlMs: number },
): Promise<boolean> {
  const { name, owner, now, ttlMs } = options;
  return writeTransaction(db, dialect, async (trx) => {
    await trx
      .insertInto('leases')
      .values({ name, owner, expires_at: now + ttlMs })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ owner, expires_at: now + ttlMs })
          .where((eb) => eb.or([eb('leases.owner', '=', owner), eb('leases.expires_at', '<=', now)])),
      )
      .execute();
    const row = await trx.selectFrom('leases').select('owner').where('name', '=', name).executeTakeFirst();
    return row?.owner === owner;
  });
}

/** The names of live leases starting with `prefix`, at `now`. */
export async function heldLeases(db: Kysely<Schema>, prefix: string, now: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('leases')
    .select('name')
    .where('name', 'like', `${prefix}%`)
    .where('expires_at', '>', now)
    .execute();
  return new Set(rows.map((r) => r.name));
}
