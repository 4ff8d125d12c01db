/**
 * `GET /api/health`: whether the service answers, its version and database, whether it fetches, and the settings the
 * web UI words its pages with (the availability timeline in the engine's words, how long files without a robots.txt
 * stay listed). Its JSON shape is here.
 */

import { Type } from 'typebox';
import type { ApiContext } from './context.js';
import type { Api } from './shapes.js';

export const Health = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
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
  hideAllowAllAfterMs: Type.Integer({
    description: 'files whose fetches have found no robots.txt (allow-all) this long leave the files list, ms',
  }),
});

/** Registers `GET /api/health` on `api`. */
export function registerHealthRoute(api: Api, context: ApiContext): void {
  const schema = { summary: 'Health of the service', tags: ['service'], response: { 200: Health } };
  api.get('/api/health', { schema }, async () => ({
    status: 'ok' as const,
    version: context.version,
    database: context.database.dialect,
    fetching: context.fetching ? ('running' as const) : ('not-configured' as const),
    availability: context.availabilityRules,
    hideAllowAllAfterMs: context.hideAllowAllAfterMs,
  }));
}
