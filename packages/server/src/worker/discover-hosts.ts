/**
 * Host discovery for domain properties: the hosts of the domain that its sitemaps list (the sitemaps its own
 * robots.txt files name, walked with `robotskit-sitemaps`), added to the property with source `sitemap` and ranked
 * by how many page URLs they have now, after the hosts the user named (the report shows the 20 most important).
 * Runs on request (`POST /api/properties/:id/discover-hosts`) and daily per domain property in the workers.
 */

import { randomUUID } from 'node:crypto';
import { parseRobotsTxt, type RobotsTxt } from 'robotskit';
import { robotsTxtOf } from 'robotskit/fetch';
import { sitemapPageUrls } from '../analysis/sitemap-urls.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { retrieveRobotsTxt } from '../net/robots-fetch.js';
import type { Database } from '../storage/connect.js';
import { acquireJobLease, heldLeases } from '../storage/job-lease.js';
import {
  addPropertyHost,
  listDomainProperties,
  listHosts,
  ownFilesOfProperty,
  rankSitemapHosts,
} from '../storage/properties.js';
import { getFileReport, getVersion } from '../storage/report.js';
import type { PropertyRow } from '../storage/schema.js';

/** Options of {@link discoverHosts}. */
interface DiscoverOptions {
  readonly fetch: GuardedFetch;
  readonly now: number;
  /**
   * Page URLs read at most.
   * @default 50000
   */
  readonly maxUrls?: number;
  /**
   * Hosts added at most per run.
   * @default 20
   */
  readonly maxHosts?: number;
  /** Stops the discovery (the client went away, the process is stopping): nothing is added then. */
  readonly signal?: AbortSignal;
}

/** What a discovery found. */
export interface DiscoveredHosts {
  readonly urlsRead: number;
  readonly hosts: { host: string; urls: number; added: boolean; rank: number | null }[];
  readonly problems: string[];
}

/** Discovers and adds the hosts a domain property's sitemaps list. */
export async function discoverHosts(
  database: Database,
  property: PropertyRow,
  options: DiscoverOptions,
): Promise<DiscoveredHosts> {
  const { db, dialect } = database;
  const live = (url: string) => retrieveRobotsTxt(url, { fetch: options.fetch, now: () => options.now });
  const domain = property.name;
  const hosts = await listHosts(db, property.id);
  // The sitemaps the property's own robots.txt files list: from their latest stored version, else fetched now.
  const files = await ownFilesOfProperty(db, property.id);
  const origins = files.map((f) => new URL(f.url).origin);
  const sitemaps = new Set<string>();
  const problems: string[] = [];
  for (const f of files) {
    const report = await getFileReport(db, f.id);
    const stored =
      report?.fetch_outcome === 'rules' && report.latest_version_id !== null
        ? await getVersion(db, report.latest_version_id)
        : undefined;
    let robots: RobotsTxt | null;
    if (stored && stored.outcome === 'rules') {
      robots = parseRobotsTxt(stored.content ?? new Uint8Array());
    } else {
      const result = await live(f.url);
      robots = robotsTxtOf(result);
      if (robots === null) problems.push(`${result.robotsUrl}: ${result.error?.message ?? `HTTP ${result.status}`}`);
    }
    for (const s of robots?.sitemaps ?? []) sitemaps.add(s);
  }
  const inDomain = (host: string) => host === domain || host.endsWith(`.${domain}`);
  const walk = await sitemapPageUrls([...sitemaps], {
    fetch: options.fetch,
    maxUrls: options.maxUrls ?? 50_000,
    allowedOrigins: origins,
    scope: 'none',
    keep: (url) => inDomain(new URL(url).hostname),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  options.signal?.throwIfAborted();
  problems.push(...walk.problems);
  const counts = new Map<string, number>();
  for (const url of walk.urls) {
    const host = new URL(url).host;
    counts.set(host, (counts.get(host) ?? 0) + 1);
  }
  const known = new Map(hosts.map((h) => [h.host, h]));
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const maxHosts = options.maxHosts ?? 20;
  let added = 0;
  const out = [];
  for (const [host, n] of ranked) {
    if (known.has(host)) {
      out.push({ host, urls: n, added: false });
      continue;
    }
    if (added >= maxHosts) {
      out.push({ host, urls: n, added: false });
      continue;
    }
    const row = await addPropertyHost(db, dialect, property.id, host, 'sitemap', ['https', 'http'], options.now);
    added++;
    out.push({ host, urls: n, added: row !== null });
  }
  // Sitemap hosts ranked by their URLs now (the report shows the first 20 hosts), after the hosts the user named.
  const rows = await rankSitemapHosts(
    db,
    dialect,
    property.id,
    ranked.map(([host]) => host),
  );
  const rankOf = new Map(rows.map((h) => [h.host, h.rank]));
  return {
    urlsRead: walk.urls.length,
    hosts: out.map((h) => ({ ...h, rank: rankOf.get(h.host) ?? null })),
    problems: problems.slice(0, 20),
  };
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Runs discovery for at most one domain property whose daily run is due (a named lease per property, so one worker
 * runs it, once a day); returns the property id, or null when none was due.
 */
export async function discoverDueProperty(
  database: Database,
  options: { fetch: GuardedFetch; now: number; everyMs?: number; maxUrls?: number; signal?: AbortSignal },
): Promise<number | null> {
  const properties = await listDomainProperties(database.db);
  const held = await heldLeases(database.db, 'discover-hosts:', options.now);
  for (const property of properties) {
    if (held.has(`discover-hosts:${property.id}`)) continue;
    const taken = await acquireJobLease(database.db, database.dialect, {
      name: `discover-hosts:${property.id}`,
      // A fresh owner each time: only an absent or expired lease is taken, never renewed by its holder.
      owner: randomUUID(),
      now: options.now,
      ttlMs: options.everyMs ?? DAY,
    });
    if (!taken) continue;
    await discoverHosts(database, property, {
      fetch: options.fetch,
      now: options.now,
      maxUrls: options.maxUrls ?? 10_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return property.id;
  }
  return null;
}
