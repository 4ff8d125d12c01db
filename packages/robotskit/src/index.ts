/**
 * robotskit: robots.txt parsing, matching and explanation, bit-for-bit like Google's reference parser (RFC 9309); the
 * 1994 convention as a second dialect; crawler profiles; robots meta tags and X-Robots-Tag; retrieval and caching
 * with Google's semantics.
 *
 * @example
 * import { createRobotsClient, parseRobotsTxt } from 'robotskit';
 * const robots = parseRobotsTxt(body);
 * robots.isAllowed('https://example.com/shop?id=1', 'Googlebot');
 * robots.explain('https://example.com/shop?id=1', 'Googlebot').line;
 * const client = createRobotsClient({ userAgent: 'MyBot' });
 * await client.isAllowed('https://example.com/shop?id=1');
 * @packageDocumentation
 */

export { CRAWLERS, crawlerByName } from './crawlers/catalogue.js';
export {
  type AiRobotsTxtEntry,
  type CrawlerDefinition,
  type CrawlerKind,
  type CrawlerProfile,
  defineCrawler,
} from './crawlers/profile.js';
export {
  ANY_CRAWLER,
  CrawlerInputError,
  crawlerInputOf,
  type ResolvedCrawler,
  resolveCrawler,
  resolveCrawlers,
} from './crawlers/resolve.js';
export { compareDialects, type DialectComparison } from './dialects/compare.js';
export { type DialectDifference, type DialectDifferenceKind, dialectDifferences } from './dialects/differences.js';
export {
  type AfterLastGoodPeriod,
  type AvailabilityOptions,
  AvailabilityTimeline,
  compactHistory,
  type EffectivePolicy,
  effectivePolicy,
  type FetchObservation,
  type PolicyReason,
  type RefreshSchedule,
  refreshSchedule,
} from './fetch/availability.js';
export {
  type CacheLifetime,
  type CacheLifetimeSource,
  type CacheOptions,
  cacheLifetime,
  type RetryDelay,
  type RetryOptions,
  retryDelay,
} from './fetch/cache-lifetime.js';
export {
  createRobotsClient,
  type FleetOptions,
  type OriginPolicy,
  type RobotsClient,
  type RobotsClientOptions,
  type RobotsClientStats,
  type UrlVerdict,
} from './fetch/client.js';
export { crawlDelayOf } from './fetch/crawl-delay.js';
export { classifyFetchError } from './fetch/errors.js';
export { type FetchStatus, fetchStatusOf } from './fetch/fetch-status.js';
export type { FtpAnswer, FtpGet, FtpRequest } from './fetch/ftp.js';
export { type CacheDirectives, parseCacheControl, parseHttpDate, parseRetryAfter } from './fetch/http-headers.js';
export {
  describeFetchOutcome,
  type OutcomeFacts,
  type OutcomeWords,
  type OutcomeWordsOptions,
} from './fetch/outcome-words.js';
export {
  DEFAULT_FETCH_USER_AGENT,
  DEFAULT_MAX_REDIRECTS,
  fetchRobotsTxt,
  type RetrievalOptions,
  type RetrievalTimeouts,
} from './fetch/retrieve.js';
export { type RetrievalJson, retrievalFromJson, retrievalToJson, robotsTxtOf } from './fetch/serialize.js';
export {
  createMemoryRobotsStore,
  type MemoryRobotsStoreOptions,
  type RobotsStore,
  type StoredOrigin,
} from './fetch/store.js';
export {
  type HttpGetOptions,
  type HttpGetResult,
  type HttpGetTimeouts,
  httpGet,
  resolveFetch,
} from './fetch/transport.js';
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
  systemClock,
} from './fetch/types.js';
export { applyFixes } from './lint/fixes.js';
export { atLeast, LINT_RULES, type LintOptions, lint } from './lint/lint.js';
export { LINT_DOCS_BASE, type LintContext, type LintRule, type Report, type SharedAnalysis } from './lint/rule.js';
export type { Diagnostic, Fix, LintCode, Severity, TextEdit } from './lint/types.js';
export { type CompiledPattern, compilePattern, matchPattern, normalizePattern } from './match/pattern.js';
export { parseUnavailableAfter } from './meta/date.js';
export { type ImagePreview, mergeDirectives, NO_DIRECTIVES, type PageDirectives } from './meta/directives.js';
export { type ExtractOptions, extractRobotsMeta, type RobotsMetaTag } from './meta/html.js';
export {
  type PageDiagnostic,
  type PageDiagnosticSource,
  type PageInput,
  type PageRobotsDirectives,
  pageDirectives,
} from './meta/page.js';
export {
  combineRobotsDirectives,
  directivesFor,
  type MetaDiagnostic,
  type MetaDiagnosticCode,
  parseRobotsMeta,
  parseXRobotsTag,
  type RobotsDirectives,
} from './meta/parse.js';
export { crawlDelaySeconds } from './model/crawl-delay.js';
export type { DialectName } from './model/dialect.js';
export type {
  CrawlDelay,
  CrawlerVerdict,
  DecidingRule,
  Explanation,
  GroupMatch,
  InvalidReason,
  Range,
  RecordField,
  RecordFlags,
  RobotsAgent,
  RobotsExtension,
  RobotsGroup,
  RobotsRecord,
  RobotsRule,
  RuleKind,
} from './model/types.js';
export { isHtmlContentType, looksLikeHtml } from './parse/html.js';
export { DEFAULT_MAX_BYTES, type RobotsInput } from './parse/input.js';
export { type Position, TextLines } from './parse/line-counter.js';
export { MAX_LINE_BYTES } from './parse/lines.js';
export type { CrawlerInput, ParseOptions, UserAgentInput } from './robots-txt/robots-txt.js';
export { parseRobotsTxt, RobotsTxt } from './robots-txt/robots-txt.js';
export {
  type ChangedRegion,
  type CompareOptions,
  type CrawlerComparison,
  compareRobots,
  type RegionRule,
  type RobotsComparison,
} from './semantics/compare.js';
export { type FormatResult, formatRobots } from './semantics/format.js';
export {
  crawlersInCategory,
  type GenerateResult,
  generateRobots,
  POLICY_CATEGORIES,
  PolicyError,
  type PolicyGroup,
  type RobotsPolicy,
} from './semantics/generate.js';
export { originOf, RobotsUrlError, type RobotsUrlErrorCode, robotsTxtUrl } from './url/origin.js';
export { pathOfUrl, pathToMatch } from './url/path.js';
export { isValidProductToken, productToken } from './url/user-agent.js';
