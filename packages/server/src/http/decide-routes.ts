/**
 * The decision service (`POST /api/decide`): a crawler in any language sends URLs and its name, and gets back per URL
 * the verdict, the deciding line, the policy in force and the crawl delay. robots.txt is fetched as Google fetches
 * and caches it by the engine's crawl client, over the SSRF-guarded fetch, each origin once (and once per fleet when
 * the service is given a shared store). Answers come as one JSON document, or as NDJSON (one line per URL, in input
 * order, each written as soon as it and those before it are decided) when the client accepts `application/x-ndjson`.
 */

import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type CrawlerInput, CrawlerInputError, type ResolvedCrawler, RobotsUrlError } from 'robotskit';
import {
  crawlDelayOf,
  createRobotsClient,
  type EffectivePolicy,
  type RetrievalResult,
  type RobotsClient,
  type RobotsStore,
  robotsTxtOf,
  type UrlVerdict,
} from 'robotskit/fetch';
import { type Static, Type } from 'typebox';
import { crawlersNamed } from '../analysis/verdicts.js';
import { engineFetchOf, SERVICE_USER_AGENT } from '../net/robots-fetch.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime } from './json.js';
import { errors, Nullable, Outcome, WRITE_SECURITY } from './shapes.js';

/** URLs one request may ask about. */
const DECIDE_MAX_URLS = 10_000;

const DecideBody = Type.Object(
  {
    crawler: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'a product token (MyBot), * for any crawler, or a catalogue crawler name (Googlebot-Image, GPTBot…)',
    }),
    urls: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { minItems: 1, maxItems: DECIDE_MAX_URLS }),
  },
  { additionalProperties: false },
);

const DecideError = Type.Object({ kind: Type.String(), message: Type.String() });

const Decision = Type.Object(
  {
    url: Type.String({ description: 'as sent' }),
    allowed: Type.Optional(Type.Boolean()),
    line: Type.Optional(Type.Integer({ description: 'the deciding line, 0 when no rule decided' })),
    rule: Type.Optional(
      Nullable(
        Type.Object({ kind: Type.Union([Type.Literal('allow'), Type.Literal('disallow')]), pattern: Type.String() }),
      ),
    ),
    robotsUrl: Type.Optional(Type.String()),
    policy: Type.Optional(
      Type.Object({
        mode: Outcome,
        reason: Type.String(),
        message: Type.String(),
      }),
    ),
    crawlDelay: Type.Optional(Nullable(Type.Number({ description: 'seconds, from the groups that apply' }))),
    fetch: Type.Optional(
      Type.Object({
        status: Nullable(Type.Integer()),
        outcome: Outcome,
        error: Nullable(DecideError),
        fetchedAt: Type.String({ format: 'date-time' }),
      }),
    ),
    error: Type.Optional(DecideError),
  },
  { description: 'a verdict, or an error for a URL without a robots.txt' },
);

const DecideResult = Type.Object({
  crawler: Type.String({ description: 'as sent' }),
  crawlerUsed: Type.String({
    description:
      "the name the engine's naming rule used (a User-Agent string's crawler, a catalogue name, a token, or *)",
  }),
  rewrite: Type.Union([Type.String(), Type.Null()], {
    description: 'set when the name used is not the name sent, saying what was used and why',
  }),
  results: Type.Array(Decision),
});

type DecisionJson = Static<typeof Decision>;

/** Options of {@link registerDecideRoutes}. */
interface DecideOptions {
  /** A store shared with other instances (see robotskit-stores), so a fleet of services fetches each origin once. */
  readonly store?: RobotsStore;
}

/** The verdicts' memo of crawl delays, per policy (one robots.txt parse per origin and request). */
type Delays = Map<EffectivePolicy<RetrievalResult>, number | null>;

function decisionOf(typed: string, v: UrlVerdict, input: CrawlerInput, delays: Delays): DecisionJson {
  let delay = delays.get(v.policy);
  if (delay === undefined) {
    const robots = v.policy.mode === 'rules' && v.policy.source !== null ? robotsTxtOf(v.policy.source) : null;
    delay = robots === null ? null : crawlDelayOf(robots, input);
    delays.set(v.policy, delay);
  }
  const latest = v.latest;
  return {
    url: typed,
    allowed: v.allowed,
    line: v.line,
    rule: v.rule === null ? null : { kind: v.rule.kind, pattern: v.rule.pattern },
    robotsUrl: v.robotsUrl,
    policy: { mode: v.policy.mode, reason: v.policy.reason, message: v.policy.message },
    crawlDelay: delay,
    fetch: {
      status: latest.status,
      outcome: latest.outcome,
      error: latest.error === null ? null : { kind: latest.error.kind, message: latest.error.message },
      fetchedAt: isoTime(latest.fetchedAt),
    },
  };
}

const invalid = (typed: string, error: RobotsUrlError): DecisionJson => ({
  url: typed,
  error: { kind: 'invalid-url', message: error.message },
});

/** The decision now when the origin is in memory (no promise per URL), else a promise of it. */
function decide(
  client: RobotsClient,
  typed: string,
  input: CrawlerInput,
  delays: Delays,
): DecisionJson | Promise<DecisionJson> {
  let known: UrlVerdict | null;
  try {
    known = client.peek(typed, input);
  } catch (error) {
    if (error instanceof RobotsUrlError) return invalid(typed, error);
    throw error;
  }
  if (known !== null) return decisionOf(typed, known, input, delays);
  return client.explain(typed, input).then(
    (v) => decisionOf(typed, v, input, delays),
    (error: unknown) => {
      if (error instanceof RobotsUrlError) return invalid(typed, error);
      throw error;
    },
  );
}

/** NDJSON in input order: lines already decided go out together; before waiting on a robots.txt, what is ready is sent. */
async function* ndjsonLines(pending: readonly (DecisionJson | Promise<DecisionJson>)[]): AsyncGenerator<string> {
  let chunk = '';
  for (const p of pending) {
    if (p instanceof Promise && chunk !== '') {
      yield chunk;
      chunk = '';
    }
    chunk += `${JSON.stringify(await p)}\n`;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** The crawler named, by the engine's rule; a blank name is a 400. */
function crawlerOr400(typed: string): ResolvedCrawler {
  try {
    return crawlersNamed([typed])[0]!;
  } catch (error) {
    if (error instanceof CrawlerInputError) throw new ApiError(400, 'invalid-request', error.message);
    throw error;
  }
}

/** The engine's crawl client of the app: the guarded fetch, the service's clock and availability, the shared store. */
function decideClient(app: FastifyInstance, context: ApiContext, options: DecideOptions): RobotsClient {
  return createRobotsClient({
    userAgent: SERVICE_USER_AGENT,
    fetch: engineFetchOf(context.fetch),
    clock: { now: context.now },
    availability: context.availability,
    ...(options.store === undefined
      ? {}
      : {
          store: options.store,
          onStoreError: (error: unknown, operation: string, origin: string) =>
            app.log.warn({ err: error, origin }, `robots store ${operation} failed; answering from memory`),
        }),
  });
}

/** Registers `POST /api/decide`. */
export function registerDecideRoutes(app: FastifyInstance, context: ApiContext, options: DecideOptions = {}): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const client = decideClient(app, context, options);
  const schema = {
    summary: 'Decide many URLs for a crawler: verdict, deciding line, policy in force and crawl delay per URL',
    description:
      'robots.txt is fetched per Google’s rules (cached 24 h or per Cache-Control, failures retried, the ' +
      'availability timeline of GET /api/health) through the SSRF guard, each origin once. Send ' +
      '`Accept: application/x-ndjson` for one JSON line per URL in input order, streamed; otherwise one JSON ' +
      'document. Needs the token when the service has one.',
    tags: ['decide'],
    security: WRITE_SECURITY,
    body: DecideBody,
    response: { 200: DecideResult, ...errors(400, 401, 413, 415) },
  };
  api.post('/api/decide', { schema }, async (request, reply) => {
    const crawler = crawlerOr400(request.body.crawler);
    const delays: Delays = new Map();
    const pending = request.body.urls.map((url) => decide(client, url, crawler.input, delays));
    // Rejections are awaited in order below; keep them from counting as unhandled meanwhile.
    for (const p of pending) if (p instanceof Promise) p.catch(() => {});
    if (!(request.headers.accept ?? '').includes('application/x-ndjson')) {
      const results = await Promise.all(pending);
      return { crawler: crawler.typed, crawlerUsed: crawler.name, rewrite: crawler.rewrite, results };
    }
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    // The name used travels in a header here (lines are verdicts only).
    reply.header('x-robotskit-crawler-used', crawler.name);
    // A stream is sent as it is (the 200 schema describes the JSON form).
    return reply.send(Readable.from(ndjsonLines(pending)) as unknown as Static<typeof DecideResult>);
  });
}
