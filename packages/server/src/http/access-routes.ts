/**
 * Access as crawlers (`POST /api/properties/:id/access`): robots.txt and one page of a property fetched as the
 * service and with each named crawler's real `User-Agent`, and where the edge (CDN, WAF, paywall) disagrees with the
 * file: the engine's access check (`checkAccess` in `robotskit/fetch`), whose answer is sent as it is, in the shape
 * `robotskit audit --as --json` prints. Every fetch goes through the service's SSRF-guarded fetch (a refused address is
 * the engine's `blocked` error, said in the answer), within the usual limits: at most 20 crawlers, 10 s per fetch, the
 * engine's robots.txt size cap, the page read only as far as a challenge shows, no redirect followed, and the whole
 * check ended after two minutes or when the client leaves; four checks at once per process (`AppOptions.accessChecks`),
 * a fifth is a 429 with `Retry-After`. A write like the others: the token when the service has
 * one, and no cross-site request (the app's hooks).
 */

import { type AccessCrawler, accessCrawlerOf, checkAccess, MAX_ACCESS_CRAWLERS, pageGetOver } from 'robotskit/fetch';
import { type Static, Type } from 'typebox';
import { engineFetchOf, SERVICE_USER_AGENT } from '../net/robots-fetch.js';
import { ownFilesOfProperty } from '../storage/properties.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { propertyOr404 } from './property-routes.js';
import { type Api, errors, IdParams, Nullable, Outcome, UserAgentName, WRITE_SECURITY } from './shapes.js';
import { crawlersOr400 } from './tester-input.js';
import { clientGone } from './work-limits.js';

/** Each fetch's time (headers, a stall, the whole exchange). */
const FETCH_MS = 10_000;
/** The whole check's time: past it, the fetches left end as aborted. */
const CHECK_MS = 120_000;

const AccessBody = Type.Object(
  {
    crawlers: Type.Array(UserAgentName, {
      minItems: 1,
      maxItems: MAX_ACCESS_CRAWLERS,
      description: 'the crawlers to fetch as (GPTBot, Googlebot…), each by the engine’s crawler rule',
    }),
    path: Type.Optional(
      Type.String({
        pattern: '^/',
        maxLength: 2048,
        description: 'the page checked, a path on the property’s origin (default /)',
      }),
    ),
  },
  { additionalProperties: false },
);

const CacheEvidence = Type.Object({
  age: Nullable(Type.Integer(), { description: 'Age, in seconds' }),
  hit: Type.Boolean({ description: 'a cache status header says the answer came from its storage' }),
  marks: Type.Array(Type.String(), { description: 'the headers that say it is a cache’s copy, as sent' }),
  lastModified: Nullable(Type.String()),
  etag: Nullable(Type.String()),
  cacheControl: Nullable(Type.String()),
});

const ServedRobots = Type.Object({
  status: Nullable(Type.Integer()),
  outcome: Outcome,
  bytes: Type.Integer(),
  problem: Nullable(Type.String({ description: 'why no file was found, in the engine’s words' })),
  cache: CacheEvidence,
});

const FreshnessState = Type.Union([
  Type.Literal('current'),
  Type.Literal('stale'),
  Type.Literal('unproven'),
  Type.Literal('cached-too'),
  Type.Literal('unchecked'),
]);

const Freshness = Type.Object(
  {
    state: FreshnessState,
    olderBySeconds: Nullable(Type.Integer()),
    basis: Type.Union([Type.Literal('age'), Type.Literal('last-modified'), Type.Null()]),
    fresh: ServedRobots,
  },
  { description: 'the served robots.txt against the one fetched with Cache-Control: no-cache' },
);

const ServedPage = Type.Object({
  status: Nullable(Type.Integer()),
  contentType: Nullable(Type.String()),
  challenge: Type.Boolean(),
  error: Nullable(Type.String({ description: 'why the page could not be fetched' })),
});

const AccessFinding = Type.Object({
  kind: Type.Union([
    Type.Literal('edge-refuses'),
    Type.Literal('challenge'),
    Type.Literal('robots-differs'),
    Type.Literal('stale-robots'),
  ]),
  message: Type.String(),
});

const CrawlerAccess = Type.Object({
  crawler: Type.String({ description: 'the catalogue name, or the token as resolved' }),
  userAgent: Type.String({ description: 'the User-Agent header sent' }),
  documentedUserAgent: Type.Boolean({ description: 'false: built from the crawler’s token' }),
  robots: Type.Object({ ...ServedRobots.properties, sameAsBaseline: Type.Boolean() }),
  freshness: Freshness,
  allowed: Type.Boolean({ description: 'whether the robots.txt served to this crawler allows it the page' }),
  line: Type.Integer({ description: 'the deciding line (0: none)' }),
  ruleText: Nullable(Type.String()),
  page: ServedPage,
  findings: Type.Array(AccessFinding),
});

export const AccessResult = Type.Object({
  url: Type.String(),
  robotsUrl: Type.String(),
  baseline: Type.Object({
    userAgent: Type.String(),
    robots: ServedRobots,
    freshness: Freshness,
    page: ServedPage,
  }),
  crawlers: Type.Array(CrawlerAccess),
  disagreements: Type.Integer({ description: 'findings over all crawlers' }),
});

/** The page checked: `path` on the property's origin (a domain's: its first own file's, https first). */
async function pageUrlOf(context: ApiContext, id: number, path: string): Promise<URL> {
  const property = await propertyOr404(context, id);
  let base = property.kind === 'domain' ? `https://${property.name}/` : property.name;
  if (property.kind === 'domain') {
    const [first] = await ownFilesOfProperty(context.database.db, id);
    if (first !== undefined) base = first.url;
  }
  const origin = new URL(base);
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:')
    throw new ApiError(400, 'invalid-request', `${property.name} is not an http(s) site: the check fetches pages`);
  const url = new URL(path, origin);
  // `//other.example/x` and `/\other.example/x` are paths to URL's reading and another host's URL once resolved.
  if (url.origin !== origin.origin) {
    throw new ApiError(
      400,
      'invalid-request',
      `path '${path}' leaves ${origin.origin}: give a path on the property's site`,
    );
  }
  return url;
}

/** Registers the access route on `api`. */
export function registerAccessRoutes(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Fetch robots.txt and a page as each crawler, and say where the edge disagrees with the file',
    tags: ['properties'],
    security: WRITE_SECURITY,
    params: IdParams,
    body: AccessBody,
    response: { 200: AccessResult, ...errors(400, 401, 404, 413, 415, 429) },
  };
  api.post('/api/properties/:id/access', { schema }, async (request, reply) => {
    const url = await pageUrlOf(context, request.params.id, request.body.path ?? '/');
    const crawlers: AccessCrawler[] = crawlersOr400(request.body.crawlers).map((c) => accessCrawlerOf([c]));
    const signal = AbortSignal.any([clientGone(reply), AbortSignal.timeout(CHECK_MS)]);
    const timeouts = { headers: FETCH_MS, idle: FETCH_MS, total: FETCH_MS };
    const fetch = engineFetchOf(context.fetch);
    // A few at once per process (each may hold its fetches for two minutes); the rest are told to come back.
    const report = await context.accessChecks.run(
      'the access check',
      () =>
        checkAccess(url, crawlers, {
          userAgent: SERVICE_USER_AGENT,
          retrieval: { fetch, timeouts, clock: { now: context.now }, signal },
          page: pageGetOver({ fetch, timeouts, signal }),
        }),
      signal,
    );
    // The engine's report, sent as it is (its arrays are readonly; the schema's type is the same shape, which the
    // route's test holds at compile time).
    return report as Static<typeof AccessResult>;
  });
}
