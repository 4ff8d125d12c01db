/**
 * The effective policy of a file now, and why: the engine's availability timeline (issue 4: 12 hours of disallow
 * after a failure, then the last good version for up to 30 days, then allow all) decides it from the file's fetch
 * history. The API asks a resolver for it; until one is configured the field is null, never a guess.
 */

import type { FileReportRow } from '../db/report.js';

/** What governs crawling of the file's origin now. */
export interface EffectivePolicy {
  /** `conditional`: the rules of `versionId` decide; `allow-all` / `disallow-all`: no rules apply. */
  readonly policy: 'allow-all' | 'disallow-all' | 'conditional';
  /** Why, as the engine's stable code (`fetched`, `unreachable`, `last-good-version`…). */
  readonly code: string;
  /** Why, in words: "robots.txt unreachable since …: crawling stops for the first 12 h"… */
  readonly reason: string;
  /** The version whose rules apply (the last good one while the file fails), or null. */
  readonly versionId: number | null;
  /** When the current state began (the first fetch of the latest run of same-outcome fetches), or null. */
  readonly since: number | null;
  /** Until when this holds without a new fetch (epoch ms), or null. */
  readonly until: number | null;
}

/** Computes a file's effective policy at `now`; null when it cannot be told. */
export type EffectivePolicyResolver = (
  file: FileReportRow,
  now: number,
) => Promise<EffectivePolicy | null> | EffectivePolicy | null;
