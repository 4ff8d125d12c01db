/**
 * The JSON shapes of the API, as JSON Schema (TypeBox): Fastify validates requests and serialises responses with
 * them, and the OpenAPI document is generated from them, so the three cannot drift apart.
 */

import { DEFAULT_MAX_BYTES } from 'robotskit';
import { RETRIEVAL_ERROR_KINDS } from 'robotskit/fetch';
import { type TSchema, Type } from 'typebox';
import { ALERT_KIND_NAMES, ALERT_SEVERITIES } from '../storage/alert-kinds.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** What Google parses of a robots.txt, as the engine does: `the first 500 KiB (512,000 bytes)`. */
const PARSED_PART = `the first ${DEFAULT_MAX_BYTES / 1024} KiB (${DEFAULT_MAX_BYTES.toLocaleString('en-US')} bytes)`;

/** A timestamp: ISO 8601 in UTC. */
const Time = Type.String({ format: 'date-time' });

/** The engine's `RetrievalOutcome`: what a fetch means for crawling. */
const Outcome = Type.Union([Type.Literal('rules'), Type.Literal('allow-all'), Type.Literal('disallow-all')], {
  description:
    "the engine's outcome: rules (a 2xx answer; its rules apply), allow-all (no robots.txt: 4xx but 429, redirects " +
    'that lead nowhere), disallow-all (5xx, 429, network failures, refused addresses)',
});

/** The engine's `fetchStatusOf(…).status`: the report status, as Search Console's robots.txt report words it. */
const ReportStatus = Type.Union([Type.Literal('fetched'), Type.Literal('not-found'), Type.Literal('error')], {
  description:
    "the report status by the engine's fetchStatusOf: fetched (2xx), not-found (404, 410, FTP 550), error (any " +
    'other reason, a 403 included, which crawlers read as allow-all)',
});

/** The engine's error of a fetch. */
const FetchError = Type.Object({
  kind: Type.Enum(RETRIEVAL_ERROR_KINDS, {
    description: "the engine's error kind (dns, connect, timeout, blocked…); an HTTP status is not an error",
  }),
  code: Nullable(Type.String({ description: "the runtime's code (ENOTFOUND, FTP_550…), when it gave one" })),
  message: Type.String(),
});

/** Why a fetch was not fetched, in the engine's words. */
const StatusWords = Nullable(
  Type.String({
    description:
      "why it was not fetched, in the engine's words (fetchStatusOf's reason: access denied (HTTP 403), server " +
      'error (HTTP 503), host not found…); null when fetched',
  }),
);

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'stable kebab-case code, e.g. invalid-property, not-found, unauthorized' }),
      message: Type.String({ description: 'what went wrong, in words' }),
    }),
  },
  { $id: 'Error', description: 'every error has this shape' },
);

export const IdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'numeric id' }),
});

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
      error: Type.Integer({ description: 'files whose last fetch failed (5xx, 429, network)' }),
      unchecked: Type.Integer({ description: 'files not fetched yet' }),
      lintErrors: Type.Integer({ description: 'lint errors of the fetched files, summed' }),
      lintWarnings: Type.Integer(),
    },
    { description: "how the property's files stand, from their last fetches" },
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

export const CreatePropertyBody = Type.Object(
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

export const AddHostBody = Type.Object(
  { host: Type.String({ minLength: 1, maxLength: 253, description: 'a host of the domain, e.g. shop.example.com' }) },
  { additionalProperties: false },
);

export const FilesQuery = Type.Object(
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

const Headers = Type.Record(Type.String(), Type.String(), { description: 'the response headers that matter' });

export const FetchSummary = Type.Object({
  id: Type.Integer(),
  startedAt: Time,
  finishedAt: Time,
  outcome: Outcome,
  status: ReportStatus,
  httpStatus: Nullable(Type.Integer()),
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
  scheme: Type.Union([Type.Literal('http'), Type.Literal('https')]),
  host: Type.String(),
  status: Type.Union([ReportStatus, Type.Null()], {
    description: 'the report status of the last fetch; null before the first fetch',
  }),
  statusReason: StatusWords,
  httpStatus: Nullable(Type.Integer()),
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
  httpStatus: Nullable(Type.Integer()),
  size: Nullable(Type.Integer({ description: 'bytes of the body, null without one' })),
  error: Nullable(FetchError),
  summary: StatusWords,
  versionId: Nullable(Type.Integer({ description: 'the version this fetch started, when its content was new' })),
});

export const FetchesQuery = Type.Object(
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
  httpStatus: Nullable(Type.Integer()),
  size: Nullable(Type.Integer()),
  bodyHash: Nullable(Type.String()),
  headers: Headers,
  previousVersionId: Nullable(Type.Integer({ description: 'the version before it; null for the oldest kept' })),
  diffUrl: Nullable(Type.String({ description: 'its diff to the previous version (GET); null for the oldest kept' })),
});

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

export const Health = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  fetching: Type.Union([Type.Literal('running'), Type.Literal('not-configured')], {
    description: 'whether this process runs fetch workers',
  }),
  availability: Type.Object(
    {
      disallowPeriod: Type.Integer({ description: 'how long failures stop crawling, ms' }),
      lastGoodVersionPeriod: Type.Integer({
        description: 'until when after the first failure the last good version applies, ms',
      }),
      afterLastGoodPeriod: Type.Union([
        Type.Literal('allow-if-site-reachable'),
        Type.Literal('keep-last-good-version'),
      ]),
      words: Type.Object({ disallowPeriod: Type.String(), lastGoodVersionPeriod: Type.String() }),
      summary: Type.String({ description: 'the whole timeline in one paragraph, with these periods' }),
    },
    {
      description:
        "what applies while robots.txt cannot be fetched, with this service's periods (the engine's availabilityRules)",
    },
  ),
  hideAllowAllAfterMs: Type.Integer({
    description: 'files whose fetches have found no robots.txt (allow-all) this long leave the files list, ms',
  }),
});

export const AlertKind = Type.Enum(ALERT_KIND_NAMES, { description: 'what happened' });
export const AlertSeverity = Type.Enum(ALERT_SEVERITIES);

export const Alert = Type.Object({
  id: Type.Integer(),
  kind: AlertKind,
  severity: AlertSeverity,
  message: Type.String({ description: 'what changed, in words' }),
  fileId: Nullable(Type.Integer()),
  fileUrl: Nullable(Type.String()),
  versionId: Nullable(Type.Integer()),
  previousVersionId: Nullable(Type.Integer({ description: 'the version compared against' })),
  diffUrl: Nullable(Type.String({ description: 'the diff of the two versions (GET)' })),
  fetchStatus: Nullable(
    Type.Object(
      { status: ReportStatus, reason: StatusWords },
      { description: "the report status of the alert's version, as the files API gives it" },
    ),
  ),
  details: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Time,
});

export const PropertiesQuery = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'only properties with a larger id (paging)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);

export const AlertsQuery = Type.Object(
  {
    propertyId: Type.Optional(Type.Integer({ minimum: 1 })),
    fileId: Type.Optional(Type.Integer({ minimum: 1 })),
    kind: Type.Optional(AlertKind),
    severity: Type.Optional(AlertSeverity),
    since: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601: only alerts created at or after this' }),
    ),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'only alerts with a smaller id (paging)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);

export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String({ description: 'scheme, host and port; path and query (often the secret) are shown as …' }),
  propertyId: Nullable(Type.Integer({ description: 'null: alerts of every property' })),
  kinds: Nullable(Type.Array(AlertKind, { description: 'null: every kind' })),
  hasSecret: Type.Boolean({
    description: 'deliveries carry webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body> (Standard Webhooks)',
  }),
  createdAt: Time,
  deliveries: Type.Object({ pending: Type.Integer(), delivered: Type.Integer(), failed: Type.Integer() }),
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'http(s) URL receiving a POST per alert' }),
    secret: Type.Optional(Type.String({ minLength: 8, maxLength: 200, description: 'HMAC-SHA256 key' })),
    propertyId: Type.Optional(Type.Integer({ minimum: 1 })),
    kinds: Type.Optional(Type.Array(AlertKind, { minItems: 1, uniqueItems: true })),
  },
  { additionalProperties: false },
);

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

export const DiffQuery = Type.Object(
  {
    against: Type.Optional(
      Type.Integer({ minimum: 1, description: 'the version to compare with (default: previous)' }),
    ),
  },
  { additionalProperties: false },
);

const TesterUrl = Type.String({
  minLength: 1,
  // A rule line may be 16,663 bytes long (Google's cut): the URLs that test it are as long.
  maxLength: 20_000,
  description: 'an absolute http(s) URL, or a path starting with /',
});
const UserAgentName = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'a product token (Googlebot), * for any crawler, a catalogue crawler name (GPTBot, Google-Extended…), or a User-Agent string (the crawler it names is used, and said in rewrite)',
});

export const TestBody = Type.Object(
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

const VerdictSide = Type.Object({
  allowed: Type.Boolean(),
  line: Type.Integer({ description: 'the deciding line, 0 when no rule decided' }),
  lineText: Nullable(Type.String()),
  rule: Nullable(
    Type.Object({ kind: Type.Union([Type.Literal('allow'), Type.Literal('disallow')]), pattern: Type.String() }),
  ),
  groups: Nullable(Type.String({ description: 'specific, global (the * group) or none' })),
  note: Nullable(Type.String({ description: 'why, when no rules applied' })),
});

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
  ...VerdictSide.properties,
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

export const FetchQuery = Type.Object(
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

export const ImpactBody = Type.Object(
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

export const DiscoverHostsBody = Type.Object(
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

export const AlertSummaryQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601; default: seven days before now' }),
    ),
  },
  { additionalProperties: false },
);

export const AlertSummary = Type.Object({
  since: Time,
  properties: Type.Array(
    Type.Object({
      propertyId: Type.Integer(),
      critical: Type.Integer(),
      warning: Type.Integer(),
      info: Type.Integer(),
      latestAt: Time,
    }),
    {
      description:
        'alerts since `since` on each property that has any (a file shared by two properties counts in both)',
    },
  ),
});

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  alertId: Type.Integer(),
  alertKind: Nullable(AlertKind),
  alertMessage: Nullable(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String({ description: 'why the last attempt failed' })),
  deliveredAt: Nullable(Time),
  nextAttemptAt: Nullable(Time),
});

export const WebhookTestResult = Type.Object({
  ok: Type.Boolean({ description: 'the receiver answered 2xx' }),
  httpStatus: Nullable(Type.Integer()),
  error: Nullable(Type.String({ description: 'why the test delivery failed, in words' })),
});
