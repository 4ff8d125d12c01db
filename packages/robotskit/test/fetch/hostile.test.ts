/**
 * The hostile-answer table (test/contract/hostile.ts) through the engine's retrieval over Node's own `fetch`. The
 * CLI's transports and the report service's guarded fetch run the same table (packages/cli/test/net-request.test.ts,
 * packages/server/test/hostile-fetch.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { fetchRobotsTxt } from '../../src/fetch/index.js';
import { HOSTILE_CASES, hostileOutcome, withHostileServer } from '../contract/hostile.js';

describe('hostile answers over Node’s fetch', () => {
  it.each(HOSTILE_CASES)('$id', async (c) => {
    const result = await withHostileServer(c, (origin) =>
      fetchRobotsTxt(origin, { userAgent: 'robotskit-test', timeouts: { total: 5000 } }),
    );
    expect(hostileOutcome(result)).toEqual(c.expected);
  });
});
