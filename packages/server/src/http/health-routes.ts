/**
 * `GET /api/health`: whether the service answers, its version and database, whether it fetches, and the settings the
 * web UI words its pages with (the availability timeline in the engine's words, how long files without a robots.txt
 * stay listed), and how late its event loop runs (`event-loop.ts`). Its JSON shape is here.
 */

import type { RobotsStore, RobotsStoreHealth } from 'robotskit/fetch';
import { Type } from 'typebox';
import type { ApiContext } from './context.js';
import type { Api } from './shapes.js';

/** How long the health route waits for the database's answer. */
const HEALTH_CHECK_MS = 3000;

export const Health = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  databaseState: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')], {
    description: `ok: the database answered a trivial query within ${HEALTH_CHECK_MS / 1000} s; unavailable: it did not (stalled, down), and API requests that need it answer 503`,
  }),
  databaseError: Type.Union([Type.String(), Type.Null()], { description: 'why it is unavailable, in one line' }),
  fetching: Type.Union([Type.Literal('running'), Type.Literal('not-configured')], {
    description: 'whether this process runs fetch workers',
  }),
  availability: Type.Object(
    {
      disallowPeriod: Type.Integer({ description: 'how long failures stop crawling, ms' }),
      lastGoodVersionPeriod: Type.Integer({
        description: 'until when after the first failure the last good version applies, ms',
      }),
      afterLastGoodPeriod: Type.Union([
        Type.Literal('allow-if-site-reachable'),
        Type.Literal('keep-last-good-version'),
      ]),
      words: Type.Object({ disallowPeriod: Type.String(), lastGoodVersionPeriod: Type.String() }),
      summary: Type.String({ description: 'the whole timeline in one paragraph, with these periods' }),
    },
    {
      description:
        "what applies while robots.txt cannot be fetched, with this service's periods (the engine's availabilityRules)",
    },
  ),
  eventLoop: Type.Object(
    {
      recentMaxMs: Type.Number({
        description:
          'the longest event-loop delay of the last 1 to 2 s, ms: a stall of the loop (it holds up every request) shows from the first answer after it',
      }),
      maxMs: Type.Number({ description: 'the longest delay since the service started, ms' }),
      p99Ms: Type.Number({ description: 'the 99th percentile of the delays since the service started, ms' }),
      meanMs: Type.Number({ description: 'their mean, ms' }),
    },
    { description: "how late the service's event loop runs (0 when idle; Node's monitorEventLoopDelay)" },
  ),
  hideAllowAllAfterMs: Type.Integer({
    description: 'files whose fetches have found no robots.txt (allow-all) this long leave the files list, ms',
  }),
  robotsStore: Type.Optional(
    Type.Object(
      {
        state: Type.Union([Type.Literal('ok'), Type.Literal('stalled'), Type.Literal('unknown')], {
          description:
            'ok: it answers; stalled: a call got no answer in time, and POST /api/decide answers from memory (fetching what it lacks) until it does; unknown: the store does not say',
        }),
        since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
          description: 'when the state began',
        }),
        stalls: Type.Integer({ description: 'how many times it stalled since the service started' }),
        failedCalls: Type.Integer({ description: 'store calls that failed since the service started' }),
        cameBackAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
          description: 'when it last came back after a stall',
        }),
        lastError: Type.Union([Type.String(), Type.Null()]),
      },
      { description: 'the shared robots.txt store behind POST /api/decide (serve --cache), when there is one' },
    ),
  ),
});

/** The store's health in the API's words (times as ISO strings). */
function storeHealthOf(store: RobotsStore) {
  // A store on a server says how it is (robotskit-stores' do); another one does not.
  const h = (store as RobotsStore & { health?: () => RobotsStoreHealth }).health?.();
  if (h === undefined) {
    return { state: 'unknown' as const, since: null, stalls: 0, failedCalls: 0, cameBackAt: null, lastError: null };
  }
  return {
    state: h.state,
    since: new Date(h.since).toISOString(),
    stalls: h.stalls,
    failedCalls: h.failedCalls,
    cameBackAt: h.cameBackAt === null ? null : new Date(h.cameBackAt).toISOString(),
    lastError: h.lastError,
  };
}

/** Whether the database answers now, and why not. */
async function databaseStateOf(context: ApiContext) {
  try {
    await context.database.check(HEALTH_CHECK_MS);
    return { databaseState: 'ok' as const, databaseError: null };
  } catch (error) {
    const text = error instanceof Error ? error.message || error.name : String(error);
    return { databaseState: 'unavailable' as const, databaseError: text.split('\n')[0]! };
  }
}

/** Registers `GET /api/health` on `api`. */
export function registerHealthRoute(api: Api, context: ApiContext): void {
  const schema = { summary: 'Health of the service', tags: ['service'], response: { 200: Health } };
  api.get('/api/health', { schema }, async () => ({
    status: 'ok' as const,
    version: context.version,
    database: context.database.dialect,
    ...(await databaseStateOf(context)),
    fetching: context.fetching ? ('running' as const) : ('not-configured' as const),
    availability: context.availabilityRules,
    eventLoop: context.eventLoop.delays(),
    hideAllowAllAfterMs: context.hideAllowAllAfterMs,
    ...(context.robotsStore === undefined ? {} : { robotsStore: storeHealthOf(context.robotsStore) }),
  }));
}
