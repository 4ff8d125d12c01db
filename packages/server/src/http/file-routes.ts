/**
 * The robots.txt files: a property's files table (as Search Console shows it), one file with its last fetch, its
 * versions, its fetch timeline, and a recrawl. Their JSON shapes are here.
 */

import { Type } from 'typebox';
import { requestRecrawl } from '../storage/claim.js';
import {
  type FileReportRow,
  getBody,
  getFileReport,
  listFetches,
  listPropertyFiles,
  listVersions,
  propertiesOfFile,
} from '../storage/report.js';
import type { ApiContext } from './context.js';
import { ApiError, sinceOr400 } from './errors.js';
import { Headline, headlineOfFile, policyOf } from './headlines.js';
import { fetchPointJson, fileJson, lastFetchJson, propertyFileJson, versionJson } from './json.js';
import { Host, propertyOr404 } from './property-routes.js';
import {
  type Api,
  errors,
  FetchError,
  Headers,
  IdParams,
  Nullable,
  Outcome,
  ReportStatus,
  StatusWords,
  Time,
  WRITE_SECURITY,
} from './shapes.js';

const FilesQuery = Type.Object(
  {
    all: Type.Optional(
      Type.Boolean({
        description:
          'include every host, and the files whose fetches have found no robots.txt (allow-all) for longer than ' +
          'GET /api/health says (hideAllowAllAfterMs), which are hidden by default',
      }),
    ),
  },
  { additionalProperties: false },
);

const FilePolicy = Type.Object(
  {
    mode: Outcome,
    reason: Type.String({
      description: "the engine's reason code: fetched, not-found, unreachable, last-good-version…",
    }),
    message: Type.String({ description: 'why, in words' }),
    versionId: Nullable(Type.Integer()),
    since: Nullable(Time),
    until: Nullable(Time),
  },
  {
    description:
      "what governs crawling now: the engine's availability timeline with this service's periods (GET /api/health: " +
      'availability); null without a resolver',
  },
);

/** The status in its protocol's words, by the engine's `statusLabel`. */
const Reply = Nullable(
  Type.String({ description: 'the status as its protocol says it (HTTP 503, FTP 530); null when none' }),
);

export const FetchSummary = Type.Object({
  id: Type.Integer(),
  startedAt: Time,
  finishedAt: Time,
  outcome: Outcome,
  status: ReportStatus,
  httpStatus: Nullable(Type.Integer(), {
    description: 'the HTTP status, or the FTP reply code of an ftp:// file (see reply); null when none',
  }),
  reply: Reply,
  size: Nullable(Type.Integer()),
  bodyHash: Nullable(Type.String()),
  headers: Headers,
  redirects: Type.Array(Type.Object({ url: Type.String(), status: Type.Integer({ description: '0 when hidden' }) })),
  finalUrl: Nullable(Type.String()),
  error: Nullable(FetchError),
  summary: StatusWords,
  timings: Nullable(Type.Record(Type.String(), Type.Number())),
  content: Nullable(
    Type.String({
      description:
        'the body fetched, decoded as UTF-8 (invalid bytes replaced); null when the fetch got none. Its lint ' +
        'results and exact bytes: GET /api/versions/{latestVersionId} and /raw',
    }),
  ),
});

export const RobotsFile = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  scheme: Type.Union([Type.Literal('http'), Type.Literal('https'), Type.Literal('ftp')]),
  host: Type.String(),
  status: Nullable(ReportStatus, { description: 'the report status of the last fetch; null before the first fetch' }),
  statusReason: StatusWords,
  httpStatus: Nullable(Type.Integer(), {
    description: 'the HTTP status, or the FTP reply code of an ftp:// file (see reply); null when none',
  }),
  reply: Reply,
  lastCheckedAt: Nullable(Time),
  nextCheckAt: Time,
  recrawlPending: Type.Boolean({ description: 'a recrawl was requested and has not run yet' }),
  fetchingSince: Nullable(
    Type.String({ format: 'date-time', description: 'a worker holds the file and is fetching it, since this time' }),
  ),
  size: Nullable(Type.Integer({ description: 'bytes of the last fetched file; null when the last fetch failed' })),
  errors: Nullable(Type.Integer({ description: 'lint errors of the last fetched content; null until linted' })),
  warnings: Nullable(Type.Integer({ description: 'lint warnings of the last fetched content; null until linted' })),
  effectivePolicy: Nullable(FilePolicy),
  latestVersionId: Nullable(Type.Integer()),
  allowAllSince: Nullable(
    Type.String({ format: 'date-time', description: 'start of the current run of allow-all fetches (no robots.txt)' }),
  ),
  failingSince: Nullable(
    Type.String({ format: 'date-time', description: 'start of the current run of disallow-all fetches (failures)' }),
  ),
  headline: Nullable(Headline),
});

export const PropertyFile = Type.Object({
  ...RobotsFile.properties,
  hostSource: Host.properties.source,
  hostRank: Type.Integer(),
});

/** `?content=false` on a file or a version: the same answer without the body text (clients that poll, or that read /raw). */
export const ContentQuery = Type.Object(
  {
    content: Type.Optional(
      Type.Boolean({
        description: 'false: leave the content out (clients that poll, or that read the bytes from /raw)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const FileDetail = Type.Object({
  ...RobotsFile.properties,
  lastFetch: Nullable(FetchSummary),
  properties: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});

export const FetchPoint = Type.Object({
  id: Type.Integer(),
  startedAt: Time,
  finishedAt: Time,
  outcome: Outcome,
  status: ReportStatus,
  httpStatus: Nullable(Type.Integer(), {
    description: 'the HTTP status, or the FTP reply code of an ftp:// file (see reply); null when none',
  }),
  reply: Reply,
  size: Nullable(Type.Integer({ description: 'bytes of the body, null without one' })),
  error: Nullable(FetchError),
  summary: StatusWords,
  versionId: Nullable(Type.Integer({ description: 'the version this fetch started, when its content was new' })),
});

const FetchesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 500 })),
    since: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601: only fetches started at or after this' }),
    ),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'only fetches with a smaller id (paging)' })),
  },
  { additionalProperties: false },
);

export const Version = Type.Object({
  id: Type.Integer(),
  fileId: Type.Integer(),
  fetchId: Nullable(Type.Integer({ description: 'null once the fetch itself has been pruned' })),
  fetchedAt: Time,
  outcome: Outcome,
  status: ReportStatus,
  summary: StatusWords,
  httpStatus: Nullable(Type.Integer(), {
    description: 'the HTTP status, or the FTP reply code of an ftp:// file (see reply); null when none',
  }),
  reply: Reply,
  size: Nullable(Type.Integer()),
  truncated: Type.Boolean({
    description:
      'true when the file reached the 512,000 bytes (500 KiB) Google reads: Google ignores the rest, and the service ' +
      'keeps and lints what Google reads (a file of exactly that size reads as cut too)',
  }),
  bodyHash: Nullable(Type.String()),
  headers: Headers,
  previousVersionId: Nullable(Type.Integer({ description: 'the version before it; null for the oldest kept' })),
  diffUrl: Nullable(Type.String({ description: 'its diff to the previous version (GET); null for the oldest kept' })),
});

/** A file as listed, with its policy and headline. */
async function listedFile(context: ApiContext, row: FileReportRow) {
  const policy = await policyOf(context, row);
  return { ...fileJson(row, policy, context.now()), headline: await headlineOfFile(context, row, policy) };
}

/** A file, or a 404. */
async function fileOr404(context: ApiContext, id: number) {
  const file = await getFileReport(context.database.db, id);
  if (!file) throw new ApiError(404, 'not-found', `no robots.txt file with id ${id}`);
  return file;
}

function propertyFiles(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'The robots.txt files of a property, most important hosts first (https before http)',
    tags: ['files'],
    params: IdParams,
    querystring: FilesQuery,
    response: { 200: Type.Object({ files: Type.Array(PropertyFile) }), ...errors(400, 404) },
  };
  api.get('/api/properties/:id/files', { schema }, async (request) => {
    await propertyOr404(context, request.params.id);
    const all = request.query.all === true;
    const rows = await listPropertyFiles(
      context.database.db,
      request.params.id,
      all
        ? { hostLimit: Number.MAX_SAFE_INTEGER }
        : { hideAllowAllBefore: context.now() - context.hideAllowAllAfterMs },
    );
    const files = [];
    for (const row of rows) {
      const policy = await policyOf(context, row);
      files.push({
        ...propertyFileJson(row, policy, context.now()),
        headline: await headlineOfFile(context, row, policy),
      });
    }
    return { files };
  });
}

function fileDetail(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'One robots.txt file: its status, last fetch (with its content) and the properties that watch it',
    tags: ['files'],
    params: IdParams,
    querystring: ContentQuery,
    response: { 200: FileDetail, ...errors(400, 404) },
  };
  api.get('/api/files/:id', { schema }, async (request) => {
    const { db } = context.database;
    const row = await fileOr404(context, request.params.id);
    const body =
      row.fetch_body_hash === null || request.query.content === false
        ? undefined
        : await getBody(db, row.fetch_body_hash);
    return {
      ...(await listedFile(context, row)),
      lastFetch: lastFetchJson(row, body?.content ?? null),
      properties: await propertiesOfFile(db, row.id),
    };
  });
}

function fileVersions(api: Api, context: ApiContext): void {
  const schema = {
    summary:
      'The versions of a file, newest first: every fetch whose content differed from the previous fetch, each ' +
      'with a link to its diff',
    tags: ['files'],
    params: IdParams,
    response: { 200: Type.Object({ versions: Type.Array(Version) }), ...errors(400, 404) },
  };
  api.get('/api/files/:id/versions', { schema }, async (request) => {
    await fileOr404(context, request.params.id);
    return { versions: (await listVersions(context.database.db, request.params.id)).map(versionJson) };
  });
}

function fileFetches(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'The fetch attempts of a file, newest first (for its timeline of outcomes and sizes)',
    tags: ['files'],
    params: IdParams,
    querystring: FetchesQuery,
    response: { 200: Type.Object({ fetches: Type.Array(FetchPoint) }), ...errors(400, 404) },
  };
  api.get('/api/files/:id/fetches', { schema }, async (request) => {
    await fileOr404(context, request.params.id);
    const q = request.query;
    const since = sinceOr400(q.since);
    const rows = await listFetches(context.database.db, request.params.id, {
      limit: q.limit ?? 500,
      ...(since === undefined ? {} : { since }),
      ...(q.before === undefined ? {} : { before: q.before }),
    });
    return { fetches: rows.map(fetchPointJson) };
  });
}

function recrawl(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Fetch a file again now, ahead of the schedule',
    tags: ['files'],
    security: WRITE_SECURITY,
    params: IdParams,
    response: { 202: RobotsFile, ...errors(400, 401, 404) },
  };
  api.post('/api/files/:id/recrawl', { schema }, async (request, reply) => {
    if (!(await requestRecrawl(context.database.db, request.params.id, context.now()))) {
      throw new ApiError(404, 'not-found', `no robots.txt file with id ${request.params.id}`);
    }
    context.wakeWorkers();
    const row = await fileOr404(context, request.params.id);
    return reply.status(202).send(await listedFile(context, row));
  });
}

/** Registers the file routes on `api`. */
export function registerFileRoutes(api: Api, context: ApiContext): void {
  propertyFiles(api, context);
  fileDetail(api, context);
  fileVersions(api, context);
  fileFetches(api, context);
  recrawl(api, context);
}
