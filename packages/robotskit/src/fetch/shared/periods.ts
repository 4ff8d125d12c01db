/**
 * The availability timeline's two periods as Google documents them (12 hours of "disallow all", then the last good
 * version until 30 days), written once, and durations in words: what the policy's messages and the outcome words say
 * for whatever periods a caller configures.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** How long failures stop crawling before the last good version is used, by default. */
export const DEFAULT_DISALLOW_PERIOD = 12 * HOUR;
/** How long after the first failure the last good version may be used, by default. */
export const DEFAULT_LAST_GOOD_VERSION_PERIOD = 30 * DAY;

/** A duration in short words, in its largest whole unit: `12 h`, `30 days`, `90 min`, `1.5 s`. */
export function shortSpan(ms: number): string {
  if (ms % DAY === 0) return `${ms / DAY} day${ms === DAY ? '' : 's'}`;
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${ms / 1000} s`;
}

/** A duration in full words, in its largest whole unit: `12 hours`, `1 day`, `90 minutes`, `1.5 seconds`. */
export function longSpan(ms: number): string {
  const [count, unit] =
    ms % DAY === 0 && ms > 0
      ? [ms / DAY, 'day']
      : ms % HOUR === 0 && ms > 0
        ? [ms / HOUR, 'hour']
        : ms % MINUTE === 0 && ms > 0
          ? [ms / MINUTE, 'minute']
          : [ms / 1000, 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
