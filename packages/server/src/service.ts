/**
 * Starting the service (`robotskit serve`: API plus, by default, one in-process fetch worker) and fetch workers
 * alone (`robotskit worker`).
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { AvailabilityOptions, RobotsStore } from 'robotskit/fetch';
import { DeliveryLoop } from './alerts/deliveries.js';
import { createAlertHook } from './alerts/store.js';
import { AnalysisThreads } from './analysis/threads.js';
import { RobotskitServerError } from './errors.js';
import { buildApp, type RangeSource } from './http/app.js';
import { isLoopbackHost } from './http/auth.js';
import type { McpMount } from './http/mcp-route.js';
import { dnsResolver } from './net/dns.js';
import { createGuardedFetch, type GuardedFetch } from './net/guarded-fetch.js';
import type { DatabaseConfig } from './storage/config.js';
import { type Database, openDatabase } from './storage/connect.js';
import { createPolicyResolver } from './storage/history.js';
import { BackgroundTask } from './worker/background-task.js';
import { DatabaseOutage } from './worker/database-outage.js';
import { discoverDueProperty } from './worker/discover-hosts.js';
import { LintThread } from './worker/lint-thread.js';
import { workerRetrieval } from './worker/retrieval.js';
import { Worker } from './worker/worker.js';

/** A configuration the service refuses to start with; the message says what to change. */
export class ServiceConfigError extends RobotskitServerError {
  constructor(message: string, options?: ErrorOptions) {
    super('invalid-service-config', message, options);
  }
}

/** Options shared by `serve` and `worker`. */
export interface FetchingOptions {
  readonly database: DatabaseConfig;
  /**
   * Let fetches reach loopback and private (RFC 1918, CGNAT, ULA) addresses: for watching your own network.
   * @default false
   */
  readonly allowPrivateAddresses?: boolean;
  /**
   * History kept (fetches and versions older than this are pruned, except the versions still needed).
   * @default 30 days
   */
  readonly retentionMs?: number;
  /**
   * The availability timeline (the engine's `AvailabilityOptions`: how long failures stop crawling, how long the last
   * good version applies, cache lifetimes and retries): the refresh schedule, effective policies, alerts and
   * `POST /api/decide` all follow it, and the API says it in words (`GET /api/health`).
   * @default the engine's (12 h, 30 days)
   */
  readonly availability?: AvailabilityOptions;
  /**
   * Time a webhook receiver has to answer a delivery; deliveries run beside the fetches (a few at a time per webhook),
   * so a receiver that never answers holds only its own webhook's lanes for this long.
   * @default 5 seconds
   */
  readonly webhookTimeoutMs?: number;
  /** Where log lines go. */
  readonly log?: (line: string) => void;
}

/** Options of {@link startService}. */
export interface ServiceOptions extends FetchingOptions {
  readonly host: string;
  readonly port: number;
  /**
   * Host names the API answers to besides IP addresses, `localhost` and the name in `host` (DNS rebinding
   * protection; see `AppOptions.allowedHosts`).
   * @default []
   */
  readonly allowedHosts?: readonly string[];
  /** Bearer token for writes; required when `host` is not a loopback address. */
  readonly token?: string | undefined;
  /**
   * Sitemap URLs an impact check reads unless the request asks for another cap.
   * @default 1000
   */
  readonly impactMaxUrls?: number;
  /**
   * A store shared with other services for `POST /api/decide`'s robots.txt cache (robotskit-stores): each origin is
   * fetched once across them. The caller opens and closes it.
   */
  readonly robotsStore?: RobotsStore;
  /**
   * Fetch workers in this process (0: API only, workers run elsewhere).
   * @default 1
   */
  readonly workers?: number;
  /** An MCP endpoint to mount at `/mcp` (see `AppOptions.mcp`). */
  readonly mcp?: McpMount;
  /**
   * The DNS servers (`host:port`) uploaded access logs' crawlers are verified with (forward-confirmed reverse DNS).
   * @default the system's
   */
  readonly logDnsServers?: readonly string[];
  /**
   * The operators' published address ranges uploaded logs' crawlers are verified by: fixed, or a function asked again
   * for each upload (see `AppOptions.logs`).
   */
  readonly logRanges?: RangeSource;
}

/** A running service. */
export interface RunningService {
  /** `http://host:port`. */
  readonly url: string;
  readonly app: FastifyInstance;
  readonly database: Database;
  /** Whether fetch workers run in this process. */
  readonly fetching: boolean;
  close(): Promise<void>;
}

/** Checks a token and bind address before anything is opened. */
export function checkServiceConfig(options: Pick<ServiceOptions, 'host' | 'port' | 'token'>): void {
  if (options.token !== undefined && options.token.trim().length < 8) {
    throw new ServiceConfigError('--token must be at least 8 characters');
  }
  if (!isLoopbackHost(options.host) && options.token === undefined) {
    const where = options.host.trim() === '' ? 'every address (--host is empty)' : options.host;
    throw new ServiceConfigError(
      `refusing to listen on ${where} without a token: anyone who can reach it could add and delete properties. ` +
        'Pass --token <secret> (clients then send Authorization: Bearer <secret> for changes), or listen on 127.0.0.1.',
    );
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new ServiceConfigError(`--port must be an integer from 0 to 65535 (got ${options.port})`);
  }
}

/** What the workers of one process share. */
interface WorkerDependencies {
  /** The SSRF-guarded fetch: every hop of every retrieval goes through it. */
  readonly fetch: GuardedFetch;
  readonly database: Database;
  readonly now: () => number;
  /** Where the workers lint bodies over 64 KiB; closed with them, so stopping never waits for a lint. */
  readonly lintThread: LintThread;
  /** Where line diffs run (the alerts' and the API's); closed with the workers. */
  readonly analysisThreads: AnalysisThreads;
}

/** Stops the workers and their threads together (closing a thread first ends its work in progress at once). */
async function stopWorkers(workers: readonly Worker[], deps: WorkerDependencies): Promise<void> {
  await Promise.all([deps.lintThread.close(), deps.analysisThreads.close(), ...workers.map((w) => w.stop())]);
}

function startWorkers(
  count: number,
  deps: WorkerDependencies,
  log: (line: string) => void,
  options: Pick<FetchingOptions, 'retentionMs' | 'availability' | 'webhookTimeoutMs'>,
): Worker[] {
  if (count === 0) return [];
  const { database } = deps;
  const { retentionMs, availability } = options;
  // Webhook deliveries in a loop of their own, one per process, never in the fetch rounds.
  const deliveries = new DeliveryLoop({
    db: database.db,
    dialect: database.dialect,
    fetch: deps.fetch,
    owner: `${hostname()}:${process.pid}:deliveries:${randomUUID().slice(0, 8)}`,
    now: deps.now,
    ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
    onAttempt: (a) =>
      log(`webhook ${a.webhookId} alert ${a.alertId} to ${a.url}: ${a.ok ? 'delivered' : `${a.status} (${a.error})`}`),
    onError: (error) => log(`webhook delivery error: ${error instanceof Error ? error.message : String(error)}`),
  });
  deliveries.start();
  // Alerts count the sitemap URLs an edit changes, read through the same guarded fetch.
  const onNewVersion = createAlertHook(log, {
    fetch: deps.fetch,
    // Ahead of the API's diffs and comparisons: fetching never waits behind them.
    analysisThreads: deps.analysisThreads.forFetching(),
    ...(availability === undefined ? {} : { availability }),
  });
  let lastDiscovery = Number.NEGATIVE_INFINITY;
  const discovery = new BackgroundTask();
  const outage = new DatabaseOutage(log, deps.now);
  return Array.from({ length: count }, (_, i) => {
    const name = `${hostname()}:${process.pid}:${i}:${randomUUID().slice(0, 8)}`;
    const worker = new Worker({
      name,
      onNewVersion,
      eachRound: async () => {
        outage.answered();
        // One domain property at a time whose daily host discovery is due (a lease per property), apart from the
        // rounds: a long sitemap walk never holds up fetching, and stopping the workers aborts it.
        if (i === 0 && !discovery.running && deps.now() - lastDiscovery >= 60_000) {
          lastDiscovery = deps.now();
          discovery.start(
            async (signal) => {
              const discovered = await discoverDueProperty(database, { fetch: deps.fetch, now: deps.now(), signal });
              if (discovered !== null) log(`hosts of property ${discovered} discovered from its sitemaps`);
            },
            (error) => log(`host discovery failed: ${error instanceof Error ? error.message : String(error)}`),
          );
        }
      },
      // The first worker stops what runs beside the rounds of them all.
      onStop: async () => {
        if (i === 0) await Promise.all([discovery.stop(), deliveries.stop()]);
      },
      // A new version may have queued alerts: deliver them now rather than at the next look.
      onRecorded: (_file, _result, record) => {
        if (record.recorded && record.versionId !== null) deliveries.wake();
      },
      db: database.db,
      dialect: database.dialect,
      retrieve: workerRetrieval(deps.fetch, deps.now),
      now: deps.now,
      ...(availability === undefined ? {} : { schedule: availability }),
      ...(retentionMs === undefined ? {} : { retentionMs }),
      onError: (error) => outage.failed(error),
      lintThread: deps.lintThread,
    });
    worker.start();
    return worker;
  });
}

/** How long stopping waits for requests in progress before it closes their connections. */
const CLOSE_GRACE_MS = 3_000;

/** Opens the database, starts the API and the in-process workers. */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  checkServiceConfig(options);
  const log = options.log ?? ((line: string) => console.error(line));
  const database = await openDatabase(options.database);
  const fetch: GuardedFetch = createGuardedFetch({ allowPrivate: options.allowPrivateAddresses ?? false });
  const now = Date.now;
  const deps: WorkerDependencies = {
    fetch,
    database,
    now,
    lintThread: new LintThread(),
    analysisThreads: new AnalysisThreads(),
  };
  let workers: Worker[] = [];
  let app: FastifyInstance | undefined;
  try {
    // SQLite: the workers share this process's one connection (better-sqlite3 is synchronous; see the package README).
    workers = startWorkers(options.workers ?? 1, deps, log, options);
    app = await buildApp({
      database,
      token: options.token,
      now,
      fetching: workers.length > 0,
      onFilesDue: () => {
        for (const worker of workers) worker.wake();
      },
      resolvePolicy: createPolicyResolver(database.db, options.availability),
      ...(options.availability === undefined ? {} : { availability: options.availability }),
      ...(options.impactMaxUrls === undefined ? {} : { impactMaxUrls: options.impactMaxUrls }),
      fetch,
      analysisThreads: deps.analysisThreads,
      privateAddressesAllowed: options.allowPrivateAddresses ?? false,
      // The name it is bound to is one of its own names (an IP address needs no listing).
      allowedHosts: [options.host, ...(options.allowedHosts ?? [])],
      ...(options.robotsStore === undefined ? {} : { robotsStore: options.robotsStore }),
      ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
      logs: {
        dns: dnsResolver(options.logDnsServers ?? [], 2000),
        ...(options.logRanges === undefined ? {} : { ranges: options.logRanges }),
      },
      log,
    });
    const address = await app.listen({ host: options.host, port: options.port });
    const service: RunningService = {
      url: address,
      app,
      database,
      fetching: workers.length > 0,
      async close() {
        // Requests in progress get a few seconds; then every connection is closed, so a client that never finishes
        // its request (a slow body, one that left without closing) cannot hold the stop until its request times out.
        const grace = setTimeout(() => app?.server.closeAllConnections(), CLOSE_GRACE_MS);
        grace.unref();
        await app?.close();
        clearTimeout(grace);
        await stopWorkers(workers, deps);
        await fetch.close();
        await database.close();
      },
    };
    return service;
  } catch (error) {
    await app?.close().catch(() => {});
    await stopWorkers(workers, deps);
    await fetch.close().catch(() => {});
    await database.close().catch(() => {});
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new ServiceConfigError(`port ${options.port} on ${options.host} is already in use; choose another --port`);
    }
    if (
      (error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL' ||
      (error as NodeJS.ErrnoException).code === 'ENOTFOUND'
    ) {
      throw new ServiceConfigError(`cannot listen on ${options.host}: no such local address`);
    }
    throw error;
  }
}

/** Options of {@link runWorkers}. */
export interface WorkersOptions extends FetchingOptions {
  /**
   * Workers in this process.
   * @default 1
   */
  readonly count?: number;
}

/** Fetch workers without the API; they share the configured database with the service and other workers. */
export async function runWorkers(options: WorkersOptions): Promise<{ close(): Promise<void> }> {
  const log = options.log ?? ((line: string) => console.error(line));
  const database = await openDatabase(options.database);
  const fetch = createGuardedFetch({ allowPrivate: options.allowPrivateAddresses ?? false });
  const deps: WorkerDependencies = {
    fetch,
    database,
    now: Date.now,
    lintThread: new LintThread(),
    analysisThreads: new AnalysisThreads(),
  };
  const workers = startWorkers(options.count ?? 1, deps, log, options);
  return {
    async close() {
      await stopWorkers(workers, deps);
      await fetch.close();
      await database.close();
    },
  };
}
