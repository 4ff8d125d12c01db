/**
 * The tester (`POST /api/test`: URLs × crawlers against rules given as text, a live file or a stored version) and
 * the live robots.txt loader (`GET /api/fetch`). Live files are fetched through the SSRF-guarded fetch with the
 * engine's retrieval. Their JSON shapes are here.
 */

import type { FastifyReply } from 'fastify';
import { type RetrievalOutcome, robotsTxtOf } from 'robotskit/fetch';
import { type Static, Type } from 'typebox';
import type { RulesSide } from '../analysis/impact.js';
import { linesOf, type UsageJson, type Verdict as VerdictRow, verdictOf } from '../analysis/verdicts.js';
import { getFileReport } from '../storage/report.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime } from './json.js';
import {
  type Api,
  errors,
  FetchError,
  Nullable,
  Outcome,
  PARSED_PART,
  ReportStatus,
  StatusWords,
  TesterUrl,
  Time,
  UsageShape,
  UserAgentName,
  VerdictSide,
  WRITE_SECURITY,
} from './shapes.js';
import {
  checkTestUrl,
  crawlersOr400,
  extentOf,
  liveOr400,
  retrievalSummary,
  sideOfText,
  sideOfVersion,
  siteUrlOr400,
} from './tester-input.js';
import { versionOr404 } from './version-routes.js';
import {
  checkVerdictCount,
  clientGone,
  MAX_ROBOTS_BODY_BYTES,
  MAX_TEST_ANSWER_BYTES,
  slicedJson,
  WorkSlicer,
} from './work-limits.js';

const TestBody = Type.Object(
  {
    robots: Type.Optional(
      Type.String({
        description:
          `robots.txt text to test, whole: the engine parses ${PARSED_PART} of its UTF-8, as Google does, and the ` +
          'answer says when the rest was left out (the request body may be 8 MiB)',
      }),
    ),
    robotsUrl: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'any URL of a site: its live robots.txt is fetched' }),
    ),
    versionId: Type.Optional(Type.Integer({ minimum: 1, description: 'a stored version' })),
    urls: Type.Array(TesterUrl, { minItems: 1, maxItems: 1000 }),
    userAgents: Type.Array(UserAgentName, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false, description: 'exactly one of robots, robotsUrl and versionId' },
);

export const Verdict = Type.Object({
  url: Type.String(),
  userAgent: Type.String({ description: 'as given' }),
  userAgentUsed: Type.String({
    description: 'the name used: the token or catalogue name (after any rewrite of what was given), or *',
  }),
  rewrite: Nullable(
    Type.String({
      description:
        'set when the name used is not the name given (a User-Agent string reduced to its crawler, spaces removed), saying which and why',
    }),
  ),
  crawler: Nullable(Type.String({ description: 'the catalogue crawler used, when the name is one' })),
  suggestion: Nullable(
    Type.String({
      description:
        'the catalogue crawler a typo away from the name given, when that name is not in the catalogue ("Googlbot" → Googlebot); the verdict is still the name as given',
    }),
  ),
  ...VerdictSide.properties,
  usage: Nullable(UsageShape),
});

const RetrievalSummary = Type.Object({
  robotsUrl: Type.String(),
  finalUrl: Type.String(),
  outcome: Outcome,
  status: Nullable(Type.Integer({ description: 'the HTTP status; null when no answer came' })),
  fetchStatus: ReportStatus,
  error: Nullable(FetchError),
  summary: StatusWords,
});

export const TestResult = Type.Object({
  source: Type.Object({
    kind: Type.Union([Type.Literal('text'), Type.Literal('url'), Type.Literal('version')]),
    mode: Outcome,
    versionId: Nullable(Type.Integer()),
    retrieval: Nullable(RetrievalSummary),
    size: Nullable(Type.Integer({ description: 'bytes of the file (UTF-8 bytes of text); null without one' })),
    parsedSize: Nullable(Type.Integer({ description: `bytes the engine parsed: ${PARSED_PART} at most, as Google` })),
    truncated: Type.Boolean({
      description: `the file is longer: only ${PARSED_PART} were parsed, and rules after them do not count`,
    }),
  }),
  results: Type.Array(Verdict),
});

const FetchQuery = Type.Object(
  { url: Type.String({ minLength: 1, maxLength: 2000, description: 'any URL of the site' }) },
  { additionalProperties: false },
);

export const LiveRobots = Type.Object({
  ...RetrievalSummary.properties,
  fetchedAt: Time,
  redirects: Type.Array(
    Type.Object({ url: Type.String(), status: Nullable(Type.Integer()), location: Nullable(Type.String()) }),
  ),
  headers: Type.Record(Type.String(), Type.String()),
  content: Nullable(Type.String({ description: 'the body decoded as UTF-8 for a 2xx answer, for display' })),
  contentBase64: Nullable(
    Type.String({ description: 'the exact bytes of the body (base64), what a crawler decides on, for a 2xx answer' }),
  ),
  size: Type.Integer(),
  truncated: Type.Boolean({ description: `longer than Google reads: only ${PARSED_PART} were kept` }),
  html: Type.Boolean({ description: 'an HTML page served as robots.txt' }),
});

/** Where a test's rules come from, and how much of the file the engine read. */
type TestSource = {
  readonly kind: 'text' | 'url' | 'version';
  readonly mode: RetrievalOutcome;
  readonly versionId: number | null;
  readonly retrieval: ReturnType<typeof retrievalSummary> | null;
} & ReturnType<typeof extentOf>;

/** The rules a test decides with, where they come from, and the origin paths are read on (null: none). */
async function rulesToTest(
  context: ApiContext,
  body: { robots?: string; robotsUrl?: string; versionId?: number },
): Promise<{ side: RulesSide; source: TestSource; base: string | null }> {
  if (body.robots !== undefined) {
    const side = sideOfText(body.robots);
    const source = { kind: 'text', mode: 'rules', versionId: null, retrieval: null, ...extentOf(side.robots) } as const;
    return { side, source, base: null };
  }
  if (body.robotsUrl !== undefined) {
    const result = await liveOr400(context, siteUrlOr400(body.robotsUrl));
    const robots = robotsTxtOf(result);
    const retrieval = retrievalSummary(result);
    return {
      side: { robots, mode: result.outcome, lines: robots === null ? null : linesOf(robots.source) },
      source: { kind: 'url', mode: result.outcome, versionId: null, retrieval, ...extentOf(robots, result) },
      base: result.origin,
    };
  }
  const v = await versionOr404(context, body.versionId as number);
  const side = sideOfVersion(v);
  const file = await getFileReport(context.database.db, Number(v.file_id));
  const source = { kind: 'version', mode: side.mode, versionId: v.id, retrieval: null, ...extentOf(side.robots) };
  return { side, source: source as TestSource, base: file ? new URL(file.url).origin : null };
}

/** About what a verdict's usage adds to the answer, in bytes (each quoted line counted three times). */
function usageBytes(usage: UsageJson): number {
  let bytes = 200;
  for (const r of usage.rules) bytes += 100 + 3 * r.lineText.length;
  if (usage.contentSignal !== null) bytes += 100 + 2 * JSON.stringify(usage.contentSignal.signals).length;
  return bytes;
}

function test(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Test URLs against robots.txt rules (text, a live file or a stored version) for crawlers',
    tags: ['tester'],
    security: WRITE_SECURITY,
    body: TestBody,
    response: { 200: TestResult, ...errors(400, 401, 404, 413, 415, 429) },
  };
  api.post('/api/test', { schema, bodyLimit: MAX_ROBOTS_BODY_BYTES }, async (request, reply) => {
    const body = request.body;
    const given = [body.robots, body.robotsUrl, body.versionId].filter((x) => x !== undefined).length;
    if (given !== 1) {
      throw new ApiError(400, 'invalid-request', 'give exactly one of robots (text), robotsUrl and versionId');
    }
    const crawlers = crawlersOr400(body.userAgents);
    checkVerdictCount(body.urls.length, crawlers.length);
    const gone = clientGone(reply);
    const work = () => testAnswer(context, body, crawlers, reply, gone);
    // A large test takes its turn in the process's budget of heavy work (a small one, as the web tester sends, never
    // waits): concurrent ones neither add their pauses up nor hold their answers in memory at once.
    const heavy =
      body.urls.length * crawlers.length > HEAVY_TEST_VERDICTS || (body.robots?.length ?? 0) > HEAVY_TEST_CHARS;
    const json = heavy ? await context.heavyWork.run('the test', work, gone) : await work();
    return reply.type('application/json; charset=utf-8').send(json as unknown as Static<typeof TestResult>);
  });
}

/** A test is heavy past this many verdicts, or with rules longer than this. */
const HEAVY_TEST_VERDICTS = 1_000;
const HEAVY_TEST_CHARS = 64 * 1024;

/** The answer of a test, as JSON: verdicts computed and serialized in slices. */
async function testAnswer(
  context: ApiContext,
  body: Static<typeof TestBody>,
  crawlers: ReturnType<typeof crawlersOr400>,
  reply: FastifyReply,
  gone: AbortSignal,
): Promise<string> {
  const slicer = new WorkSlicer(gone);
  const { side, source, base } = await rulesToTest(context, body);
  const urls = body.urls.map((u) => checkTestUrl(u, base));
  const results: VerdictRow[] = [];
  // In slices, so other requests are answered meanwhile; the answer's size is bounded as it grows.
  let answerBytes = 0;
  for (const url of urls) {
    for (const crawler of crawlers) {
      await slicer.tick();
      const verdict = verdictOf(side.robots, side.mode, side.lines, url, crawler);
      answerBytes += 200 + url.length + (verdict.lineText?.length ?? 0) + (verdict.rule?.pattern.length ?? 0);
      if (verdict.usage !== null) answerBytes += usageBytes(verdict.usage);
      if (answerBytes > MAX_TEST_ANSWER_BYTES) {
        throw new ApiError(
          413,
          'payload-too-large',
          `the answer would exceed ${MAX_TEST_ANSWER_BYTES / 1024 / 1024} MiB (the verdicts quote long URLs or rule lines); ask for fewer URLs or crawlers`,
        );
      }
      results.push(verdict);
    }
  }
  // Serialized in slices too (the answer may hold 10,000 verdicts).
  return slicedJson(reply, TestResult, Verdict, { source, results }, 'results', slicer);
}

function liveFile(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'A site\'s live robots.txt, fetched now (the web UI\'s "load live file")',
    description:
      'Open to every client, except on a service with a token whose fetches may reach private networks ' +
      '(--allow-private-addresses): there it needs the token, as a redirect could lead to any internal URL.',
    tags: ['tester'],
    querystring: FetchQuery,
    response: { 200: LiveRobots, ...errors(400, 401) },
  };
  api.get('/api/fetch', { schema }, async (request) => {
    const result = await liveOr400(context, siteUrlOr400(request.query.url));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(result.headers)) if (v !== null) headers[k] = v;
    return {
      ...retrievalSummary(result),
      fetchedAt: isoTime(result.fetchedAt),
      redirects: result.redirects.map((h) => ({ url: h.url, status: h.status, location: h.location })),
      headers,
      content: result.body === null ? null : new TextDecoder().decode(result.body),
      contentBase64: result.body === null ? null : Buffer.from(result.body).toString('base64'),
      size: result.size,
      truncated: result.truncated,
      html: result.html,
    };
  });
}

/** Registers the tester routes on `api`. */
export function registerTesterRoutes(api: Api, context: ApiContext): void {
  test(api, context);
  liveFile(api, context);
}
