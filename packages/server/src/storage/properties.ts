/**
 * Properties, their hosts and the robots.txt files they watch. A file is one origin's robots.txt and is shared by
 * every property that watches that origin; it is deleted with the last property that watches it.
 */

import type { Kysely, Transaction } from 'kysely';
import { robotsTxtUrl } from 'robotskit';
import { type FetchStatus, fetchStatusOf } from 'robotskit/fetch';
import { RobotskitServerError } from '../errors.js';
import type { DialectName } from './config.js';
import { deleteUnusedBodies } from './prune.js';
import { storedErrorOf } from './rows.js';
import type { HostRow, HostSource, PropertyKind, PropertyRow, RobotsScheme, Schema } from './schema.js';
import { writeTransaction } from './storage-dialect.js';

/** A property to create. */
interface NewProperty {
  readonly kind: PropertyKind;
  readonly name: string;
  readonly hosts: readonly { readonly host: string; readonly source: HostSource }[];
  readonly schemes: readonly RobotsScheme[];
}

/** Thrown when a property with the same canonical name exists. */
export class PropertyExistsError extends RobotskitServerError {
  declare readonly code: 'property-exists';
  constructor(
    readonly propertyName: string,
    readonly existingId: number,
  ) {
    super('property-exists', `the property ${propertyName} already exists (id ${existingId})`);
  }
}

type Db = Kysely<Schema> | Transaction<Schema>;

/** Adds a host to a property with its files (created when new, due at once); returns the host row. */
async function addHost(
  trx: Db,
  propertyId: number,
  host: string,
  source: HostSource,
  rank: number,
  schemes: readonly RobotsScheme[],
  now: number,
): Promise<HostRow> {
  const hostRow = await trx
    .insertInto('hosts')
    .values({ property_id: propertyId, host, source, rank, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const scheme of schemes) {
    // The engine says where an origin's robots.txt is (default ports dropped, as the WHATWG parser writes them).
    const url = robotsTxtUrl(`${scheme}://${host}/`);
    await trx
      .insertInto('robots_files')
      .values({ url, scheme, host, created_at: now, next_fetch_at: now, priority: 1, consecutive_failures: 0 })
      .onConflict((oc) => oc.column('url').doNothing())
      .execute();
    const file = await trx.selectFrom('robots_files').select('id').where('url', '=', url).executeTakeFirstOrThrow();
    await trx.insertInto('host_files').values({ host_id: hostRow.id, file_id: file.id }).execute();
  }
  return hostRow;
}

/** Creates a property with its hosts and files. Throws {@link PropertyExistsError} for a duplicate. */
export async function createProperty(
  db: Kysely<Schema>,
  dialect: DialectName,
  property: NewProperty,
  now: number,
): Promise<PropertyRow> {
  return writeTransaction(db, dialect, async (trx) => {
    const existing = await trx
      .selectFrom('properties')
      .select('id')
      .where('name', '=', property.name)
      .executeTakeFirst();
    if (existing) throw new PropertyExistsError(property.name, existing.id);
    const row = await trx
      .insertInto('properties')
      .values({ kind: property.kind, name: property.name, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    let rank = 0;
    for (const { host, source } of property.hosts) {
      await addHost(trx, row.id, host, source, rank++, property.schemes, now);
    }
    return row;
  });
}

/** The highest rank among a property's hosts (of the sources given, when given), or -1. */
async function maxRank(trx: Db, propertyId: number, sources?: readonly HostSource[]): Promise<number> {
  let query = trx
    .selectFrom('hosts')
    .select((eb) => eb.fn.max('rank').as('rank'))
    .where('property_id', '=', propertyId);
  if (sources) query = query.where('source', 'in', sources);
  const row = await query.executeTakeFirst();
  return row?.rank == null ? -1 : Number(row.rank);
}

/**
 * Adds a host to an existing property; null when it is already there. Ranks: the hosts the user named (the
 * property's, `www`, those added by hand) come first, in the order added, then the hosts found in sitemaps; so a host
 * added by hand goes after the other named ones and before every sitemap host, and a sitemap host goes last.
 */
export async function addPropertyHost(
  db: Kysely<Schema>,
  dialect: DialectName,
  propertyId: number,
  host: string,
  source: HostSource,
  schemes: readonly RobotsScheme[],
  now: number,
): Promise<HostRow | null> {
  return writeTransaction(db, dialect, async (trx) => {
    const existing = await trx
      .selectFrom('hosts')
      .select('id')
      .where('property_id', '=', propertyId)
      .where('host', '=', host)
      .executeTakeFirst();
    if (existing) return null;
    if (source === 'sitemap') {
      return addHost(trx, propertyId, host, source, (await maxRank(trx, propertyId)) + 1, schemes, now);
    }
    const rank = (await maxRank(trx, propertyId, ['property', 'www', 'user'])) + 1;
    await trx
      .updateTable('hosts')
      .set((eb) => ({ rank: eb('rank', '+', 1) }))
      .where('property_id', '=', propertyId)
      .where('source', '=', 'sitemap')
      .where('rank', '>=', rank)
      .execute();
    return addHost(trx, propertyId, host, source, rank, schemes, now);
  });
}

/**
 * Ranks a property's sitemap hosts: those in `ordered` first, in that order (most important first), then the other
 * sitemap hosts in their previous order; all after the hosts the user named. Returns the hosts, by rank.
 */
export async function rankSitemapHosts(
  db: Kysely<Schema>,
  dialect: DialectName,
  propertyId: number,
  ordered: readonly string[],
): Promise<HostRow[]> {
  return writeTransaction(db, dialect, async (trx) => {
    const sitemapHosts = await trx
      .selectFrom('hosts')
      .selectAll()
      .where('property_id', '=', propertyId)
      .where('source', '=', 'sitemap')
      .orderBy('rank')
      .orderBy('id')
      .execute();
    const position = new Map(ordered.map((host, i) => [host, i]));
    const sorted = [...sitemapHosts].sort(
      (a, b) => (position.get(a.host) ?? Number.MAX_SAFE_INTEGER) - (position.get(b.host) ?? Number.MAX_SAFE_INTEGER),
    );
    let rank = (await maxRank(trx, propertyId, ['property', 'www', 'user'])) + 1;
    for (const row of sorted) {
      const next = rank++;
      if (row.rank !== next) await trx.updateTable('hosts').set({ rank: next }).where('id', '=', row.id).execute();
    }
    return listHosts(trx, propertyId);
  });
}

/** Deletes a property, its hosts, and the files no other property watches (with their history). */
export async function deleteProperty(db: Kysely<Schema>, dialect: DialectName, propertyId: number): Promise<boolean> {
  return writeTransaction(db, dialect, async (trx) => {
    const deleted = await trx.deleteFrom('properties').where('id', '=', propertyId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await trx
      .deleteFrom('robots_files')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('host_files')
              .select('host_files.file_id')
              .whereRef('host_files.file_id', '=', 'robots_files.id'),
          ),
        ),
      )
      .execute();
    // Bodies no longer referenced by any fetch or version go with them.
    await deleteUnusedBodies(trx);
    return true;
  });
}

/** A property with how many files it watches. */
interface PropertySummary extends PropertyRow {
  readonly host_count: number;
  readonly file_count: number;
}

/** Every property, oldest first. */
export async function listProperties(
  db: Kysely<Schema>,
  page: { readonly after?: number | undefined; readonly limit?: number | undefined } = {},
): Promise<PropertySummary[]> {
  let query = db
    .selectFrom('properties as p')
    .selectAll('p')
    .select((eb) => [
      eb
        .selectFrom('hosts as h')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('h.property_id', '=', 'p.id')
        .as('host_count'),
      eb
        .selectFrom('hosts as h')
        .innerJoin('host_files as hf', 'hf.host_id', 'h.id')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('h.property_id', '=', 'p.id')
        .as('file_count'),
    ])
    .orderBy('p.id');
  if (page.after !== undefined) query = query.where('p.id', '>', page.after);
  if (page.limit !== undefined) query = query.limit(page.limit);
  const rows = await query.execute();
  return rows.map((r) => ({ ...r, host_count: Number(r.host_count ?? 0), file_count: Number(r.file_count ?? 0) }));
}

/** How a property's files stand: their last fetches counted by the engine's report status (`fetchStatusOf`). */
interface PropertyHealth {
  fetched: number;
  notFound: number;
  /** Every other answer: failures, and the 4xx other than 404 and 410 (a 403 is an error here, crawled as allow-all). */
  error: number;
  /** Not fetched yet. */
  unchecked: number;
  /** Lint findings of the fetched files' current content, summed. */
  lintErrors: number;
  lintWarnings: number;
}

const NO_FILES: PropertyHealth = { fetched: 0, notFound: 0, error: 0, unchecked: 0, lintErrors: 0, lintWarnings: 0 };

/** Every property's health (or those of `propertyIds`), by property id (one grouped query over the files' last fetches). */
export async function propertiesHealth(
  db: Kysely<Schema>,
  propertyIds?: readonly number[],
): Promise<Map<number, PropertyHealth>> {
  if (propertyIds?.length === 0) return new Map();
  let query = db
    .selectFrom('hosts as h')
    .innerJoin('host_files as hf', 'hf.host_id', 'h.id')
    .innerJoin('robots_files as f', 'f.id', 'hf.file_id')
    .leftJoin('fetches as lf', 'lf.id', 'f.last_fetch_id')
    .leftJoin('bodies as b', (join) => join.onRef('b.hash', '=', 'lf.body_hash').on('lf.outcome', '=', 'rules'))
    .select((eb) => [
      'h.property_id',
      'lf.outcome',
      'lf.http_status',
      'lf.error_kind',
      'lf.error_code',
      eb.fn.countAll().as('n'),
      eb.fn.sum('b.lint_errors').as('lint_errors'),
      eb.fn.sum('b.lint_warnings').as('lint_warnings'),
    ])
    // The facts the engine's report status reads, so each group has one status.
    .groupBy(['h.property_id', 'lf.outcome', 'lf.http_status', 'lf.error_kind', 'lf.error_code']);
  if (propertyIds !== undefined) query = query.where('h.property_id', 'in', [...propertyIds]);
  const rows = await query.execute();
  const health = new Map<number, PropertyHealth>();
  const statuses = new Map<string, FetchStatus['status']>();
  for (const row of rows) {
    const id = Number(row.property_id);
    const h = { ...(health.get(id) ?? NO_FILES) };
    const n = Number(row.n);
    if (row.outcome === null) h.unchecked += n;
    else {
      // Few distinct facts across many groups: the engine is asked once for each.
      const key = `${row.outcome} ${row.http_status} ${row.error_kind} ${row.error_code}`;
      let status = statuses.get(key);
      if (status === undefined) {
        const error = storedErrorOf({ ...row, error_phase: null, error_message: null });
        status = fetchStatusOf({ outcome: row.outcome, status: row.http_status, error }).status;
        statuses.set(key, status);
      }
      if (status === 'fetched') h.fetched += n;
      else if (status === 'not-found') h.notFound += n;
      else h.error += n;
    }
    h.lintErrors += Number(row.lint_errors ?? 0);
    h.lintWarnings += Number(row.lint_warnings ?? 0);
    health.set(id, h);
  }
  return health;
}

/** The health of a property without files. */
export const emptyHealth = (): PropertyHealth => ({ ...NO_FILES });

/** One property, or undefined. */
export async function getProperty(db: Kysely<Schema>, id: number): Promise<PropertyRow | undefined> {
  return db.selectFrom('properties').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A property's hosts, most important first. */
export async function listHosts(db: Kysely<Schema>, propertyId: number): Promise<HostRow[]> {
  return db
    .selectFrom('hosts')
    .selectAll()
    .where('property_id', '=', propertyId)
    .orderBy('rank')
    .orderBy('id')
    .execute();
}

/** The domain properties, oldest first. */
export function listDomainProperties(db: Kysely<Schema>): Promise<PropertyRow[]> {
  return db.selectFrom('properties').selectAll().where('kind', '=', 'domain').orderBy('id').execute();
}

/** The robots.txt files of a property's own hosts (the property's and its www sibling), https first. */
export function ownFilesOfProperty(db: Kysely<Schema>, propertyId: number): Promise<{ id: number; url: string }[]> {
  return db
    .selectFrom('host_files as hf')
    .innerJoin('hosts as h', 'h.id', 'hf.host_id')
    .innerJoin('robots_files as f', 'f.id', 'hf.file_id')
    .select(['f.id', 'f.url'])
    .where('h.property_id', '=', propertyId)
    .where('h.source', 'in', ['property', 'www'])
    .orderBy('h.rank')
    .orderBy('f.scheme', 'desc')
    .execute();
}
