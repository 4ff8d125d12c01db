/**
 * `robotskit/fetch`: getting a robots.txt as Google does and keeping it: the transport (`httpGet`), one retrieval
 * (`fetchRobotsTxt`: redirects, size cap, status rules, FTP), the time policy over a fetch history (`effectivePolicy`,
 * `refreshSchedule`: the 12 hour cache, the 30 day rule for errors), the crawl client (`createRobotsClient`: one fetch
 * per origin, shared through a `RobotsStore`), the words for outcomes, and the access check (`checkAccess`: what the
 * edge serves each crawler against what its robots.txt says).
 *
 * @example
 * import { createRobotsClient } from 'robotskit/fetch';
 * const client = createRobotsClient({ userAgent: 'MyBot' });
 * await client.isAllowed('https://example.com/shop?id=1');
 * @packageDocumentation
 */

export {
  type AccessOptions,
  type AccessReport,
  type CrawlerAccessReport,
  checkAccess,
  type FreshnessReport,
  MAX_ACCESS_CRAWLERS,
  type ServedRobots,
} from './access/access.js';
export {
  type CacheEvidence,
  cacheEvidence,
  compareCopies,
  type Freshness,
  type FreshnessState,
  type HeaderSource,
  type RobotsCopy,
} from './access/cache-copies.js';
export {
  type AccessCrawler,
  type AccessFinding,
  type AccessFindingKind,
  accessCrawlerOf,
  type ServedPage,
} from './access/edge.js';
export { type PageAnswer, type PageFailure, type PageGet, type PageGetOptions, pageGetOver } from './access/page.js';
export type { OriginPolicy, RobotsClient, RobotsClientStats, UrlVerdict } from './client/api.js';
export { createRobotsClient } from './client/client.js';
export type { FleetOptions } from './client/fleet.js';
export type { RobotsClientOptions } from './client/options.js';
export type { StoreErrorHandler } from './client/store-access.js';
export {
  type AfterLastGoodPeriod,
  type AvailabilityOptions,
  type AvailabilityRules,
  AvailabilityTimeline,
  availabilityRules,
  type EffectivePolicy,
  effectivePolicy,
  type FetchObservation,
  type PolicyReason,
  type RefreshOptions,
  type RefreshSchedule,
  refreshSchedule,
} from './policy/availability.js';
export {
  type CacheLifetime,
  type CacheLifetimeSource,
  type CacheOptions,
  cacheLifetime,
  type RetryDelay,
  type RetryOptions,
  retryDelay,
} from './policy/cache-lifetime.js';
export { crawlDelayOf } from './policy/crawl-delay.js';
export { type FetchStatus, fetchStatusOf } from './retrieval/fetch-status.js';
export {
  describeFetchOutcome,
  type OutcomeFacts,
  type OutcomeWords,
  type OutcomeWordsOptions,
  statusLabel,
} from './retrieval/outcome-words.js';
export {
  DEFAULT_FETCH_USER_AGENT,
  fetchRobotsTxt,
  type RetrievalOptions,
  type RetrievalTimeouts,
} from './retrieval/retrieve.js';
export { type RetrievalJson, retrievalFromJson, retrievalToJson, robotsTxtOf } from './retrieval/serialize.js';
export {
  type AnyFetchLike,
  type AnyFetchResponseLike,
  BlockedFetchError,
  type Clock,
  type FetchLike,
  type FetchRequestInit,
  type FetchResponseLike,
  RETRIEVAL_ERROR_KINDS,
  type RedirectHop,
  type RetrievalError,
  type RetrievalErrorKind,
  type RetrievalHeaders,
  type RetrievalOutcome,
  type RetrievalResult,
  type RetrievalTimings,
} from './shared/types.js';
export { createMemoryRobotsStore, type MemoryRobotsStoreOptions } from './store/memory.js';
export type {
  LeaseClaim,
  OriginWrittenListener,
  RobotsStore,
  RobotsStoreHealth,
  StoredOrigin,
} from './store/store.js';
export { classifyFetchError } from './transport/errors.js';
export type { FtpAnswer, FtpGet, FtpRequest } from './transport/ftp.js';
export {
  type HttpGetOptions,
  type HttpGetResult,
  type HttpGetTimeouts,
  httpGet,
} from './transport/http-get.js';
export { type CacheDirectives, parseCacheControl, parseHttpDate, parseRetryAfter } from './transport/http-headers.js';
export { DEFAULT_MAX_REDIRECTS, resolveFetch } from './transport/redirects.js';
