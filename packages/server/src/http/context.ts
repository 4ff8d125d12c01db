/**
 * What the routes need: the database, the clock, and the optional parts other modules plug in.
 */

import type { AvailabilityOptions, AvailabilityRules, RobotsStore } from 'robotskit/fetch';
import type { Dns, RangesByCrawler } from 'robotskit/logs';
import type { AnalysisThreads } from '../analysis/threads.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import type { Database } from '../storage/connect.js';
import type { FilePolicyResolver } from '../storage/history.js';
import type { EventLoopWatch } from './event-loop.js';
import type { WorkBudget } from './work-limits.js';

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
  /** The shared store behind `POST /api/decide`, whose health the health route reports; undefined when none. */
  readonly robotsStore: RobotsStore | undefined;
  /** Where line diffs run, off the event loop. */
  readonly analysisThreads: AnalysisThreads;
  /** The process's budget for heavy requests (impact, diffs): they queue a little or get a 429. */
  readonly heavyWork: WorkBudget;
  /** Access checks running at once (each waits on up to 60 fetches). */
  readonly accessChecks: WorkBudget;
  /** How late the event loop runs (reported by the health route). */
  readonly eventLoop: EventLoopWatch;
  /**
   * Uploaded access logs: the DNS their crawlers are verified by (null: none), its time per question, the operators'
   * published ranges (read again for each upload: see `AppOptions.logs`), the size cap.
   */
  readonly logs: {
    readonly dns: Dns | null;
    readonly dnsTimeoutMs: number;
    readonly ranges: () => Promise<RangesByCrawler>;
    readonly maxBytes: number;
  };
}
