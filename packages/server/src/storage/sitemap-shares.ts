/**
 * The share of a site's sitemap URLs each version of its robots.txt blocks per watched crawler: written in the
 * transaction that records the version (measured before it, `analysis/sitemap-share.ts`), read back by the headlines.
 */

import type { Kysely } from 'kysely';
import type { Schema, SitemapShareStatus } from './schema.js';

/** A version's share of sitemap URLs blocked, as stored and read back. */
export interface SitemapShare {
  readonly status: SitemapShareStatus;
  /** When it was measured (epoch ms): the sitemaps may have changed since. */
  readonly measuredAt: number;
  /** Sitemap URLs of the file's origin decided. */
  readonly checked: number;
  /** The walk stopped at a limit (its cap on URLs, its time budget, the reader's own): `checked` is a sample. */
  readonly capped: boolean;
  /** The sitemaps the walk started from. */
  readonly sitemaps: readonly string[];
  /** Per watched crawler, how many of `checked` the version blocks; empty unless `measured` or `partial`. */
  readonly crawlers: readonly { readonly crawler: string; readonly blocked: number }[];
  /** Why the share is partial or unknown, in words; null when whole. */
  readonly reason: string | null;
}

/** Stores the share measured for `versionId` (once: a version's share never changes). */
export async function storeSitemapShare(db: Kysely<Schema>, versionId: number, share: SitemapShare): Promise<void> {
  await db
    .insertInto('sitemap_shares')
    .values({
      version_id: versionId,
      measured_at: share.measuredAt,
      status: share.status,
      checked: share.checked,
      capped: share.capped ? 1 : 0,
      sitemaps_json: JSON.stringify(share.sitemaps),
      crawlers_json: JSON.stringify(share.crawlers),
      reason: share.reason,
    })
    .onConflict((oc) => oc.column('version_id').doNothing())
    .execute();
}

/** The share stored for `versionId`, or null (a version without rules, or recorded without a sitemap walk). */
export async function sitemapShareOfVersion(db: Kysely<Schema>, versionId: number): Promise<SitemapShare | null> {
  const row = await db.selectFrom('sitemap_shares').selectAll().where('version_id', '=', versionId).executeTakeFirst();
  if (row === undefined) return null;
  return {
    status: row.status,
    measuredAt: Number(row.measured_at),
    checked: Number(row.checked),
    capped: Number(row.capped) === 1,
    sitemaps: JSON.parse(row.sitemaps_json) as string[],
    crawlers: JSON.parse(row.crawlers_json) as SitemapShare['crawlers'],
    reason: row.reason,
  };
}

/** The content key of the file's last fetch (`sha256:<hash>` or an outcome), or null before its first fetch. */
export async function lastContentKey(db: Kysely<Schema>, fileId: number): Promise<string | null> {
  const row = await db
    .selectFrom('robots_files as f')
    .innerJoin('fetches as lf', 'lf.id', 'f.last_fetch_id')
    .select('lf.content_key')
    .where('f.id', '=', fileId)
    .executeTakeFirst();
  return row?.content_key ?? null;
}
