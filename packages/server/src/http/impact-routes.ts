/**
 * The impact check (`POST /api/impact`): which of a site's sitemap URLs (or the URLs given) change verdict, for which
 * crawlers, under a draft or another stored version compared with the current one, and exactly where in path+query
 * space the verdicts change (the engine's comparison). Its JSON shapes are here.
 */

import { type Static, Type } from 'typebox';
import { exactComparisonIn } from '../analysis/exact.js';
import { compareVerdicts, type RulesSide } from '../analysis/impact.js';
import { originSitemapUrls } from '../analysis/sitemap-urls.js';
import { WATCHED_CRAWLER_NAMES } from '../analysis/watched-crawlers.js';
import { getFileReport, listPropertyFiles, type StoredVersion } from '../storage/report.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime } from './json.js';
import { propertyOr404 } from './property-routes.js';
import {
  type Api,
  errors,
  Nullable,
  Outcome,
  PARSED_PART,
  TesterUrl,
  Time,
  UserAgentName,
  VerdictSide,
  WRITE_SECURITY,
} from './shapes.js';
import { checkTestUrl, crawlersOr400, sideOfText, sideOfVersion } from './tester-input.js';
import { versionOr404 } from './version-routes.js';
import { clientGone, MAX_ROBOTS_BODY_BYTES } from './work-limits.js';

const ImpactBody = Type.Object(
  {
    propertyId: Type.Optional(Type.Integer({ minimum: 1 })),
    fileId: Type.Optional(Type.Integer({ minimum: 1 })),
    draft: Type.Optional(
      Type.String({
        description: `the robots.txt being considered (${PARSED_PART} count, as for Google: see truncated)`,
      }),
    ),
    versionId: Type.Optional(Type.Integer({ minimum: 1, description: 'or a stored version' })),
    against: Type.Optional(
      Type.Integer({ minimum: 1, description: 'the version compared with (default: the current one)' }),
    ),
    userAgents: Type.Optional(Type.Array(UserAgentName, { minItems: 1, maxItems: 50 })),
    urls: Type.Optional(Type.Array(TesterUrl, { minItems: 1, maxItems: 50_000 })),
    maxUrls: Type.Optional(Type.Integer({ minimum: 1, maximum: 50_000, description: 'sitemap URLs read at most' })),
  },
  { additionalProperties: false, description: 'propertyId or fileId; draft or versionId' },
);

const ImpactSide = Type.Object({
  versionId: Nullable(Type.Integer()),
  draft: Type.Boolean(),
  fetchedAt: Nullable(Time, { description: 'when the version was first fetched; null for a draft' }),
  current: Type.Boolean({ description: "the file's current version (its newest)" }),
  mode: Outcome,
  truncated: Type.Boolean({ description: `longer than Google reads: only ${PARSED_PART} count` }),
});

const ExactRule = Type.Object({
  kind: Type.Union([Type.Literal('allow'), Type.Literal('disallow')]),
  pattern: Type.String({
    description: "the rule's normalised pattern (Google's index.html rule: the derived <dir>/$)",
  }),
  line: Type.Integer({ description: '1-based line in its version' }),
  lineText: Nullable(Type.String({ description: 'the line as written' })),
  indexHtml: Type.Boolean({ description: 'the <dir>/$ rule Google derives from allow: <dir>/index.htm[l]' }),
});

const ExactRegion = Type.Object({
  change: Type.Union([Type.Literal('blocked'), Type.Literal('allowed')], {
    description: 'blocked: allowed before, disallowed after; allowed: the reverse',
  }),
  pattern: Type.String({
    description: 'a robots.txt pattern containing the region (longer rules may decide some paths it matches)',
  }),
  witness: Type.String({ description: 'a shortest path (with query) of the region' }),
  witnessUrl: Type.String({ description: "the witness on the file's origin" }),
  /** The deciding rule before and after (null: no rule matched). */
  before: Nullable(ExactRule),
  after: Nullable(ExactRule),
});

const ExactComparison = Type.Object(
  {
    available: Type.Boolean({
      description: 'false when a side has no rules to compare (it could not be fetched: every URL disallowed)',
    }),
    note: Nullable(Type.String({ description: 'why the comparison is unavailable or was cut short, in words' })),
    equivalent: Type.Boolean({ description: 'finished, and no crawler asked about decides any URL differently' }),
    complete: Type.Boolean({ description: 'false when the state budget or the time backstop cut it short' }),
    crawlers: Type.Array(
      Type.Object({
        userAgent: Type.String({ description: 'as asked for' }),
        equivalent: Type.Boolean(),
        complete: Type.Boolean(),
        regionsTotal: Type.Integer(),
        regions: Type.Array(ExactRegion, { description: 'shortest witnesses first; the first 100' }),
      }),
    ),
  },
  {
    description:
      "the engine's exact comparison (compareRobots): every region of path+query space whose verdict changes, " +
      'listed in a sitemap or not',
  },
);

export const ImpactResult = Type.Object({
  fileId: Type.Integer(),
  origin: Type.String(),
  compared: Type.String({
    description: 'which two were compared, in words: "version 3 (fetched …) against version 5 (…, the current one)"',
  }),
  before: ImpactSide,
  after: ImpactSide,
  urls: Type.Object({
    source: Type.Union([Type.Literal('request'), Type.Literal('sitemaps')]),
    sitemaps: Type.Array(Type.String()),
    noSitemap: Type.Boolean({
      description: 'no sitemap was found: robots.txt lists none and /sitemap.xml has no URLs (only / was checked)',
    }),
    checked: Type.Integer({ description: "URLs checked: the home page / always, then the sitemaps' or the request's" }),
    capped: Type.Boolean({ description: 'more URLs were available than the cap' }),
    problems: Type.Array(Type.String({ description: 'sitemap errors, in words' })),
  }),
  userAgents: Type.Array(Type.String()),
  summary: Type.Array(
    Type.Object({ userAgent: Type.String(), newlyBlocked: Type.Integer(), newlyAllowed: Type.Integer() }),
  ),
  changesTotal: Type.Integer(),
  changes: Type.Array(
    Type.Object({ url: Type.String(), userAgent: Type.String(), before: VerdictSide, after: VerdictSide }),
    { description: 'the first 1000 verdict changes' },
  ),
  exact: ExactComparison,
});

type ImpactRequest = {
  readonly propertyId?: number;
  readonly fileId?: number;
  readonly draft?: string;
  readonly versionId?: number;
  readonly against?: number;
  readonly urls?: string[];
  readonly maxUrls?: number;
};
type FileRow = NonNullable<Awaited<ReturnType<typeof getFileReport>>>;

/** The file compared: the one asked for, the one a stored version belongs to, or the property's first fetched one. */
async function fileOfImpact(context: ApiContext, body: ImpactRequest, afterVersion: StoredVersion | null) {
  const { db } = context.database;
  let fileId = body.fileId;
  if (fileId === undefined) {
    const propertyId = body.propertyId as number;
    await propertyOr404(context, propertyId);
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
  return file;
}

/** `v`, when it is a version of `file`; else a 400 saying whose version it is. */
function ofFile(file: FileRow, v: StoredVersion, field: string): StoredVersion {
  if (Number(v.file_id) !== Number(file.id)) {
    throw new ApiError(
      400,
      'invalid-request',
      `${field} ${v.id} is a version of file ${v.file_id}, not of file ${file.id} (${file.url})`,
    );
  }
  return v;
}

/**
 * The two sides compared: the draft or version asked for, and `against` (default: the current version, the file's
 * newest). A version is never compared with itself: the current version asked for without `against` is an error
 * that says so in plain words, as is a file with no version yet.
 */
async function sidesOfImpact(
  context: ApiContext,
  body: ImpactRequest,
  file: FileRow,
  afterVersion: StoredVersion | null,
) {
  const after =
    afterVersion === null ? sideOfText(body.draft as string) : sideOfVersion(ofFile(file, afterVersion, 'versionId'));
  const beforeId = body.against ?? file.latest_version_id;
  if (beforeId === null) {
    throw new ApiError(
      400,
      'invalid-request',
      `${file.url} has not been fetched yet, so there is no current version to compare with`,
    );
  }
  if (afterVersion !== null && beforeId === afterVersion.id) {
    throw new ApiError(
      400,
      'invalid-request',
      body.against === undefined
        ? `version ${afterVersion.id} is the current version of ${file.url}: choose an older version to compare with it`
        : `version ${afterVersion.id} cannot be compared with itself: choose another version`,
    );
  }
  const beforeVersion = ofFile(file, await versionOr404(context, beforeId), 'against');
  return { before: sideOfVersion(beforeVersion), beforeVersion, after };
}

/** The URLs checked: those given, or the sitemaps' (of the file's origin, within the walk's bounds), and `/`. */
async function urlsOfImpact(
  context: ApiContext,
  body: ImpactRequest,
  origin: string,
  sides: readonly RulesSide[],
  gone: AbortSignal,
) {
  const source = body.urls ? ('request' as const) : ('sitemaps' as const);
  let urls: string[];
  let walk = { capped: false, problems: [] as string[], sitemaps: [] as string[], noSitemap: false };
  if (body.urls) {
    urls = body.urls.map((u) => checkTestUrl(u, origin));
  } else {
    const found = await originSitemapUrls(
      origin,
      sides.map((s) => s.robots),
      {
        fetch: context.fetch,
        maxUrls: body.maxUrls ?? context.impactMaxUrls,
        signal: gone,
      },
    );
    gone.throwIfAborted();
    urls = found.urls;
    // Nothing listed, and nothing at /sitemap.xml either: said as such rather than as "0 URLs".
    walk = { capped: found.capped, problems: found.problems, sitemaps: found.sitemaps, noSitemap: found.noSitemap };
  }
  // The home page is always checked: a draft's `Disallow: /` is never "no change" for want of URLs.
  const home = `${origin}/`;
  if (!urls.includes(home)) urls = [home, ...urls];
  return {
    urls,
    list: {
      source,
      sitemaps: walk.sitemaps,
      noSitemap: walk.noSitemap,
      checked: urls.length,
      capped: walk.capped,
      problems: walk.problems,
    },
  };
}

/** One side as the answer names it. */
function sideJson(side: RulesSide, version: StoredVersion | null, file: FileRow) {
  return {
    versionId: version?.id ?? null,
    draft: version === null,
    fetchedAt: version === null ? null : isoTime(version.fetched_at),
    current: version !== null && version.id === file.latest_version_id,
    mode: side.mode,
    truncated: side.robots?.truncated ?? false,
  };
}

/** Which two were compared, in words: "version 3 (fetched …) against version 5, the current one". */
function comparedText(after: StoredVersion | null, before: StoredVersion, file: FileRow): string {
  const name = (v: StoredVersion) =>
    `version ${v.id} (fetched ${isoTime(v.fetched_at)}${v.id === file.latest_version_id ? ', the current one' : ''})`;
  return `${after === null ? 'the draft' : name(after)} against ${name(before)}`;
}

function impact(api: Api, context: ApiContext): void {
  const schema = {
    summary:
      "Which of the site's sitemap URLs change verdict, for which crawlers, under a draft or another version, " +
      'and exactly where in path+query space the verdicts change',
    tags: ['tester'],
    security: WRITE_SECURITY,
    body: ImpactBody,
    response: { 200: ImpactResult, ...errors(400, 401, 404, 413, 415, 429) },
  };
  api.post('/api/impact', { schema, bodyLimit: MAX_ROBOTS_BODY_BYTES }, async (request, reply) => {
    // The sitemap walk and the comparison stop when the client goes away.
    const gone = clientGone(reply);
    // Heavy work: it takes its turn in the process's budget (or a 429 says when to come back).
    return context.heavyWork.run('the impact check', () => impactOf(context, request.body, gone), gone);
  });
}

/** The impact check's answer. */
async function impactOf(context: ApiContext, body: Static<typeof ImpactBody>, gone: AbortSignal) {
  if ((body.propertyId === undefined) === (body.fileId === undefined)) {
    throw new ApiError(400, 'invalid-request', 'give exactly one of propertyId and fileId');
  }
  if ((body.draft === undefined) === (body.versionId === undefined)) {
    throw new ApiError(400, 'invalid-request', 'give exactly one of draft (robots.txt text) and versionId');
  }
  const afterVersion = body.versionId === undefined ? null : await versionOr404(context, body.versionId);
  const file = await fileOfImpact(context, body, afterVersion);
  const origin = new URL(file.url).origin;
  const { before, beforeVersion, after } = await sidesOfImpact(context, body, file, afterVersion);
  const crawlers = crawlersOr400(body.userAgents ?? WATCHED_CRAWLER_NAMES);
  const { urls, list } = await urlsOfImpact(context, body, origin, [before, after], gone);
  const compared = await compareVerdicts(before, after, urls, crawlers, 1000, gone);
  gone.throwIfAborted();
  return {
    fileId: file.id,
    origin,
    compared: comparedText(afterVersion, beforeVersion, file),
    before: sideJson(before, beforeVersion, file),
    after: sideJson(after, afterVersion, file),
    urls: list,
    userAgents: crawlers.map((c) => c.typed),
    summary: compared.summary,
    changesTotal: compared.total,
    changes: compared.changes,
    // Every URL that changes, listed in a sitemap or not: the engine's exact comparison, bounded as the alerts'
    // is, in a thread.
    exact: await exactComparisonIn(context.analysisThreads, before, after, crawlers, origin),
  };
}

/** Registers the impact route on `api`. */
export function registerImpactRoutes(api: Api, context: ApiContext): void {
  impact(api, context);
}
