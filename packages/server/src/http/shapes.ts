/**
 * What the route modules share: the JSON shapes several routes use (TypeBox schemas: Fastify validates and
 * serialises with them and the OpenAPI document is generated from them), the error responses and the security of
 * writes, and the type of the app as routes see it. Each route module holds its own shapes beside its routes.
 */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { DEFAULT_MAX_BYTES } from 'robotskit';
import { RETRIEVAL_ERROR_KINDS } from 'robotskit/fetch';
import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

/** The app as route modules register on it: request types follow from the routes' schemas. */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The error responses a route documents, each `{ error: { code, message } }`. */
export const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: 'Error#' }]));

/** The security of routes that need the token when the service has one. */
export const WRITE_SECURITY = [{ bearer: [] }];

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * A schema or null. A primitive (a string, a number, an enum of strings) or an object becomes one schema with the type
 * `[type, "null"]`: the response serialiser writes it directly, where for an `anyOf` it validates every value against
 * each branch (compiling a validator of the whole answer's schema on a route's first answer: 0.4 s for a file's
 * detail, and 0.7 s validating a large answer). Other schemas are an `anyOf` with null.
 */
export function Nullable<T extends TSchema>(
  schema: T,
  options: { readonly description?: string } = {},
): TUnsafe<Static<T> | null> {
  const json = JSON.parse(JSON.stringify(schema)) as { type?: unknown; enum?: unknown[] };
  if (json.type === 'object') return Type.Unsafe<Static<T> | null>({ ...json, ...options, type: ['object', 'null'] });
  if (typeof json.type === 'string' && PRIMITIVES.has(json.type)) {
    return Type.Unsafe<Static<T> | null>({
      ...json,
      ...options,
      type: [json.type, 'null'],
      ...(json.enum ? { enum: [...json.enum, null] } : {}),
    });
  }
  return Type.Union([schema, Type.Null()], options) as unknown as TUnsafe<Static<T> | null>;
}

/** A timestamp: ISO 8601 in UTC. */
export const Time = Type.String({ format: 'date-time' });

/** What Google parses of a robots.txt, as the engine does: `the first 500 KiB (512,000 bytes)`. */
export const PARSED_PART = `the first ${DEFAULT_MAX_BYTES / 1024} KiB (${DEFAULT_MAX_BYTES.toLocaleString('en-US')} bytes)`;

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

/** The engine's `RetrievalOutcome`: what a fetch means for crawling. */
export const Outcome = Type.Unsafe<'rules' | 'allow-all' | 'disallow-all'>({
  type: 'string',
  enum: ['rules', 'allow-all', 'disallow-all'],
  description:
    "the engine's outcome: rules (a 2xx answer; its rules apply), allow-all (no robots.txt: 4xx but 429, redirects " +
    'that lead nowhere), disallow-all (5xx, 429, network failures, refused addresses)',
});

/** The engine's `fetchStatusOf(…).status`: the report status, as Search Console's robots.txt report words it. */
export const ReportStatus = Type.Unsafe<'fetched' | 'not-found' | 'error'>({
  type: 'string',
  enum: ['fetched', 'not-found', 'error'],
  description:
    "the report status by the engine's fetchStatusOf: fetched (2xx), not-found (404, 410, FTP 550), error (any " +
    'other reason, a 403 included, which crawlers read as allow-all)',
});

/** The engine's error of a fetch. */
export const FetchError = Type.Object({
  kind: Type.Enum(RETRIEVAL_ERROR_KINDS, {
    description: "the engine's error kind (dns, connect, timeout, blocked…); an HTTP status is not an error",
  }),
  code: Nullable(Type.String({ description: "the runtime's code (ENOTFOUND, FTP_550…), when it gave one" })),
  message: Type.String(),
});

/** Why a fetch was not fetched, in the engine's words. */
export const StatusWords = Nullable(
  Type.String({
    description:
      "why it was not fetched, in the engine's words (fetchStatusOf's reason: access denied (HTTP 403), server " +
      'error (HTTP 503), host not found…); null when fetched',
  }),
);

export const Headers = Type.Record(Type.String(), Type.String(), { description: 'the response headers that matter' });

/** A URL the tester and the impact check ask about. */
export const TesterUrl = Type.String({
  minLength: 1,
  // A rule line may be 16,663 bytes long (Google's cut): the URLs that test it are as long.
  maxLength: 20_000,
  description: 'an absolute http(s) URL, or a path starting with /',
});

/** A crawler as a person names it, read by the engine's resolveCrawler. */
export const UserAgentName = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'a product token (Googlebot), * for any crawler, a catalogue crawler name (GPTBot, Google-Extended…), or a User-Agent string (the crawler it names is used, and said in rewrite)',
});

const Preference = Type.Union([Type.Literal('allow'), Type.Literal('disallow')]);
const Preferences = Type.Record(Type.String(), Preference, {
  description:
    'by vocabulary label (train-ai, ai-use, search): allow (y) or disallow (n); an unknown category is absent',
});

/**
 * The AI usage preferences that apply to a URL for a crawler (the engine's `usage`: draft-ietf-aipref-attach's
 * Content-Usage rule, and Content-Signal beside it).
 */
export const UsageShape = Type.Object(
  {
    crawlable: Type.Boolean({ description: 'whether the crawler may fetch the URL: preferences apply only then' }),
    preferences: Preferences,
    rules: Type.Array(
      Type.Object({
        line: Type.Integer({ description: '1-based line of the Content-Usage rule' }),
        lineText: Type.String({ description: 'the line as written' }),
        pattern: Type.String({ description: 'the path pattern, as the matcher reads it' }),
        expression: Type.String({ description: 'the preference expression as written' }),
        preferences: Preferences,
      }),
      { description: 'the deciding Content-Usage rules (the longest match; several of the same length combine)' },
    ),
    contentSignal: Nullable(
      Type.Object({
        lines: Type.Array(Type.Integer(), { description: 'the Content-Signal lines read' }),
        signals: Type.Record(Type.String(), Type.String(), { description: 'each key as stated (search: yes)' }),
        preferences: Preferences,
        unmapped: Type.Record(Type.String(), Type.String(), {
          description: 'signals with no vocabulary category of the same use (ai-input, use), side by side',
        }),
      }),
    ),
  },
  { description: 'null when no group of the file holds a Content-Usage or Content-Signal line' },
);

/** What the rules answer for one URL and crawler. */
export const VerdictSide = Type.Object({
  allowed: Type.Boolean(),
  line: Type.Integer({ description: 'the deciding line, 0 when no rule decided' }),
  lineText: Nullable(Type.String()),
  rule: Nullable(
    Type.Object({ kind: Type.Union([Type.Literal('allow'), Type.Literal('disallow')]), pattern: Type.String() }),
  ),
  groups: Nullable(Type.String({ description: 'specific, global (the * group) or none' })),
  note: Nullable(Type.String({ description: 'why, when no rules applied' })),
});
