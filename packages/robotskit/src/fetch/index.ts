/**
 * `robotskit/fetch`: getting a robots.txt as Google does and keeping it: the transport (`httpGet`), one retrieval
 * (`fetchRobotsTxt`: redirects, size cap, status rules, FTP), the time policy over a fetch history (`effectivePolicy`,
 * `refreshSchedule`: the 12 hour cache, the 30 day rule for errors), the crawl client (`createRobotsClient`: one fetch
 * per origin, shared through a `RobotsStore`), and the words for outcomes.
 *
 * @example
 * import { createRobotsClient } from 'robotskit/fetch';
 * const client = createRobotsClient({ userAgent: 'MyBot' });
 * await client.isAllowed('https://example.com/shop?id=1');
 * @packageDocumentation
 */

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
} from './availability.js';
export {
  type CacheLifetime,
  type CacheLifetimeSource,
  type CacheOptions,
  cacheLifetime,
  type RetryDelay,
  type RetryOptions,
  retryDelay,
} from './cache-lifetime.js';
export {
  createRobotsClient,
  type FleetOptions,
  type OriginPolicy,
  type RobotsClient,
  type RobotsClientOptions,
  type RobotsClientStats,
  type UrlVerdict,
} from './client.js';
export { crawlDelayOf } from './crawl-delay.js';
export { classifyFetchError } from './errors.js';
export { type FetchStatus, fetchStatusOf } from './fetch-status.js';
export type { FtpAnswer, FtpGet, FtpRequest } from './ftp.js';
export { type CacheDirectives, parseCacheControl, parseHttpDate, parseRetryAfter } from './http-headers.js';
export {
  describeFetchOutcome,
  type OutcomeFacts,
  type OutcomeWords,
  type OutcomeWordsOptions,
} from './outcome-words.js';
export {
  DEFAULT_FETCH_USER_AGENT,
  DEFAULT_MAX_REDIRECTS,
  fetchRobotsTxt,
  type RetrievalOptions,
  type RetrievalTimeouts,
} from './retrieve.js';
export { type RetrievalJson, retrievalFromJson, retrievalToJson, robotsTxtOf } from './serialize.js';
export {
  createMemoryRobotsStore,
  type MemoryRobotsStoreOptions,
  type RobotsStore,
  type StoredOrigin,
} from './store.js';
export {
  type HttpGetOptions,
  type HttpGetResult,
  type HttpGetTimeouts,
  httpGet,
  resolveFetch,
} from './transport.js';
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
} from './types.js';
