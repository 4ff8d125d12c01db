/**
 * The tester (`POST /api/test`), the live robots.txt loader (`GET /api/fetch`), the impact check (`POST /api/impact`)
 * and host discovery from sitemaps (`POST /api/properties/:id/discover-hosts`). Live files and sitemaps are fetched
 * through the SSRF-guarded fetch with the engine's retrieval.
 */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { CrawlerInputError, parseRobotsTxt, type ResolvedCrawler, type RobotsTxt, RobotsUrlError } from 'robotskit';
import {
  type RetrievalResult as EngineResult,
  fetchStatusOf,
  type RetrievalOutcome,
  robotsTxtOf,
} from 'robotskit/fetch';
import { exactComparison } from '../analysis/exact.js';
import { compareVerdicts, type RulesSide } from '../analysis/impact.js';
import { originSitemapUrls } from '../analysis/sitemap-urls.js';
import { crawlersNamed, linesOf, verdictOf } from '../analysis/verdicts.js';
import { WATCHED_CRAWLER_NAMES } from '../analysis/watched-crawlers.js';
import { retrieveRobotsTxt } from '../net/robots-fetch.js';
import { getProperty } from '../storage/properties.js';
import { getFileReport, getVersion, listPropertyFiles, type StoredVersion } from '../storage/report.js';
import { discoverHosts } from '../worker/discover-hosts.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime } from './json.js';
import {
  DiscoveredHosts,
  DiscoverHostsBody,
  FetchQuery,
  IdParams,
  ImpactBody,
  ImpactResult,
  LiveRobots,
  TestBody,
  TestResult,
} from './schemas.js';
import {
  checkVerdictCount,
  clientGone,
  MAX_ROBOTS_BODY_BYTES,
  MAX_TEST_ANSWER_BYTES,
  WorkSlicer,
} from './work-limits.js';

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: 'Error#' }]));
const WRITE_SECURITY = [{ bearer: [] }];

function crawlersOr400(names: readonly string[]): ResolvedCrawler[] {
  try {
    return crawlersNamed(names);
  } catch (error) {
    if (error instanceof CrawlerInputError) throw new ApiError(400, 'invalid-request', error.message);
    throw error;
  }
}

/** An absolute http(s) URL, or a path; anything else is a 400 naming it. */
function checkTestUrl(typed: string, base: string | null): string {
  if (typed.startsWith('/')) return base === null ? typed : new URL(typed, base).href;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is neither an absolute URL nor a path (/…)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is not an http(s) URL`);
  }
  return url.href;
}

/** A site as typed: a URL, or a bare host (`example.com`, read as https). */
function siteUrlOr400(typed: string): string {
  let url: URL;
  const text = typed.trim();
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^:/]+:\d+(\/|$)/.test(text) ? text : `https://${text}`);
  } catch {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is not a URL (try https://example.com/)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is not an http(s) URL`);
  }
  return url.href;
}

/**
 * The rules of a robots.txt, text or bytes: bytes are parsed as bytes (the engine decides on them), text is for
 * display. The engine parses the first 500 KiB in bytes, as Google does; the lines quoted are those it parsed.
 */
function sideOfText(input: string | Uint8Array): RulesSide {
  const robots = parseRobotsTxt(input);
  return { robots, mode: 'rules', lines: linesOf(robots.source) };
}

/** How much of a file the engine read: its size and the bytes parsed, in bytes; `truncated` past 500 KiB. */
function extentOf(robots: RobotsTxt | null, retrieval?: EngineResult) {
  if (robots === null) return { size: retrieval?.size ?? null, parsedSize: null, truncated: false };
  // A live file was cut by the retrieval already (it keeps the first 500 KiB): its size is the answer's.
  return {
    size: retrieval?.size ?? robots.size,
    parsedSize: robots.parsedSize,
    truncated: (retrieval?.truncated ?? false) || robots.truncated,
  };
}

function sideOfVersion(v: StoredVersion): RulesSide {
  const mode = v.outcome;
  if (mode !== 'rules') return { robots: null, mode, lines: null };
  return sideOfText(v.content ?? new Uint8Array());
}

function retrievalSummary(r: EngineResult) {
  const status = fetchStatusOf(r);
  return {
    robotsUrl: r.robotsUrl,
    finalUrl: r.finalUrl,
    outcome: r.outcome,
    status: r.status,
    fetchStatus: status.status,
    error: r.error === null ? null : { kind: r.error.kind, code: r.error.code, message: r.error.message },
    summary: status.reason,
  };
}

/** Registers the routes on `app`. */
export function registerTesterRoutes(app: FastifyInstance, context: ApiContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = context.database;

  async function live(url: string): Promise<EngineResult> {
    try {
      return await retrieveRobotsTxt(url, { fetch: context.fetch, now: context.now });
    } catch (error) {
      if (error instanceof RobotsUrlError) throw new ApiError(400, 'invalid-request', error.message);
      throw error;
    }
  }

  async function versionOr404(id: number): Promise<StoredVersion> {
    const v = await getVersion(db, id);
    if (!v) throw new ApiError(404, 'not-found', `no version with id ${id}`);
    return v;
  }

  api.post(
    '/api/test',
    {
      schema: {
        summary: 'Test URLs against robots.txt rules (text, a live file or a stored version) for crawlers',
        tags: ['tester'],
        security: WRITE_SECURITY,
        body: TestBody,
        response: { 200: TestResult, ...errors(400, 401, 404, 413, 415) },
      },
      bodyLimit: MAX_ROBOTS_BODY_BYTES,
    },
    async (request, reply) => {
      const body = request.body;
      const given = [body.robots, body.robotsUrl, body.versionId].filter((x) => x !== undefined).length;
      if (given !== 1) {
        throw new ApiError(400, 'invalid-request', 'give exactly one of robots (text), robotsUrl and versionId');
      }
      const crawlers = crawlersOr400(body.userAgents);
      checkVerdictCount(body.urls.length, crawlers.length);
      const slicer = new WorkSlicer(clientGone(reply));
      let side: RulesSide;
      let source: {
        kind: 'text' | 'url' | 'version';
        mode: RetrievalOutcome;
        versionId: number | null;
        retrieval: ReturnType<typeof retrievalSummary> | null;
      } & ReturnType<typeof extentOf>;
      let base: string | null = null;
      if (body.robots !== undefined) {
        side = sideOfText(body.robots);
        source = { kind: 'text', mode: 'rules', versionId: null, retrieval: null, ...extentOf(side.robots) };
      } else if (body.robotsUrl !== undefined) {
        const result = await live(siteUrlOr400(body.robotsUrl));
        const robots = robotsTxtOf(result);
        side = { robots, mode: result.outcome, lines: robots === null ? null : linesOf(robots.source) };
        base = result.origin;
        const retrieval = retrievalSummary(result);
        source = { kind: 'url', mode: result.outcome, versionId: null, retrieval, ...extentOf(robots, result) };
      } else {
        const v = await versionOr404(body.versionId as number);
        side = sideOfVersion(v);
        const file = await getFileReport(db, Number(v.file_id));
        base = file ? new URL(file.url).origin : null;
        source = { kind: 'version', mode: side.mode, versionId: v.id, retrieval: null, ...extentOf(side.robots) };
      }
      const urls = body.urls.map((u) => checkTestUrl(u, base));
      const results = [];
      // In slices, so other requests are answered meanwhile; the answer's size is bounded as it grows.
      let answerBytes = 0;
      for (const url of urls) {
        for (const crawler of crawlers) {
          await slicer.tick();
          const verdict = verdictOf(side.robots, side.mode, side.lines, url, crawler);
          answerBytes += 200 + url.length + (verdict.lineText?.length ?? 0) + (verdict.rule?.pattern.length ?? 0);
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
      return { source, results };
    },
  );

  api.get(
    '/api/fetch',
    {
      schema: {
        summary: 'A site\'s live robots.txt, fetched now (the web UI\'s "load live file")',
        description:
          'Open to every client, except on a service with a token whose fetches may reach private networks ' +
          '(--allow-private-addresses): there it needs the token, as a redirect could lead to any internal URL.',
        tags: ['tester'],
        querystring: FetchQuery,
        response: { 200: LiveRobots, ...errors(400, 401) },
      },
    },
    async (request) => {
      const result = await live(siteUrlOr400(request.query.url));
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
    },
  );

  api.post(
    '/api/impact',
    {
      schema: {
        summary:
          "Which of the site's sitemap URLs change verdict, for which crawlers, under a draft or another version, " +
          'and exactly where in path+query space the verdicts change',
        tags: ['tester'],
        security: WRITE_SECURITY,
        body: ImpactBody,
        response: { 200: ImpactResult, ...errors(400, 401, 404, 413, 415) },
      },
      bodyLimit: MAX_ROBOTS_BODY_BYTES,
    },
    async (request, reply) => {
      const body = request.body;
      // The sitemap walk and the comparison stop when the client goes away.
      const gone = clientGone(reply);
      if ((body.propertyId === undefined) === (body.fileId === undefined)) {
        throw new ApiError(400, 'invalid-request', 'give exactly one of propertyId and fileId');
      }
      if ((body.draft === undefined) === (body.versionId === undefined)) {
        throw new ApiError(400, 'invalid-request', 'give exactly one of draft (robots.txt text) and versionId');
      }
      // A stored version names its own file; a draft is for the file asked for, or the property's first fetched one.
      const afterVersion = body.versionId === undefined ? null : await versionOr404(body.versionId);
      let fileId: number;
      if (body.fileId !== undefined) {
        fileId = body.fileId;
      } else {
        const propertyId = body.propertyId as number;
        if (!(await getProperty(db, propertyId)))
          throw new ApiError(404, 'not-found', `no property with id ${propertyId}`);
        const files = await listPropertyFiles(db, propertyId, { hostLimit: Number.MAX_SAFE_INTEGER });
        if (afterVersion !== null) {
          if (!files.some((f) => Number(f.id) === Number(afterVersion.file_id))) {
            throw new ApiError(
              400,
              'invalid-request',
              `version ${afterVersion.id} is a version of file ${afterVersion.file_id}, which property ${propertyId} does not watch`,
            );
          }
          fileId = Number(afterVersion.file_id);
        } else {
          const file = files.find((f) => f.fetch_outcome === 'rules') ?? files[0];
          if (!file) throw new ApiError(400, 'invalid-request', `property ${propertyId} has no robots.txt files`);
          fileId = file.id;
        }
      }
      const file = await getFileReport(db, fileId);
      if (!file) throw new ApiError(404, 'not-found', `no robots.txt file with id ${fileId}`);
      const origin = new URL(file.url).origin;
      const ofThisFile = (v: StoredVersion, field: string) => {
        if (Number(v.file_id) !== Number(file.id)) {
          throw new ApiError(
            400,
            'invalid-request',
            `${field} ${v.id} is a version of file ${v.file_id}, not of file ${file.id} (${file.url})`,
          );
        }
        return v;
      };

      let after: RulesSide;
      if (afterVersion === null) {
        after = sideOfText(body.draft as string);
      } else {
        after = sideOfVersion(ofThisFile(afterVersion, 'versionId'));
      }
      let beforeId = body.against ?? null;
      if (beforeId === null) {
        if (afterVersion !== null) {
          beforeId = afterVersion.previous_version_id;
        } else {
          beforeId = file.latest_version_id;
        }
      }
      if (beforeId === null) {
        throw new ApiError(
          400,
          'invalid-request',
          `${file.url} has no earlier version to compare with yet; give against (a version id)`,
        );
      }
      const beforeVersion = ofThisFile(await versionOr404(beforeId), 'against');
      const before = sideOfVersion(beforeVersion);
      const crawlers = crawlersOr400(body.userAgents ?? WATCHED_CRAWLER_NAMES);

      let urls: string[];
      let capped = false;
      let problems: string[] = [];
      let sitemaps: string[] = [];
      let noSitemap = false;
      const source = body.urls ? ('request' as const) : ('sitemaps' as const);
      if (body.urls) {
        urls = body.urls.map((u) => checkTestUrl(u, origin));
      } else {
        const walk = await originSitemapUrls(origin, [before.robots, after.robots], {
          fetch: context.fetch,
          maxUrls: body.maxUrls ?? context.impactMaxUrls,
          signal: gone,
        });
        gone.throwIfAborted();
        urls = walk.urls;
        capped = walk.capped;
        problems = walk.problems;
        sitemaps = walk.sitemaps;
        // Nothing listed, and nothing at /sitemap.xml either: said as such rather than as "0 URLs".
        noSitemap = walk.noSitemap;
      }
      // The home page is always checked: a draft's `Disallow: /` is never "no change" for want of URLs.
      const home = `${origin}/`;
      if (!urls.includes(home)) urls = [home, ...urls];
      const compared = await compareVerdicts(before, after, urls, crawlers, 1000, gone);
      gone.throwIfAborted();
      // Every URL that changes, listed in a sitemap or not: the engine's exact comparison, bounded as the alerts' is.
      const exact = exactComparison(before, after, crawlers, origin);
      return {
        fileId: file.id,
        origin,
        before: {
          versionId: beforeVersion.id,
          draft: false,
          mode: before.mode,
          truncated: before.robots?.truncated ?? false,
        },
        after: {
          versionId: afterVersion?.id ?? null,
          draft: afterVersion === null,
          mode: after.mode,
          truncated: after.robots?.truncated ?? false,
        },
        urls: { source, sitemaps, noSitemap, checked: urls.length, capped, problems },
        userAgents: crawlers.map((c) => c.typed),
        summary: compared.summary,
        changesTotal: compared.total,
        changes: compared.changes,
        exact,
      };
    },
  );

  api.post(
    '/api/properties/:id/discover-hosts',
    {
      schema: {
        summary: "Add the hosts a domain property's sitemaps list, most URLs first (the report shows the first 20)",
        tags: ['properties'],
        security: WRITE_SECURITY,
        params: IdParams,
        body: DiscoverHostsBody,
        response: { 200: DiscoveredHosts, ...errors(400, 401, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const property = await getProperty(db, request.params.id);
      if (!property) throw new ApiError(404, 'not-found', `no property with id ${request.params.id}`);
      if (property.kind !== 'domain') {
        throw new ApiError(400, 'invalid-request', `${property.name} is a URL prefix: it watches exactly one origin`);
      }
      return discoverHosts(context.database, property, {
        fetch: context.fetch,
        now: context.now(),
        signal: clientGone(reply),
        ...(request.body?.maxUrls === undefined ? {} : { maxUrls: request.body.maxUrls }),
        ...(request.body?.maxHosts === undefined ? {} : { maxHosts: request.body.maxHosts }),
      });
    },
  );
}
