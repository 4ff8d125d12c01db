/**
 * Stored versions of a file: one version with its content and lint results, its exact bytes, and the line diff of
 * two versions with their lint changes. Their JSON shapes are here.
 */

import { isUtf8 } from 'node:buffer';
import { Type } from 'typebox';
import { textOf } from '../alerts/store.js';
import {
  DIFF_MAX_EDIT_LENGTH,
  DIFF_TIMEOUT_MS,
  type LineDiff,
  type LintResults,
  lineMapping,
  lintChanges,
} from '../analysis/diff.js';
import { getVersion, type StoredVersion, versionBefore } from '../storage/report.js';
import type { StoredDiagnostic as StoredDiagnosticRow } from '../storage/rows.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { ContentQuery, Version } from './file-routes.js';
import { isoTime, replyOf, reportStatusOf, versionJson } from './json.js';
import { type Api, errors, IdParams, Nullable, Outcome, ReportStatus, Time } from './shapes.js';
import { clientGone } from './work-limits.js';

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

/** Diagnostics a version's detail lists (the rest are paged by `/api/versions/:id/diagnostics`). */
const DIAGNOSTICS_SHOWN = 200;
/** Diagnostics per page of `/api/versions/:id/diagnostics`. */
const DIAGNOSTICS_PAGE_MAX = 2000;

export const VersionDetail = Type.Object({
  ...Version.properties,
  lint: Nullable(
    Type.Object(
      {
        errors: Type.Integer(),
        warnings: Type.Integer(),
        info: Type.Integer(),
        total: Type.Integer({ description: 'diagnostics in all' }),
        diagnostics: Type.Array(StoredDiagnostic, {
          description: `the first ${DIAGNOSTICS_SHOWN} diagnostics, in file order`,
        }),
        next: Nullable(
          Type.String({ description: 'the URL of the diagnostics past those listed; null when all are listed' }),
        ),
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
  reply: Nullable(Type.String({ description: 'the status as its protocol says it (HTTP 503, FTP 530)' })),
});

/** Lint changes listed by a diff (their totals are always given). */
const LINT_CHANGES_LISTED = 200;

const Counts = Type.Object({ before: Nullable(Type.Integer()), after: Nullable(Type.Integer()) });

export const VersionDiff = Type.Object({
  version: VersionRef,
  against: Nullable(VersionRef),
  added: Type.Integer({ description: 'lines added' }),
  removed: Type.Integer({ description: 'lines removed' }),
  complete: Type.Boolean({
    description:
      `false when the versions differ in more than ${DIFF_MAX_EDIT_LENGTH} lines (or the diff took over ` +
      `${DIFF_TIMEOUT_MS / 1000} s): no hunks, and added / removed count the lines each version lacks, in any order`,
  }),
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
    added: Type.Array(StoredDiagnostic, { description: `new findings, the first ${LINT_CHANGES_LISTED}` }),
    removed: Type.Array(StoredDiagnostic, { description: `findings gone, the first ${LINT_CHANGES_LISTED}` }),
    addedTotal: Type.Integer({ description: 'new findings in all' }),
    removedTotal: Type.Integer({ description: 'findings gone in all' }),
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

const DiagnosticsQuery = Type.Object(
  {
    offset: Type.Optional(Type.Integer({ minimum: 0, description: 'diagnostics to skip (default 0)' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: DIAGNOSTICS_PAGE_MAX, description: `at most ${DIAGNOSTICS_PAGE_MAX}` }),
    ),
  },
  { additionalProperties: false },
);

export const DiagnosticsPage = Type.Object({
  total: Type.Integer(),
  offset: Type.Integer(),
  diagnostics: Type.Array(StoredDiagnostic),
  next: Nullable(Type.String({ description: 'the URL of the next page; null on the last' })),
});

/**
 * Stored lint results, parsed, by body hash: a few bodies' worth, so paging through a large file's diagnostics parses
 * its JSON once (bodies are content-addressed, so an entry never goes stale).
 */
const parsedLint = new Map<string, StoredDiagnosticRow[]>();
const PARSED_LINT_KEPT = 8;

function diagnosticsOf(row: StoredVersion & { readonly lint_json: string }): StoredDiagnosticRow[] {
  const key = row.body_hash ?? '';
  const known = parsedLint.get(key);
  if (known) return known;
  const parsed = JSON.parse(row.lint_json) as StoredDiagnosticRow[];
  if (row.body_hash === null) return parsed;
  if (parsedLint.size >= PARSED_LINT_KEPT) parsedLint.delete(parsedLint.keys().next().value as string);
  parsedLint.set(key, parsed);
  return parsed;
}

const diagnosticsUrl = (id: number, offset: number, limit: number) =>
  `/api/versions/${id}/diagnostics?offset=${offset}&limit=${limit}`;

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
    reply: replyOf(v),
  };
}

function lintOf(v: StoredVersion | null): LintResults {
  if (v === null || v.outcome !== 'rules') return { errors: null, warnings: null, diagnostics: null };
  return {
    errors: v.lint_errors,
    warnings: v.lint_warnings,
    diagnostics: v.lint_json === null ? null : diagnosticsOf({ ...v, lint_json: v.lint_json }),
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
    // Open to anyone: the answer is capped (a hostile file has tens of thousands of findings; all of them made
    // 7.8 MB per answer), and the rest is paged.
    let lint = null;
    if (row.lint_errors !== null && row.lint_warnings !== null && row.lint_json !== null) {
      const all = diagnosticsOf({ ...row, lint_json: row.lint_json });
      lint = {
        errors: row.lint_errors,
        warnings: row.lint_warnings,
        info: all.length - row.lint_errors - row.lint_warnings,
        total: all.length,
        diagnostics: all.slice(0, DIAGNOSTICS_SHOWN),
        next: all.length > DIAGNOSTICS_SHOWN ? diagnosticsUrl(row.id, DIAGNOSTICS_SHOWN, DIAGNOSTICS_PAGE_MAX) : null,
      };
    }
    return {
      ...versionJson(row),
      lint,
      content: row.content === null || request.query.content === false ? null : new TextDecoder().decode(row.content),
    };
  });
}

function versionDiagnostics(api: Api, context: ApiContext): void {
  const schema = {
    summary: "A page of a version's lint diagnostics, in file order (404 when it was not linted)",
    tags: ['files'],
    params: IdParams,
    querystring: DiagnosticsQuery,
    response: { 200: DiagnosticsPage, ...errors(400, 404) },
  };
  api.get('/api/versions/:id/diagnostics', { schema }, async (request) => {
    const row = await versionOr404(context, request.params.id);
    if (row.lint_json === null) throw new ApiError(404, 'not-found', `version ${row.id} was not linted`);
    const all = diagnosticsOf({ ...row, lint_json: row.lint_json });
    const offset = request.query.offset ?? 0;
    const limit = request.query.limit ?? DIAGNOSTICS_PAGE_MAX;
    const end = offset + limit;
    return {
      total: all.length,
      offset,
      diagnostics: all.slice(offset, end),
      next: end < all.length ? diagnosticsUrl(row.id, end, limit) : null,
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
    response: { 200: VersionDiff, ...errors(400, 404, 429) },
  };
  api.get('/api/versions/:id/diff', { schema }, async (request, reply) => {
    const version = await versionOr404(context, request.params.id);
    const againstId =
      request.query.against ?? (await versionBefore(context.database.db, Number(version.file_id), version.id));
    const against = againstId === null ? null : await versionOr404(context, againstId, ' to compare against');
    // A failed fetch has no content: it is an event of the timeline, not a deletion of every line.
    const failed = version.outcome === 'disallow-all' || against?.outcome === 'disallow-all';
    const none = {
      errors: { before: null, after: null },
      warnings: { before: null, after: null },
      added: [],
      removed: [],
    };
    // A diff is heavy work (bounded, in a thread): it takes its turn in the process's budget.
    const { diff, lint } = failed
      ? { diff: { added: 0, removed: 0, hunks: [], complete: true } satisfies LineDiff, lint: none }
      : await context.heavyWork.run(
          'the diff',
          async () => {
            const diff = await context.analysisThreads.diff(against ? textOf(against) : '', textOf(version));
            return { diff, lint: lintChanges(lintOf(against), lintOf(version), lineMapping(diff)) };
          },
          clientGone(reply),
        );
    return {
      version: versionRef(version),
      against: against ? versionRef(against) : null,
      added: diff.added,
      removed: diff.removed,
      complete: diff.complete,
      hunks: diff.hunks.map((h) => ({ ...h, lines: [...h.lines] })),
      lint: {
        ...lint,
        added: lint.added.slice(0, LINT_CHANGES_LISTED) as StoredDiagnosticRow[],
        removed: lint.removed.slice(0, LINT_CHANGES_LISTED) as StoredDiagnosticRow[],
        addedTotal: lint.added.length,
        removedTotal: lint.removed.length,
      } as never,
    };
  });
}

/** Registers the version routes on `api`. */
export function registerVersionRoutes(api: Api, context: ApiContext): void {
  versionDetail(api, context);
  versionDiagnostics(api, context);
  versionBytes(api, context);
  versionDiff(api, context);
}
