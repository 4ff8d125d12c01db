/**
 * The decision service (`POST /api/decide`): a crawler in any language sends URLs and its name, and gets back per URL
 * the verdict, the deciding line, the policy in force, the crawl delay and the AI usage preferences (the engine's
 * `usage`: Content-Usage and Content-Signal). robots.txt is fetched as Google fetches
 * and caches it by the engine's crawl client, over the SSRF-guarded fetch (`ftp://` over its FTP client, under the
 * same address rules), each origin once (and once per fleet when the service is given a shared store). A refusal of
 * this process's own (the guard's, for a private address) is never written to that store: the engine's client keeps
 * it out, so the fleet sharing it still gets the site's real answer. Answers come as one JSON document, or as NDJSON
 * (one line per URL, in input order, each written as soon as it and those before it are decided) when the client
 * accepts `application/x-ndjson`. A failing store is said once per stall (store-stalls.ts), not per request.
 */

import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type CrawlerInput, CrawlerInputError, type ResolvedCrawler, type RobotsTxt, RobotsUrlError } from 'robotskit';
import {
  crawlDelayOf,
  createRobotsClient,
  type EffectivePolicy,
  type RetrievalResult,
  type RobotsClient,
  type RobotsStore,
  robotsTxtOf,
  type StoreErrorHandler,
  statusLabel,
  type UrlVerdict,
} from 'robotskit/fetch';
import { type Static, Type } from 'typebox';
import { crawlersNamed, linesOf, type UsageJson, usageJsonOf } from '../analysis/verdicts.js';
import { engineFetchOf, SERVICE_USER_AGENT } from '../net/robots-fetch.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime } from './json.js';
import { errors, Nullable, Outcome, UsageShape, WRITE_SECURITY } from './shapes.js';
import { watchStoreStalls } from './store-stalls.js';
import { clientGone, slicedJson, WorkSlicer } from './work-limits.js';

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
    usage: Type.Optional(Nullable(UsageShape)),
    fetch: Type.Optional(
      Type.Object({
        status: Nullable(Type.Integer({ description: 'the HTTP status, or the FTP reply code of an ftp:// origin' })),
        reply: Nullable(Type.String({ description: 'the status as its protocol says it (HTTP 503, FTP 530)' })),
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
  /** Where the store's stalls are said (one line when it fails, one when it answers again). */
  readonly log?: (line: string) => void;
}

/** The verdicts' memo of crawl delays and lines, per policy (one robots.txt parse per origin and request). */
type Delays = Map<EffectivePolicy<RetrievalResult>, PolicyFacts>;

/** What a verdict needs of its policy's file: the crawl delay, and its lines once a usage answer quotes them. */
interface PolicyFacts {
  readonly robots: RobotsTxt | null;
  readonly delay: number | null;
  lines?: string[];
}

function factsOf(v: UrlVerdict, input: CrawlerInput, delays: Delays): PolicyFacts {
  let facts = delays.get(v.policy);
  if (facts === undefined) {
    const robots = v.policy.mode === 'rules' && v.policy.source !== null ? robotsTxtOf(v.policy.source) : null;
    facts = { robots, delay: robots === null ? null : crawlDelayOf(robots, input) };
    delays.set(v.policy, facts);
  }
  return facts;
}

/** The verdict's usage preferences, each deciding line quoted; null when the file states none. */
function usageOf(v: UrlVerdict, facts: PolicyFacts): UsageJson | null {
  const usage = v.explanation?.usage;
  if (usage === undefined) return null;
  if (facts.lines === undefined && facts.robots !== null) facts.lines = linesOf(facts.robots.source);
  return usageJsonOf(usage, facts.lines ?? null);
}

function decisionOf(typed: string, v: UrlVerdict, input: CrawlerInput, delays: Delays): DecisionJson {
  const facts = factsOf(v, input, delays);
  const latest = v.latest;
  return {
    url: typed,
    allowed: v.allowed,
    line: v.line,
    rule: v.rule === null ? null : { kind: v.rule.kind, pattern: v.rule.pattern },
    robotsUrl: v.robotsUrl,
    policy: { mode: v.policy.mode, reason: v.policy.reason, message: v.policy.message },
    crawlDelay: facts.delay,
    usage: usageOf(v, facts),
    fetch: {
      status: latest.status,
      reply: statusLabel(latest),
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
    // ftp:// robots.txt through the guard's FTP client, under the same address rules.
    ...(context.fetch.ftp === undefined ? {} : { retrieval: { ftp: context.fetch.ftp } }),
    clock: { now: context.now },
    availability: context.availability,
    ...(options.store === undefined ? {} : storeOf(app, options.store, options.log)),
  });
}

/** The shared store as the client uses it, its failures said once per stall (see store-stalls.ts). */
function storeOf(
  app: FastifyInstance,
  store: RobotsStore,
  log: ((line: string) => void) | undefined,
): { store: RobotsStore; onStoreError: StoreErrorHandler } {
  const stalls = watchStoreStalls(store, log ?? ((line) => app.log.warn(line)));
  app.addHook('onClose', async () => stalls.close());
  return { store: stalls.store, onStoreError: stalls.onStoreError };
}

/** A decision request is heavy past this many URLs. */
const HEAVY_DECIDE_URLS = 1_000;

/**
 * The decisions of `urls`, started in slices (10,000 URLs of origins in memory held the event loop 150–400 ms at
 * once): for `ndjson`, each in input order (a decision, or its promise while its robots.txt is fetched); otherwise the
 * whole answer as JSON, serialized in slices.
 */
async function decisions(
  client: RobotsClient,
  urls: readonly string[],
  crawler: ResolvedCrawler,
  reply: FastifyReply,
  gone: AbortSignal,
  ndjson: boolean,
): Promise<string | (DecisionJson | Promise<DecisionJson>)[]> {
  const delays: Delays = new Map();
  const slicer = new WorkSlicer(gone);
  const pending: (DecisionJson | Promise<DecisionJson>)[] = [];
  for (const url of urls) {
    await slicer.tick();
    const p = decide(client, url, crawler.input, delays);
    // Rejections are awaited in order later; keep them from counting as unhandled meanwhile.
    if (p instanceof Promise) p.catch(() => {});
    pending.push(p);
  }
  if (ndjson) return pending;
  const results = await Promise.all(pending);
  const answer = { crawler: crawler.typed, crawlerUsed: crawler.name, rewrite: crawler.rewrite, results };
  return slicedJson(reply, DecideResult, Decision, answer, 'results', slicer);
}

/** Registers `POST /api/decide`. */
export function registerDecideRoutes(app: FastifyInstance, context: ApiContext, options: DecideOptions = {}): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const client = decideClient(app, context, options);
  const schema = {
    summary:
      'Decide many URLs for a crawler: verdict, deciding line, policy in force, crawl delay and AI usage preferences per URL',
    description:
      'robots.txt is fetched per Google’s rules (cached 24 h or per Cache-Control, failures retried, the ' +
      'availability timeline of GET /api/health) through the SSRF guard, each origin once. Send ' +
      '`Accept: application/x-ndjson` for one JSON line per URL in input order, streamed; otherwise one JSON ' +
      'document. Needs the token when the service has one.',
    tags: ['decide'],
    security: WRITE_SECURITY,
    body: DecideBody,
    response: { 200: DecideResult, ...errors(400, 401, 413, 415, 429) },
  };
  api.post('/api/decide', { schema }, async (request, reply) => {
    const crawler = crawlerOr400(request.body.crawler);
    const gone = clientGone(reply);
    const ndjson = (request.headers.accept ?? '').includes('application/x-ndjson');
    const work = () => decisions(client, request.body.urls, crawler, reply, gone, ndjson);
    // Many URLs take their turn in the process's budget of heavy work (a few at once, or a 429 saying when to retry).
    const answer =
      request.body.urls.length > HEAVY_DECIDE_URLS
        ? await context.heavyWork.run('the decision', work, gone)
        : await work();
    if (typeof answer === 'string') {
      return reply.type('application/json; charset=utf-8').send(answer as unknown as Static<typeof DecideResult>);
    }
    const pending = answer;
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    // The name used travels in a header here (lines are verdicts only).
    reply.header('x-robotskit-crawler-used', crawler.name);
    // A stream is sent as it is (the 200 schema describes the JSON form).
    return reply.send(Readable.from(ndjsonLines(pending)) as unknown as Static<typeof DecideResult>);
  });
}
