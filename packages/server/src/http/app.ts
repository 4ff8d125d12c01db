/**
 * The HTTP application: Fastify with JSON-schema validation of every input, one error shape, bearer-token auth for
 * writes, and an OpenAPI 3.1 document generated from the route schemas at `GET /api/openapi.json`.
 */

import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { type AvailabilityOptions, availabilityRules, type RobotsStore } from 'robotskit/fetch';
import type { Dns, RangesByCrawler } from 'robotskit/logs';
import { AnalysisThreads } from '../analysis/threads.js';
import { dnsResolver } from '../net/dns.js';
import { createGuardedFetch, type GuardedFetch } from '../net/guarded-fetch.js';
import type { Database } from '../storage/connect.js';
import type { FilePolicyResolver } from '../storage/history.js';
import { registerAccessRoutes } from './access-routes.js';
import { registerActivityRoutes } from './activity-routes.js';
import { registerAiUseRoutes } from './ai-use-routes.js';
import { registerAlertRoutes } from './alert-routes.js';
import { requireTokenForWrites } from './auth.js';
import type { ApiContext } from './context.js';
import { refuseCrossSite } from './cross-site.js';
import { registerDecideRoutes } from './decide-routes.js';
import { clientErrorHandler, errorBody, handleError, parseJsonBody } from './errors.js';
import { EventLoopWatch } from './event-loop.js';
import { registerFileRoutes } from './file-routes.js';
import { registerHealthRoute } from './health-routes.js';
import { requireAllowedHost, SECURITY_HEADERS } from './host-check.js';
import { registerImpactRoutes } from './impact-routes.js';
import { type McpMount, registerMcpRoute } from './mcp-route.js';
import { registerPropertyRoutes } from './property-routes.js';
import { type Api, ErrorResponse } from './shapes.js';
import { registerTesterRoutes } from './tester-routes.js';
import { formatValidationErrors, validatorCompiler } from './validation.js';
import { registerVersionRoutes } from './version-routes.js';
import { DEFAULT_WEB_ROOT, registerWebUi } from './web-ui.js';
import { registerWebhookRoutes } from './webhook-routes.js';
import { WorkBudget, type WorkBudgetOptions } from './work-limits.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Options of {@link buildApp}. */
export interface AppOptions {
  readonly database: Database;
  /**
   * When set, writes (POST, DELETE…) need `Authorization: Bearer <token>`, and so do the reads that reveal secrets
   * (`GET /api/webhooks`; `GET /api/fetch` when private addresses are allowed).
   */
  readonly token?: string | undefined;
  /**
   * Host names the service answers to besides IP addresses, `localhost` and `*.localhost` (DNS rebinding
   * protection): the name it is reached by, `*.example.com` for a domain and its subdomains, or `*` for any.
   * Other `Host` headers get a 403 `host-not-allowed`.
   * @default []
   */
  readonly allowedHosts?: readonly string[];
  /**
   * The clock.
   * @default Date.now
   */
  readonly now?: () => number;
  /** Computes files' effective policy (the availability timeline); without it the field is null. */
  readonly resolvePolicy?: FilePolicyResolver;
  /**
   * The availability timeline the service applies (the engine's `AvailabilityOptions`: how long failures stop
   * crawling, how long the last good version applies…): `POST /api/decide` uses it, and `GET /api/health` says it
   * in words for the UI. Pass the same options to `createPolicyResolver`.
   * @default the engine's (12 h, 30 days)
   */
  readonly availability?: AvailabilityOptions;
  /**
   * Files whose fetches have been `allow-all` (no robots.txt) for this long drop out of the list.
   * @default 30 days
   */
  readonly hideAllowAllAfterMs?: number;
  /** Whether fetch workers run in this process (reported by `/api/health`). */
  readonly fetching?: boolean;
  /**
   * Fastify's logger setting (pino options, or false).
   * @default false
   */
  readonly logger?: boolean | Record<string, unknown>;
  /**
   * The fetch for live robots.txt and sitemaps (tester, impact, host discovery).
   * @default a new SSRF-guarded fetch (private addresses refused), closed with the app
   */
  readonly fetch?: GuardedFetch;
  /**
   * Sitemap URLs an impact check reads by default (a request may ask for up to 10 times this, at most 50,000).
   * @default 1000
   */
  readonly impactMaxUrls?: number;
  /** Called when files become due now (recrawl, new property or host): the service wakes its idle workers. */
  readonly onFilesDue?: () => void;
  /**
   * Whether `fetch` may reach loopback and private networks (`allowPrivateAddresses`). `GET /api/fetch` returns what
   * it fetched, and a redirect can lead anywhere, so with a token it then needs the token as writes do.
   * @default false
   */
  readonly privateAddressesAllowed?: boolean;
  /**
   * Largest request body.
   * @default 1 MiB
   */
  readonly bodyLimit?: number;
  /**
   * The store behind `POST /api/decide`'s robots.txt cache, shared with other instances (a Redis or PostgreSQL store
   * of robotskit-stores): each origin is then fetched once across them. Without it the cache is this process's.
   */
  readonly robotsStore?: RobotsStore;
  /**
   * Where the service's notices go: `robotsStore`'s stalls, one line when it starts failing and one when it answers
   * again (with counts), never one per request.
   * @default Fastify's logger, as warnings
   */
  readonly log?: (line: string) => void;
  /**
   * Folder of the built web UI, or false for the API alone. When the folder has no `index.html` (the UI was not
   * built), pages outside `/api/` say so.
   * @default `dist/web/` of this package
   */
  readonly webRoot?: string | false;
  /**
   * An MCP endpoint to mount at `/mcp` (POST; behind the Host check and, when the service has a token, the token):
   * called once with the service's SSRF-guarded network, it returns the handler of each request. The CLI's `serve`
   * mounts robotskit's MCP tools; without it there is no `/mcp`.
   */
  readonly mcp?: McpMount;
  /**
   * The threads line diffs run in (shared with the service's workers).
   * @default threads of the app's own, closed with it
   */
  readonly analysisThreads?: AnalysisThreads;
  /**
   * The budget of heavy requests (impact comparisons, version diffs) running and waiting at once.
   * @default the machine's cores but one (1 to 4) running, twice that waiting up to 10 s, then 429 with Retry-After
   */
  readonly heavyWork?: WorkBudgetOptions;
  /**
   * Access checks (`POST /api/properties/:id/access`) running at once; they wait on the network, not the processor, so
   * they have a budget of their own.
   * @default 4 running, none waiting (429 with Retry-After: 10)
   */
  readonly accessChecks?: WorkBudgetOptions;
  /**
   * How long a client has to send a whole request, headers and body; a slower one gets a 408 and is disconnected
   * (checked every second or two), so slow-body clients cannot hold connections open. Headers alone get a third of it.
   * @default 30 s
   */
  readonly requestTimeoutMs?: number;
  /**
   * Uploaded access logs (`POST /api/properties/:id/logs`): the DNS their crawlers' addresses are verified by
   * (forward-confirmed reverse DNS; null for none), how long one question may take, the operators' published address
   * ranges (`robotskit/logs`' `parseRanges` and `rangesFor`: GPTBot and others are verified by them alone; a
   * function is asked again for each upload, so that a long-running service follows the files as their publishers
   * change them), and the largest log, as sent and inflated.
   * @default the system's DNS servers, 2 s, no ranges, 100 MiB
   */
  readonly logs?: {
    readonly dns?: Dns | null;
    readonly dnsTimeoutMs?: number;
    readonly ranges?: RangeSource;
    readonly maxBytes?: number;
  };
}

/** The operators' published ranges: fixed, or read again when asked (`AppOptions.logs`). */
export type RangeSource = RangesByCrawler | (() => Promise<RangesByCrawler>);

function rangesOf(source: RangeSource | undefined): () => Promise<RangesByCrawler> {
  if (typeof source === 'function') return source;
  const fixed = source ?? new Map();
  return () => Promise.resolve(fixed);
}

/** What the routes share, from the options. */
function contextOf(options: AppOptions): ApiContext {
  return {
    database: options.database,
    now: options.now ?? Date.now,
    resolvePolicy: options.resolvePolicy,
    hideAllowAllAfterMs: options.hideAllowAllAfterMs ?? 30 * 24 * 60 * 60 * 1000,
    availability: options.availability ?? {},
    availabilityRules: availabilityRules(options.availability),
    fetching: options.fetching ?? false,
    version,
    fetch: options.fetch ?? createGuardedFetch(),
    impactMaxUrls: options.impactMaxUrls ?? 1000,
    wakeWorkers: options.onFilesDue ?? (() => {}),
    privateAddressesAllowed: options.privateAddressesAllowed ?? false,
    robotsStore: options.robotsStore,
    analysisThreads: options.analysisThreads ?? new AnalysisThreads(),
    heavyWork: new WorkBudget(options.heavyWork),
    accessChecks: new WorkBudget({
      running: 4,
      waiting: 0,
      retryAfterSeconds: 10,
      label: 'access checks',
      ...options.accessChecks,
    }),
    eventLoop: new EventLoopWatch(),
    logs: {
      dns: options.logs?.dns === undefined ? dnsResolver([], options.logs?.dnsTimeoutMs ?? 2000) : options.logs.dns,
      dnsTimeoutMs: options.logs?.dnsTimeoutMs ?? 2000,
      ranges: rangesOf(options.logs?.ranges),
      maxBytes: options.logs?.maxBytes ?? 100 * 1024 * 1024,
    },
  };
}

/** JSON bodies only, validated by their schemas; an empty JSON body is no body. */
function acceptJson(app: FastifyInstance): void {
  // JSON only: a text/plain body is a 415, not a string that fails validation later.
  app.removeContentTypeParser('text/plain');
  // An empty body sent as JSON is no body (clients often set the header on every request, recrawls and deletes
  // included); a route that needs one says so through its schema.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.setValidatorCompiler(validatorCompiler());
  app.addSchema(ErrorResponse);
}

/** The OpenAPI 3.1 document, generated from the routes' schemas. */
async function documentApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'robotskit report service',
        version,
        description:
          'Watches robots.txt files of many sites, versions them and explains them. Errors are ' +
          '`{ "error": { "code", "message" } }`. Writes need `Authorization: Bearer <token>` when the server has a token.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  });
}

/** The checks every request passes (Host, token), the security headers, errors in the API's shape and the UI. */
async function guard(app: FastifyInstance, options: AppOptions): Promise<void> {
  app.setErrorHandler(handleError);
  // First of all: a request through a foreign name (DNS rebinding) is refused before anything else looks at it.
  app.addHook('onRequest', requireAllowedHost(options.allowedHosts ?? []));
  // Then a state-changing request from another site's page (no-cors POSTs and beacons need no preflight).
  app.addHook('onRequest', refuseCrossSite());
  app.addHook('onSend', async (_request, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
  });
  const uiFallback = await registerWebUi(app, options.webRoot ?? DEFAULT_WEB_ROOT);
  app.setNotFoundHandler((request, reply) => {
    if (uiFallback(request, reply)) return reply;
    return reply.status(404).send(errorBody('not-found', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
  if (options.token !== undefined) {
    // Reads that reveal secrets (webhook URLs carry them) or reach the private network need the token too.
    const guardedReads = ['/api/webhooks', ...(options.privateAddressesAllowed ? ['/api/fetch'] : [])];
    app.addHook('onRequest', requireTokenForWrites(options.token, guardedReads, options.now ?? Date.now));
  }
}

/** Every route of the API. */
function registerApi(app: FastifyInstance, context: ApiContext, options: AppOptions): void {
  const api: Api = app.withTypeProvider<TypeBoxTypeProvider>();
  registerHealthRoute(api, context);
  registerPropertyRoutes(api, context);
  registerFileRoutes(api, context);
  registerVersionRoutes(api, context);
  registerAiUseRoutes(api, context);
  registerAlertRoutes(api, context);
  registerWebhookRoutes(api, context);
  registerTesterRoutes(api, context);
  registerImpactRoutes(api, context);
  registerActivityRoutes(api, context);
  registerAccessRoutes(api, context);
  registerDecideRoutes(app, context, {
    ...(options.robotsStore === undefined ? {} : { store: options.robotsStore }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const schema = {
    summary: 'This OpenAPI document',
    tags: ['service'],
    response: { 200: { type: 'object', additionalProperties: true } },
  };
  app.get('/api/openapi.json', { schema }, async () => app.swagger());
  if (options.mcp !== undefined) registerMcpRoute(app, context, options.mcp);
}

/** Builds the app (not listening yet). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // A request must be complete in time (Node checks open requests every `connectionsCheckingInterval`).
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: Math.ceil(requestTimeout / 3),
      connectionsCheckingInterval: Math.min(2000, Math.ceil(requestTimeout / 4)),
    },
    // Node's own refusals (headers too large, malformed requests, timeouts) in the API's error shape.
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
    schemaErrorFormatter: formatValidationErrors,
    // Errors the router meets before any route (bad percent-encoding, an overlong parameter) get the API's shape too.
    frameworkErrors: (error, request, reply) => {
      handleError(error, request, reply);
    },
  });
  const context = contextOf(options);
  if (!options.fetch) app.addHook('onClose', () => context.fetch.close());
  app.addHook('onClose', async () => context.eventLoop.close());
  if (!options.analysisThreads) app.addHook('onClose', () => context.analysisThreads.close());
  acceptJson(app);
  await documentApi(app);
  await guard(app, options);
  registerApi(app, context, options);
  await app.ready();
  return app;
}
