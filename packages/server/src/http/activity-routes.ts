/**
 * A property's crawler activity: `POST /api/properties/:id/logs` takes an access log (Combined or Common Log Format,
 * JSON lines; gzip recognised by its magic bytes) as the request body, streamed and bounded in size, and judges it by
 * the engine (`analysis/crawler-activity.ts`) against the stored history of one of the property's files: the version
 * in force at each request's time. The result is stored with its alerts (`alerts/crawler-activity.ts`); `GET` lists a
 * property's uploads and shows one. A write like the others: the token when the service has one, and no cross-site
 * request (the app's hooks).
 */

import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { type LogFormat, logBlocksOf, Verifier } from 'robotskit/logs';
import { type Static, Type } from 'typebox';
import { recordActivity } from '../alerts/crawler-activity.js';
import { judgeLog } from '../analysis/crawler-activity.js';
import { listUploads, uploadCrawlers, versionsInForce } from '../storage/crawler-activity.js';
import { listPropertyFiles } from '../storage/report.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime, parseJson } from './json.js';
import { propertyOr404 } from './property-routes.js';
import { type Api, errors, IdParams, Nullable, Time, WRITE_SECURITY } from './shapes.js';

const Verification = Type.Union([
  Type.Literal('verified'),
  Type.Literal('spoofed'),
  Type.Literal('unverifiable'),
  Type.Literal('unchecked'),
]);

const VerificationCounts = Type.Object({
  verified: Type.Integer(),
  spoofed: Type.Integer(),
  unverifiable: Type.Integer(),
  unchecked: Type.Integer(),
});

export const UploadSummary = Type.Object({
  id: Type.Integer(),
  createdAt: Time,
  name: Nullable(Type.String()),
  fileId: Nullable(Type.Integer({ description: 'the file whose history judged the log (null once it is gone)' })),
  fileUrl: Type.String(),
  bytes: Type.Integer({ description: 'bytes received (compressed, for gzip)' }),
  lines: Type.Integer(),
  requests: Type.Integer(),
  otherRequests: Type.Integer({ description: 'requests of clients that name no crawler' }),
  malformed: Type.Integer({ description: 'lines that are no request of the format' }),
  violations: Type.Integer({ description: 'requests to URLs the robots.txt in force disallowed' }),
  firstRequestAt: Nullable(Time),
  lastRequestAt: Nullable(Time),
});

const CrawlerActivity = Type.Object({
  name: Type.String({ description: 'the catalogue name, or an unknown bot’s product token' }),
  known: Type.Boolean(),
  operator: Nullable(Type.String()),
  requests: Type.Integer(),
  unjudged: Type.Integer({ description: 'requests before the first version (not judged)' }),
  disallowed: Type.Integer(),
  verifiedDisallowed: Type.Integer({ description: 'disallowed requests from addresses verified as the operator’s' }),
  robotsTxtFetches: Type.Integer(),
  firstSeen: Time,
  lastSeen: Time,
  verification: Type.Object({
    status: Verification,
    reason: Nullable(Type.String()),
    requests: VerificationCounts,
  }),
  versions: Type.Array(
    Type.Object({
      version: Type.String(),
      requests: Type.Integer(),
      disallowed: Type.Integer(),
      verification: VerificationCounts,
      lines: Type.Array(Type.Object({ line: Type.Integer(), rule: Type.String(), requests: Type.Integer() })),
    }),
    {
      description:
        'per version in force, oldest first: requests by their addresses’ verification, and disallowed ones by ' +
        'deciding line',
    },
  ),
});

const ViolationJson = Type.Object({
  time: Time,
  crawler: Type.String(),
  ip: Type.String(),
  method: Type.String(),
  target: Type.String(),
  status: Type.Integer(),
  version: Type.String(),
  line: Type.Integer(),
  rule: Type.String(),
  verification: Verification,
  verificationReason: Nullable(Type.String()),
  logLine: Type.Integer(),
});

export const UploadDetail = Type.Object({
  ...UploadSummary.properties,
  versions: Type.Array(Type.Object({ label: Type.String(), since: Nullable(Time) }), {
    description: 'the versions in force over the file’s history, oldest first',
  }),
  malformedExamples: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() })),
  crawlers: Type.Array(CrawlerActivity),
  firstViolations: Type.Array(ViolationJson, { description: 'the first violations (at most 200)' }),
});

export const ActivityPage = Type.Object({ uploads: Type.Array(UploadSummary), upload: Nullable(UploadDetail) });

const LogsQuery = Type.Object(
  {
    file: Type.Optional(Type.Integer({ minimum: 1, description: 'the file whose history judges the log' })),
    format: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('combined'), Type.Literal('common'), Type.Literal('json')]),
    ),
    name: Type.Optional(Type.String({ maxLength: 200, description: 'a name for the upload (its file name)' })),
  },
  { additionalProperties: false },
);

const ShowQuery = Type.Object(
  { upload: Type.Optional(Type.Integer({ minimum: 1, description: 'the upload to show (default: the newest)' })) },
  { additionalProperties: false },
);

/** Violations kept per upload. */
const MAX_VIOLATIONS = 200;

type UploadRow = Awaited<ReturnType<typeof listUploads>>[number];

function summaryOf(row: UploadRow) {
  return {
    id: Number(row.id),
    createdAt: isoTime(Number(row.created_at)),
    name: row.name,
    fileId: row.file_id === null ? null : Number(row.file_id),
    fileUrl: row.file_url,
    bytes: Number(row.bytes),
    lines: Number(row.lines),
    requests: Number(row.requests),
    otherRequests: Number(row.other_requests),
    malformed: Number(row.malformed),
    violations: Number(row.violations),
    firstRequestAt: row.first_request_at === null ? null : isoTime(Number(row.first_request_at)),
    lastRequestAt: row.last_request_at === null ? null : isoTime(Number(row.last_request_at)),
  };
}

async function detailOf(context: ApiContext, row: UploadRow) {
  const crawlers = await uploadCrawlers(context.database.db, Number(row.id));
  return {
    ...summaryOf(row),
    versions: parseJson<Static<typeof UploadDetail>['versions']>(row.versions_json, []),
    malformedExamples: parseJson<Static<typeof UploadDetail>['malformedExamples']>(row.malformed_json, []),
    crawlers: crawlers.map((c) => ({
      name: c.crawler,
      known: Number(c.known) === 1,
      operator: c.operator,
      requests: Number(c.requests),
      unjudged: Number(c.unjudged),
      disallowed: Number(c.disallowed),
      verifiedDisallowed: Number(c.verified_disallowed),
      robotsTxtFetches: Number(c.robots_fetches),
      firstSeen: isoTime(Number(c.first_seen)),
      lastSeen: isoTime(Number(c.last_seen)),
      verification: {
        status: c.verification as Static<typeof Verification>,
        reason: c.verification_reason,
        requests: {
          verified: Number(c.verified),
          spoofed: Number(c.spoofed),
          unverifiable: Number(c.unverifiable),
          unchecked: Number(c.unchecked),
        },
      },
      versions: parseJson<Static<typeof CrawlerActivity>['versions']>(c.versions_json, []),
    })),
    // The engine's records: the serialiser keeps the documented fields (no token or file name).
    firstViolations: parseJson<Static<typeof ViolationJson>[]>(row.violations_json, []),
  };
}

/** The chunks of `source`, counted into `count`; a 413 once there are more than `max` bytes. */
async function* bounded(
  source: AsyncIterable<Uint8Array>,
  max: number,
  count: { bytes: number },
  what: string,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    count.bytes += chunk.length;
    if (count.bytes > max) {
      throw new ApiError(413, 'payload-too-large', `the ${what} is larger than the ${max} bytes this service accepts`);
    }
    yield chunk;
  }
}

/** The bytes, inflated when they start as gzip (concatenated members too); a 400 for a broken gzip stream. */
async function* inflated(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done === true) return;
  async function* all(): AsyncGenerator<Uint8Array> {
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
  if (first.value[0] !== 0x1f || first.value[1] !== 0x8b) {
    yield* all();
    return;
  }
  const input = Readable.from(all());
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  try {
    yield* input.pipe(gunzip) as AsyncIterable<Uint8Array>;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, 'invalid-request', 'the upload starts like gzip but is not a valid gzip stream', {
      cause: error,
    });
  } finally {
    input.destroy();
  }
}

/** The file whose history judges the log: the one asked for, or the property's first (its report's order). */
async function fileOf(context: ApiContext, propertyId: number, fileId: number | undefined) {
  const files = await listPropertyFiles(context.database.db, propertyId, { hostLimit: Number.MAX_SAFE_INTEGER });
  const file = fileId === undefined ? files[0] : files.find((f) => f.id === fileId);
  if (file === undefined) {
    throw new ApiError(
      fileId === undefined ? 400 : 404,
      fileId === undefined ? 'invalid-request' : 'not-found',
      fileId === undefined
        ? 'this property has no robots.txt file yet: add a host first'
        : `file ${fileId} is not a robots.txt file of this property`,
    );
  }
  return file;
}

function upload(scope: FastifyInstance, context: ApiContext): void {
  const api = scope as unknown as Api;
  const schema = {
    summary:
      'Upload an access log (Combined or Common Log Format, JSON lines; gzip or not) to judge against the robots.txt ' +
      'in force at each request’s time',
    tags: ['crawler activity'],
    security: WRITE_SECURITY,
    params: IdParams,
    querystring: LogsQuery,
    response: { 201: UploadDetail, ...errors(400, 401, 404, 413, 415) },
  };
  api.post('/api/properties/:id/logs', { schema }, async (request, reply) => {
    const property = await propertyOr404(context, request.params.id);
    const file = await fileOf(context, property.id, request.query.file);
    const { db, dialect } = context.database;
    const versions = await versionsInForce(db, file.id, context.availability);
    if (versions.length === 0) {
      throw new ApiError(
        400,
        'invalid-request',
        `${file.url} has not been fetched yet: no version to judge the log by`,
      );
    }
    const limits = context.logs;
    const ranges = await limits.ranges();
    const verifier =
      limits.dns === null && ranges.size === 0
        ? null
        : new Verifier({
            dns: limits.dns,
            ranges,
            ttl: 3_600_000,
            timeout: limits.dnsTimeoutMs,
            hints: { ranges: ', which this service was not given' },
          });
    const received = { bytes: 0 };
    const body = (request.body ?? []) as AsyncIterable<Uint8Array>;
    const sent = bounded(body, limits.maxBytes, received, 'upload');
    const bytes = bounded(inflated(sent), limits.maxBytes, { bytes: 0 }, 'log');
    const judged = await judgeLog(logBlocksOf(bytes), {
      versions,
      verifier,
      format: (request.query.format ?? 'auto') as LogFormat,
      maxViolations: MAX_VIOLATIONS,
      maxAddresses: 256,
    });
    if (judged.requests === 0) {
      const first = judged.malformedExamples[0];
      throw new ApiError(
        400,
        'invalid-request',
        first === undefined
          ? 'the upload holds no log line'
          : `no line of the upload could be read as a Common/Combined Log Format or JSON line (line ${first.line}: ${first.reason})`,
      );
    }
    const { uploadId } = await recordActivity(
      db,
      dialect,
      {
        propertyId: property.id,
        fileId: file.id,
        fileUrl: file.url,
        name: request.query.name ?? null,
        bytes: received.bytes,
        now: context.now(),
        versions,
      },
      judged,
    );
    const row = (await listUploads(db, property.id, 1000)).find((u) => Number(u.id) === uploadId)!;
    return reply.status(201).send(await detailOf(context, row));
  });
}

function show(api: Api, context: ApiContext): void {
  const schema = {
    summary: "A property's uploaded logs (newest first, the last 50) and one of them in detail",
    tags: ['crawler activity'],
    params: IdParams,
    querystring: ShowQuery,
    response: {
      200: ActivityPage,
      ...errors(400, 404),
    },
  };
  api.get('/api/properties/:id/logs', { schema }, async (request) => {
    const property = await propertyOr404(context, request.params.id);
    const rows = await listUploads(context.database.db, property.id, 50);
    const wanted = request.query.upload;
    const chosen = wanted === undefined ? rows[0] : rows.find((r) => Number(r.id) === wanted);
    if (wanted !== undefined && chosen === undefined) {
      throw new ApiError(404, 'not-found', `no upload ${wanted} among this property's last 50`);
    }
    return { uploads: rows.map(summaryOf), upload: chosen === undefined ? null : await detailOf(context, chosen) };
  });
}

/** Registers the crawler activity routes; the upload in a scope of its own that reads any body as a stream. */
export function registerActivityRoutes(api: Api, context: ApiContext): void {
  show(api, context);
  void api.register(async (scope) => {
    // The log is the body as sent, whatever its type (curl --data-binary sends a form's type): streamed, never parsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    upload(scope, context);
  });
}
