/**
 * The availability timeline (SPEC §2, seed 003 "What happens when Google cannot fetch robots.txt") and the refresh
 * schedule, with a fake clock over 60 simulated days. Table-driven: a history, and at each moment the policy and why.
 */

import { describe, expect, it } from 'vitest';
import {
  type AvailabilityOptions,
  AvailabilityTimeline,
  availabilityRules,
  cacheLifetime,
  type EffectivePolicy,
  effectivePolicy,
  type FetchObservation,
  type PolicyReason,
  type RetrievalOutcome,
  refreshSchedule,
  retryDelay,
} from '../../src/fetch/index.js';
import { compactHistory } from '../../src/fetch/policy/availability.js';
import { DAY, HOUR, MINUTE } from './servers.js';

const T0 = Date.UTC(2025, 0, 1);
const at = (day: number, hour = 0, minute = 0) => T0 + day * DAY + hour * HOUR + minute * MINUTE;

interface Fetch extends FetchObservation {
  readonly id: string;
}

function fetchAt(
  id: string,
  time: number,
  outcome: RetrievalOutcome,
  status: number | null,
  extra: { errorKind?: 'timeout' | 'connect' | 'reset' | 'aborted'; cacheControl?: string; retryAfter?: string } = {},
): Fetch {
  return {
    id,
    fetchedAt: time,
    outcome,
    status,
    error: extra.errorKind === undefined ? null : { kind: extra.errorKind },
    headers: { cacheControl: extra.cacheControl ?? null, retryAfter: extra.retryAfter ?? null, date: null },
  };
}

interface Expectation {
  readonly time: number;
  readonly label: string;
  readonly mode: RetrievalOutcome;
  readonly reason: PolicyReason;
  readonly source: string | null;
  readonly since: number | null;
  readonly until: number | null;
}

function summary(policy: EffectivePolicy<Fetch>) {
  return {
    mode: policy.mode,
    reason: policy.reason,
    source: policy.source?.id ?? null,
    since: policy.since,
    until: policy.until,
  };
}

/** Checks a table against the full history, and against a timeline fed one fetch at a time. */
function checkTable(history: readonly Fetch[], table: readonly Expectation[], options: AvailabilityOptions = {}) {
  for (const row of table) {
    const expected = { mode: row.mode, reason: row.reason, source: row.source, since: row.since, until: row.until };
    expect(summary(effectivePolicy(history, row.time, options)), row.label).toEqual(expected);
    const timeline = new AvailabilityTimeline<Fetch>([], options);
    for (const entry of history) if (entry.fetchedAt <= row.time) timeline.record(entry);
    expect(summary(timeline.policyAt(row.time)), `${row.label} (timeline)`).toEqual(expected);
    expect(timeline.history.length).toBeLessThanOrEqual(3);
  }
}

// Sixty days of one origin: good fetches, a month-long outage, a 404, a timeout, an abort, a 429.
const history: Fetch[] = [
  fetchAt('A', at(0), 'rules', 200),
  fetchAt('B', at(1), 'rules', 200),
  fetchAt('C', at(2), 'disallow-all', 503),
  fetchAt('D', at(2, 6), 'disallow-all', 503),
  fetchAt('E', at(10), 'disallow-all', 500),
  fetchAt('F', at(31), 'disallow-all', 500),
  fetchAt('G', at(33), 'disallow-all', null, { errorKind: 'connect' }),
  fetchAt('H', at(40), 'rules', 200),
  fetchAt('I', at(41), 'allow-all', 404),
  fetchAt('J', at(45), 'disallow-all', null, { errorKind: 'timeout' }),
  fetchAt('K', at(50), 'rules', 200),
  fetchAt('L', at(51), 'disallow-all', null, { errorKind: 'aborted' }),
  fetchAt('M', at(52), 'disallow-all', 429),
];

describe('effectivePolicy over 60 days (default: seed 003)', () => {
  const table: Expectation[] = [
    {
      time: at(0) - 1,
      label: 'before any fetch',
      mode: 'disallow-all',
      reason: 'not-fetched',
      source: null,
      since: null,
      until: null,
    },
    { time: at(0), label: 'first fetch', mode: 'rules', reason: 'fetched', source: 'A', since: at(0), until: null },
    {
      time: at(1, 12),
      label: 'second good fetch',
      mode: 'rules',
      reason: 'fetched',
      source: 'B',
      since: at(0),
      until: null,
    },
    {
      time: at(2),
      label: 'first 503',
      mode: 'disallow-all',
      reason: 'unreachable',
      source: null,
      since: at(2),
      until: at(2, 12),
    },
    {
      time: at(2, 12) - 1,
      label: 'just before 12 h',
      mode: 'disallow-all',
      reason: 'unreachable',
      source: null,
      since: at(2),
      until: at(2, 12),
    },
    {
      time: at(2, 12),
      label: 'after 12 h: last good version',
      mode: 'rules',
      reason: 'last-good-version',
      source: 'B',
      since: at(2),
      until: at(32),
    },
    {
      time: at(20),
      label: 'day 18 of errors',
      mode: 'rules',
      reason: 'last-good-version',
      source: 'B',
      since: at(2),
      until: at(32),
    },
    {
      time: at(31, 23),
      label: 'day 29 of errors',
      mode: 'rules',
      reason: 'last-good-version',
      source: 'B',
      since: at(2),
      until: at(32),
    },
    {
      time: at(32),
      label: '30 days, server answers 500: site up',
      mode: 'allow-all',
      reason: 'long-unreachable-site-up',
      source: null,
      since: at(2),
      until: null,
    },
    {
      time: at(33),
      label: '31 days, connection fails: site down',
      mode: 'disallow-all',
      reason: 'long-unreachable-site-down',
      source: null,
      since: at(2),
      until: null,
    },
    { time: at(40), label: 'recovered', mode: 'rules', reason: 'fetched', source: 'H', since: at(40), until: null },
    { time: at(41), label: '404', mode: 'allow-all', reason: 'not-found', source: 'I', since: at(41), until: null },
    {
      time: at(44),
      label: 'still 404 (no new fetch)',
      mode: 'allow-all',
      reason: 'not-found',
      source: 'I',
      since: at(41),
      until: null,
    },
    {
      time: at(45),
      label: 'timeout after a 404',
      mode: 'disallow-all',
      reason: 'unreachable',
      source: null,
      since: at(45),
      until: at(45, 12),
    },
    {
      time: at(45, 12),
      label: 'after 12 h the 404 applies',
      mode: 'allow-all',
      reason: 'last-good-not-found',
      source: 'I',
      since: at(45),
      until: at(75),
    },
    {
      time: at(50),
      label: 'recovered again',
      mode: 'rules',
      reason: 'fetched',
      source: 'K',
      since: at(50),
      until: null,
    },
    {
      time: at(51, 1),
      label: 'an aborted fetch changes nothing',
      mode: 'rules',
      reason: 'fetched',
      source: 'K',
      since: at(50),
      until: null,
    },
    {
      time: at(52),
      label: '429',
      mode: 'disallow-all',
      reason: 'unreachable',
      source: null,
      since: at(52),
      until: at(52, 12),
    },
    {
      time: at(52, 12),
      label: '429 for 12 h',
      mode: 'rules',
      reason: 'last-good-version',
      source: 'K',
      since: at(52),
      until: at(82),
    },
    {
      time: at(60),
      label: 'day 60',
      mode: 'rules',
      reason: 'last-good-version',
      source: 'K',
      since: at(52),
      until: at(82),
    },
  ];
  it('gives the policy and reason at each step', () => checkTable(history, table));

  it('answers the same every hour of the 60 days from the full history and from the compact timeline', () => {
    const timeline = new AvailabilityTimeline<Fetch>();
    let next = 0;
    for (let time = at(0) - HOUR; time <= at(60); time += HOUR) {
      while (next < history.length && history[next]!.fetchedAt <= time) timeline.record(history[next++]!);
      const full = effectivePolicy(history, time);
      expect(summary(timeline.policyAt(time))).toEqual(summary(full));
      expect(full.message).not.toBe('');
      // `until` is the next change by time alone: just before it the policy is the same, at it it differs.
      if (full.until !== null && full.until <= at(60)) {
        const later = history.filter((h) => h.fetchedAt <= time);
        expect(effectivePolicy(later, full.until - 1).reason).toBe(full.reason);
        expect(effectivePolicy(later, full.until).reason).not.toBe(full.reason);
      }
    }
  });

  it('explains itself in words', () => {
    expect(effectivePolicy(history, at(2, 1)).message).toBe(
      'robots.txt unreachable since 2025-01-03T00:00:00Z (latest: server error (HTTP 503)): crawling stops for the first 12 h',
    );
    expect(effectivePolicy(history, at(20)).message).toBe(
      'robots.txt unreachable since 2025-01-03T00:00:00Z (latest: server error (HTTP 500)); the last good version (fetched 2025-01-02T00:00:00Z) applies for up to 30 days',
    );
    expect(effectivePolicy(history, at(33)).message).toContain('the site is unreachable too');
  });

  it('says when a 2xx answer failed in its body, rather than only its status', () => {
    const brokenBody = [
      fetchAt('A', at(0), 'rules', 200),
      fetchAt('B', at(1), 'disallow-all', 200, { errorKind: 'reset' }),
    ];
    expect(effectivePolicy(brokenBody, at(1, 1)).message).toBe(
      'robots.txt unreachable since 2025-01-02T00:00:00Z (latest: HTTP 200, then connection closed by the server): crawling stops for the first 12 h',
    );
  });

  it('reads the history in any order', () => {
    const shuffled = [...history].reverse();
    expect(summary(effectivePolicy(shuffled, at(20)))).toEqual(summary(effectivePolicy(history, at(20))));
  });
});

describe('errors from the first fetch (no good version)', () => {
  const failing = [
    fetchAt('A', at(0), 'disallow-all', 503),
    fetchAt('B', at(10), 'disallow-all', 503),
    fetchAt('C', at(29), 'disallow-all', 500),
  ];
  it('stops, stays stopped, then allows once 30 days pass and the server answers', () =>
    checkTable(failing, [
      {
        time: at(0, 11),
        label: 'first hours',
        mode: 'disallow-all',
        reason: 'unreachable',
        source: null,
        since: at(0),
        until: at(0, 12),
      },
      {
        time: at(5),
        label: 'no version to fall back on',
        mode: 'disallow-all',
        reason: 'no-good-version',
        source: null,
        since: at(0),
        until: at(30),
      },
      {
        time: at(30),
        label: '30 days',
        mode: 'allow-all',
        reason: 'long-unreachable-site-up',
        source: null,
        since: at(0),
        until: null,
      },
    ]));

  it('stays stopped after 30 days when the caller says the site is down', () =>
    checkTable(
      failing,
      [
        {
          time: at(30),
          label: 'site down',
          mode: 'disallow-all',
          reason: 'long-unreachable-site-down',
          source: null,
          since: at(0),
          until: null,
        },
      ],
      { siteReachable: false },
    ));

  it("allows after 30 days with 'keep-last-good-version' and no copy (seed 000)", () =>
    checkTable(
      failing,
      [
        {
          time: at(30),
          label: 'no copy',
          mode: 'allow-all',
          reason: 'long-unreachable-no-copy',
          source: null,
          since: at(0),
          until: null,
        },
      ],
      { afterLastGoodPeriod: 'keep-last-good-version' },
    ));
});

describe("'keep-last-good-version' (seed 000)", () => {
  const h = [
    fetchAt('A', at(0), 'rules', 200),
    fetchAt('B', at(1), 'disallow-all', null, { errorKind: 'timeout' }),
    fetchAt('C', at(45), 'disallow-all', null, { errorKind: 'timeout' }),
  ];
  it('keeps the last good rules past 30 days even when the site is unreachable', () =>
    checkTable(
      h,
      [
        {
          time: at(20),
          label: 'within 30 days',
          mode: 'rules',
          reason: 'last-good-version',
          source: 'A',
          since: at(1),
          until: at(31),
        },
        {
          time: at(31),
          label: 'past 30 days',
          mode: 'rules',
          reason: 'long-unreachable-last-good-version',
          source: 'A',
          since: at(1),
          until: null,
        },
        {
          time: at(59),
          label: 'day 59',
          mode: 'rules',
          reason: 'long-unreachable-last-good-version',
          source: 'A',
          since: at(1),
          until: null,
        },
      ],
      { afterLastGoodPeriod: 'keep-last-good-version' },
    ));

  it('uses the configured periods', () =>
    checkTable(
      h,
      [
        {
          time: at(1, 1),
          label: '1 h',
          mode: 'rules',
          reason: 'last-good-version',
          source: 'A',
          since: at(1),
          until: at(3),
        },
        {
          time: at(3),
          label: '2 days',
          mode: 'disallow-all',
          reason: 'long-unreachable-site-down',
          source: null,
          since: at(1),
          until: null,
        },
      ],
      { disallowPeriod: HOUR, lastGoodVersionPeriod: 2 * DAY },
    ));
});

describe('compactHistory', () => {
  it('keeps at most three fetches and gives the same answers from the latest fetch on', () => {
    for (let n = 1; n <= history.length; n++) {
      const prefix = history.slice(0, n);
      const compact = compactHistory(prefix);
      expect(compact.length).toBeLessThanOrEqual(3);
      for (const time of [prefix[n - 1]!.fetchedAt, at(61), at(100)]) {
        expect(summary(effectivePolicy(compact, time))).toEqual(summary(effectivePolicy(prefix, time)));
        expect(refreshSchedule(compact)).toEqual(refreshSchedule(prefix));
      }
    }
    expect(compactHistory(history).map((h) => h.id)).toEqual(['K', 'M']);
    expect(compactHistory(history.slice(0, 6)).map((h) => h.id)).toEqual(['B', 'C', 'F']);
  });
});

describe('cache lifetime', () => {
  const lifetime = (cacheControl: string | null, options = {}) => cacheLifetime({ headers: { cacheControl } }, options);
  it.each([
    [null, 24 * HOUR, 'default', false],
    ['max-age=3600', HOUR, 'max-age', false],
    ['public, max-age=172800', 2 * DAY, 'max-age', false],
    ['max-age=0', 5 * MINUTE, 'max-age', true],
    ['max-age=60', 5 * MINUTE, 'max-age', true],
    ['max-age=31536000, immutable', 7 * DAY, 'max-age', true],
    ['no-cache', 5 * MINUTE, 'no-cache', false],
    ['max-age=3600, no-store', 5 * MINUTE, 'no-store', false],
    ['max-age=oops', 24 * HOUR, 'default', false],
  ])('Cache-Control %j → %i ms (%s)', (header, ttl, source, clamped) => {
    expect(lifetime(header)).toEqual({ ttl, source, clamped });
  });

  it('uses configured bounds', () => {
    expect(lifetime('max-age=60', { minTtl: 0 })).toEqual({ ttl: 60_000, source: 'max-age', clamped: false });
    expect(lifetime(null, { defaultTtl: 2 * DAY, maxTtl: DAY })).toEqual({
      ttl: DAY,
      source: 'default',
      clamped: false,
    });
    expect(() => lifetime(null, { minTtl: 2 * DAY, maxTtl: DAY })).toThrow(RangeError);
  });
});

describe('retry delay', () => {
  const failure = (status: number | null, fetchedAt: number, retryAfter: string | null = null) => ({
    fetchedAt,
    status,
    headers: { retryAfter, date: null },
  });
  it.each([
    ['first 500', failure(500, at(0)), at(0), 10 * MINUTE, 'backoff'],
    ['first 503', failure(503, at(0)), at(0), 2 * MINUTE, 'backoff'],
    ['first timeout', failure(null, at(0)), at(0), 10 * MINUTE, 'backoff'],
    ['500 failing for 40 min', failure(500, at(0, 0, 40)), at(0), 40 * MINUTE, 'backoff'],
    ['500 failing for 2 days', failure(500, at(2)), at(0), 6 * HOUR, 'backoff'],
    ['503 failing for 16 min', failure(503, at(0, 0, 16)), at(0), 16 * MINUTE, 'backoff'],
    ['503 failing for 3 h', failure(503, at(0, 3)), at(0), HOUR, 'backoff'],
    ['Retry-After: 120', failure(503, at(0), '120'), at(0), 2 * MINUTE, 'retry-after'],
    ['Retry-After: 5 (below the floor)', failure(429, at(0), '5'), at(0), MINUTE, 'retry-after'],
    ['Retry-After: 2 days (above the cap)', failure(429, at(0), '172800'), at(0), DAY, 'retry-after'],
    ['Retry-After as a date', failure(503, at(0), 'Wed, 01 Jan 2025 00:30:00 GMT'), at(0), 30 * MINUTE, 'retry-after'],
    ['unreadable Retry-After', failure(503, at(0), 'later'), at(0), 2 * MINUTE, 'backoff'],
  ] as const)('%s', (_label, f, since, delay, source) => {
    expect(retryDelay(f, since)).toEqual({ delay, source });
  });
});

describe('refreshSchedule', () => {
  it.each([
    ['never fetched', [], 0, 'first-fetch'],
    ['good fetch', [fetchAt('A', at(0), 'rules', 200)], at(1), 'cache-lifetime'],
    [
      'good fetch, max-age=3600',
      [fetchAt('A', at(0), 'rules', 200, { cacheControl: 'max-age=3600' })],
      at(0, 1),
      'cache-lifetime',
    ],
    ['404', [fetchAt('A', at(0), 'allow-all', 404)], at(1), 'cache-lifetime'],
    ['first 503', [fetchAt('A', at(0), 'disallow-all', 503)], at(0, 0, 2), 'backoff'],
    [
      '429 with Retry-After',
      [fetchAt('A', at(0), 'disallow-all', 429, { retryAfter: '600' })],
      at(0, 0, 10),
      'retry-after',
    ],
    ['only aborted', [fetchAt('A', at(0), 'disallow-all', null, { errorKind: 'aborted' })], 0, 'first-fetch'],
  ] as const)('%s', (_label, h, when, reason) => {
    expect(refreshSchedule(h)).toEqual({ at: when, reason });
  });

  it('counts the backoff from failingSince when the history holds only the latest failure', () => {
    const first = fetchAt('A', at(0), 'disallow-all', 503);
    for (const later of [at(0, 0, 2), at(0, 1), at(3)]) {
      const latest = fetchAt('B', later, 'disallow-all', 503);
      expect(refreshSchedule([latest], { failingSince: first.fetchedAt })).toEqual(refreshSchedule([first, latest]));
    }
    // Ignored when the history already reaches back further, after a good fetch, and when null.
    const latest = fetchAt('B', at(1), 'disallow-all', 503);
    expect(refreshSchedule([first, latest], { failingSince: at(0, 12) })).toEqual(refreshSchedule([first, latest]));
    const good = fetchAt('C', at(1), 'rules', 200);
    expect(refreshSchedule([good], { failingSince: at(0) })).toEqual(refreshSchedule([good]));
    expect(refreshSchedule([latest], { failingSince: null })).toEqual(refreshSchedule([latest]));
    expect(() => refreshSchedule([latest], { failingSince: Number.NaN })).toThrow(TypeError);
  });

  it('drives a simulated fetcher for 60 days: daily while up, backing off during an outage, never hammering', () => {
    // The server: up, then 503 from day 5 to day 8, 500 from day 20 to day 21 with Retry-After, 404 from day 40.
    const serverAt = (time: number): Fetch => {
      if (time >= at(5) && time < at(8)) return fetchAt('x', time, 'disallow-all', 503);
      if (time >= at(20) && time < at(21)) return fetchAt('x', time, 'disallow-all', 500, { retryAfter: '7200' });
      if (time >= at(40)) return fetchAt('x', time, 'allow-all', 404);
      return fetchAt('x', time, 'rules', 200);
    };
    const timeline = new AvailabilityTimeline<Fetch>();
    const fetches: Fetch[] = [];
    let time = at(0);
    while (time <= at(60)) {
      const f = serverAt(time);
      fetches.push(f);
      timeline.record(f);
      const next = timeline.nextFetch().at;
      expect(next - time).toBeGreaterThanOrEqual(MINUTE);
      time = next;
    }
    const gaps = fetches.slice(1).map((f, i) => f.fetchedAt - fetches[i]!.fetchedAt);
    const outage = fetches.filter((f) => f.status === 503);
    // 503: 2, 2, 4, 8, 16, 32 min, then hourly until it ends.
    const outageGaps = outage.slice(1).map((f, i) => (f.fetchedAt - outage[i]!.fetchedAt) / MINUTE);
    expect(outageGaps.slice(0, 6)).toEqual([2, 2, 4, 8, 16, 32]);
    expect(new Set(outageGaps.slice(6))).toEqual(new Set([60]));
    // Recovery is seen within an hour of the outage's end.
    const recovered = fetches.find((f) => f.fetchedAt >= at(8) && f.status === 200)!;
    expect(recovered.fetchedAt - at(8)).toBeLessThanOrEqual(HOUR);
    // The 500 with Retry-After: 2 h is retried every 2 h.
    const withRetryAfter = fetches.filter((f) => f.status === 500);
    expect(withRetryAfter.slice(1).map((f, i) => f.fetchedAt - withRetryAfter[i]!.fetchedAt)).toEqual(
      Array(withRetryAfter.length - 1).fill(2 * HOUR),
    );
    // While up, once a day.
    expect(gaps.filter((g) => g === DAY).length).toBeGreaterThan(50);
    expect(Math.max(...gaps)).toBe(DAY);
    // What applied during the outage: stopped for 12 h, then the last good version.
    expect(timeline.policyAt(at(60)).reason).toBe('not-found');
    const replay = effectivePolicy(fetches, at(5, 13));
    expect(replay).toMatchObject({ mode: 'rules', reason: 'last-good-version' });
    expect(effectivePolicy(fetches, at(5, 11)).reason).toBe('unreachable');
  });
});

describe('availabilityRules', () => {
  it('gives the configured periods, in numbers and in words', () => {
    const rules = availabilityRules();
    expect(rules).toMatchObject({
      disallowPeriod: 12 * HOUR,
      lastGoodVersionPeriod: 30 * DAY,
      afterLastGoodPeriod: 'allow-if-site-reachable',
      words: { disallowPeriod: '12 h', lastGoodVersionPeriod: '30 days' },
    });
    expect(rules.summary).toContain('crawling stops for 12 h');
    expect(rules.summary).toContain('until 30 days after the first failure');
    const custom = availabilityRules({
      disallowPeriod: 6 * HOUR,
      lastGoodVersionPeriod: 7 * DAY,
      afterLastGoodPeriod: 'keep-last-good-version',
    });
    expect(custom.words).toEqual({ disallowPeriod: '6 h', lastGoodVersionPeriod: '7 days' });
    expect(custom.summary).toContain('crawling stops for 6 h');
    expect(custom.summary).toContain('the last good version keeps applying');
    expect(custom.summary).not.toContain('12 h');
    expect(() => availabilityRules({ disallowPeriod: -1 })).toThrow(RangeError);
  });
});

describe('arguments', () => {
  it('rejects bad options and times', () => {
    expect(() => effectivePolicy([], Number.NaN)).toThrow(TypeError);
    expect(() => effectivePolicy([], 0, { disallowPeriod: -1 })).toThrow(RangeError);
    expect(() => effectivePolicy([], 0, { afterLastGoodPeriod: 'never' as never })).toThrow(RangeError);
    expect(() => effectivePolicy('x' as never, 0)).toThrow(TypeError);
    expect(() => refreshSchedule([], { retry: { maxDelay: -5 } })).toThrow(RangeError);
  });
});
