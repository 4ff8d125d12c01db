/**
 * robotskit: robots.txt parsing, matching and explanation, bit-for-bit like Google's reference parser (RFC 9309); the
 * 1994 convention as a second dialect; crawler profiles and the names people type for them; URLs as the matcher reads
 * them. The rest is in subpath entries: `robotskit/fetch` (retrieval, caching, the crawl client), `robotskit/lint`,
 * `robotskit/meta` (robots meta tags, X-Robots-Tag), `robotskit/semantics` (compare, format, generate) and
 * `robotskit/testing` (the store contract).
 *
 * @example
 * import { parseRobotsTxt } from 'robotskit';
 * const robots = parseRobotsTxt(body);
 * robots.isAllowed('https://example.com/shop?id=1', 'Googlebot');
 * robots.explain('https://example.com/shop?id=1', 'Googlebot').line;
 * @packageDocumentation
 */

export {
  type AiRobotsTxtChanges,
  AiRobotsTxtError,
  type AiRobotsTxtFieldChange,
  type AiRobotsTxtList,
  aiRobotsTxtChanges,
  readAiRobotsTxt,
  SHIPPED_AI_LIST,
} from './crawlers/ai-list.js';
export { CRAWLERS, catalogueWith, crawlerByName } from './crawlers/catalogue.js';
export { CONTROL_TOKENS, type ControlToken, type ControlUse, controlToken } from './crawlers/control-tokens.js';
export { type IdentifiedCrawler, identifyCrawler } from './crawlers/identify.js';
export {
  type AiRobotsTxtEntry,
  type CrawlerDefinition,
  type CrawlerKind,
  type CrawlerProfile,
  defineCrawler,
} from './crawlers/profile.js';
export {
  AI_PURPOSES,
  AI_ROBOTS_TXT_SNAPSHOT_DATE,
  CRAWLER_PURPOSES,
  type CrawlerPurpose,
  PURPOSE_WORDS,
} from './crawlers/purposes.js';
export {
  ANY_CRAWLER,
  CrawlerInputError,
  crawlerInputOf,
  type ResolvedCrawler,
  resolveCrawler,
  resolveCrawlers,
  splitCrawlerNames,
} from './crawlers/resolve.js';
export { type CrawlerUserAgent, crawlerUserAgent } from './crawlers/user-agents.js';
export {
  CRAWLER_VERIFICATION,
  type CrawlerVerification,
  crawlerVerification,
  isOperatorHostname,
} from './crawlers/verification.js';
export { compareDialects, type DialectComparison } from './dialects/compare.js';
export {
  DIALECT_DIFFERENCE_TITLES,
  type DialectDifference,
  type DialectDifferenceKind,
  dialectDifferences,
} from './dialects/differences.js';
export { crawlDelaySeconds } from './model/crawl-delay.js';
export type { DialectName } from './model/dialect.js';
export {
  EXTENSION_FIELDS,
  type ExtensionField,
  FIELD_SPELLING,
  type KeyReading,
  OTHER_FIELDS,
  readKey,
} from './model/key-reading.js';
export { type LineReading, readLine } from './model/line-reading.js';
export type {
  ContentSignalAnswer,
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
  UsageAnswer,
  UsagePreference,
  UsagePreferences,
  UsageRule,
} from './model/types.js';
export { isHtmlContentType, looksLikeHtml } from './parse/html.js';
export { DEFAULT_MAX_BYTES, type RobotsInput } from './parse/input.js';
export { type Position, TextLines } from './parse/line-counter.js';
export type { CrawlerInput, ParseOptions, UserAgentInput } from './robots-txt/robots-txt.js';
export { parseRobotsTxt, RobotsTxt } from './robots-txt/robots-txt.js';
export { originOf, RobotsUrlError, type RobotsUrlErrorCode, robotsTxtUrl } from './url/origin.js';
export { pathOfUrl } from './url/path.js';
export { isValidProductToken, productToken } from './url/user-agent.js';
export { type AttachedUsage, attachedUsage, type HeaderUsage, headerUsage } from './usage/attach.js';
export { combineUsagePreferences, parseUsagePreferences } from './usage/preferences.js';
export {
  CONTENT_SIGNAL_KEYS,
  type ContentSignalKey,
  type SignalRelation,
  USAGE_VOCABULARY,
  type VocabularyLabel,
} from './usage/vocabulary.js';
