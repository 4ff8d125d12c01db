/**
 * The engine's parts the service runs, in one place. They are being built in the engine (issue 4: robots.txt
 * retrieval with Google's semantics, the 12 h / 30 day availability timeline; issue 3: the linter); until they are
 * wired here the service stores and serves what it has and says so: no fetch workers run, lint counts and effective
 * policies are null.
 */

import type { EffectivePolicyResolver } from './api/effective-policy.js';
import type { Database } from './db/connect.js';
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
}

/** The parts this build has. */
export const builtInPlugIns: PlugIns = {};
