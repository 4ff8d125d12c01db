/**
 * The hostile-answer table (packages/robotskit/test/contract/hostile.ts) through the report service's retrieval: the
 * engine over the SSRF-guarded fetch (private addresses allowed, as for a loopback test). The CLI's transports and
 * the engine over Node's fetch run the same table, so a hostile server is worded the same in the report and in
 * `robotskit check`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_CASES, hostileOutcome, withHostileServer } from '../../robotskit/test/contract/hostile.js';
import { createGuardedFetch } from '../src/net/guarded-fetch.js';
import { retrieveRobotsTxt } from '../src/net/robots-fetch.js';

describe('hostile answers through the service’s guarded fetch', () => {
  const fetch = createGuardedFetch({ allowPrivate: true });
  afterAll(() => fetch.close());

  it.each(HOSTILE_CASES)('$id', async (c) => {
    const result = await withHostileServer(c, (origin) =>
      retrieveRobotsTxt(`${origin}/robots.txt`, { fetch, now: Date.now, timeouts: { total: 5000 } }),
    );
    expect(hostileOutcome(result)).toEqual(c.expected);
  });
});
