/**
 * Properties and their hosts: add (a domain or a URL prefix), list a page at a time with their health, show, delete,
 * add a host, and find hosts in the sitemaps (`POST /api/properties/:id/discover-hosts`). Their JSON shapes are here.
 */

import { Type } from 'typebox';
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
import { listPropertyFiles } from '../storage/report.js';
import { discoverHosts } from '../worker/discover-hosts.js';
import { privateAddressNotice } from './address-notice.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { Headline, headlineOfProperty } from './headlines.js';
import { hostJson, propertyJson } from './json.js';
import { PropertyInputError, parseAddedHost, parsePropertyInput } from './property-input.js';
import { type Api, errors, IdParams, Nullable, Time, WRITE_SECURITY } from './shapes.js';
import { clientGone } from './work-limits.js';

export const Host = Type.Object({
  id: Type.Integer(),
  host: Type.String({ description: 'ASCII (punycode) host, with the port when not the default' }),
  source: Type.Union([Type.Literal('property'), Type.Literal('www'), Type.Literal('user'), Type.Literal('sitemap')]),
  rank: Type.Integer({ description: 'importance: lower first; the report shows the first 20 hosts' }),
});

export const Property = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('domain'), Type.Literal('url-prefix')]),
  name: Type.String({ description: 'canonical: example.com or https://example.com/' }),
  createdAt: Time,
  hostCount: Type.Integer(),
  fileCount: Type.Integer(),
});

export const ListedProperty = Type.Object({
  ...Property.properties,
  health: Type.Object(
    {
      fetched: Type.Integer(),
      notFound: Type.Integer(),
      error: Type.Integer({ description: 'files whose last fetch was not fetched for any other reason (5xx, 403…)' }),
      unchecked: Type.Integer({ description: 'files not fetched yet' }),
      lintErrors: Type.Integer({ description: 'lint errors of the fetched files, summed' }),
      lintWarnings: Type.Integer(),
    },
    { description: "how the property's files stand: their last fetches by the engine's report status" },
  ),
  headline: Nullable(
    Type.Object(
      { ...Headline.properties, fileId: Type.Integer(), fileUrl: Type.String() },
      { description: "the headline of the property's first own file (its host, https first); null before a fetch" },
    ),
  ),
});

export const PropertyDetail = Type.Object({
  ...Property.properties,
  hosts: Type.Array(Host),
  notice: Nullable(
    Type.String({
      description:
        'why the files cannot be fetched, when that is known at once: a loopback or private address on a service ' +
        'started without --allow-private-addresses; null otherwise',
    }),
  ),
});

const CreatePropertyBody = Type.Object(
  {
    property: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'a domain (example.com, IDN allowed) or a host-level URL prefix (https://example.com/)',
      examples: ['example.com', 'https://example.com/'],
    }),
  },
  { additionalProperties: false },
);

const AddHostBody = Type.Object(
  { host: Type.String({ minLength: 1, maxLength: 253, description: 'a host of the domain, e.g. shop.example.com' }) },
  { additionalProperties: false },
);

const PropertiesQuery = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'only properties with a larger id (paging)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);

const DiscoverHostsBody = Type.Object(
  {
    maxUrls: Type.Optional(Type.Integer({ minimum: 1, maximum: 200_000, description: 'sitemap URLs read at most' })),
    maxHosts: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'hosts added at most' })),
  },
  { additionalProperties: false },
);

export const DiscoveredHosts = Type.Object({
  urlsRead: Type.Integer(),
  hosts: Type.Array(
    Type.Object({ host: Type.String(), urls: Type.Integer(), added: Type.Boolean(), rank: Nullable(Type.Integer()) }),
  ),
  problems: Type.Array(Type.String()),
});

/** A property, or a 404. */
export async function propertyOr404(context: ApiContext, id: number) {
  const property = await getProperty(context.database.db, id);
  if (!property) throw new ApiError(404, 'not-found', `no property with id ${id}`);
  return property;
}

/** A property with its hosts and what is known at once about fetching them. */
async function propertyDetail(context: ApiContext, id: number) {
  const { db } = context.database;
  const property = await propertyOr404(context, id);
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

/** A typed property, or a 400 `invalid-property` saying what to type instead. */
function propertyInputOr400(typed: string) {
  try {
    return parsePropertyInput(typed);
  } catch (error) {
    if (error instanceof PropertyInputError) throw new ApiError(400, 'invalid-property', error.message);
    throw error;
  }
}

function addProperty(api: Api, context: ApiContext): void {
  const summary = 'Add a property: a domain or a host-level URL prefix';
  const response = { 201: PropertyDetail, ...errors(400, 401, 409, 413, 415) };
  const schema = { summary, tags: ['properties'], security: WRITE_SECURITY, body: CreatePropertyBody, response };
  api.post('/api/properties', { schema }, async (request, reply) => {
    const input = propertyInputOr400(request.body.property);
    try {
      const row = await createProperty(context.database.db, context.database.dialect, input, context.now());
      context.wakeWorkers();
      return reply.status(201).send(await propertyDetail(context, row.id));
    } catch (error) {
      if (error instanceof PropertyExistsError) throw new ApiError(409, 'property-exists', error.message);
      throw error;
    }
  });
}

function listPropertiesPage(api: Api, context: ApiContext): void {
  const page = Type.Object({ properties: Type.Array(ListedProperty), next: Nullable(Type.String()) });
  const schema = {
    summary: 'List properties, by id, a page at a time (`next` is the URL of the next page, null on the last)',
    tags: ['properties'],
    querystring: PropertiesQuery,
    response: { 200: page, ...errors(400) },
  };
  api.get('/api/properties', { schema }, async (request) => {
    const { db } = context.database;
    const limit = request.query.limit ?? 100;
    // One more than asked tells whether there is a next page without counting.
    const list = await listProperties(db, { after: request.query.after, limit: limit + 1 });
    const shown = list.slice(0, limit);
    const health = await propertiesHealth(
      db,
      shown.map((p) => p.id),
    );
    const last = shown[shown.length - 1];
    const properties = [];
    for (const p of shown) {
      properties.push({
        ...propertyJson(p, { hostCount: p.host_count, fileCount: p.file_count }),
        health: health.get(p.id) ?? emptyHealth(),
        headline: await headlineOfProperty(context, p.id),
      });
    }
    return {
      properties,
      next: list.length > limit && last ? `/api/properties?after=${last.id}&limit=${limit}` : null,
    };
  });
}

function showProperty(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'One property with its hosts',
    tags: ['properties'],
    params: IdParams,
    response: { 200: PropertyDetail, ...errors(400, 404) },
  };
  api.get('/api/properties/:id', { schema }, async (request) => propertyDetail(context, request.params.id));
}

function removeProperty(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Delete a property (and the files no other property watches, with their history)',
    tags: ['properties'],
    security: WRITE_SECURITY,
    params: IdParams,
    response: { 204: Type.Null({ description: 'deleted' }), ...errors(400, 401, 404) },
  };
  api.delete('/api/properties/:id', { schema }, async (request, reply) => {
    if (!(await deleteProperty(context.database.db, context.database.dialect, request.params.id))) {
      throw new ApiError(404, 'not-found', `no property with id ${request.params.id}`);
    }
    return reply.status(204).send(null);
  });
}

/** A domain property, or a 400 for a URL prefix (which watches exactly one origin). */
async function domainOr400(context: ApiContext, id: number) {
  const property = await propertyOr404(context, id);
  if (property.kind !== 'domain') {
    throw new ApiError(400, 'invalid-request', `${property.name} is a URL prefix: it watches exactly one origin`);
  }
  return property;
}

function addHost(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Add a host to a domain property (both its http and https robots.txt are watched)',
    tags: ['properties'],
    security: WRITE_SECURITY,
    params: IdParams,
    body: AddHostBody,
    response: { 201: Host, ...errors(400, 401, 404, 409, 413, 415) },
  };
  api.post('/api/properties/:id/hosts', { schema }, async (request, reply) => {
    const property = await domainOr400(context, request.params.id);
    let host: string;
    try {
      host = parseAddedHost(property.name, request.body.host);
    } catch (error) {
      if (error instanceof PropertyInputError) throw new ApiError(400, 'invalid-property', error.message);
      throw error;
    }
    const { db, dialect } = context.database;
    const row = await addPropertyHost(db, dialect, property.id, host, 'user', ['https', 'http'], context.now());
    if (!row) throw new ApiError(409, 'property-exists', `${host} is already a host of ${property.name}`);
    context.wakeWorkers();
    return reply.status(201).send(hostJson(row));
  });
}

function discover(api: Api, context: ApiContext): void {
  const schema = {
    summary: "Add the hosts a domain property's sitemaps list, most URLs first (the report shows the first 20)",
    tags: ['properties'],
    security: WRITE_SECURITY,
    params: IdParams,
    body: DiscoverHostsBody,
    response: { 200: DiscoveredHosts, ...errors(400, 401, 404, 413, 415) },
  };
  api.post('/api/properties/:id/discover-hosts', { schema }, async (request, reply) => {
    const property = await domainOr400(context, request.params.id);
    return discoverHosts(context.database, property, {
      fetch: context.fetch,
      now: context.now(),
      signal: clientGone(reply),
      ...(request.body?.maxUrls === undefined ? {} : { maxUrls: request.body.maxUrls }),
      ...(request.body?.maxHosts === undefined ? {} : { maxHosts: request.body.maxHosts }),
    });
  });
}

/** Registers the property routes on `api`. */
export function registerPropertyRoutes(api: Api, context: ApiContext): void {
  addProperty(api, context);
  listPropertiesPage(api, context);
  showProperty(api, context);
  removeProperty(api, context);
  addHost(api, context);
  discover(api, context);
}
