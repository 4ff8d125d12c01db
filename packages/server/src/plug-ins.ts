/**
 * The engine's parts the service runs, in one place: the retrieval (`fetchRobotsTxt` over the SSRF-guarded fetch),
 * the linter (`lint`, once per distinct body), the availability timeline (`effectivePolicy`, the 12 h / 30 day
 * rules) and the refresh schedule (`refreshSchedule`). Tests and embedders can replace any of them.
 */

import type { EffectivePolicyResolver } from './api/effective-policy.js';
import type { Database } from './db/connect.js';
import { createEnginePolicyResolver } from './engine/policy.js';
import { createEngineRetrieval } from './engine/retrieval.js';
import { createEngineScheduler, type FetchScheduler } from './engine/schedule.js';
import { createThreadedAnalyzer } from './monitor/lint-thread.js';
import type { BodyAnalyzer, RobotsRetrieval } from './monitor/retrieval.js';
import type { GuardedFetch } from './net/guarded-fetch.js';

/** What the factories get. */
export interface PlugInDependencies {
  /** The SSRF-guarded fetch; the retrieval must use it for every hop. */
  readonly fetch: GuardedFetch;
  readonly database: Database;
  readonly now: () => number;
}

/** The pluggable parts. */
export interface PlugIns {
  /** Builds the retrieval workers run for each claimed file. */
  readonly createRetrieval?: (deps: PlugInDependencies) => RobotsRetrieval;
  /** Lints each new body once. */
  readonly createAnalyzer?: (deps: PlugInDependencies) => BodyAnalyzer;
  /** Computes a file's effective policy from its fetch history. */
  readonly createPolicyResolver?: (deps: PlugInDependencies) => EffectivePolicyResolver;
  /** Decides when a file is fetched next; without it the worker's built-in bounds apply. */
  readonly createScheduler?: (deps: PlugInDependencies) => FetchScheduler;
}

/** The parts this build has: the engine's. */
export const builtInPlugIns: PlugIns = {
  createRetrieval: ({ fetch, now }) => createEngineRetrieval({ fetch, now }),
  createAnalyzer: () => createThreadedAnalyzer(),
  createPolicyResolver: ({ database }) => createEnginePolicyResolver(database.db),
  createScheduler: () => createEngineScheduler(),
};
