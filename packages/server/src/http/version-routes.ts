/**
 * Stored versions of a file: one version with its content and lint results, its exact bytes, and the line diff of
 * two versions with their lint changes. Their JSON shapes are here.
 */

import { isUtf8 } from 'node:buffer';
import { Type } from 'typebox';
import { textOf } from '../alerts/store.js';
import { type LintResults, lineDiff, lintChanges } from '../analysis/diff.js';
import { getVersion, type StoredVersion, versionBefore } from '../storage/report.js';
import type { StoredDiagnostic as StoredDiagnosticRow } from '../storage/rows.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { ContentQuery, Version } from './file-routes.js';
import { isoTime, parseJson, reportStatusOf, versionJson } from './json.js';
import { type Api, errors, IdParams, Nullable, Outcome, ReportStatus, Time } from './shapes.js';

export const StoredDiagnostic = Type.Object({
  code: Type.String(),
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')]),
  message: Type.String(),
  line: Type.Integer(),
  column: Type.Integer(),
  endLine: Type.Integer(),
  endColumn: Type.Integer(),
  fix: Nullable(Type.String()),
});

export const VersionDetail = Type.Object({
  ...Version.properties,
  lint: Nullable(
    Type.Object(
      {
        errors: Type.Integer(),
        warnings: Type.Integer(),
        diagnostics: Type.Array(StoredDiagnostic),
      },
      { description: "the engine linter's results for this body; null without a body or before it was linted" },
    ),
  ),
  content: Nullable(
    Type.String({ description: 'the body decoded as UTF-8 (invalid bytes replaced); /raw has the exact bytes' }),
  ),
});

const DiffLine = Type.Object({
  kind: Type.Union([Type.Literal('context'), Type.Literal('added'), Type.Literal('removed')]),
  text: Type.String(),
  oldLine: Nullable(Type.Integer()),
  newLine: Nullable(Type.Integer()),
});

const VersionRef = Type.Object({
  id: Type.Integer(),
  fileId: Type.Integer(),
  fetchedAt: Time,
  outcome: Outcome,
  status: ReportStatus,
  httpStatus: Nullable(Type.Integer()),
});

const Counts = Type.Object({ before: Nullable(Type.Integer()), after: Nullable(Type.Integer()) });

export const VersionDiff = Type.Object({
  version: VersionRef,
  against: Nullable(VersionRef),
  added: Type.Integer({ description: 'lines added' }),
  removed: Type.Integer({ description: 'lines removed' }),
  hunks: Type.Array(
    Type.Object({
      oldStart: Type.Integer(),
      oldLines: Type.Integer(),
      newStart: Type.Integer(),
      newLines: Type.Integer(),
      lines: Type.Array(DiffLine),
    }),
  ),
  lint: Type.Object({
    errors: Counts,
    warnings: Counts,
    added: Type.Array(StoredDiagnostic),
    removed: Type.Array(StoredDiagnostic),
  }),
});

const DiffQuery = Type.Object(
  {
    against: Type.Optional(
      Type.Integer({ minimum: 1, description: 'the version to compare with (default: previous)' }),
    ),
  },
  { additionalProperties: false },
);

/** A version, or a 404 (`what` names it in the message). */
export async function versionOr404(context: ApiContext, id: number, what = ''): Promise<StoredVersion> {
  const version = await getVersion(context.database.db, id);
  if (!version) throw new ApiError(404, 'not-found', `no version with id ${id}${what}`);
  return version;
}

function versionRef(v: StoredVersion) {
  return {
    id: v.id,
    fileId: Number(v.file_id),
    fetchedAt: isoTime(v.fetched_at),
    outcome: v.outcome,
    status: reportStatusOf(v).status,
    httpStatus: v.http_status,
  };
}

function lintOf(v: StoredVersion | null): LintResults {
  if (v === null || v.outcome !== 'rules') return { errors: null, warnings: null, diagnostics: null };
  return {
    errors: v.lint_errors,
    warnings: v.lint_warnings,
    diagnostics: parseJson<StoredDiagnosticRow[] | null>(v.lint_json, null),
  };
}

function versionDetail(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'One version with its content',
    tags: ['files'],
    params: IdParams,
    querystring: ContentQuery,
    response: { 200: VersionDetail, ...errors(400, 404) },
  };
  api.get('/api/versions/:id', { schema }, async (request) => {
    const row = await versionOr404(context, request.params.id);
    const lint =
      row.lint_errors !== null && row.lint_warnings !== null && row.lint_json !== null
        ? {
            errors: row.lint_errors,
            warnings: row.lint_warnings,
            diagnostics: JSON.parse(row.lint_json) as StoredDiagnosticRow[],
          }
        : null;
    return {
      ...versionJson(row),
      lint,
      content: row.content === null || request.query.content === false ? null : new TextDecoder().decode(row.content),
    };
  });
}

function versionBytes(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'The exact bytes of a version (404 when the fetch had no body)',
    tags: ['files'],
    params: IdParams,
    response: {
      200: { description: 'the body as fetched', content: { 'text/plain': { schema: { type: 'string' } } } },
      ...errors(400, 404),
    },
  };
  api.get('/api/versions/:id/raw', { schema }, async (request, reply) => {
    const row = await versionOr404(context, request.params.id);
    if (row.content === null) throw new ApiError(404, 'not-found', `version ${row.id} has no body (${row.outcome})`);
    // The bytes as fetched: labelled UTF-8 only when they are (a Latin-1 file stays Latin-1 to the browser).
    const bytes = Buffer.from(row.content);
    return reply
      .header('content-type', isUtf8(bytes) ? 'text/plain; charset=utf-8' : 'text/plain')
      .header('x-content-type-options', 'nosniff')
      .send(bytes as unknown as string);
  });
}

function versionDiff(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Line diff of a version against another (default: the previous version), with lint changes',
    tags: ['files'],
    params: IdParams,
    querystring: DiffQuery,
    response: { 200: VersionDiff, ...errors(400, 404) },
  };
  api.get('/api/versions/:id/diff', { schema }, async (request) => {
    const version = await versionOr404(context, request.params.id);
    const againstId =
      request.query.against ?? (await versionBefore(context.database.db, Number(version.file_id), version.id));
    const against = againstId === null ? null : await versionOr404(context, againstId, ' to compare against');
    const diff = lineDiff(against ? textOf(against) : '', textOf(version));
    return {
      version: versionRef(version),
      against: against ? versionRef(against) : null,
      added: diff.added,
      removed: diff.removed,
      hunks: diff.hunks.map((h) => ({ ...h, lines: [...h.lines] })),
      lint: lintChanges(lintOf(against), lintOf(version)) as never,
    };
  });
}

/** Registers the version routes on `api`. */
export function registerVersionRoutes(api: Api, context: ApiContext): void {
  versionDetail(api, context);
  versionBytes(api, context);
  versionDiff(api, context);
}
