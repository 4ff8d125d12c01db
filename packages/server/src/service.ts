/**
 * Starting the service (`robotskit serve`: API plus, by default, one in-process fetch worker) and fetch workers
 * alone (`robotskit worker`).
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { AvailabilityOptions, RobotsStore } from 'robotskit/fetch';
import { createAlertHook } from './alerts/store.js';
import { deliverDueWebhooks } from './alerts/webhooks.js';
import { RobotskitServerError } from './errors.js';
import { buildApp } from './http/app.js';
import { isLoopbackHost } from './http/auth.js';
import { createGuardedFetch, type GuardedFetch } from './net/guarded-fetch.js';
import type { DatabaseConfig } from './storage/config.js';
import { type Database, openDatabase } from './storage/connect.js';
import { createPolicyResolver } from './storage/history.js';
import { BackgroundTask } from './worker/background-task.js';
import { discoverDueProperty } from './worker/discover-hosts.js';
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
}

function startWorkers(
  count: number,
  deps: WorkerDependencies,
  log: (line: string) => void,
  options: Pick<FetchingOptions, 'retentionMs' | 'availability'>,
): Worker[] {
  if (count === 0) return [];
  const { database } = deps;
  const { retentionMs, availability } = options;
  // Alerts count the sitemap URLs an edit changes, read through the same guarded fetch.
  const onNewVersion = createAlertHook(log, {
    fetch: deps.fetch,
    ...(availability === undefined ? {} : { availability }),
  });
  let lastDiscovery = Number.NEGATIVE_INFINITY;
  const discovery = new BackgroundTask();
  return Array.from({ length: count }, (_, i) => {
    const name = `${hostname()}:${process.pid}:${i}:${randomUUID().slice(0, 8)}`;
    const worker = new Worker({
      name,
      onNewVersion,
      eachRound: async () => {
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
        await deliverDueWebhooks(database.db, database.dialect, {
          fetch: deps.fetch,
          owner: name,
          now: deps.now,
          onAttempt: (a) =>
            log(
              `webhook ${a.webhookId} alert ${a.alertId} to ${a.url}: ${a.ok ? 'delivered' : `${a.status} (${a.error})`}`,
            ),
        });
      },
      onStop: () => discovery.stop(),
      db: database.db,
      dialect: database.dialect,
      retrieve: workerRetrieval(deps.fetch, deps.now),
      now: deps.now,
      ...(availability === undefined ? {} : { schedule: availability }),
      ...(retentionMs === undefined ? {} : { retentionMs }),
      onError: (error) => log(`worker error: ${error instanceof Error ? error.message : String(error)}`),
    });
    worker.start();
    return worker;
  });
}

/** Opens the database, starts the API and the in-process workers. */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  checkServiceConfig(options);
  const log = options.log ?? ((line: string) => console.error(line));
  const database = await openDatabase(options.database);
  const fetch: GuardedFetch = createGuardedFetch({ allowPrivate: options.allowPrivateAddresses ?? false });
  const now = Date.now;
  const deps: WorkerDependencies = { fetch, database, now };
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
      privateAddressesAllowed: options.allowPrivateAddresses ?? false,
      // The name it is bound to is one of its own names (an IP address needs no listing).
      allowedHosts: [options.host, ...(options.allowedHosts ?? [])],
      ...(options.robotsStore === undefined ? {} : { robotsStore: options.robotsStore }),
    });
    const address = await app.listen({ host: options.host, port: options.port });
    const service: RunningService = {
      url: address,
      app,
      database,
      fetching: workers.length > 0,
      async close() {
        await app?.close();
        await Promise.all(workers.map((w) => w.stop()));
        await fetch.close();
        await database.close();
      },
    };
    return service;
  } catch (error) {
    await app?.close().catch(() => {});
    await Promise.all(workers.map((w) => w.stop()));
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
  const deps = { fetch, database, now: Date.now };
  const workers = startWorkers(options.count ?? 1, deps, log, options);
  return {
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await fetch.close();
      await database.close();
    },
  };
}
