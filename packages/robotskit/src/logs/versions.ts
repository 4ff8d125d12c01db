/**
 * The robots.txt in force at each request: one file (in force at every time), or a folder of dated versions, each
 * named by the moment it came into force, UTC unless the name says otherwise:
 * `2026-11-01.txt` (midnight UTC), `2026-11-01T08:30:00Z.txt`, `2026-11-01T08-30-00Z.txt` (no colons, for file systems
 * that refuse them), `2026-11-01T08:30:00+02:00.txt`. A version is in force from its moment until the next one; a
 * request before the first version has none (it is counted, not judged). Other files than `*.txt` are ignored; a
 * `.txt` file with another name is an error, so a misnamed version is never silently left out.
 */

import type { RobotsTxt } from '../robots-txt/robots-txt.js';

/** One version of the robots.txt. */
export interface RobotsVersion {
  /** The file's name: how violations name the version. */
  readonly label: string;
  /** When it came into force (ms since the epoch); -Infinity for a single file. */
  readonly since: number;
  readonly robots: RobotsTxt;
}

const DATED =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2})[:-](\d{2})(?:[:-](\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?\.txt$/;

/** The moment a version's file name gives, NaN when the name is not a date. */
export function versionTime(name: string): number {
  const m = DATED.exec(name);
  if (m === null) return Number.NaN;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0', zone = 'Z'] = m;
  let offset = 0;
  if (zone !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    offset = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3] ?? 0)) * 60_000;
  }
  const ms = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(frac.padEnd(3, '0')),
  );
  const check = new Date(ms);
  // 2026-02-30 is not a date (Date.UTC would roll it over to March).
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return Number.NaN;
  return ms - offset;
}

/** Which version is in force at a time; remembers the last answer, as log lines mostly come in order. */
export class VersionIndex {
  private last = 0;

  constructor(readonly versions: readonly RobotsVersion[]) {}

  /** The index of the version in force at `time`, -1 before the first. */
  at(time: number): number {
    const v = this.versions;
    const i = this.last;
    if (time >= v[i]!.since && (i + 1 >= v.length || time < v[i + 1]!.since)) return i;
    let lo = 0;
    let hi = v.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid]!.since <= time) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found >= 0) this.last = found;
    return found;
  }
}
