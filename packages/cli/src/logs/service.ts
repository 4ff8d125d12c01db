/**
 * `logs --service URL --property P`: the robots.txt in force over time, from a report service's stored history of the
 * property's robots.txt file (`GET /api/files/{id}/fetches` and `/versions`, the bytes from `/api/versions/{id}/raw`),
 * turned into versions by the engine (`robotskit/logs`: `policyPeriods`, `periodVersions`) with the service's own
 * availability periods (`GET /api/health`).
 *
 * `logs --service URL` without `--property`, for a log of several sites: the property is chosen by each request's
 * host. Every robots.txt file the service watches (`GET /api/properties`, each one's `files?all=true`) is keyed by
 * its URL's host as the engine's `logHost` reads a logged one (lower case, no default port); where two files share a host
 * (`http://` and `https://`, or two properties), the `https://` one is read, then the one of the lower property id.
 * A file the service has not fetched yet judges nothing: its host's requests are counted as of no known robots.txt.
 */

import { parseRobotsTxt, type RobotsTxt } from 'robotskit';
import type { AvailabilityOptions, FetchObservation } from 'robotskit/fetch';
import {
  logHost,
  periodVersions,
  policyPeriods,
  type RobotsVersion,
  type StoredFetch,
  storedHistory,
} from 'robotskit/logs';
import { CliError } from '../io.js';
import { GetError, getUrl } from '../transport/get.js';

/** The service's answers as this module reads them. */
interface Health {
  readonly status?: unknown;
  readonly availability?: {
    readonly disallowPeriod: number;
    readonly lastGoodVersionPeriod: number;
    readonly afterLastGoodPeriod: NonNullable<AvailabilityOptions['afterLastGoodPeriod']>;
  };
}
interface PropertyJson {
  readonly id: number;
  readonly kind: 'domain' | 'url-prefix';
  readonly name: string;
}
interface FileJson {
  readonly id: number;
  readonly url: string;
}
interface FetchJson {
  readonly id: number;
  readonly startedAt: string;
  readonly outcome: FetchObservation['outcome'];
  readonly httpStatus: number | null;
  readonly error: {
    readonly kind: NonNullable<FetchObservation['error']>['kind'];
    readonly code: string | null;
  } | null;
  readonly versionId: number | null;
}
interface VersionJson {
  readonly id: number;
  readonly fetchId: number | null;
  readonly fetchedAt: string;
  readonly outcome: FetchObservation['outcome'];
  readonly httpStatus: number | null;
}

const NO_HEADERS = { cacheControl: null, retryAfter: null, date: null } as const;

/** A client of the report service's read API, whose every failure is a one-line {@link CliError}. */
class ServiceClient {
  constructor(
    private readonly base: URL,
    private readonly token: string | undefined,
    private readonly timeoutMs: number,
  ) {}

  async get(path: string, maxBytes = 64 * 1024 * 1024): Promise<{ status: number; body: Uint8Array }> {
    const url = new URL(path, this.base).href;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    try {
      const answer = await getUrl(url, { headers, timeoutMs: this.timeoutMs, maxBytes });
      if (answer.status === 401) {
        throw new CliError(
          `the report service at ${this.base.origin} refused the token (HTTP 401): give the right one with --token or ROBOTSKIT_TOKEN`,
        );
      }
      if (answer.status === 429) {
        throw new CliError(
          `the report service at ${this.base.origin} refuses this address for a while (HTTP 429: too many wrong tokens)`,
        );
      }
      return { status: answer.status, body: answer.body };
    } catch (error) {
      if (error instanceof GetError) {
        throw new CliError(`cannot reach the report service at ${this.base.origin}: ${error.message}`, 2, {
          cause: error,
        });
      }
      throw error;
    }
  }

  /** The JSON of a 2xx answer; null on 404 when `missing` allows it. */
  async json<T>(path: string, missing: 'null' | 'error' = 'error'): Promise<T | null> {
    const { status, body } = await this.get(path);
    if (status === 404 && missing === 'null') return null;
    let doc: unknown;
    try {
      doc = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw new CliError(
        `${this.base.origin} does not answer as a robotskit report service (GET /${path.split('?')[0]}: HTTP ${status}, not JSON)`,
      );
    }
    if (status < 200 || status > 299) {
      const message = (doc as { error?: { message?: unknown } } | null)?.error?.message;
      throw new CliError(
        `the report service answered GET /${path.split('?')[0]} with HTTP ${status}${typeof message === 'string' ? `: ${message}` : ''}`,
      );
    }
    return doc as T;
  }
}

/** Where `--service` points: an http(s) URL (its path is where the service's `/api` is). */
function serviceBase(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`--service must be the report service's http(s) URL (http://127.0.0.1:8080), not '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`--service must be an http or https URL, not '${text}'`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url;
}

/** The canonical forms a typed property may match: as typed, lower-cased, a URL with its trailing slash. */
function namesOf(typed: string): string[] {
  const lower = typed.trim().toLowerCase();
  const names = [typed.trim(), lower];
  if (/^[a-z]+:\/\//.test(lower)) {
    try {
      const url = new URL(lower);
      names.push(`${url.protocol}//${url.host}/`);
    } catch {
      // Not a URL after all: matched as typed.
    }
  }
  return names;
}

/** The origin a typed URL names, null when it is not a URL. */
function originOf(typed: string): string | null {
  if (!/^[a-z]+:\/\//i.test(typed.trim())) return null;
  try {
    return new URL(typed.trim()).origin;
  } catch {
    return null;
  }
}

async function allProperties(client: ServiceClient): Promise<PropertyJson[]> {
  const found: PropertyJson[] = [];
  let path: string | null = 'api/properties?limit=1000';
  while (path !== null && found.length < 100_000) {
    const page: { properties: PropertyJson[]; next: string | null } | null = await client.json(path);
    found.push(...page!.properties);
    path = page!.next === null ? null : page!.next.replace(/^\//, '');
  }
  return found;
}

/** The property `--property` names (an id, its name, or a URL of one of its origins) and the file to read. */
async function propertyFile(client: ServiceClient, typed: string): Promise<{ property: string; file: FileJson }> {
  const origin = originOf(typed);
  let candidates: PropertyJson[];
  if (/^\d+$/.test(typed.trim())) {
    const one = await client.json<PropertyJson>(`api/properties/${Number(typed)}`, 'null');
    candidates = one === null ? [] : [one];
  } else {
    const all = await allProperties(client);
    const names = namesOf(typed);
    candidates = all.filter((p) => names.includes(p.name));
    if (candidates.length === 0 && origin !== null) {
      // A host of a domain property: the domain itself or one of its subdomains.
      const host = new URL(origin).hostname;
      candidates = all.filter((p) => p.kind === 'domain' && (host === p.name || host.endsWith(`.${p.name}`)));
    }
  }
  for (const property of candidates) {
    const listed = await client.json<{ files: FileJson[] }>(`api/properties/${property.id}/files?all=true`);
    const files = listed!.files;
    const file = origin === null ? files[0] : files.find((f) => new URL(f.url).origin === origin);
    if (file !== undefined) return { property: property.name, file };
    if (origin === null || candidates.length === 1) {
      throw new CliError(
        origin === null
          ? `the report service's property ${property.name} has no robots.txt file yet`
          : `the report service's property ${property.name} watches no robots.txt at ${origin} (it watches ${files.map((f) => f.url).join(', ') || 'none yet'})`,
      );
    }
  }
  throw new CliError(
    `the report service has no property '${typed}' (give its id, its name such as example.com or https://example.com/, or a URL of one of its hosts)`,
  );
}

/** The file's fetches and versions as one history, with the version each fetch saw. */
async function historyOf(
  client: ServiceClient,
  fileId: number,
): Promise<{ history: StoredFetch[]; versions: VersionJson[] }> {
  const versions = (await client.json<{ versions: VersionJson[] }>(`api/files/${fileId}/versions`))!.versions;
  const fetches: FetchJson[] = [];
  let before: number | null = null;
  for (;;) {
    const path: string = `api/files/${fileId}/fetches?limit=5000${before === null ? '' : `&before=${before}`}`;
    const page = (await client.json<{ fetches: FetchJson[] }>(path))!.fetches;
    fetches.push(...page);
    if (page.length < 5000) break;
    before = page[page.length - 1]!.id;
  }
  const history = storedHistory(
    fetches.map((f) => ({
      id: f.id,
      fetchedAt: Date.parse(f.startedAt),
      outcome: f.outcome,
      status: f.httpStatus,
      error: f.error === null ? null : { kind: f.error.kind, code: f.error.code },
      headers: NO_HEADERS,
      ownVersion: f.versionId,
    })),
    versions.map((v) => ({
      id: v.id,
      fetchId: v.fetchId,
      fetchedAt: Date.parse(v.fetchedAt),
      outcome: v.outcome,
      status: v.httpStatus,
    })),
  );
  return { history, versions };
}

/** Options of {@link loadServiceVersions} and {@link loadServiceSites}. */
interface ServiceSource {
  readonly url: string;
  readonly token: string | undefined;
  readonly timeoutMs: number;
}

/** Hosts one `--service` without `--property` reads at most (each costs a few requests before the log is read). */
const MAX_SERVICE_HOSTS = 500;

type Availability = NonNullable<Health['availability']>;

/** A client of the service, its health checked, and the token (if given) checked on a read that needs it. */
async function connect(source: ServiceSource): Promise<{ client: ServiceClient; availability: Availability }> {
  const base = serviceBase(source.url);
  const client = new ServiceClient(base, source.token, source.timeoutMs);
  const health = await client.json<Health>('api/health', 'null');
  if (health === null || health.status !== 'ok' || health.availability === undefined) {
    throw new CliError(`${base.origin} does not answer as a robotskit report service (GET /api/health)`);
  }
  // Reads are open; a token given is checked on a read that needs it (the webhooks list), so a wrong one is said.
  if (source.token !== undefined) await client.get('api/webhooks');
  return { client, availability: health.availability };
}

/** The versions in force over time of one watched file; null when the service has not fetched it yet. */
async function fileVersions(
  client: ServiceClient,
  file: FileJson,
  availability: Availability,
  labelPrefix: string,
): Promise<RobotsVersion[] | null> {
  const { history, versions } = await historyOf(client, file.id);
  const { disallowPeriod, lastGoodVersionPeriod, afterLastGoodPeriod } = availability;
  const periods = policyPeriods(history, { disallowPeriod, lastGoodVersionPeriod, afterLastGoodPeriod });
  if (periods.length === 0) return null;
  const rules = new Map<number, RobotsTxt>();
  for (const period of periods) {
    const id = period.versionId;
    if (period.mode === 'rules' && id === null) {
      throw new CliError(
        `the report service's history of ${file.url} has a fetch of ${new Date(period.since).toISOString()} with no stored version (pruned?)`,
      );
    }
    if (id === null || rules.has(id)) continue;
    const { status, body } = await client.get(`api/versions/${id}/raw`);
    if (status !== 200)
      throw new CliError(`the report service answered GET /api/versions/${id}/raw with HTTP ${status}`);
    rules.set(id, parseRobotsTxt(body));
  }
  const fetchedAt = new Map(versions.map((v) => [v.id, Date.parse(v.fetchedAt)]));
  const found = periodVersions(periods, rules, fetchedAt);
  return labelPrefix === '' ? found : found.map((v) => ({ ...v, label: `${labelPrefix}${v.label}` }));
}

/** The versions in force over time for `--service` and `--property`, and the robots.txt URL they are of. */
export async function loadServiceVersions(
  source: ServiceSource & { readonly property: string },
): Promise<{ versions: RobotsVersion[]; fileUrl: string; property: string }> {
  const { client, availability } = await connect(source);
  const { property, file } = await propertyFile(client, source.property);
  const versions = await fileVersions(client, file, availability, '');
  if (versions === null) {
    throw new CliError(`the report service has not fetched ${file.url} yet: no version to judge the log by`);
  }
  return { versions, fileUrl: file.url, property };
}

/** Which watched file stands for a host: `https://` before `http://`, then the lower property id. */
function preferred(a: { file: FileJson; propertyId: number }, b: { file: FileJson; propertyId: number }): boolean {
  const secure = (f: FileJson) => (f.url.startsWith('https:') ? 0 : 1);
  return secure(a.file) - secure(b.file) < 0 || (secure(a.file) === secure(b.file) && a.propertyId < b.propertyId);
}

/**
 * `--service` without `--property`: each host's versions, from every file the service watches (see the header);
 * hosts whose file the service has not fetched yet are left out, and named in `unfetched`.
 */
export async function loadServiceSites(
  source: ServiceSource,
): Promise<{ sites: Map<string, RobotsVersion[]>; unfetched: string[] }> {
  const { client, availability } = await connect(source);
  const byHost = new Map<string, { file: FileJson; propertyId: number }>();
  for (const property of await allProperties(client)) {
    const listed = await client.json<{ files: FileJson[] }>(`api/properties/${property.id}/files?all=true`);
    for (const file of listed!.files) {
      let host: string | null;
      try {
        host = logHost(new URL(file.url).host);
      } catch {
        host = null;
      }
      if (host === null) continue;
      const candidate = { file, propertyId: property.id };
      const before = byHost.get(host);
      if (before === undefined || preferred(candidate, before)) byHost.set(host, candidate);
    }
    if (byHost.size > MAX_SERVICE_HOSTS) {
      throw new CliError(
        `the report service watches more than ${MAX_SERVICE_HOSTS} hosts: give --property for the log's one site`,
      );
    }
  }
  if (byHost.size === 0)
    throw new CliError('the report service watches no robots.txt yet: nothing to judge the log by');
  const sites = new Map<string, RobotsVersion[]>();
  const unfetched: string[] = [];
  for (const [host, { file }] of [...byHost].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const versions = await fileVersions(client, file, availability, `${host}: `);
    if (versions === null) unfetched.push(host);
    else sites.set(host, versions);
  }
  return { sites, unfetched };
}
