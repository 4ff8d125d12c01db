/**
 * What the routes need: the database, the clock, and the optional parts other modules plug in.
 */

import type { AvailabilityOptions, AvailabilityRules } from 'robotskit/fetch';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import type { Database } from '../storage/connect.js';
import type { FilePolicyResolver } from '../storage/history.js';

/** The routes' view of the service. */
export interface ApiContext {
  readonly database: Database;
  readonly now: () => number;
  /** Computes effective policies; without it they are null. */
  readonly resolvePolicy: FilePolicyResolver | undefined;
  /** Files `allow-all` (no robots.txt) for at least this long drop out of a property's list (still checked). */
  readonly hideAllowAllAfterMs: number;
  /** The availability timeline the service applies (the engine's options), and its periods in words. */
  readonly availability: AvailabilityOptions;
  readonly availabilityRules: AvailabilityRules;
  /** Whether this process runs fetch workers (reported by the health route). */
  readonly fetching: boolean;
  readonly version: string;
  /** The SSRF-guarded fetch for live robots.txt and sitemaps (tester, impact, host discovery). */
  readonly fetch: GuardedFetch;
  /** Default cap of sitemap URLs an impact check reads. */
  readonly impactMaxUrls: number;
  /** Tells this process's workers that files are due now (a recrawl, a new property), so none waits out its sleep. */
  readonly wakeWorkers: () => void;
  /** Whether the service's fetches may reach loopback and private networks (`--allow-private-addresses`). */
  readonly privateAddressesAllowed: boolean;
}
