/**
 * The routes of the JSON API that need only storage. The tester routes (`POST /api/test`, `POST /api/impact`) come
 * with the engine's fetch and lint modules.
 */

import { isUtf8 } from 'node:buffer';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requestRecrawl } from '../storage/claim.js';
import {
  addPropertyHost,
  createProperty,
  deleteProperty,
  emptyHealth,
  getProperty,
  listHosts,
  listProperties,
  PropertyExistsError,
  propertiesHealth,
} from '../storage/properties.js';
import {
  type FileReportRow,
  getBody,
  getFileReport,
  getVersion,
  listFetches,
  listPropertyFiles,
  listVersions,
  propertiesOfFile,
} from '../storage/report.js';
import type { FilePolicy, StoredDiagnostic } from '../storage/rows.js';
import { privateAddressNotice } from './address-notice.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import {
  fetchPointJson,
  fileJson,
  hostJson,
  lastFetchJson,
  propertyFileJson,
  propertyJson,
  versionJson,
} from './json.js';
import { PropertyInputError, parseAddedHost, parsePropertyInput } from './property-input.js';
import {
  AddHostBody,
  ContentQuery,
  CreatePropertyBody,
  FetchesQuery,
  FetchPoint,
  FileDetail,
  FilesQuery,
  Health,
  Host,
  IdParams,
  ListedProperty,
  PropertiesQuery,
  PropertyDetail,
  PropertyFile,
  RobotsFile,
  Version,
  VersionDetail,
} from './schemas.js';

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: 'Error#' }]));
const WRITE_SECURITY = [{ bearer: [] }];

/** Registers the routes on `app`. */
export function registerRoutes(app: FastifyInstance, context: ApiContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database } = context;
  const { db, dialect } = database;

  async function policyOf(row: FileReportRow): Promise<FilePolicy | null> {
    return context.resolvePolicy ? await context.resolvePolicy(row, context.now()) : null;
  }

  async function propertyOr404(id: number) {
    const property = await getProperty(db, id);
    if (!property) throw new ApiError(404, 'not-found', `no property with id ${id}`);
    return property;
  }

  async function fileOr404(id: number) {
    const file = await getFileReport(db, id);
    if (!file) throw new ApiError(404, 'not-found', `no robots.txt file with id ${id}`);
    return file;
  }

  async function propertyDetail(id: number) {
    const property = await propertyOr404(id);
    const hosts = await listHosts(db, id);
    const fileCount = (await listPropertyFiles(db, id, { hostLimit: Number.MAX_SAFE_INTEGER })).length;
    return {
      ...propertyJson(property, { hostCount: hosts.length, fileCount }),
      hosts: hosts.map(hostJson),
      notice: privateAddressNotice(
        hosts.map((h) => h.host),
        context.privateAddressesAllowed,
      ),
    };
  }

  api.get(
    '/api/health',
    { schema: { summary: 'Health of the service', tags: ['service'], response: { 200: Health } } },
    async () => ({
      status: 'ok' as const,
      version: context.version,
      database: dialect,
      fetching: context.fetching ? ('running' as const) : ('not-configured' as const),
      availability: context.availabilityRules,
      hideAllowAllAfterMs: context.hideAllowAllAfterMs,
    }),
  );

  api.post(
    '/api/properties',
    {
      schema: {
        summary: 'Add a property: a domain or a host-level URL prefix',
        tags: ['properties'],
        security: WRITE_SECURITY,
        body: CreatePropertyBody,
        response: { 201: PropertyDetail, ...errors(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      let input: ReturnType<typeof parsePropertyInput>;
      try {
        input = parsePropertyInput(request.body.property);
      } catch (error) {
        if (error instanceof PropertyInputError) throw new ApiError(400, 'invalid-property', error.message);
        throw error;
      }
      try {
        const row = await createProperty(db, dialect, input, context.now());
        context.wakeWorkers();
        return reply.status(201).send(await propertyDetail(row.id));
      } catch (error) {
        if (error instanceof PropertyExistsError) throw new ApiError(409, 'property-exists', error.message);
        throw error;
      }
    },
  );

  api.get(
    '/api/properties',
    {
      schema: {
        summary: 'List properties, by id, a page at a time (`next` is the URL of the next page, null on the last)',
        tags: ['properties'],
        querystring: PropertiesQuery,
        response: {
          200: Type.Object({ properties: Type.Array(ListedProperty), next: Type.Union([Type.String(), Type.Null()]) }),
          ...errors(400),
        },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 100;
      // One more than asked tells whether there is a next page without counting.
      const list = await listProperties(db, { after: request.query.after, limit: limit + 1 });
      const page = list.slice(0, limit);
      const health = await propertiesHealth(
        db,
        page.map((p) => p.id),
      );
      const last = page[page.length - 1];
      return {
        properties: page.map((p) => ({
          ...propertyJson(p, { hostCount: p.host_count, fileCount: p.file_count }),
          health: health.get(p.id) ?? emptyHealth(),
        })),
        next: list.length > limit && last ? `/api/properties?after=${last.id}&limit=${limit}` : null,
      };
    },
  );

  api.get(
    '/api/properties/:id',
    {
      schema: {
        summary: 'One property with its hosts',
        tags: ['properties'],
        params: IdParams,
        response: { 200: PropertyDetail, ...errors(400, 404) },
      },
    },
    async (request) => propertyDetail(request.params.id),
  );

  api.delete(
    '/api/properties/:id',
    {
      schema: {
        summary: 'Delete a property (and the files no other property watches, with their history)',
        tags: ['properties'],
        security: WRITE_SECURITY,
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      if (!(await deleteProperty(db, dialect, request.params.id))) {
        throw new ApiError(404, 'not-found', `no property with id ${request.params.id}`);
      }
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/api/properties/:id/hosts',
    {
      schema: {
        summary: 'Add a host to a domain property (both its http and https robots.txt are watched)',
        tags: ['properties'],
        security: WRITE_SECURITY,
        params: IdParams,
        body: AddHostBody,
        response: { 201: Host, ...errors(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const property = await propertyOr404(request.params.id);
      if (property.kind !== 'domain') {
        throw new ApiError(400, 'invalid-request', `${property.name} is a URL prefix: it watches exactly one origin`);
      }
      let host: string;
      try {
        host = parseAddedHost(property.name, request.body.host);
      } catch (error) {
        if (error instanceof PropertyInputError) throw new ApiError(400, 'invalid-property', error.message);
        throw error;
      }
      const row = await addPropertyHost(db, dialect, property.id, host, 'user', ['https', 'http'], context.now());
      if (!row) throw new ApiError(409, 'property-exists', `${host} is already a host of ${property.name}`);
      context.wakeWorkers();
      return reply.status(201).send(hostJson(row));
    },
  );

  api.get(
    '/api/properties/:id/files',
    {
      schema: {
        summary: 'The robots.txt files of a property, most important hosts first (https before http)',
        tags: ['files'],
        params: IdParams,
        querystring: FilesQuery,
        response: { 200: Type.Object({ files: Type.Array(PropertyFile) }), ...errors(400, 404) },
      },
    },
    async (request) => {
      await propertyOr404(request.params.id);
      const all = request.query.all === true;
      const rows = await listPropertyFiles(db, request.params.id, {
        ...(all
          ? { hostLimit: Number.MAX_SAFE_INTEGER }
          : { hideAllowAllBefore: context.now() - context.hideAllowAllAfterMs }),
      });
      const files = [];
      for (const row of rows) files.push(propertyFileJson(row, await policyOf(row), context.now()));
      return { files };
    },
  );

  api.get(
    '/api/files/:id',
    {
      schema: {
        summary: 'One robots.txt file: its status, last fetch (with its content) and the properties that watch it',
        tags: ['files'],
        params: IdParams,
        querystring: ContentQuery,
        response: { 200: FileDetail, ...errors(400, 404) },
      },
    },
    async (request) => {
      const row = await fileOr404(request.params.id);
      const body =
        row.fetch_body_hash === null || request.query.content === false
          ? undefined
          : await getBody(db, row.fetch_body_hash);
      return {
        ...fileJson(row, await policyOf(row), context.now()),
        lastFetch: lastFetchJson(row, body?.content ?? null),
        properties: await propertiesOfFile(db, row.id),
      };
    },
  );

  api.get(
    '/api/files/:id/versions',
    {
      schema: {
        summary:
          'The versions of a file, newest first: every fetch whose content differed from the previous fetch, each ' +
          'with a link to its diff',
        tags: ['files'],
        params: IdParams,
        response: { 200: Type.Object({ versions: Type.Array(Version) }), ...errors(400, 404) },
      },
    },
    async (request) => {
      await fileOr404(request.params.id);
      return { versions: (await listVersions(db, request.params.id)).map(versionJson) };
    },
  );

  api.get(
    '/api/files/:id/fetches',
    {
      schema: {
        summary: 'The fetch attempts of a file, newest first (for its timeline of outcomes and sizes)',
        tags: ['files'],
        params: IdParams,
        querystring: FetchesQuery,
        response: { 200: Type.Object({ fetches: Type.Array(FetchPoint) }), ...errors(400, 404) },
      },
    },
    async (request) => {
      await fileOr404(request.params.id);
      const q = request.query;
      let since: number | undefined;
      if (q.since !== undefined) {
        since = Date.parse(q.since);
        if (Number.isNaN(since)) throw new ApiError(400, 'invalid-request', `since is not a date: ${q.since}`);
      }
      const rows = await listFetches(db, request.params.id, {
        limit: q.limit ?? 500,
        ...(since === undefined ? {} : { since }),
        ...(q.before === undefined ? {} : { before: q.before }),
      });
      return { fetches: rows.map(fetchPointJson) };
    },
  );

  api.post(
    '/api/files/:id/recrawl',
    {
      schema: {
        summary: 'Fetch a file again now, ahead of the schedule',
        tags: ['files'],
        security: WRITE_SECURITY,
        params: IdParams,
        response: { 202: RobotsFile, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      if (!(await requestRecrawl(db, request.params.id, context.now()))) {
        throw new ApiError(404, 'not-found', `no robots.txt file with id ${request.params.id}`);
      }
      context.wakeWorkers();
      const row = await fileOr404(request.params.id);
      return reply.status(202).send(fileJson(row, await policyOf(row), context.now()));
    },
  );

  api.get(
    '/api/versions/:id',
    {
      schema: {
        summary: 'One version with its content',
        tags: ['files'],
        params: IdParams,
        querystring: ContentQuery,
        response: { 200: VersionDetail, ...errors(400, 404) },
      },
    },
    async (request) => {
      const row = await getVersion(db, request.params.id);
      if (!row) throw new ApiError(404, 'not-found', `no version with id ${request.params.id}`);
      const lint =
        row.lint_errors !== null && row.lint_warnings !== null && row.lint_json !== null
          ? {
              errors: row.lint_errors,
              warnings: row.lint_warnings,
              diagnostics: JSON.parse(row.lint_json) as StoredDiagnostic[],
            }
          : null;
      return {
        ...versionJson(row),
        lint,
        content: row.content === null || request.query.content === false ? null : new TextDecoder().decode(row.content),
      };
    },
  );

  api.get(
    '/api/versions/:id/raw',
    {
      schema: {
        summary: 'The exact bytes of a version (404 when the fetch had no body)',
        tags: ['files'],
        params: IdParams,
        response: {
          200: {
            description: 'the body as fetched',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...errors(400, 404),
        },
      },
    },
    async (request, reply) => {
      const row = await getVersion(db, request.params.id);
      if (!row) throw new ApiError(404, 'not-found', `no version with id ${request.params.id}`);
      if (row.content === null) throw new ApiError(404, 'not-found', `version ${row.id} has no body (${row.outcome})`);
      // The bytes as fetched: labelled UTF-8 only when they are (a Latin-1 file stays Latin-1 to the browser).
      const bytes = Buffer.from(row.content);
      return reply
        .header('content-type', isUtf8(bytes) ? 'text/plain; charset=utf-8' : 'text/plain')
        .header('x-content-type-options', 'nosniff')
        .send(bytes as unknown as string);
    },
  );
}
